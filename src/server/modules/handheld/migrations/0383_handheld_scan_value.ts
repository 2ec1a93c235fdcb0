import { sql, type Kysely } from 'kysely';
import { createScopedTable } from '../../../db/migrations/helpers.js';

/**
 * The dialog values of a handheld flow (dimension, volume, gross and net weight), stored with the
 * confirmation they were entered for: one row per confirmation, keyed by the user and the
 * confirmation's idempotency key, with what was confirmed (the request) and the server's answer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'handheld_scan_value', 'project_id', 'warehouse_id')
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('scan_key', 'text', (col) => col.notNull())
    .addColumn('fn', 'text', (col) => col.notNull())
    .addColumn('subject', 'jsonb', (col) => col.notNull())
    .addColumn('answer', 'jsonb')
    .addColumn('dimension', 'numeric(18, 4)')
    .addColumn('volume', 'numeric(18, 4)')
    .addColumn('gross_weight', 'numeric(18, 4)')
    .addColumn('net_weight', 'numeric(18, 4)')
    .addUniqueConstraint('handheld_scan_value_key', ['user_id', 'scan_key'])
    .execute();
  await sql`create index handheld_scan_value_place on handheld_scan_value (project_id, warehouse_id, fn, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('handheld_scan_value').execute();
}

import { sql, type Kysely } from 'kysely';
import { createScopedTable, createVersionTable } from '../../../db/migrations/helpers.js';

/**
 * Handheld configurations (one per code, project and warehouse) with their draft, their published
 * versions, and the device sessions of the handhelds signed in for a shift. Only the handheld
 * area's routes read them: configurator SQL has no grant on them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'handheld_config', 'project_id', 'warehouse_id')
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('fn', 'text', (col) => col.notNull().check(sql`fn in ('receive', 'putaway', 'move', 'count', 'pick', 'pack', 'load')`))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('active').check(sql`status in ('active', 'inactive')`))
    .addColumn('draft', 'jsonb', (col) => col.notNull())
    .addColumn('published_version', 'integer')
    .addUniqueConstraint('handheld_config_code_key', ['project_id', 'warehouse_id', 'code'])
    .execute();
  await createVersionTable(db, 'handheld_config_version', {
    parent: { column: 'config_id', parent: 'handheld_config' },
    body: 'definition',
    uniqueKey: 'handheld_config_version_key',
  });
  await createScopedTable(db, 'handheld_device_session', 'project_id', 'warehouse_id')
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('device_id', 'text', (col) => col.notNull())
    .addColumn('flow', 'text')
    .addColumn('signed_in_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_scan_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .execute();
  // A device is signed in by one user at a time.
  await sql`create unique index handheld_device_session_open on handheld_device_session (device_id) where ended_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('handheld_device_session').execute();
  await db.schema.dropTable('handheld_config_version').execute();
  await db.schema.dropTable('handheld_config').execute();
}

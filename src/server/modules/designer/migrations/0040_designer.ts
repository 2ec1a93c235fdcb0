import { sql, type Kysely } from 'kysely';
import { withIdAndTime } from '../../../db/migrations/helpers.js';

/**
 * The designer's audit trail: every change of a page definition or its SQL by a
 * configurator — who, when, in which project, what. Append-only; written in the same transaction
 * as the change it describes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdAndTime(db.schema.createTable('designer_audit'))
    .addColumn('user_id', 'bigint', (col) => col.references('app_user.id').onDelete('set null'))
    .addColumn('login_account', 'text', (col) => col.notNull())
    .addColumn('project_id', 'bigint', (col) => col.references('project.id').onDelete('cascade'))
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('module_code', 'text')
    .addColumn('function_code', 'text')
    .addColumn('version', 'integer')
    .addColumn('details', 'jsonb')
    .execute();
  await sql`create index designer_audit_page_idx on designer_audit (project_id, module_code, function_code, at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('designer_audit').execute();
}

import { sql, type Kysely } from 'kysely';

/**
 * The /blankHome, /userReport and /userGeneric menu entries (made by migration 0003 without a right)
 * are seen with the report area's rights: the dashboard's, the report configuration's and the
 * report runner's. The start-up menu sync keeps them so afterwards; this is the row as a migrated
 * database first has it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_module set right_name = 'report.dashboard' where code = 'blankHome' and created_by = 'system'`.execute(db);
  await sql`update sys_module set right_name = 'report.config' where code = 'userReport' and created_by = 'system'`.execute(db);
  await sql`update sys_module set right_name = 'report.generic' where code = 'userGeneric' and created_by = 'system'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_module set right_name = null where code in ('blankHome', 'userReport', 'userGeneric') and created_by = 'system'`.execute(db);
}

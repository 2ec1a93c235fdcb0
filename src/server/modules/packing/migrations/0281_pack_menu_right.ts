import { sql, type Kysely } from 'kysely';

/**
 * The /pack menu entry opens the scan-pack screen and is seen with the pack right
 * (`packing.pack:view`), so the role screen offers the packing module. The start-up menu sync keeps
 * it so afterwards; this is the row as a migrated database first has it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_module set right_name = 'packing.pack', updated_at = now(), updated_by = 'system' where code = 'pack' and created_by = 'system'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_module set right_name = null, updated_at = now(), updated_by = 'system' where code = 'pack' and created_by = 'system'`.execute(db);
}

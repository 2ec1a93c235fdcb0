import { sql, type Kysely } from 'kysely';

/**
 * The /scanToPrintWindow menu entry opens the packing area's scan-to-print screen and is seen with
 * the pack right (`packing.pack:view`). The start-up menu sync keeps it so afterwards; this is the
 * row as a migrated database first has it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_module set right_name = 'packing.pack', updated_at = now(), updated_by = 'system' where code = 'scanToPrintWindow' and created_by = 'system'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_module set right_name = null, updated_at = now(), updated_by = 'system' where code = 'scanToPrintWindow' and created_by = 'system'`.execute(db);
}

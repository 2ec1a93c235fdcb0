import { sql, type Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The /cfs menu entry (outbound group) opens the CFS screen (scan-in, scan-pack, scan-load and the
 * order tools) and is seen with the CFS right (`cfs.cfs:view`). The start-up menu sync keeps it so
 * afterwards; this is the row as a migrated database first has it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'cfs', group: 'outbound', titleKey: 'menu.cfs', right: 'cfs.cfs' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_module where code = 'cfs' and created_by = 'system'`.execute(db);
}

import { sql, type Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The /loading menu entry (outbound group, at its end) opens the loading area's screen and is seen
 * with the loading right (`loading.load:view`). The start-up menu sync keeps it so afterwards; this
 * is the row as a migrated database first has it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'loading', group: 'outbound', titleKey: 'menu.loading', right: 'loading.load' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_module where code = 'loading' and created_by = 'system'`.execute(db);
}

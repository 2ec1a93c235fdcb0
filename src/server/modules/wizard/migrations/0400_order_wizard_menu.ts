import { sql, type Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The /wineOrder and /nonMerOrder menu entries (outbound group, at its end) open the order wizards
 * and are seen with their rights. The start-up menu sync keeps them so afterwards; these are the
 * rows as a migrated database first has them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'wineOrder', group: 'outbound', titleKey: 'menu.wineOrder', right: 'wizard.wineOrder' });
  await addMenuEntry(db, { code: 'nonMerOrder', group: 'outbound', titleKey: 'menu.nonMerOrder', right: 'wizard.nonMerOrder' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_module where code in ('wineOrder', 'nonMerOrder') and created_by = 'system'`.execute(db);
}

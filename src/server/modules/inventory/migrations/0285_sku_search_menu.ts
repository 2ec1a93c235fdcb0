import type { Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The SKU and UPC search gets its menu entry at the end of the inventory group: a hand-written
 * screen, shown to a role holding `skuSearch:view`. A database that already has the entry keeps it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'skuSearch', group: 'inventory', titleKey: 'menu.skuSearch', right: null });
}

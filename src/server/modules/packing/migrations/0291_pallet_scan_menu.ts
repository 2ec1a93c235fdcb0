import type { Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The handheld pallet screen gets its menu entry at the end of the outbound group: a hand-written
 * screen, shown to a role holding `packing.pallet:view`. A database that already has the entry keeps it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'palletScan', group: 'outbound', titleKey: 'menu.palletScan', right: 'packing.pallet' });
}

import type { Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The split scan gets its menu entry at the end of the outbound group: a hand-written screen,
 * shown to a role holding `packing.pack:view`. A database that already has the entry keeps it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'packSplit', group: 'outbound', titleKey: 'menu.packSplit', right: 'packing.pack' });
}

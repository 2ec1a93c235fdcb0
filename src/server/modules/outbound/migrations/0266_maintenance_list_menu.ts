import type { Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The order maintenance list gets its menu entry, after the allocation rules at the end of the
 * outbound group: the row the route table declares for the `soMaintenance` route, with the engine's
 * right of its page. A database that already has an entry of that code keeps it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'soMaintenance', group: 'outbound', titleKey: 'menu.soMaintenance', right: 'outbound.soMaintenance' });
}

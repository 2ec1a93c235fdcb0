import type { Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The allocation rules get a menu entry of their own, the last of the outbound group (the order
 * list opens the same page): the row the route table declares for the `soRule` route, with the
 * engine's right of its page. A database that already has an entry of that code keeps it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'soRule', group: 'outbound', titleKey: 'outbound.page.soRule', right: 'outbound.soRule' });
}

import type { Kysely } from 'kysely';
import { grantRuntimeToMenuHolders } from './runtime-right.js';

/** The handheld tab of /receive is the handheld runtime's receive function: the roles that see /receive get the runtime's right. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await grantRuntimeToMenuHolders(db, 'receive');
}

export async function down(): Promise<void> {
  // Roles may have been changed since: their rights stay.
}

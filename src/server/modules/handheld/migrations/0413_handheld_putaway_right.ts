import type { Kysely } from 'kysely';
import { grantRuntimeToMenuHolders } from './runtime-right.js';

/** Putaway, move and count on /putaway are the handheld runtime's functions: the roles that see /putaway get the runtime's right. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await grantRuntimeToMenuHolders(db, 'putaway');
}

/** The rows given stay: a role may have been given the runtime on purpose since. */
export async function down(): Promise<void> {}

import type { Kysely } from 'kysely';
import { grantConfiguratorAccess } from '../../../db/migrations/helpers.js';

/**
 * Configurator SQL of a project reads every warehouse the project is served by, and their
 * locations, instead of the session's warehouse only, so that a dropdown may offer another
 * warehouse of the project (a transfer's destination). Writes keep their policies: locations are
 * written only in the session's warehouse, and only when no other project uses it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await grantConfiguratorAccess(db, ['project_warehouse'], 'read');
  await grantConfiguratorAccess(db, ['location'], 'write');
}

export async function down(): Promise<void> {
  // Narrowing the read policies again is not offered.
}

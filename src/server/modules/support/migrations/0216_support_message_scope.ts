import type { Kysely } from 'kysely';
import { grantConfiguratorAccess } from '../../../db/migrations/helpers.js';

/**
 * Messages and the change log of a ticket carry no project of their own: configurator SQL sees
 * them only with a ticket of the transaction's organization and project.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await grantConfiguratorAccess(db, ['support_message', 'support_log'], 'read', { through: { column: 'ticket_id', table: 'support_ticket' } });
}

export async function down(): Promise<void> {
  // Showing every project's messages again is not offered.
}

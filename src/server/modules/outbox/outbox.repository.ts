import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

export async function insertOutboxMessage(
  trx: Transaction<DB>,
  row: { channel: 'email' | 'sms'; recipient: string; subject: string | null; body: string; status: 'stored' | 'sent' | 'failed'; error: string | null },
): Promise<void> {
  await trx
    .insertInto('outbox_message')
    .values({ ...row, created_by: 'system', updated_by: 'system' })
    .execute();
}

/** The mask `maskedText` puts in place of a code: such a message cannot be sent again. */
export const MASKED_SECRET = '******';

/** E-mails not delivered (no SMTP then, or the server refused) in the last `maxAgeHours`, oldest first, without a masked code. */
export async function findUndeliveredEmails(db: Kysely<DB>, maxAgeHours: number, limit: number) {
  return db
    .selectFrom('outbox_message')
    .select(['id', 'recipient', 'subject', 'body'])
    .where('channel', '=', 'email')
    .where('status', 'in', ['stored', 'failed'])
    .where('created_at', '>', sql<Date>`now() - make_interval(hours => ${maxAgeHours})`)
    .where('body', 'not like', `%${MASKED_SECRET}%`)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Records the outcome of sending an outbox message again; a delivered one keeps no text. */
export async function markOutboxMessage(trx: Transaction<DB>, id: number, outcome: { status: 'sent' | 'failed'; error: string | null }): Promise<void> {
  await trx
    .updateTable('outbox_message')
    .set({ status: outcome.status, error: outcome.error, ...(outcome.status === 'sent' ? { body: '(delivered)' } : {}), updated_at: sql`now()`, updated_by: 'system' })
    .where('id', '=', id)
    .execute();
}

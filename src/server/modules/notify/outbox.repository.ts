import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export async function insertOutboxMessage(
  db: Kysely<DB>,
  row: { channel: 'email' | 'sms'; recipient: string; subject: string | null; body: string; status: 'stored' | 'sent' | 'failed'; error: string | null },
): Promise<void> {
  await db
    .insertInto('outbox_message')
    .values({ ...row, created_by: 'system', updated_by: 'system' })
    .execute();
}

export async function findOutboxMessages(db: Kysely<DB>, recipient: string) {
  return db.selectFrom('outbox_message').selectAll().where('recipient', '=', recipient).orderBy('id', 'desc').execute();
}

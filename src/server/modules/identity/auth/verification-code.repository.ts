import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';

/** The SQL of e-mail codes (registration, password reset); hashing and expiry rules stay in the service. */
export type CodePurpose = 'register' | 'reset';

export async function retireCodes(trx: Transaction<DB>, purpose: CodePurpose, email: string): Promise<void> {
  await trx
    .updateTable('verification_code')
    .set({ used_at: sql`now()` })
    .where('purpose', '=', purpose)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('used_at', 'is', null)
    .execute();
}

export async function insertCode(
  trx: Transaction<DB>,
  code: { purpose: CodePurpose; email: string; userId: number | null; codeHash: string; expiresAt: Date },
): Promise<void> {
  await trx
    .insertInto('verification_code')
    .values({ purpose: code.purpose, email: code.email, user_id: code.userId, code_hash: code.codeHash, expires_at: code.expiresAt })
    .execute();
}

/** The newest unused, unexpired code of an address with attempts left. */
export async function findLiveCode(db: Kysely<DB>, purpose: CodePurpose, email: string, maxAttempts: number) {
  return db
    .selectFrom('verification_code')
    .select(['id', 'code_hash', 'user_id'])
    .where('purpose', '=', purpose)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .where('attempts', '<', maxAttempts)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Spends a code once: false when another call spent it first. */
export async function markCodeUsed(trx: Transaction<DB>, id: number): Promise<boolean> {
  const spent = await trx.updateTable('verification_code').set({ used_at: sql`now()` }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1;
}

export async function countCodeAttempt(trx: Transaction<DB>, purpose: CodePurpose, email: string): Promise<void> {
  await trx
    .updateTable('verification_code')
    .set({ attempts: sql`attempts + 1` })
    .where('purpose', '=', purpose)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('used_at', 'is', null)
    .execute();
}

import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';

/** The SQL of two-step sign-in challenges; the code rules stay in auth.service.ts. */

export async function insertChallenge(trx: Transaction<DB>, challengeHash: string, userId: number, expiresAt: Date): Promise<void> {
  await trx.insertInto('two_step_challenge').values({ challenge_hash: challengeHash, user_id: userId, expires_at: expiresAt }).execute();
}

export async function findLiveChallengeByHash(db: Kysely<DB>, challengeHash: string, maxAttempts: number) {
  return db
    .selectFrom('two_step_challenge')
    .selectAll()
    .where('challenge_hash', '=', challengeHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
}

export async function setChallengeCode(
  trx: Transaction<DB>,
  id: number,
  code: { method: 'email' | 'sms' | 'totp'; code_hash: string | null; code_expires_at: Date | null },
): Promise<void> {
  await trx.updateTable('two_step_challenge').set(code).where('id', '=', id).execute();
}

export async function countChallengeAttempt(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.updateTable('two_step_challenge').set({ attempts: sql`attempts + 1` }).where('id', '=', id).execute();
}

/** Spends a challenge once: false when another call spent it first. */
export async function spendChallenge(trx: Transaction<DB>, id: number): Promise<boolean> {
  const spent = await trx.updateTable('two_step_challenge').set({ used_at: sql`now()` }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1;
}

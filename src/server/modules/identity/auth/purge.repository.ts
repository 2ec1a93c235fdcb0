import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';

/**
 * Deletes sign-in records nobody can use any more: sessions and trusted browsers that expired or
 * were revoked more than `keepDays` ago (recent ones still tell a known address), two-step
 * challenges and e-mail codes past their expiry, and addresses not signed in from for
 * `knownAddressDays`. Answers the counts.
 */
export async function purgeExpiredSignInRecords(trx: Transaction<DB>, keepDays: number, knownAddressDays: number) {
  const cutoff = sql<Date>`now() - make_interval(days => ${keepDays})`;
  const sessions = await trx
    .deleteFrom('user_session')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
    .executeTakeFirst();
  const browsers = await trx
    .deleteFrom('trusted_browser')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
    .executeTakeFirst();
  const challenges = await trx.deleteFrom('two_step_challenge').where('expires_at', '<', sql<Date>`now()`).executeTakeFirst();
  const codes = await trx.deleteFrom('verification_code').where('expires_at', '<', sql<Date>`now()`).executeTakeFirst();
  const addresses = await trx
    .deleteFrom('user_known_address')
    .where('last_seen_at', '<', sql<Date>`now() - make_interval(days => ${knownAddressDays})`)
    .executeTakeFirst();
  return {
    sessions: Number(sessions.numDeletedRows),
    trustedBrowsers: Number(browsers.numDeletedRows),
    challenges: Number(challenges.numDeletedRows),
    codes: Number(codes.numDeletedRows),
    knownAddresses: Number(addresses.numDeletedRows),
  };
}

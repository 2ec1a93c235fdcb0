import { sql, type Kysely, type Transaction } from 'kysely';
import { AppError } from '../../../../common/errors.js';
import type { DB } from '../../../db/schema.js';

/**
 * Sign-in abuse (OWASP authentication cheat sheet), counted in the database so it holds across app
 * nodes. Only wrong passwords count: an attempt refused before its password was looked at leaves
 * no trace, so waiting out a refusal never turns into a lock.
 * - per address, across account names: more than ADDRESS_FAILURES wrong sign-ins within
 *   ADDRESS_WINDOW_MINUTES answer 429 until they age out (password spraying from one address);
 * - per account and address pair: PAIR_FAILURES wrong passwords in a row lock that account for that
 *   address for LOGIN_LOCK_MINUTES, so a stranger elsewhere cannot lock the owner out;
 * - per account, across addresses: past ACCOUNT_FAILURES within LOGIN_LOCK_MINUTES the account is
 *   closed to addresses it was never signed in from.
 * None of the three stops the right password from an address the account has signed in from
 * before (`user_known_address`): there a refusal is answered only when the password is wrong.
 */
export const ADDRESS_FAILURES = 20;
export const ADDRESS_WINDOW_MINUTES = 5;
export const PAIR_FAILURES = 10;
export const ACCOUNT_FAILURES = 50;

/** How long an address an account signed in from stays known after its last sign-in there. */
export const KNOWN_ADDRESS_DAYS = 365;

function accountKey(loginAccount: string): string {
  return loginAccount.trim().toLowerCase().slice(0, 200);
}

export interface SignInAttempt {
  /** This attempt's row in `login_failure`. */
  failureId: number;
  /** Wrong passwords of this account from this address within the lock time, this attempt included. */
  wrongInARow: number;
  /**
   * From an address the account knows, the refusal the limits would give: it is answered only if
   * the password turns out wrong. (From any other address a refusal is thrown at once.)
   */
  refusal: AppError | undefined;
}

/**
 * Counts this sign-in attempt as a failure before the password is even checked (a right password
 * takes it back with `clearSignInFailures`), then refuses when this address, or this account from
 * this address, may not try now. Counting first keeps parallel attempts from all passing one check;
 * an attempt refused here is taken back out of the count at once. It takes the database, not a
 * transaction, on purpose: each of its statements commits on its own, so the attempt's row is seen by
 * every parallel attempt's count at once (inside a transaction it would stay hidden until the commit,
 * and 40 parallel attempts could all pass the limit).
 */
export async function beginSignIn(db: Kysely<DB>, ip: string, loginAccount: string, userId: number | undefined, lockMinutes: number): Promise<SignInAttempt> {
  const account = accountKey(loginAccount);
  const inserted = await db.insertInto('login_failure').values({ ip, login_account: account }).returning('id').executeTakeFirstOrThrow();
  const { rows } = await sql<{ address: number; pair: number; account: number }>`
    select
      count(*) filter (where ip = ${ip} and at > now() - make_interval(mins => ${ADDRESS_WINDOW_MINUTES}))::int as address,
      count(*) filter (where ip = ${ip} and login_account = ${account} and at > now() - make_interval(mins => ${lockMinutes}))::int as pair,
      count(*) filter (where login_account = ${account} and at > now() - make_interval(mins => ${lockMinutes}))::int as account
    from login_failure
    where (ip = ${ip} or login_account = ${account}) and at > now() - make_interval(mins => ${Math.max(lockMinutes, ADDRESS_WINDOW_MINUTES)})
  `.execute(db);
  const counts = rows[0];
  let refusal: AppError | undefined;
  // This attempt is in the counts: the pair was locked when the earlier ones already reached the limit.
  if (counts.pair - 1 >= PAIR_FAILURES) {
    // The lock lasts until the oldest of the last PAIR_FAILURES wrong passwords leaves the window.
    const { rows: oldest } = await sql<{ at: Date }>`
      select at from login_failure where ip = ${ip} and login_account = ${account} and id <> ${inserted.id}
      order by at desc offset ${PAIR_FAILURES - 1} limit 1
    `.execute(db);
    refusal = new AppError('ACCOUNT_LOCKED', { until: new Date(new Date(oldest[0]?.at ?? Date.now()).getTime() + lockMinutes * 60_000).toISOString() });
  } else if (counts.address > ADDRESS_FAILURES) {
    refusal = new AppError('TOO_MANY_REQUESTS');
  } else if (counts.account > ACCOUNT_FAILURES && userId !== undefined) {
    refusal = new AppError('ACCOUNT_LOCKED', { until: new Date(Date.now() + lockMinutes * 60_000).toISOString() });
  }
  if (refusal && !(userId !== undefined && (await isKnownAddress(db, userId, ip)))) {
    // Refused without looking at the password: the attempt counts for nothing.
    await db.deleteFrom('login_failure').where('id', '=', inserted.id).execute();
    throw refusal;
  }
  // Old rows are of no use to any limit; trimming them here keeps the table small without a job.
  await db.deleteFrom('login_failure').where('at', '<', sql<Date>`now() - interval '1 day'`).execute();
  return { failureId: Number(inserted.id), wrongInARow: counts.pair, refusal };
}

/** An address the user has signed in from before, within KNOWN_ADDRESS_DAYS of the last time. */
async function isKnownAddress(db: Kysely<DB>, userId: number, ip: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_known_address')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('ip', '=', ip)
    .where('last_seen_at', '>', sql<Date>`now() - make_interval(days => ${KNOWN_ADDRESS_DAYS})`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records that the user signed in from this address (a session was opened for it). */
export async function rememberAddress(trx: Transaction<DB>, userId: number, ip: string | null): Promise<void> {
  if (ip === null || ip === '') return;
  await trx
    .insertInto('user_known_address')
    .values({ user_id: userId, ip })
    .onConflict((oc) => oc.columns(['user_id', 'ip']).doUpdateSet({ last_seen_at: sql`now()` }))
    .execute();
}

/** Takes an attempt back out of the count: it was refused for another reason than its password. */
export async function forgetSignInAttempt(trx: Transaction<DB>, failureId: number): Promise<void> {
  await trx.deleteFrom('login_failure').where('id', '=', failureId).execute();
}

/** A right password from this address starts the pair's count again (this attempt's row included). */
export async function clearSignInFailures(trx: Transaction<DB>, ip: string, loginAccount: string): Promise<void> {
  await trx.deleteFrom('login_failure').where('ip', '=', ip).where('login_account', '=', accountKey(loginAccount)).execute();
}

import { sql, type Kysely } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';

/**
 * Sign-in abuse (issue 9, item 7; OWASP authentication cheat sheet), counted in the database so it
 * holds across app nodes:
 * - per address, across account names: more than ADDRESS_FAILURES wrong sign-ins within
 *   ADDRESS_WINDOW_MINUTES answer 429 until they age out (password spraying from one address);
 * - per account and address pair: PAIR_FAILURES wrong passwords in a row lock that account for that
 *   address for LOGIN_LOCK_MINUTES, so a stranger elsewhere cannot lock the owner out;
 * - per account, across addresses: past ACCOUNT_FAILURES within LOGIN_LOCK_MINUTES the account is
 *   closed to addresses it was never signed in from, while the owner's known addresses still work.
 */
export const ADDRESS_FAILURES = 20;
export const ADDRESS_WINDOW_MINUTES = 5;
export const PAIR_FAILURES = 10;
export const ACCOUNT_FAILURES = 50;

function accountKey(loginAccount: string): string {
  return loginAccount.trim().toLowerCase().slice(0, 200);
}

/**
 * Counts this sign-in attempt as a failure before the password is even checked (a right password
 * takes it back with `clearSignInFailures`), then throws when this address, or this account from
 * this address, may not try now. Counting first keeps parallel attempts from all passing one check.
 * Answers how many wrong passwords this pair has in a row, this attempt included.
 */
export async function beginSignIn(db: Kysely<DB>, ip: string, loginAccount: string, userId: number | undefined, lockMinutes: number): Promise<number> {
  const account = accountKey(loginAccount);
  await db.insertInto('login_failure').values({ ip, login_account: account }).execute();
  const { rows } = await sql<{ address: number; pair: number; pair_last: Date | null; account: number }>`
    select
      count(*) filter (where ip = ${ip} and at > now() - make_interval(mins => ${ADDRESS_WINDOW_MINUTES}))::int as address,
      count(*) filter (where ip = ${ip} and login_account = ${account} and at > now() - make_interval(mins => ${lockMinutes}))::int as pair,
      count(*) filter (where login_account = ${account} and at > now() - make_interval(mins => ${lockMinutes}))::int as account
    from login_failure
    where (ip = ${ip} or login_account = ${account}) and at > now() - make_interval(mins => ${Math.max(lockMinutes, ADDRESS_WINDOW_MINUTES)})
  `.execute(db);
  const counts = rows[0];
  // This attempt is in the counts: the pair was locked when the earlier ones already reached the limit.
  if (counts.pair - 1 >= PAIR_FAILURES) {
    const { rows: last } = await sql<{ at: Date }>`
      select at from login_failure where ip = ${ip} and login_account = ${account}
      order by at desc offset ${counts.pair - PAIR_FAILURES} limit 1
    `.execute(db);
    throw new AppError('ACCOUNT_LOCKED', { until: new Date(new Date(last[0]?.at ?? Date.now()).getTime() + lockMinutes * 60_000).toISOString() });
  }
  if (counts.address > ADDRESS_FAILURES) throw new AppError('TOO_MANY_REQUESTS');
  if (counts.account > ACCOUNT_FAILURES && userId !== undefined && !(await isKnownAddress(db, userId, ip))) {
    throw new AppError('ACCOUNT_LOCKED', { until: new Date(Date.now() + lockMinutes * 60_000).toISOString() });
  }
  // Old rows are of no use to any limit; trimming them here keeps the table small without a job.
  await db.deleteFrom('login_failure').where('at', '<', sql<Date>`now() - interval '1 day'`).execute();
  return counts.pair;
}

/** An address the user has signed in from before (a session of theirs came from it). */
async function isKnownAddress(db: Kysely<DB>, userId: number, ip: string): Promise<boolean> {
  const row = await db.selectFrom('user_session').select('id').where('user_id', '=', userId).where('ip', '=', ip).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** A right password from this address starts the pair's count again (this attempt's row included). */
export async function clearSignInFailures(db: Kysely<DB>, ip: string, loginAccount: string): Promise<void> {
  await db.deleteFrom('login_failure').where('ip', '=', ip).where('login_account', '=', accountKey(loginAccount)).execute();
}

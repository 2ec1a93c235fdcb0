import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import { AppError } from '../../common/errors.js';
import type { DB } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import type { SessionUser } from '../http/access.js';
import type { JobDefinition } from './area.js';
import './area.tables.js';

/**
 * Idempotent scan calls (docs/handheld.md, "Idempotent scans"). A handheld makes a key for every
 * scan when it is taken and sends it as the `Idempotency-Key` header, on the first try and on every
 * replay from its offline queue. The key is claimed in the transaction of the scan's write:
 *
 * - the first call with a key inserts the row (user, key, hash of method + path + body), runs the
 *   write and stores its answer in that row, all in one transaction;
 * - a later call with the same key and the same request gets the stored answer and applies
 *   nothing; one arriving while the first is still running waits on the key's unique index until
 *   the first commits (then reads its answer) or rolls back (then runs itself);
 * - the same key with another request is refused (`IDEMPOTENCY_KEY_REUSED`, 409);
 * - a refused write rolls back with its claim, so the key stays free: a retry runs again.
 *
 * Without the header a call works exactly as before. Keys are kept at least `KEEP_HOURS`; the
 * job `job.purgeIdempotencyKeys` removes older ones.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** A key: what a UUID, a ULID or `<device>:<counter>` is made of, at most 100 characters. */
const KEY = /^[A-Za-z0-9._:-]{1,100}$/;

/** Keys are kept at least this long: a handheld's queue is replayed within its shift. */
export const KEEP_HOURS = 24;

/** The request's idempotency key, undefined without one; a malformed key is refused. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY.test(header)) throw new AppError('IDEMPOTENCY_KEY_INVALID');
  return header;
}

/** JSON with the keys of every object sorted, so that the same body always hashes alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The hash a key is claimed with: method, path (with its query) and body. */
export function requestHash(request: Pick<FastifyRequest, 'method' | 'url' | 'body'>): string {
  return createHash('sha256').update(`${request.method} ${request.url}\n${canonical(request.body)}`).digest('hex');
}

function userOf(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('UNAUTHENTICATED');
  return request.user;
}

/**
 * Runs a scan's write `work` once per idempotency key, in the caller's transaction `trx` (the
 * transaction of the write itself): the claim of the key and the write commit or roll back
 * together. Answers the stored answer for a key already used with the same request.
 */
export async function withIdempotency<T>(request: FastifyRequest, trx: Transaction<DB>, work: () => Promise<T>): Promise<T> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) return work();
  const userId = userOf(request).userId;
  const hash = requestHash(request);
  // Waits on the unique index while another transaction holds the same key, until it ends.
  const claimed = await trx
    .insertInto('idempotency_key')
    .values({ user_id: userId, key, request_hash: hash, response: null })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!claimed) {
    const stored = await trx.selectFrom('idempotency_key').select(['request_hash', 'response']).where('user_id', '=', userId).where('key', '=', key).executeTakeFirstOrThrow();
    if (stored.request_hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    return stored.response as T;
  }
  const answer = await work();
  await trx
    .updateTable('idempotency_key')
    .set({ status: 200, response: JSON.stringify(answer ?? null) })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
  return answer;
}

/**
 * A scan the user's key applied (its write committed): its stored answer, or undefined when the key
 * is unknown (never sent, refused, or purged).
 */
export async function appliedScan(db: Kysely<DB> | Transaction<DB>, userId: number, key: string): Promise<{ answer: unknown } | undefined> {
  const row = await db.selectFrom('idempotency_key').select(['status', 'response']).where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
  return row && row.status === 200 ? { answer: row.response } : undefined;
}

/** Removes the keys older than `hours` (at least `KEEP_HOURS`); answers how many. */
export async function purgeIdempotencyKeys(db: Kysely<DB>, hours = KEEP_HOURS): Promise<number> {
  const keep = Math.max(hours, KEEP_HOURS);
  return inTransaction(db, async (trx) => {
    const result = await trx
      .deleteFrom('idempotency_key')
      .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${keep})`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}

/**
 * The job class removing old idempotency keys (a system job: keys of every project). Its parameter
 * `hours` keeps more than a day's keys; fewer than `KEEP_HOURS` is never removed.
 */
export const purgeIdempotencyKeysJob: JobDefinition = {
  name: 'job.purgeIdempotencyKeys',
  scope: 'system',
  async run({ db, params, log }) {
    const hours = Number(params.hours ?? KEEP_HOURS);
    const removed = await purgeIdempotencyKeys(db, Number.isFinite(hours) ? hours : KEEP_HOURS);
    log(`removed ${removed} idempotency key(s)`);
  },
};

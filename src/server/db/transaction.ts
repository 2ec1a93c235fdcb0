import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from './schema.js';

/**
 * THE one way to open a write transaction (docs/architecture.md, "Writes: one transaction each").
 * Work runs in one database transaction; a serialization failure or a deadlock
 * (SQLSTATE 40001, 40P01) is retried from the start a bounded number of times with a random
 * back-off, so that the operator never sees it; callbacks registered with `afterCommit` run only
 * once the transaction has committed (events, notifications, cache invalidation), never for an
 * attempt that rolled back.
 *
 * Functions that must run inside a transaction take `Transaction<DB>`: Kysely makes a plain
 * `Kysely<DB>` unassignable to it, so they cannot be called outside one.
 */
export interface TransactionOptions<T> {
  /** Which failures start the work again; default serialization failures and deadlocks. */
  retryOn?: (error: unknown) => boolean;
  /** Attempts in all, the first included (default 5). */
  maxAttempts?: number;
  /** Isolation level of the transaction (default: the server's, read committed). */
  isolation?: 'serializable' | 'repeatable read' | 'read committed';
  /** Runs after a successful commit, with the work's result. */
  afterCommit?: (result: T) => void | Promise<void>;
}

const RETRYABLE = new Set(['40001', '40P01']);

/** Serialization failure or deadlock: the database asks for the transaction to be tried again. */
export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

type Callback = () => void | Promise<void>;

// The callbacks of each open transaction, found from the transaction object the work was given.
const pending = new WeakMap<object, Callback[]>();

/** Where a failed after-commit callback is reported (the application sets its logger). */
let reportAfterCommitFailure: (error: unknown) => void = (error) => console.error('after-commit callback failed', error);

export function setAfterCommitReporter(report: (error: unknown) => void): void {
  reportAfterCommitFailure = report;
}

/**
 * Registers a callback to run once the transaction `trx` (opened by `inTransaction`) has committed.
 * Refuses a transaction that `inTransaction` did not open: its commit would never be seen.
 */
export function afterCommit(trx: Transaction<DB>, callback: Callback): void {
  const list = pending.get(trx);
  if (!list) throw new Error('afterCommit needs a transaction opened by inTransaction');
  list.push(callback);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function inTransaction<T>(
  db: Kysely<DB>,
  work: (trx: Transaction<DB>) => Promise<T>,
  options: TransactionOptions<T> = {},
): Promise<T> {
  if (db.isTransaction) throw new Error('inTransaction was given a transaction: pass the Transaction<DB> down instead');
  const retryOn = options.retryOn ?? isRetryableConflict;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  for (let attempt = 1; ; attempt += 1) {
    const callbacks: Callback[] = [];
    try {
      let builder = db.transaction();
      if (options.isolation) builder = builder.setIsolationLevel(options.isolation);
      const result = await builder.execute(async (trx) => {
        pending.set(trx, callbacks);
        try {
          return await work(trx);
        } finally {
          pending.delete(trx);
        }
      });
      for (const callback of callbacks) {
        try {
          await callback();
        } catch (error) {
          reportAfterCommitFailure(error);
        }
      }
      if (options.afterCommit) {
        try {
          await options.afterCommit(result);
        } catch (error) {
          reportAfterCommitFailure(error);
        }
      }
      return result;
    } catch (error) {
      if (attempt >= maxAttempts || !retryOn(error)) throw error;
      // Random back-off that grows with each attempt, so that the two rivals do not meet again.
      await sleep(Math.round((5 + Math.random() * 20) * 2 ** (attempt - 1)));
    }
  }
}

/**
 * Runs work inside a savepoint of the open transaction: when it throws, what it wrote is undone
 * and the transaction goes on (one failed import row must not abort the report of the others).
 */
export async function withSavepoint<T>(trx: Transaction<DB>, name: string, work: () => Promise<T>): Promise<T> {
  await sql`savepoint ${sql.id(name)}`.execute(trx);
  try {
    const result = await work();
    await sql`release savepoint ${sql.id(name)}`.execute(trx);
    return result;
  } catch (error) {
    await sql`rollback to savepoint ${sql.id(name)}`.execute(trx);
    throw error;
  }
}

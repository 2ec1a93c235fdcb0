import { sql, type Generated, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB, Timestamp } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import type { JobDefinition } from './area.js';

/**
 * Sending the rows of an area's send queue (print jobs to printers, EDI messages to partners): the
 * table holds one row a document with the columns `id`, `status` (`queued`: waiting to be sent
 * again; `sent`; `failed`: given up, sent again only on request), `attempts`, `last_error`,
 * `claimed_until`, `sent_at`, `updated_at` and `updated_by`.
 *
 * A sender claims a row before it hands it over: it counts the attempt and holds the row until
 * `claimed_until`, so that two senders never send it at once, and each claim is its own short
 * transaction, so that nothing stays locked while a printer or an endpoint answers. A row that could
 * not be handed over stays queued with the error, until it had `maxAttempts` attempts: then it is
 * failed. The queue's job sends the queued rows no sender holds, oldest first.
 */
export type SendStatus = 'queued' | 'sent' | 'failed';

/** The columns of a send queue's table that its sender keeps. */
export interface SendQueueColumns {
  status: Generated<SendStatus>;
  attempts: Generated<number>;
  last_error: string | null;
  /** A sender working on the row holds it until then, so that two senders never send it twice. */
  claimed_until: Timestamp | null;
  sent_at: Timestamp | null;
}

/** What became of one row a sender was asked to send; `busy`: another sender holds it, or its status was not asked for. */
export type QueuedSendOutcome = { id: number; status: 'sent' } | { id: number; status: 'queued' | 'failed'; error: string } | { id: number; status: 'busy' };

type Columns<T extends keyof DB> = keyof Selectable<DB[T]> & string;
type Claimed<T extends keyof DB, C extends Columns<T>> = Pick<Selectable<DB[T]>, C> & { id: number; attempts: number };

export interface QueuedSenderOptions<T extends keyof DB, C extends Columns<T>, Target> {
  /** The area's send queue table. */
  table: T;
  /** How long a sender holds a row it works on; longer than one send may take. */
  claimSeconds: number;
  /** After this many attempts a row is failed: the queue's job no longer sends it, only a request does. */
  maxAttempts: number;
  /** The columns a claim answers besides `id` and `attempts`. */
  columns: readonly C[];
  /** What a claimed row is sent to (its printer, its partner's endpoint), read in the claim's transaction. */
  target(trx: Transaction<DB>, row: Claimed<T, C>): Promise<Target>;
  /** Hands a row over; throws with what went wrong. */
  deliver(row: Claimed<T, C>, target: Target): Promise<void>;
  /** Rows of one call with the same key share a destination: once one failed, the others fail with its error without a try. */
  destinationOf?(row: Claimed<T, C>, target: Target): string | number;
  /** More columns to set when a row was sent. */
  sentColumns?(by: string): Record<string, unknown>;
  /** More columns to set when a row could not be sent. */
  unsentColumns?: Record<string, unknown>;
}

function assignments(values: Record<string, unknown>) {
  return Object.entries(values).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
}

export interface QueuedSender<T extends keyof DB> {
  /**
   * Sends rows one after the other, each claimed in a transaction of its own. A row another sender
   * holds, or whose status is not among `statuses` (default: queued), is left (`busy`).
   */
  send(db: Kysely<DB>, ids: number[], options: { by: string; statuses?: SendStatus[] }): Promise<QueuedSendOutcome[]>;
  /** The queued rows no sender holds, oldest first, at most `limit`. */
  queuedIds(db: Kysely<DB>, limit: number): Promise<number[]>;
  /** Sends the queued rows no sender holds, oldest first, at most `limit`, as `system`. */
  sendQueued(db: Kysely<DB>, limit: number): Promise<QueuedSendOutcome[]>;
  /** Marks a row sent (and no longer held). */
  markSent(trx: Transaction<DB>, id: number, by: string): Promise<void>;
  /** Leaves a row queued, or failed, with the error (and no longer held). */
  markUnsent(trx: Transaction<DB>, id: number, outcome: { status: 'queued' | 'failed'; error: string; by: string }): Promise<void>;
  /** The status a row is left in when an attempt, its `attempts`-th, failed. */
  statusAfterFailure(attempts: number): 'queued' | 'failed';
  readonly table: T;
}

export function queuedSender<T extends keyof DB, C extends Columns<T>, Target>(options: QueuedSenderOptions<T, C, Target>): QueuedSender<T> {
  const table = sql.table(options.table);
  const free = sql`(claimed_until is null or claimed_until < now())`;

  async function claim(trx: Transaction<DB>, id: number, statuses: SendStatus[]): Promise<Claimed<T, C> | undefined> {
    const returned = sql.join(['id', 'attempts', ...options.columns].map((column) => sql.ref(column)));
    const { rows } = await sql<Claimed<T, C>>`
      update ${table} set claimed_until = now() + make_interval(secs => ${options.claimSeconds}), attempts = attempts + 1
      where id = ${id} and status in (${sql.join(statuses)}) and ${free}
      returning ${returned}`.execute(trx);
    const row = rows[0];
    return row && { ...row, id: Number(row.id), attempts: Number(row.attempts) };
  }

  const sender: QueuedSender<T> = {
    table: options.table,
    statusAfterFailure: (attempts) => (attempts >= options.maxAttempts ? 'failed' : 'queued'),

    async markSent(trx, id, by) {
      const more = assignments(options.sentColumns?.(by) ?? {});
      await sql`update ${table} set ${sql.join([sql`status = 'sent', sent_at = now(), last_error = null, claimed_until = null, updated_at = now(), updated_by = ${by}`, ...more])} where id = ${id}`.execute(trx);
    },

    async markUnsent(trx, id, outcome) {
      const more = assignments(options.unsentColumns ?? {});
      const set = sql`status = ${outcome.status}, last_error = ${outcome.error.slice(0, 1000)}, claimed_until = null, updated_at = now(), updated_by = ${outcome.by}`;
      await sql`update ${table} set ${sql.join([set, ...more])} where id = ${id}`.execute(trx);
    },

    async queuedIds(db, limit) {
      const { rows } = await sql<{ id: number | string }>`select id from ${table} where status = 'queued' and ${free} order by id limit ${limit}`.execute(db);
      return rows.map((r) => Number(r.id));
    },

    async sendQueued(db, limit) {
      return sender.send(db, await sender.queuedIds(db, limit), { by: 'system' });
    },

    async send(db, ids, { by, statuses = ['queued'] }) {
      const outcomes: QueuedSendOutcome[] = [];
      const failedDestinations = new Map<string | number, string>();
      for (const id of ids) {
        const claimed = await inTransaction(db, async (trx) => {
          const row = await claim(trx, id, statuses);
          return row && { row, target: await options.target(trx, row) };
        });
        if (!claimed) {
          outcomes.push({ id, status: 'busy' });
          continue;
        }
        const destination = options.destinationOf?.(claimed.row, claimed.target);
        try {
          const earlier = destination === undefined ? undefined : failedDestinations.get(destination);
          if (earlier !== undefined) throw new Error(earlier);
          await options.deliver(claimed.row, claimed.target);
        } catch (error) {
          const detail = (error as Error).message;
          if (destination !== undefined && !failedDestinations.has(destination)) failedDestinations.set(destination, detail);
          const status = sender.statusAfterFailure(claimed.row.attempts);
          await inTransaction(db, (trx) => sender.markUnsent(trx, id, { status, error: detail, by }));
          outcomes.push({ id, status, error: detail });
          continue;
        }
        await inTransaction(db, (trx) => sender.markSent(trx, id, by));
        outcomes.push({ id, status: 'sent' });
      }
      return outcomes;
    },
  };
  return sender;
}

/**
 * The job that sends a send queue's queued rows again (parameter `batchSize`, default 50, at most
 * 1000), in every project and warehouse. It fails the run when a row could not be sent, so that it
 * shows in the history; the row stays queued for the next run (or the job's retries).
 */
export function sendQueuedJob(options: {
  name: string;
  /** What the rows are, in the run's log: `print jobs`. */
  what: string;
  /** Why a row is not sent, added to the failure: `printer unavailable`. */
  reason?: string;
  sendQueued(db: Kysely<DB>, batchSize: number): Promise<Array<{ status: string; error?: unknown }>>;
}): JobDefinition {
  return {
    name: options.name,
    scope: 'system',
    async run({ db, params, log }) {
      const raw = params.batchSize;
      const batchSize = raw === undefined || raw === '' ? 50 : Number(raw);
      if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1000) throw new Error(`batchSize must be a whole number from 1 to 1000, got "${raw}"`);
      const outcomes = await options.sendQueued(db, batchSize);
      const sent = outcomes.filter((o) => o.status === 'sent').length;
      const unsent = outcomes.filter((o) => o.error).length;
      log(`sent ${sent} of ${outcomes.length} ${options.what}`);
      if (unsent) throw new Error(`${unsent} ${options.what} could not be sent${options.reason ? `: ${options.reason}` : ''}`);
    },
  };
}

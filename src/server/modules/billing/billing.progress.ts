import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DatabaseKind } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { finishRun, insertRun, lockRunRegistration, markRunsAbandoned, projectRuns, runningRunsOf, updateRunProgress } from './billing-runs.repository.js';
import { tryLockCustomerRun } from './billing.repository.js';
import type { BillingScope, RunProgress } from './billing.service.js';

/**
 * The progress of billing runs, kept in the database (`billing_run`) so that every server sees it:
 * a run (from the route, the bill page's run form or the job) is registered when it starts, reports
 * its stages (the events of each group written, each tariff line priced, the totals) and ends done
 * or failed. The server running it writes these in short transactions of their own, beside the
 * run's long one, one at a time (a stage reported while the last is being written is written
 * next), and gives word every few seconds while a long stage goes on. The run's end is written in
 * the run's own transaction, with the bill it made.
 *
 * The bill page polls `POST /api/billing/run/progress` and shows a progress bar per run of the
 * project, so the user may leave the page and come back, on any server. A second run for a customer
 * whose run goes on is refused (BILL_RUN_RUNNING), by any server; and the run's transaction holds
 * the customer's advisory lock (billing.repository.ts, `tryLockCustomerRun`). A run whose server
 * died (no word for STALE_SECONDS, or its lock free once it had it) is shown abandoned and blocks
 * no new run: the next registration of the customer marks it so.
 *
 * On the embedded database one server owns the data and one transaction runs at a time: the
 * writes of a run's progress land once its transaction has ended, and requests wait for it.
 */

/** How often a running server gives word while a stage goes on, and after how long without word its run counts as abandoned. */
export const HEARTBEAT_MS = 15_000;
export const STALE_SECONDS = 120;
const KEEP_FINISHED_MINUTES = 10;

export interface RunState {
  id: number;
  projectId: number;
  ownerId: number;
  billId: string;
  by: string;
  status: 'running' | 'done' | 'failed' | 'abandoned';
  stage: string;
  done: number;
  total: number;
  percent: number;
  startedAt: string;
  finishedAt: string | null;
  /** The bill made (done), or the error code of the refusal (failed). */
  headerId: number | null;
  errorCode: string | null;
}

/** This server's view of one database: its name among the servers, and the runs it runs. */
interface Tracker {
  node: string;
  kind: DatabaseKind;
  runs: Map<number, RunState & { locked: boolean }>;
}

const trackers = new WeakMap<Kysely<DB>, Tracker>();

/** The tracker of this server for a database; the routes name the database's kind when the app is built. */
export function runTracker(db: Kysely<DB>, kind?: DatabaseKind): Tracker {
  let tracker = trackers.get(db);
  if (!tracker) {
    tracker = { node: randomUUID(), kind: kind ?? 'postgres', runs: new Map() };
    trackers.set(db, tracker);
  } else if (kind) tracker.kind = kind;
  return tracker;
}

function forget(tracker: Tracker): void {
  const now = Date.now();
  for (const [id, run] of tracker.runs) if (run.finishedAt && now - Date.parse(run.finishedAt) > KEEP_FINISHED_MINUTES * 60_000) tracker.runs.delete(id);
}

/**
 * Registers a run of a customer: refused while another run of the customer goes on, on any server;
 * the customer's runs whose server died are marked abandoned on the way.
 */
async function registerRun(trx: Transaction<DB>, tracker: Tracker, scope: BillingScope, ownerId: number, billId: string) {
  await lockRunRegistration(trx, scope.projectId, ownerId);
  const running = await runningRunsOf(trx, scope.projectId, ownerId, STALE_SECONDS);
  const live = running.find((r) => r.alive);
  if (live) throw new AppError('BILL_RUN_RUNNING', { billId: live.bill_id, percent: live.percent });
  await markRunsAbandoned(
    trx,
    running.map((r) => Number(r.id)),
  );
  return insertRun(trx, { projectId: scope.projectId, ownerId, billId, node: tracker.node, by: scope.by, locked: false });
}

/**
 * Runs `work` as a registered run in a transaction of its own (or, for the bill page's run form,
 * in the page action's transaction `within`): the customer's lock taken first, its progress
 * reported, done with the bill it made or failed with its error code.
 */
export async function trackedRun<T extends { header: { id: number } }>(
  db: Kysely<DB>,
  scope: BillingScope,
  ownerId: number,
  billId: string,
  work: (trx: Transaction<DB>, progress: RunProgress) => Promise<T>,
  within?: Transaction<DB>,
): Promise<T> {
  const tracker = runTracker(db);
  forget(tracker);
  const mine = [...tracker.runs.values()].find((r) => r.status === 'running' && r.projectId === scope.projectId && r.ownerId === ownerId);
  if (mine) throw new AppError('BILL_RUN_RUNNING', { billId: mine.billId, percent: mine.percent });
  // On the embedded database a second transaction would wait for the action's: the run is registered inside it.
  const inside = within !== undefined && tracker.kind === 'pglite';
  const register = (trx: Transaction<DB>) => registerRun(trx, tracker, scope, ownerId, billId);
  const row = inside ? await register(within) : await inTransaction(db, register);

  const run: RunState & { locked: boolean } = {
    id: row.id,
    projectId: scope.projectId,
    ownerId,
    billId,
    by: scope.by,
    status: 'running',
    stage: 'start',
    done: 0,
    total: 1,
    percent: 0,
    startedAt: new Date(row.startedAt).toISOString(),
    finishedAt: null,
    headerId: null,
    errorCode: null,
    locked: false,
  };
  tracker.runs.set(run.id, run);

  // One write at a time; what is reported meanwhile is written next.
  let writing: Promise<void> | undefined;
  let dirty = false;
  const flush = () => {
    dirty = true;
    writing ??= (async () => {
      while (dirty) {
        dirty = false;
        const word = { stage: run.stage, done: run.done, total: run.total, percent: run.percent, locked: run.locked };
        try {
          await inTransaction(db, (trx) => updateRunProgress(trx, run.id, word));
        } catch {
          // Said again by the next word or the run's end.
        }
      }
      writing = undefined;
    })();
  };
  const heartbeat = setInterval(flush, HEARTBEAT_MS);
  heartbeat.unref();
  const progress: RunProgress = (stage, done, total) => {
    Object.assign(run, { stage, done, total, percent: Math.min(99, Math.floor((done * 100) / Math.max(total, 1))) });
    flush();
  };

  const body = async (trx: Transaction<DB>) => {
    if (!(await tryLockCustomerRun(trx, scope.projectId, ownerId))) throw new AppError('BILL_RUN_RUNNING', { billId, percent: 0 });
    run.locked = true;
    flush();
    const result = await work(trx, progress);
    await finishRun(trx, run.id, { status: 'done', stage: 'done', percent: 100, headerId: Number(result.header.id), errorCode: null });
    return result;
  };
  try {
    const result = within ? await body(within) : await inTransaction(db, body);
    Object.assign(run, { status: 'done', stage: 'done', percent: 100, done: run.total, finishedAt: new Date().toISOString(), headerId: Number(result.header.id) });
    return result;
  } catch (error) {
    const errorCode = error instanceof AppError ? error.code : 'INTERNAL';
    Object.assign(run, { status: 'failed', finishedAt: new Date().toISOString(), errorCode });
    const end = (async () => {
      await writing;
      try {
        await inTransaction(db, (trx) => finishRun(trx, run.id, { status: 'failed', stage: run.stage, percent: run.percent, headerId: null, errorCode }));
      } catch {
        // The run stays marked running until it is seen abandoned.
      }
    })();
    // Inside an action's transaction, its end is written once that transaction is over.
    if (!within) await end;
    throw error;
  } finally {
    clearInterval(heartbeat);
    // Progress written from here on finds the run ended; inside an action's transaction it may wait for its row.
    if (!within) await writing;
  }
}

function isoOf(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/**
 * The project's runs going on and those that ended in the last ten minutes, newest first: from the
 * database, the runs of this server as it knows them this moment.
 */
export async function runsOf(db: Kysely<DB>, projectId: number): Promise<RunState[]> {
  const tracker = runTracker(db);
  forget(tracker);
  const strip = ({ locked: _locked, ...state }: RunState & { locked: boolean }): RunState => state;
  const rows = await projectRuns(db, projectId, { keepMinutes: KEEP_FINISHED_MINUTES, staleSeconds: STALE_SECONDS, limit: 20 });
  return rows.map((row): RunState => {
    const known = row.node === tracker.node ? tracker.runs.get(Number(row.id)) : undefined;
    if (known?.status === 'running') return strip(known);
    return {
      id: Number(row.id),
      projectId,
      ownerId: Number(row.owner_id),
      billId: row.bill_id,
      by: row.created_by ?? '',
      status: row.status,
      stage: row.stage,
      done: row.done,
      total: row.total,
      percent: row.percent,
      startedAt: isoOf(row.started_at) ?? '',
      finishedAt: isoOf(row.finished_at),
      headerId: row.header_id === null ? null : Number(row.header_id),
      errorCode: row.error_code,
    };
  });
}

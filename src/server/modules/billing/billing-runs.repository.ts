import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { RunStatus } from './billing.tables.js';
import './billing.tables.js';

/**
 * The SQL of billing runs as every server sees them (`billing_run`, migration 0368): registering a
 * run, its progress and end, each in a short transaction of its own, and the project's runs for the
 * bill page. A run is alive while its server gives word (`heartbeat_at` within the stale interval)
 * and, once its transaction took the customer's advisory lock (`locked`), while that lock is held.
 */

type Db = Kysely<DB> | Transaction<DB>;

/** The name of a customer's billing-run lock, held by the transaction of the run (billing.repository.ts, `tryLockCustomerRun`). */
export function customerRunLockName(projectId: number, ownerId: number): string {
  return `billing.run:${projectId}:${ownerId}`;
}

/** Is the customer's run lock held by some transaction, on any server: read from pg_locks, without taking it. */
const LOCK_HELD = sql<boolean>`exists (
  select 1 from pg_locks l
  where l.locktype = 'advisory' and l.granted and l.objsubid = 1
    and l.database = (select d.oid from pg_database d where d.datname = current_database())
    and ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended('billing.run:' || r.project_id || ':' || r.owner_id, 0)
)`;

/** A running row whose server still gives word and, once it took the customer's lock, still holds it. */
function alive(staleSeconds: number) {
  return sql<boolean>`(r.heartbeat_at >= now() - make_interval(secs => ${staleSeconds}) and (not r.locked or ${LOCK_HELD}))`;
}

/** Queues the registrations of runs of one customer (a short transaction's lock), so that two at once do not both start. */
export async function lockRunRegistration(trx: Transaction<DB>, projectId: number, ownerId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`billing.run-register:${projectId}:${ownerId}`}, 0))`.execute(trx);
}

/** The customer's runs still marked running, each said alive or not. */
export async function runningRunsOf(trx: Transaction<DB>, projectId: number, ownerId: number, staleSeconds: number) {
  return trx
    .selectFrom('billing_run as r')
    .select(['r.id', 'r.bill_id', 'r.percent'])
    .select(alive(staleSeconds).as('alive'))
    .where('r.project_id', '=', projectId)
    .where('r.owner_id', '=', ownerId)
    .where('r.status', '=', 'running')
    .orderBy('r.id')
    .execute();
}

/** Marks runs whose server died abandoned: they block nobody from then on. */
export async function markRunsAbandoned(trx: Transaction<DB>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('billing_run')
    .set({ status: 'abandoned', finished_at: sql`now()`, updated_at: sql`now()` })
    .where('id', 'in', ids)
    .where('status', '=', 'running')
    .execute();
}

export async function insertRun(trx: Transaction<DB>, values: { projectId: number; ownerId: number; billId: string; node: string; by: string; locked: boolean }): Promise<{ id: number; startedAt: Date }> {
  const row = await trx
    .insertInto('billing_run')
    .values({ project_id: values.projectId, owner_id: values.ownerId, bill_id: values.billId, node: values.node, locked: values.locked, created_by: values.by, updated_by: values.by })
    .returning(['id', 'started_at'])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), startedAt: row.started_at };
}

export interface RunWord {
  stage: string;
  done: number;
  total: number;
  percent: number;
  locked: boolean;
}

/** The run's latest progress, and word that its server lives; nothing once the run has ended. */
export async function updateRunProgress(trx: Transaction<DB>, id: number, word: RunWord): Promise<void> {
  await trx
    .updateTable('billing_run')
    .set({ ...word, heartbeat_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

/** The run's end: done with the bill it made, or failed with its error code (also over an abandoned mark, which its server outlived). */
export async function finishRun(trx: Transaction<DB>, id: number, end: { status: Exclude<RunStatus, 'running' | 'abandoned'>; stage: string; percent: number; headerId: number | null; errorCode: string | null }): Promise<void> {
  await trx
    .updateTable('billing_run')
    .set({ status: end.status, stage: end.stage, percent: end.percent, header_id: end.headerId, error_code: end.errorCode, finished_at: sql`now()`, heartbeat_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', 'in', ['running', 'abandoned'])
    .execute();
}

/**
 * The project's runs going on and those that ended in the last `keepMinutes`, newest first; a run
 * still marked running whose server died is answered abandoned (its end: its last word).
 */
export async function projectRuns(db: Db, projectId: number, options: { keepMinutes: number; staleSeconds: number; limit: number }) {
  const isAlive = alive(options.staleSeconds);
  const status = sql<RunStatus>`case when r.status = 'running' and not ${isAlive} then 'abandoned' else r.status end`;
  const rows = await db
    .selectFrom('billing_run as r')
    .select(['r.id', 'r.owner_id', 'r.bill_id', 'r.node', 'r.created_by', 'r.stage', 'r.done', 'r.total', 'r.percent', 'r.started_at', 'r.header_id'])
    .select(status.as('status'))
    .select(sql<Date | null>`case when r.status = 'running' and not ${isAlive} then r.heartbeat_at else r.finished_at end`.as('finished_at'))
    .select('r.error_code')
    .where('r.project_id', '=', projectId)
    .where((eb) => {
      const since = sql<Date>`now() - make_interval(mins => ${options.keepMinutes})`;
      return eb.or([eb.and([eb('r.status', '=', 'running'), eb('r.heartbeat_at', '>=', since)]), eb('r.finished_at', '>=', since)]);
    })
    .orderBy('r.id', 'desc')
    .limit(options.limit)
    .execute();
  return rows;
}

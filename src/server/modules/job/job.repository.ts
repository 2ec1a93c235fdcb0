import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { JobRunStatus, JobScope, JobStatus } from './job.tables.js';

/** All SQL of the job area. */

/** Makes `job_handler` equal to the handlers the areas declare; a vanished one stays, unavailable, for the jobs that name it. */
export async function syncJobHandlers(trx: Transaction<DB>, handlers: { name: string; area: string; scope: JobScope }[]): Promise<void> {
  for (const handler of handlers) {
    await trx
      .insertInto('job_handler')
      .values({ name: handler.name, area: handler.area, available: true, scope: handler.scope })
      .onConflict((oc) => oc.column('name').doUpdateSet({ area: handler.area, available: true, scope: handler.scope }))
      .execute();
  }
  let gone = trx.updateTable('job_handler').set({ available: false }).where('available', '=', true);
  if (handlers.length) gone = gone.where('name', 'not in', handlers.map((h) => h.name));
  await gone.execute();
}

export async function findJob(db: Kysely<DB>, id: number) {
  return db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Who looks at jobs: the session's project, and whether an administrator (who also sees system jobs). */
export interface JobViewer {
  projectId: number | null;
  isAdmin: boolean;
}

/** The jobs a viewer sees: those of the session's project, and for an administrator those of no project. */
export function visibleJobCondition(viewer: JobViewer, projectColumn = 'project_id') {
  const column = sql.ref(projectColumn);
  const own = viewer.projectId === null ? sql<boolean>`false` : sql<boolean>`${column} = ${viewer.projectId}`;
  return viewer.isAdmin ? sql<boolean>`(${own} or ${column} is null)` : own;
}

export async function findVisibleJob(db: Kysely<DB>, id: number, viewer: JobViewer) {
  return db.selectFrom('job').selectAll().where('id', '=', id).where(visibleJobCondition(viewer)).executeTakeFirst();
}

/** Locks the jobs of these ids the viewer sees (all of them when no viewer is given). */
export async function lockJobs(trx: Transaction<DB>, ids: number[], viewer?: JobViewer) {
  if (!ids.length) return [];
  let query = trx.selectFrom('job').selectAll().where('id', 'in', ids);
  if (viewer) query = query.where(visibleJobCondition(viewer));
  return query.orderBy('id').forUpdate().execute();
}

export async function findHandlerScope(db: Kysely<DB>, name: string): Promise<JobScope | undefined> {
  const row = await db.selectFrom('job_handler').select('scope').where('name', '=', name).executeTakeFirst();
  return row?.scope;
}

/** An enabled user by login account, with whether an administrator. */
export async function findEnabledUser(db: Kysely<DB>, loginAccount: string) {
  const row = await db.selectFrom('app_user').select(['id', 'is_admin']).where('login_account', '=', loginAccount).where('enabled', '=', true).executeTakeFirst();
  return row ? { userId: Number(row.id), isAdmin: row.is_admin } : undefined;
}

export async function hasProjectGrant(db: Kysely<DB>, userId: number, projectId: number): Promise<boolean> {
  const row = await db.selectFrom('user_project').select('id').where('user_id', '=', userId).where('project_id', '=', projectId).executeTakeFirst();
  return row !== undefined;
}

export async function findProjectCode(db: Kysely<DB>, projectId: number): Promise<string | undefined> {
  return (await db.selectFrom('project').select('code').where('id', '=', projectId).executeTakeFirst())?.code;
}

/** A warehouse by code: whether it serves the project and whether the user holds a grant of it. */
export async function findWarehouseForJob(db: Kysely<DB>, code: string, projectId: number, userId: number) {
  const row = await db
    .selectFrom('warehouse as w')
    .select((eb) => [
      'w.id',
      eb.exists(eb.selectFrom('project_warehouse as pw').select('pw.warehouse_id').whereRef('pw.warehouse_id', '=', 'w.id').where('pw.project_id', '=', projectId)).as('serves'),
      eb.exists(eb.selectFrom('user_warehouse as g').select('g.id').whereRef('g.warehouse_id', '=', 'w.id').where('g.user_id', '=', userId)).as('granted'),
    ])
    .where('w.code', '=', code)
    .executeTakeFirst();
  return row ? { id: Number(row.id), serves: Boolean(row.serves), granted: Boolean(row.granted) } : undefined;
}

export async function setJobStatus(trx: Transaction<DB>, ids: number[], status: JobStatus, by: string): Promise<void> {
  if (!ids.length) return;
  await trx.updateTable('job').set({ status, updated_at: sql`now()`, updated_by: by }).where('id', 'in', ids).execute();
}

export async function findJobParams(db: Kysely<DB>, jobId: number) {
  return db.selectFrom('job_param').select(['name', 'value', 'seq']).where('job_id', '=', jobId).orderBy('seq').orderBy('name').execute();
}

/** The active jobs the scheduler evaluates on every tick, or, given a viewer, those the viewer sees. */
export async function listActiveJobs(db: Kysely<DB>, viewer?: JobViewer) {
  let query = db.selectFrom('job').select(['id', 'name', 'cron_expression', 'start_time', 'updated_at']).where('status', '=', 'active');
  if (viewer) query = query.where(visibleJobCondition(viewer));
  return query.orderBy('id').execute();
}

export async function listHandlers(db: Kysely<DB>) {
  return db.selectFrom('job_handler').select(['name', 'area', 'available']).orderBy('name').execute();
}

/** A manual run ("run now"): queued at once. */
export async function insertManualRun(trx: Transaction<DB>, jobId: number, requestedBy: string): Promise<number> {
  const row = await trx
    .insertInto('job_run')
    .values({ job_id: jobId, trigger: 'manual', scheduled_for: sql<Date>`now()`, requested_by: requestedBy })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Claims one tick of a job's schedule: the first node to insert the (job, tick) row runs it; every
 * other node's insert meets the unique index and claims nothing.
 */
export async function claimTick(trx: Transaction<DB>, jobId: number, tick: Date): Promise<number | undefined> {
  const row = await trx
    .insertInto('job_run')
    .values({ job_id: jobId, trigger: 'schedule', scheduled_for: tick, requested_by: 'scheduler' })
    .onConflict((oc) => oc.columns(['job_id', 'scheduled_for']).where('trigger', '=', 'schedule').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

/** Runs due to start (new, or a retry whose back-off has passed) that no node has queued yet, claimed for this one. */
export async function claimPendingRuns(trx: Transaction<DB>, limit: number): Promise<number[]> {
  const due = trx
    .selectFrom('job_run')
    .select('id')
    .where('status', 'in', ['queued', 'retrying'])
    .where('enqueued_at', 'is', null)
    .where(sql<boolean>`next_attempt_at <= now()`)
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  const rows = await trx.updateTable('job_run').set({ enqueued_at: sql`now()` }).where('id', 'in', due).returning('id').execute();
  return rows.map((r) => Number(r.id));
}

/**
 * Marks a run as running on this node (attempt + 1). Throws a unique violation (23505) when
 * another run of the same job is running: the partial unique index `job_run_one_running` allows
 * one per job, on every node at once.
 */
export async function startRun(trx: Transaction<DB>, runId: number, node: string) {
  return trx
    .updateTable('job_run')
    .set({
      status: 'running',
      attempts: sql`attempts + 1`,
      started_at: sql`coalesce(started_at, now())`,
      heartbeat_at: sql`now()`,
      node,
    })
    .where('id', '=', runId)
    .where('status', 'in', ['queued', 'retrying'])
    .returning(['id', 'job_id', 'attempts', 'trigger', 'scheduled_for'])
    .executeTakeFirst();
}

export async function findRun(db: Kysely<DB>, runId: number) {
  return db.selectFrom('job_run').selectAll().where('id', '=', runId).executeTakeFirst();
}

/** Ends a run (or one attempt of it) with its outcome and appends to its log. */
export async function recordRunOutcome(
  trx: Transaction<DB>,
  runId: number,
  outcome: { status: Exclude<JobRunStatus, 'queued' | 'running'>; log: string; error: string | null; retryInSeconds?: number },
): Promise<void> {
  const retrying = outcome.status === 'retrying';
  await trx
    .updateTable('job_run')
    .set({
      status: outcome.status,
      log: sql`log || ${outcome.log}`,
      error: outcome.error,
      finished_at: retrying ? null : sql`now()`,
      enqueued_at: retrying ? null : sql`enqueued_at`,
      next_attempt_at: retrying ? sql`now() + make_interval(secs => ${outcome.retryInSeconds ?? 1})` : sql`next_attempt_at`,
    })
    .where('id', '=', runId)
    .execute();
  if (retrying) return;
  // The history keeps a job's runs of the last RUN_HISTORY_DAYS days: a job due every minute would
  // otherwise add 1,440 rows a day for ever.
  await trx
    .deleteFrom('job_run')
    .where('job_id', '=', (eb) => eb.selectFrom('job_run').select('job_id').where('id', '=', runId))
    .where('finished_at', '<', sql<Date>`now() - make_interval(days => ${RUN_HISTORY_DAYS})`)
    .execute();
}

/** How many days a finished run stays in its job's history. */
export const RUN_HISTORY_DAYS = 30;

export async function touchRun(trx: Transaction<DB>, runId: number): Promise<void> {
  await trx.updateTable('job_run').set({ heartbeat_at: sql`now()` }).where('id', '=', runId).where('status', '=', 'running').execute();
}

/** Runs whose node stopped beating (it died mid-run) are failed, so that the job can run again. */
export async function abandonStaleRuns(trx: Transaction<DB>, staleSeconds: number) {
  return trx
    .updateTable('job_run')
    .set({ status: 'failed', finished_at: sql`now()`, error: 'abandoned: the node running it stopped', log: sql`log || ${'abandoned: the node running it stopped\n'}` })
    .where('status', '=', 'running')
    .where('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`)
    .returning(['id', 'job_id'])
    .execute();
}

export async function listRuns(db: Kysely<DB>, jobId: number, limit: number) {
  return db
    .selectFrom('job_run')
    .select(['id', 'job_id', 'trigger', 'scheduled_for', 'status', 'attempts', 'started_at', 'finished_at', 'node', 'log', 'error', 'requested_by'])
    .where('job_id', '=', jobId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * pg-boss's database adapter (its `db` option): pg-boss runs its statements through the
 * application's own pool, so it needs no connection of its own. Statements without values go
 * through the simple protocol, which pg-boss's multi-statement installation needs.
 */
export function pgBossDatabase(db: Kysely<DB>): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  return {
    async executeSql(text, values) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows };
    },
  };
}

/** On the embedded database this process is the only one: runs it had queued before a stop are queued again. */
export async function releaseQueuedRuns(trx: Transaction<DB>): Promise<void> {
  await trx.updateTable('job_run').set({ enqueued_at: null }).where('status', 'in', ['queued', 'retrying']).where('enqueued_at', 'is not', null).execute();
}

/** Puts a run back in the queue for a second later while it is younger than `maxWaitSeconds`; answers whether it did. */
export async function postponeRun(trx: Transaction<DB>, runId: number, maxWaitSeconds: number): Promise<boolean> {
  const row = await trx
    .updateTable('job_run')
    .set({ enqueued_at: null, next_attempt_at: sql`now() + interval '1 second'` })
    .where('id', '=', runId)
    .where('status', 'in', ['queued', 'retrying'])
    .where(sql<boolean>`created_at > now() - make_interval(secs => ${maxWaitSeconds})`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Who hears of a failed job: the enabled administrators and whoever created or last changed it. */
export async function jobWatchers(trx: Transaction<DB>, jobId: number): Promise<number[]> {
  const job = await trx.selectFrom('job').select(['created_by', 'updated_by']).where('id', '=', jobId).executeTakeFirst();
  const logins = [job?.created_by, job?.updated_by].filter((login): login is string => typeof login === 'string' && login !== '');
  const rows = await trx
    .selectFrom('app_user')
    .select('id')
    .where('enabled', '=', true)
    .where((eb) => (logins.length ? eb.or([eb('is_admin', '=', true), eb('login_account', 'in', logins)]) : eb('is_admin', '=', true)))
    .execute();
  return rows.map((r) => Number(r.id));
}

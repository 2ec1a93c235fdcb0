import type { Kysely, Transaction } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { checkCronExpression, nextRunTimes } from './cron.js';
import {
  findEnabledUser,
  findHandlerScope,
  findJobParams,
  findProjectCode,
  findVisibleJob,
  findWarehouseForJob,
  hasProjectGrant,
  insertManualRun,
  listHandlers,
  listRuns,
  lockJobs,
  setJobStatus,
  type JobViewer,
} from './job.repository.js';

/** How many coming run times the cron expression editor shows (issue: "the next five run times"). */
export const PREVIEW_RUNS = 5;

/** Fields a job cannot leave empty. */
const REQUIRED_FIELDS = ['name', 'handler', 'type', 'cron_expression', 'business_type'] as const;

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Checks a job as it is about to be stored: no required field empty, the
 * expression valid, the class a handler some area registers. Every problem at once.
 */
export async function assertValidJob(db: Kysely<DB>, record: Record<string, unknown>): Promise<void> {
  const details: FieldError[] = [];
  for (const field of REQUIRED_FIELDS) if (blank(record[field])) details.push({ field, code: 'FIELD_REQUIRED' });
  if (!blank(record.cron_expression)) {
    const check = checkCronExpression(String(record.cron_expression));
    if (!check.valid) details.push({ field: 'cron_expression', code: 'CRON_INVALID', params: { reason: check.reason } });
  }
  if (!blank(record.handler)) {
    const handlers = await listHandlers(db);
    if (!handlers.some((h) => h.available && h.name === record.handler)) details.push({ field: 'handler', code: 'JOB_HANDLER_UNKNOWN', params: { handler: String(record.handler) } });
  }
  if (details.length) throw new AppError('VALIDATION_FAILED', {}, details);
}

/** The next run times of an expression, for the cron expression editor. */
export function previewCron(expression: string, from = new Date()): { valid: true; nextRuns: string[] } | { valid: false; reason: string } {
  const check = checkCronExpression(expression);
  if (!check.valid) return check;
  return { valid: true, nextRuns: nextRunTimes(check.cron, PREVIEW_RUNS, from).map((d) => d.toISOString()) };
}

/** Who a job's parameters are checked for: its maker when they are saved, its creator at every run. */
export interface JobActor {
  userId: number;
  isAdmin: boolean;
  loginAccount: string;
}

/** A parameter that names something outside the job's project or its actor's reach. */
export interface JobParamProblem {
  param: string;
  code: 'OUT_OF_SCOPE' | 'FIELD_FOREIGN';
  reason: string;
}

/**
 * The parameters of a project's job that name scoped things, checked for an actor: `project` must
 * be the job's own project; `warehouse` a warehouse that serves it and that the actor holds (an
 * administrator holds every one); `user` an enabled user working in the job's project. Every
 * class's parameters of these names mean these things; the other parameters are the class's own.
 */
export async function jobParamProblems(db: Kysely<DB>, projectId: number, actor: JobActor, params: Record<string, string | null>): Promise<JobParamProblem[]> {
  const problems: JobParamProblem[] = [];
  const value = (name: string) => {
    const text = params[name]?.trim();
    return text ? text : undefined;
  };
  const project = value('project');
  if (project !== undefined) {
    const own = await findProjectCode(db, projectId);
    if (project !== own) problems.push({ param: 'project', code: 'OUT_OF_SCOPE', reason: `project "${project}" is not the job's project ${own ?? ''}`.trim() });
  }
  const warehouse = value('warehouse');
  if (warehouse !== undefined) {
    const found = await findWarehouseForJob(db, warehouse, projectId, actor.userId);
    if (!found) problems.push({ param: 'warehouse', code: 'FIELD_FOREIGN', reason: `no warehouse has the code "${warehouse}"` });
    else if (!found.serves) problems.push({ param: 'warehouse', code: 'OUT_OF_SCOPE', reason: `warehouse "${warehouse}" does not serve the job's project` });
    else if (!found.granted && !actor.isAdmin) problems.push({ param: 'warehouse', code: 'OUT_OF_SCOPE', reason: `${actor.loginAccount} may not work in warehouse "${warehouse}"` });
  }
  const user = value('user');
  if (user !== undefined) {
    const recipient = await findEnabledUser(db, user);
    if (!recipient) problems.push({ param: 'user', code: 'FIELD_FOREIGN', reason: `no enabled user "${user}"` });
    else if (!recipient.isAdmin && !(await hasProjectGrant(db, recipient.userId, projectId))) {
      problems.push({ param: 'user', code: 'OUT_OF_SCOPE', reason: `user "${user}" does not work in the job's project` });
    }
  }
  return problems;
}

/** The saved parameter, or the whole job, refused: every problem as a field error of `field`. */
export function refuseParams(problems: JobParamProblem[], field: string): never {
  throw new AppError(
    'VALIDATION_FAILED',
    {},
    problems.map((p) => ({ field, code: p.code, params: { name: p.param, reason: p.reason } })),
  );
}

/**
 * Why a job may not run now, checked before each run against its creator: a job of a project
 * class needs a project, a creator who is still an enabled user working in it, and parameters
 * within the creator's reach there. Answers undefined when it may run.
 */
export async function runRefusal(
  db: Kysely<DB>,
  job: { id: number; handler: string; project_id: number | null; created_by: string | null },
): Promise<string | undefined> {
  const scope = await findHandlerScope(db, job.handler);
  if (scope === 'system') return undefined;
  if (job.project_id === null) return 'the job belongs to no project: an administrator must make it again in its project';
  const projectId = Number(job.project_id);
  const creator = job.created_by ? await findEnabledUser(db, job.created_by) : undefined;
  if (!creator) return `the job's creator "${job.created_by ?? ''}" is no enabled user`;
  if (!creator.isAdmin && !(await hasProjectGrant(db, creator.userId, projectId))) return `the job's creator "${job.created_by}" no longer works in its project`;
  const params = Object.fromEntries((await findJobParams(db, Number(job.id))).map((p) => [p.name, p.value]));
  const problems = await jobParamProblems(db, projectId, { ...creator, loginAccount: job.created_by ?? '' }, params);
  return problems.length ? `parameter ${problems.map((p) => `${p.param}: ${p.reason}`).join('; ')}` : undefined;
}

/** Activates jobs: their schedule starts; the expression is checked again. */
export async function activateJobs(trx: Transaction<DB>, ids: number[], by: string, viewer?: JobViewer): Promise<void> {
  const jobs = await lockJobs(trx, ids, viewer);
  if (jobs.length !== ids.length) throw new AppError('NO_RECORD');
  for (const job of jobs) {
    const check = checkCronExpression(job.cron_expression);
    if (!check.valid) throw new AppError('CRON_INVALID', { reason: check.reason }, [{ field: 'cron_expression', code: 'CRON_INVALID', params: { reason: check.reason } }]);
  }
  await setJobStatus(trx, ids, 'active', by);
}

/** Inactivates jobs: no further ticks; a run under way finishes. */
export async function inactivateJobs(trx: Transaction<DB>, ids: number[], by: string, viewer?: JobViewer): Promise<void> {
  const jobs = await lockJobs(trx, ids, viewer);
  if (jobs.length !== ids.length) throw new AppError('NO_RECORD');
  await setJobStatus(trx, ids, 'inactive', by);
}

/** "Run now" (`/manual/schedule`): a manual run queued for the next free runner, active job or not. */
export async function requestRun(trx: Transaction<DB>, jobId: number, by: string, viewer?: JobViewer): Promise<number> {
  const [job] = await lockJobs(trx, [jobId], viewer);
  if (!job) throw new AppError('NO_RECORD');
  return insertManualRun(trx, jobId, by);
}

/** Refuses to delete an active job ("An active one cannot be deleted"). */
export function assertDeletable(job: { status: unknown }): void {
  if (job.status === 'active') throw new AppError('JOB_DELETE_ACTIVE');
}

export async function jobRunHistory(db: Kysely<DB>, viewer: JobViewer, jobId: number, limit = 50) {
  if (!(await findVisibleJob(db, jobId, viewer))) throw new AppError('NO_RECORD');
  const runs = await listRuns(db, jobId, limit);
  const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
  return runs.map((run) => ({
    id: Number(run.id),
    trigger: run.trigger,
    scheduledFor: iso(run.scheduled_for)!,
    status: run.status,
    attempts: run.attempts,
    startedAt: iso(run.started_at),
    finishedAt: iso(run.finished_at),
    node: run.node,
    log: run.log,
    error: run.error,
    requestedBy: run.requested_by,
  }));
}

import type { Kysely, Transaction } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { checkCronExpression, nextRunTimes } from './cron.js';
import { findJob, insertManualRun, listHandlers, listRuns, lockJobs, setJobStatus } from './job.repository.js';

/** How many coming run times the cron expression editor shows (issue: "the next five run times"). */
export const PREVIEW_RUNS = 5;

/** Fields a job cannot leave empty (spec section 5 "Job: fields cannot be empty"). */
const REQUIRED_FIELDS = ['name', 'handler', 'type', 'cron_expression', 'business_type'] as const;

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Checks a job as it is about to be stored (spec section 5): no required field empty, the
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

/** Activates jobs (spec section 4): their schedule starts; the expression is checked again. */
export async function activateJobs(trx: Transaction<DB>, ids: number[], by: string): Promise<void> {
  const jobs = await lockJobs(trx, ids);
  if (jobs.length !== ids.length) throw new AppError('NO_RECORD');
  for (const job of jobs) {
    const check = checkCronExpression(job.cron_expression);
    if (!check.valid) throw new AppError('CRON_INVALID', { reason: check.reason }, [{ field: 'cron_expression', code: 'CRON_INVALID', params: { reason: check.reason } }]);
  }
  await setJobStatus(trx, ids, 'active', by);
}

/** Inactivates jobs (spec section 4): no further ticks; a run under way finishes. */
export async function inactivateJobs(trx: Transaction<DB>, ids: number[], by: string): Promise<void> {
  const jobs = await lockJobs(trx, ids);
  if (jobs.length !== ids.length) throw new AppError('NO_RECORD');
  await setJobStatus(trx, ids, 'inactive', by);
}

/** "Run now" (`/manual/schedule`): a manual run queued for the next free runner, active job or not. */
export async function requestRun(trx: Transaction<DB>, jobId: number, by: string): Promise<number> {
  const [job] = await lockJobs(trx, [jobId]);
  if (!job) throw new AppError('NO_RECORD');
  return insertManualRun(trx, jobId, by);
}

/** Refuses to delete an active job (spec section 4: "An active one cannot be deleted"). */
export function assertDeletable(job: { status: unknown }): void {
  if (job.status === 'active') throw new AppError('JOB_DELETE_ACTIVE');
}

export async function jobRunHistory(db: Kysely<DB>, jobId: number, limit = 50) {
  if (!(await findJob(db, jobId))) throw new AppError('NO_RECORD');
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

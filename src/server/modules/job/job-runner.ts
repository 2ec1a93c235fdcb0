import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { EventBus } from '../../events/events.js';
import type { AreaRegistry } from '../area-registry.js';
import { raiseNotification } from '../notification/index.js';
import { findJob, findJobParams, jobWatchers, postponeRun, recordRunOutcome, startRun, touchRun } from './job.repository.js';
import { runRefusal } from './job.service.js';

/** How often a running job tells the others it is alive, and when a silent one counts as abandoned. */
export const HEARTBEAT_SECONDS = 15;
export const STALE_SECONDS = 120;

/** How long a run waits for the job's previous run to end before it is skipped. */
const WAIT_FOR_PREVIOUS_SECONDS = 60;

/** The most a retry waits, however often it doubled. */
const MAX_RETRY_DELAY_SECONDS = 3600;

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/**
 * Runs one attempt of a job run: marks it running (at most one per job across every node, by the
 * unique index on running runs), runs the job's handler with its parameters, and records the
 * outcome and log. Before the handler runs, the job is checked against its creator (a project's
 * job needs a creator still working in its project, and parameters within the creator's reach); a
 * job refused so fails without retries. A failed attempt is retried after `retry_delay_seconds`,
 * doubled on each further attempt, up to `retry_limit` retries; the last failure is recorded
 * failed and raises `job.failed`.
 */
export class JobRunner {
  constructor(
    private readonly deps: { db: Kysely<DB>; areas: AreaRegistry; config: AppConfig; logger: FastifyBaseLogger; events: EventBus; node: string },
  ) {}

  async execute(runId: number): Promise<void> {
    try {
      await this.attempt(runId);
    } catch (error) {
      // Whatever went wrong here (the database away), the run is retried by the stale-run sweep.
      this.deps.logger.error({ err: error, runId }, 'job run could not be recorded');
    }
  }

  private async attempt(runId: number): Promise<void> {
    const { db, areas, config, logger, events, node } = this.deps;
    let started: Awaited<ReturnType<typeof startRun>>;
    try {
      started = await inTransaction(db, (trx) => startRun(trx, runId, node));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Another run of this job is under way (on this node or another): this one waits its turn,
      // unless it has waited so long that its tick no longer means anything.
      const waited = await inTransaction(db, (trx) => postponeRun(trx, runId, WAIT_FOR_PREVIOUS_SECONDS));
      if (!waited) {
        await inTransaction(db, (trx) =>
          recordRunOutcome(trx, runId, { status: 'skipped', log: `${new Date().toISOString()} skipped: another run of this job was still running\n`, error: null }),
        );
      }
      return;
    }
    // Finished, or taken by another node already.
    if (!started) return;
    const job = await findJob(db, started.job_id);
    if (!job) return;
    const run = { id: runId, trigger: started.trigger, scheduledFor: new Date(started.scheduled_for) };
    const lines: string[] = [];
    const log = (line: string) => lines.push(`${new Date().toISOString()} ${line}`);
    log(`attempt ${started.attempts} on node ${node}`);
    const heartbeat = setInterval(() => {
      void inTransaction(db, (trx) => touchRun(trx, runId)).catch(() => undefined);
    }, HEARTBEAT_SECONDS * 1000);
    heartbeat.unref();
    let failure: string | undefined;
    // A job that may not run (out of its creator's reach) fails at once: a retry would find the same.
    let final = false;
    try {
      const handler = areas.job(job.handler);
      if (!handler) throw new Error(`no area of this application registers the job handler "${job.handler}"`);
      // Checked before every run, whoever changed the parameters since and however.
      const refusal = await runRefusal(db, { id: Number(job.id), handler: job.handler, project_id: job.project_id, created_by: job.created_by });
      if (refusal !== undefined) {
        final = true;
        throw new Error(`refused: ${refusal}`);
      }
      const params = Object.fromEntries((await findJobParams(db, Number(job.id))).map((p) => [p.name, p.value ?? '']));
      const about = {
        id: Number(job.id),
        name: job.name,
        createdBy: job.created_by,
        projectId: job.project_id === null ? null : Number(job.project_id),
        warehouseId: job.warehouse_id === null ? null : Number(job.warehouse_id),
      };
      await handler.run({ db, params, log, config, logger: logger.child({ job: job.name, runId }), attempt: started.attempts, run, job: about, events });
      log('succeeded');
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
      log(`failed: ${failure}`);
    } finally {
      clearInterval(heartbeat);
    }
    const text = () => `${lines.join('\n')}\n`;
    if (failure === undefined) {
      await inTransaction(db, (trx) => recordRunOutcome(trx, runId, { status: 'succeeded', log: text(), error: null }));
      return;
    }
    if (!final && started.attempts <= job.retry_limit) {
      const delay = Math.min(MAX_RETRY_DELAY_SECONDS, job.retry_delay_seconds * 2 ** (started.attempts - 1));
      log(`retry in ${delay} s`);
      await inTransaction(db, (trx) => recordRunOutcome(trx, runId, { status: 'retrying', log: text(), error: failure, retryInSeconds: delay }));
      return;
    }
    logger.warn({ job: job.name, runId, error: failure }, 'job failed');
    await inTransaction(db, async (trx) => {
      await recordRunOutcome(trx, runId, { status: 'failed', log: text(), error: failure });
      await events.emit(trx, 'job.failed', { jobId: Number(job.id), jobName: job.name, runId, error: failure });
      // The people who watch the job hear of it at once, in every open browser.
      const watchers = await jobWatchers(trx, Number(job.id));
      if (watchers.length === 0) return;
      await raiseNotification(trx, events, {
        userIds: watchers,
        category: 'jobFailed',
        title: { key: 'notification.message.jobFailed' },
        body: { key: 'notification.message.jobFailedBody' },
        params: { job: job.name, error: failure.slice(0, 300) },
        link: 'job',
      });
    });
  }
}

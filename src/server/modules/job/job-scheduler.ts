import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Cron } from 'croner';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { checkCronExpression } from './cron.js';
import type { RunQueue } from './job-queue.js';
import { STALE_SECONDS, type JobRunner } from './job-runner.js';
import { abandonStaleRuns, claimPendingRuns, claimTick, listActiveJobs, releaseQueuedRuns } from './job.repository.js';

/** Ticks one job may catch up in one pass (a node that was paused does not replay a day of seconds). */
const MAX_TICKS_PER_PASS = 10;
const STALE_SWEEP_EVERY = 30;

interface ScheduledJob {
  expression: string;
  cron: Cron;
  /** Ticks after this time are still to be claimed. */
  from: Date;
}

/**
 * Every node runs one scheduler: once a second it evaluates the active jobs' cron expressions
 * (croner) and claims each due tick with an insert that only one node can win (unique index on
 * job and tick), then hands the runs nobody has queued yet (claimed ticks, "run now", retries whose
 * back-off has passed) to the run queue. So each tick runs exactly once across all nodes.
 */
export class JobScheduler {
  private readonly jobs = new Map<number, ScheduledJob>();
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;
  private stopped = false;
  private passes = 0;

  constructor(
    private readonly deps: { db: Kysely<DB>; queue: RunQueue; runner: JobRunner; logger: FastifyBaseLogger; embedded: boolean },
  ) {}

  async start(): Promise<void> {
    const { db, queue, runner, embedded } = this.deps;
    if (embedded) await inTransaction(db, (trx) => releaseQueuedRuns(trx));
    await queue.start((runId) => runner.execute(runId));
    this.schedule(0);
  }

  /** Runs a pass now (after "run now"), instead of at the next second. */
  wake(): void {
    if (this.stopped || this.pass) return;
    clearTimeout(this.timer);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.pass;
    await this.deps.queue.stop();
  }

  private schedule(delay: number): void {
    this.timer = setTimeout(() => {
      this.pass = this.runPass()
        .catch((error: unknown) => this.deps.logger.error({ err: error }, 'job scheduler pass failed'))
        .finally(() => {
          this.pass = undefined;
          // Just after the next whole second, when the ticks of that second are due.
          if (!this.stopped) this.schedule(1000 - (Date.now() % 1000) + 20);
        });
    }, delay);
  }

  private async runPass(): Promise<void> {
    const { db, queue, logger } = this.deps;
    const now = new Date();
    const active = await listActiveJobs(db);
    const seen = new Set<number>();
    for (const job of active) {
      const id = Number(job.id);
      seen.add(id);
      let scheduled = this.jobs.get(id);
      if (!scheduled || scheduled.expression !== job.cron_expression) {
        const check = checkCronExpression(job.cron_expression);
        if (!check.valid) continue;
        // A tick of the last second still counts: the job may have been activated just before it.
        scheduled = { expression: job.cron_expression, cron: check.cron, from: new Date(now.getTime() - 1000) };
        this.jobs.set(id, scheduled);
      }
      const ticks: Date[] = [];
      for (let next = scheduled.cron.nextRun(scheduled.from); next && next <= now && ticks.length < MAX_TICKS_PER_PASS; next = scheduled.cron.nextRun(next)) {
        ticks.push(next);
      }
      scheduled.from = ticks.length === MAX_TICKS_PER_PASS ? ticks[ticks.length - 1] : now;
      const startTime = job.start_time ? new Date(job.start_time) : undefined;
      for (const tick of ticks) {
        if (startTime && tick < startTime) continue;
        await inTransaction(db, (trx) => claimTick(trx, id, tick));
      }
    }
    for (const id of this.jobs.keys()) if (!seen.has(id)) this.jobs.delete(id);

    this.passes += 1;
    if (this.passes % STALE_SWEEP_EVERY === 1) {
      const abandoned = await inTransaction(db, (trx) => abandonStaleRuns(trx, STALE_SECONDS));
      if (abandoned.length) logger.warn({ runs: abandoned.map((r) => Number(r.id)) }, 'job runs abandoned by a stopped node');
    }

    const pending = await inTransaction(db, (trx) => claimPendingRuns(trx, 20));
    for (const runId of pending) await queue.send(runId);
  }
}

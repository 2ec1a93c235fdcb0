import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import type { DB } from '../../db/schema.js';
import { pgBossDatabase } from './job.repository.js';

/** Hands claimed job runs to a runner: on this node only (embedded database) or on any node (pg-boss). */
export interface RunQueue {
  start(execute: (runId: number) => Promise<void>): Promise<void>;
  send(runId: number): Promise<void>;
  /** Stops taking runs and waits (a bounded time) for those under way. */
  stop(): Promise<void>;
}

/** How long a stop waits for runs under way before it lets the process go (their heartbeat then lapses). */
const STOP_WAIT_MS = 5000;

/**
 * The queue on the embedded database (PGlite): one process owns the database, so the runs it
 * claims are run here, at once. The same run rows, claims, locks and retries as on the server.
 */
export class InProcessRunQueue implements RunQueue {
  private execute: ((runId: number) => Promise<void>) | undefined;
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  async start(execute: (runId: number) => Promise<void>): Promise<void> {
    this.execute = execute;
  }

  async send(runId: number): Promise<void> {
    if (this.stopped || !this.execute) return;
    const work = this.execute(runId).finally(() => this.running.delete(work));
    this.running.add(work);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (!this.running.size) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(timer);
  }
}

export const PG_BOSS_QUEUE = 'wms-job-run';

/**
 * The queue on the PostgreSQL server: pg-boss, in its own schema of the application's database,
 * through the application's pool. Any node's worker may take a run another node claimed.
 */
export class PgBossRunQueue implements RunQueue {
  private boss: PgBoss | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly logger: FastifyBaseLogger,
  ) {}

  async start(execute: (runId: number) => Promise<void>): Promise<void> {
    // Loaded here, not with the module: a server without the scheduler never needs it.
    const { default: Boss } = await import('pg-boss');
    const boss = new Boss({
      db: pgBossDatabase(this.db),
      // The schedules are ours (croner, Quartz syntax); pg-boss only carries the runs.
      schedule: false,
      supervise: true,
      retryLimit: 0,
    });
    boss.on('error', (error) => this.logger.error({ err: error }, 'job queue error'));
    await boss.start();
    this.boss = boss;
    await boss.createQueue(PG_BOSS_QUEUE);
    await boss.work<{ runId: number }>(PG_BOSS_QUEUE, { pollingIntervalSeconds: 0.5, batchSize: 1 }, async ([job]) => {
      await execute(job.data.runId);
    });
  }

  async send(runId: number): Promise<void> {
    if (!this.boss) throw new Error('the job queue is not started');
    await this.boss.send(PG_BOSS_QUEUE, { runId }, { retryLimit: 0 });
  }

  async stop(): Promise<void> {
    const boss = this.boss;
    this.boss = undefined;
    // The pool is the application's: pg-boss must not close it.
    await boss?.stop({ graceful: true, wait: true, timeout: STOP_WAIT_MS, close: false });
  }
}

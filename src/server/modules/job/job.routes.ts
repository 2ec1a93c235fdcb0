import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { translate } from '../../http/i18n.js';
import { requireUser } from '../../http/access-plugin.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { inTransaction } from '../../db/transaction.js';
import { CRON_MAX_LENGTH } from './cron.js';
import { InProcessRunQueue, PgBossRunQueue } from './job-queue.js';
import { JobRunner } from './job-runner.js';
import { JobScheduler } from './job-scheduler.js';
import { listActiveJobs, listHandlers, syncJobHandlers, type JobViewer } from './job.repository.js';
import { activateJobs, inactivateJobs, jobRunHistory, previewCron, requestRun } from './job.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
/** The options of a job route: who may call it, its summary, request and answer, or an error body. */
const route = routeOptions(['job'], errors);
const VIEW = { right: 'job.job:view', scope: 'none' } as const;
const JobId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const JobIds = Type.Object({ ids: Type.Array(JobId, { minItems: 1, maxItems: 100 }) }, { additionalProperties: false });
const Ok = Type.Object({ ok: Type.Literal(true) });

/** The caller as a viewer of jobs: the session's project's jobs, and the system jobs for an administrator. */
function viewerOf(request: FastifyRequest): JobViewer {
  const user = requireUser(request);
  return { projectId: user.projectId, isAdmin: user.isAdmin };
}

const CronPreview = Type.Union([
  Type.Object({ valid: Type.Literal(true), nextRuns: Type.Array(Type.String()) }),
  Type.Object({ valid: Type.Literal(false), reason: Type.String() }),
]);

const Run = Type.Object({
  id: Type.Integer(),
  trigger: Type.String(),
  scheduledFor: Type.String(),
  status: Type.String(),
  attempts: Type.Integer(),
  startedAt: Type.Union([Type.String(), Type.Null()]),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  node: Type.Union([Type.String(), Type.Null()]),
  log: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
  requestedBy: Type.Union([Type.String(), Type.Null()]),
});

/**
 * Jobs and timers (`/job/*`, `/timer/*`, `/schedule*`, `/manual/schedule`). The
 * records themselves are edited through the engine (definitions/job); these calls are what the
 * engine cannot do: the cron expression editor's preview, the handler list, activate and
 * inactivate, "run now" and the run history, each for the jobs of the session's project only (and
 * the system jobs, for an administrator). The plugin also starts this node's scheduler with the
 * application (unless JOB_SCHEDULER is off) and stops it on close.
 */
export const jobRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  let scheduler: JobScheduler | undefined;

  app.addHook('onReady', async () => {
    await inTransaction(db, (trx) => syncJobHandlers(trx, app.areas.jobHandlers()));
    if (!app.config.jobScheduler) return;
    const embedded = app.database.kind === 'pglite';
    const runner = new JobRunner({ db, areas: app.areas, config: app.config, logger: app.log, events: app.events, node: app.events.node });
    const queue = embedded ? new InProcessRunQueue() : new PgBossRunQueue(db, app.log);
    scheduler = new JobScheduler({ db, queue, runner, logger: app.log, embedded });
    await scheduler.start();
  });
  app.addHook('onClose', async () => {
    await scheduler?.stop();
  });

  app.post(
    '/job/cron',
    route(
      VIEW,
      'Checks a Quartz-style cron expression and answers its next five run times (the cron expression editor)',
      { body: Type.Object({ expression: Type.String({ maxLength: CRON_MAX_LENGTH * 2 }) }, { additionalProperties: false }) },
      CronPreview,
    ),
    async (request) => previewCron(request.body.expression),
  );

  app.get(
    '/job/handlers',
    route(
      VIEW,
      'The job handlers (classes) the application registers',
      {},
      Type.Object({ items: Type.Array(Type.Object({ name: Type.String(), area: Type.String(), available: Type.Boolean(), description: Type.Union([Type.String(), Type.Null()]) })) }),
    ),
    // What each class does and its parameters, in the caller's language (`job.handler.<name>`).
    async (request) => ({
      items: (await listHandlers(db)).map((handler) => {
        const key = `job.handler.${handler.name}`;
        const text = translate(request.language, key);
        return { ...handler, description: text === key ? null : text };
      }),
    }),
  );

  app.get(
    '/job/runs',
    route(
      VIEW,
      "A job's run history, newest first: start, end, outcome and log",
      { querystring: Type.Object({ jobId: JobId, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }, { additionalProperties: false }) },
      Type.Object({ items: Type.Array(Run) }),
    ),
    async (request) => ({ items: await jobRunHistory(db, viewerOf(request), request.query.jobId, request.query.limit) }),
  );

  app.get(
    '/schedule',
    route(
      VIEW,
      "The active jobs and timers of the session's project (and, for an administrator, the system jobs) with their next run time",
      {},
      Type.Object({ items: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), cronExpression: Type.String(), nextRun: Type.Union([Type.String(), Type.Null()]) })) }),
    ),
    async (request) => {
      const jobs = await listActiveJobs(db, viewerOf(request));
      return {
        items: jobs.map((job) => {
          const preview = previewCron(job.cron_expression);
          return { id: Number(job.id), name: job.name, cronExpression: job.cron_expression, nextRun: preview.valid ? (preview.nextRuns[0] ?? null) : null };
        }),
      };
    },
  );

  // Activate and inactivate: the same call over the same ids, each with its own verb.
  const statusCalls = [
    { url: '/schedule/addJob', right: 'job.job:activate', summary: 'Activates jobs: their schedule starts', change: activateJobs },
    { url: '/schedule/deleteJob', right: 'job.job:inactivate', summary: 'Inactivates jobs: their schedule stops', change: inactivateJobs },
  ] as const;
  for (const { url, right, summary, change } of statusCalls) {
    app.post(url, route({ right, scope: 'none' }, summary, { body: JobIds }, Ok), async (request) => {
      const user = requireUser(request);
      await inTransaction(db, (trx) => change(trx, request.body.ids, user.loginAccount, viewerOf(request)));
      return { ok: true as const };
    });
  }

  app.post(
    '/manual/schedule',
    route(
      { right: 'job.job:run', scope: 'none' },
      'Runs a job now, whatever its schedule; answers the run, whose outcome appears in the history',
      { body: Type.Object({ id: JobId }, { additionalProperties: false }) },
      Type.Object({ runId: Type.Integer() }),
    ),
    async (request) => {
      const user = requireUser(request);
      const runId = await inTransaction(db, (trx) => requestRun(trx, request.body.id, user.loginAccount, viewerOf(request)), { afterCommit: () => scheduler?.wake() });
      return { runId };
    },
  );
};

import { defineModule } from '../area.js';
import { purgeIdempotencyKeysJob } from '../../area-kit/idempotency.js';
import * as m0070 from './migrations/0070_job.js';
import * as m0221 from './migrations/0221_job_scope.js';
import { jobBehaviours, jobRightVerbs } from './job.behaviours.js';
import { jobRoutes } from './job.routes.js';
import { jobParamWriter, jobWriter } from './job.writer.js';
import './job.events.js';
import './job.tables.js';

/**
 * Scheduled jobs and timers (/job, /timer, /schedule, /manual/schedule):
 * jobs name a handler another area registers in its `jobs`, run on a Quartz-style cron expression
 * (croner) or on "run now", once per tick across every node (pg-boss on the PostgreSQL server, an
 * in-process queue on the embedded database), with retries, back-off and a run history. A job
 * belongs to the project it was made in; jobs of system classes belong to none and are for
 * administrators only.
 */
export const jobModule = defineModule({
  name: 'job',
  migrations: { '0070_job': m0070, '0221_job_scope': m0221 },
  routes: jobRoutes,
  behaviours: jobBehaviours,
  writers: [jobWriter, jobParamWriter],
  rights: jobRightVerbs,
  serviceOnlyTables: ['job_run'],
  // The kernel's idempotency keys of scan calls (docs/handheld.md) are removed by a job of this class.
  jobs: [purgeIdempotencyKeysJob],
  pages: [
    { route: 'job', group: 'billingJobs', opens: { definitionOf: 'job' } },
    { route: 'timer', group: 'billingJobs', opens: { definitionOf: 'job' } },
  ],
  readModels: [
    { name: 'job.viewers', files: ['job.repository.ts'], reads: ['app_user', 'project', 'project_warehouse', 'user_project', 'user_warehouse', 'warehouse'], purpose: 'who may see and run a job: the projects and warehouses of its maker and of the viewer' },
  ],
});

import type { EngineSession } from '../../../../engine/server/index.js';
import { defineBehaviour, type BehaviourDefinition } from '../area.js';
import type { JobViewer } from './job.repository.js';
import { activateJobs, inactivateJobs, requestRun } from './job.service.js';

/** The two screens over jobs: /job and /timer (spec section 2), each with its own verbs. */
export const JOB_PAGES = ['job', 'timer'] as const;

function keys(rows: { _key: string | number }[]): number[] {
  return rows.map((row) => Number(row._key));
}

/** The rows reach a behaviour through the page's row filter already; the service checks again. */
function viewerOf(session: EngineSession): JobViewer {
  return { projectId: session.projectId, isAdmin: session.isAdmin === true };
}

/** Activate, inactivate and "run now" of one screen (spec section 4: a job or timer can be activated and inactivated). */
function pageBehaviours(page: (typeof JOB_PAGES)[number]): BehaviourDefinition[] {
  return [
    defineBehaviour({
      name: `job.${page}.activate`,
      right: `job.${page}:activate`,
      async run({ trx, rows, session }) {
        await activateJobs(trx, keys(rows), session.loginAccount, viewerOf(session));
        return { messageCode: 'job.message.activated', messageParams: { count: rows.length } };
      },
    }),
    defineBehaviour({
      name: `job.${page}.inactivate`,
      right: `job.${page}:inactivate`,
      async run({ trx, rows, session }) {
        await inactivateJobs(trx, keys(rows), session.loginAccount, viewerOf(session));
        return { messageCode: 'job.message.inactivated', messageParams: { count: rows.length } };
      },
    }),
    defineBehaviour({
      name: `job.${page}.run`,
      right: `job.${page}:run`,
      async run({ trx, rows, session }) {
        const runIds: number[] = [];
        for (const id of keys(rows)) runIds.push(await requestRun(trx, id, session.loginAccount, viewerOf(session)));
        return { result: { runIds }, messageCode: 'job.message.runQueued', messageParams: { count: runIds.length } };
      },
    }),
  ];
}

export const jobBehaviours = JOB_PAGES.flatMap(pageBehaviours);

export const jobRightVerbs = JOB_PAGES.flatMap((page) =>
  (['activate', 'inactivate', 'run'] as const).map((verb) => ({ right: `job.${page}:${verb}` as const, labelCode: `job.verb.${verb}` })),
);

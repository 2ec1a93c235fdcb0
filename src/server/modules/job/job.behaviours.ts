import type { EngineSession } from '../../../../engine/server/index.js';
import { defineBehaviour, type BehaviourDefinition } from '../area.js';
import type { JobViewer } from './job.repository.js';
import { activateJobs, inactivateJobs, requestRun } from './job.service.js';

/** The two screens over jobs: /job and /timer, each with its own verbs. */
export const JOB_PAGES = ['job', 'timer'] as const;

function keys(rows: { _key: string | number }[]): number[] {
  return rows.map((row) => Number(row._key));
}

/** The rows reach a behaviour through the page's row filter already; the service checks again. */
function viewerOf(session: EngineSession): JobViewer {
  return { projectId: session.projectId, isAdmin: session.isAdmin === true };
}

/** Activate and inactivate: the same change of status over the rows, each with its verb and message. */
const STATUS_VERBS = [
  { verb: 'activate', change: activateJobs, messageCode: 'job.message.activated' },
  { verb: 'inactivate', change: inactivateJobs, messageCode: 'job.message.inactivated' },
] as const;

/** Activate, inactivate and "run now" of one screen: a job or timer can be activated and inactivated. */
function pageBehaviours(page: (typeof JOB_PAGES)[number]): BehaviourDefinition[] {
  return [
    ...STATUS_VERBS.map(({ verb, change, messageCode }) =>
      defineBehaviour({
        name: `job.${page}.${verb}`,
        right: `job.${page}:${verb}`,
        async run({ trx, rows, session }) {
          await change(trx, keys(rows), session.loginAccount, viewerOf(session));
          return { messageCode, messageParams: { count: rows.length } };
        },
      }),
    ),
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

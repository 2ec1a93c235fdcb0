import { sql } from 'kysely';
import type { RowFilter } from '../../../../engine/server/index.js';

/**
 * The row filters page definitions may name (`rowFilter`, issue 9 item 5): what a caller who is not
 * an administrator may see of the access masters, whoever holds the page's view right. Users: those
 * who share a project with the caller; projects, warehouses and organizations: those granted to
 * the caller.
 */
export const ROW_FILTERS: ReadonlyMap<string, RowFilter> = new Map<string, RowFilter>([
  [
    'access.usersSharingProject',
    (session, key) =>
      session.isAdmin
        ? undefined
        : sql`exists (
            select 1 from user_project mine join user_project theirs on theirs.project_id = mine.project_id
            where mine.user_id = ${session.userId} and theirs.user_id = ${key}
          )`,
  ],
  ['access.grantedProjects', (session, key) => (session.isAdmin ? undefined : sql`${key} in (select g.project_id from user_project g where g.user_id = ${session.userId})`)],
  ['access.grantedWarehouses', (session, key) => (session.isAdmin ? undefined : sql`${key} in (select g.warehouse_id from user_warehouse g where g.user_id = ${session.userId})`)],
  [
    'access.grantedOrganizations',
    (session, key) => (session.isAdmin ? undefined : sql`${key} in (select g.organization_id from user_organization g where g.user_id = ${session.userId})`),
  ],
  // /job and /timer are two screens over one table (spec section 3: "A timer entity also exists"); for everyone.
  ['job.jobsOnly', (_session, key) => sql`${key} in (select j.id from job j where j.type = 'job')`],
  ['job.timersOnly', (_session, key) => sql`${key} in (select j.id from job j where j.type = 'timer')`],
]);

import { sql } from 'kysely';
import type { EngineSession, RowFilter } from '../../../../../engine/server/index.js';

/** The grant's user shares a project with the caller (the /user screen's own filter, on a grant row). */
const sharesProject = (callerId: number) =>
  sql`exists (select 1 from user_project mine join user_project theirs on theirs.project_id = mine.project_id where mine.user_id = ${callerId} and theirs.user_id = g.user_id)`;

/**
 * Grants (`grants`, a user_organization or user_warehouse row `g`) of users who share a project with
 * the caller, of an organization or warehouse (`column`) granted to the caller too.
 */
const grantsOfCallersScopes =
  (grants: 'user_organization' | 'user_warehouse', column: 'organization_id' | 'warehouse_id'): RowFilter =>
  (session, key) =>
    session.isAdmin
      ? undefined
      : sql`${key} in (select g.id from ${sql.table(grants)} g where ${sharesProject(session.userId)}
          and ${sql.ref(`g.${column}`)} in (select ${sql.ref(`m.${column}`)} from ${sql.table(grants)} m where m.user_id = ${session.userId}))`;

/**
 * Rows of a table that carries project_id, on a page scoped by warehouse: only those of the session's
 * project too (a warehouse may serve several projects; one project's users see nothing of another's).
 */
const ofSessionProject =
  (table: string): RowFilter =>
  (session, key) =>
    session.projectId === null ? sql`false` : sql`${key} in (select x.id from ${sql.table(table)} x where x.project_id = ${session.projectId})`;

/** A job (`j`) the session sees: of its project, or, for an administrator, of no project (a system job). */
const visibleJob = (session: EngineSession) => {
  const own = session.projectId === null ? sql`false` : sql`j.project_id = ${session.projectId}`;
  return session.isAdmin ? sql`(${own} or j.project_id is null)` : own;
};

/**
 * The row filters page definitions may name (`rowFilter`): what a caller who is not
 * an administrator may see of the access masters, whoever holds the page's view right. Users: those
 * who share a project with the caller; projects, warehouses and organizations: those granted to
 * the caller; grants of users (the tabs of /user): only those of users who share a project with the
 * caller, and of organizations, projects and warehouses only those granted to the caller too, so
 * that a project's administrator sees nothing of other projects through another user's grants.
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
  ['access.organizationGrants', grantsOfCallersScopes('user_organization', 'organization_id')],
  [
    'access.projectGrants',
    (session, key) =>
      session.isAdmin
        ? undefined
        : sql`${key} in (select g.id from user_project g where g.project_id in (select m.project_id from user_project m where m.user_id = ${session.userId}))`,
  ],
  ['access.warehouseGrants', grantsOfCallersScopes('user_warehouse', 'warehouse_id')],
  // The users tab of /role: grants of the role to enabled users only (and, for a non-administrator, users sharing a project).
  [
    'access.enabledRoleHolders',
    (session, key) =>
      sql`${key} in (select g.id from user_role g join app_user u on u.id = g.user_id where u.enabled${session.isAdmin ? sql`` : sql` and ${sharesProject(session.userId)}`})`,
  ],
  ['access.roleGrants', (session, key) => (session.isAdmin ? undefined : sql`${key} in (select g.id from user_role g where ${sharesProject(session.userId)})`)],
  // ASNs carry their warehouse: the /asn and /asnStatic pages list only those of the session's warehouse (administrators too).
  [
    'inbound.sessionWarehouseAsns',
    (session, key) => (session.warehouseId === null ? sql`false` : sql`${key} in (select a.id from asn a where a.warehouse_id = ${session.warehouseId})`),
  ],
  // The outbound pages are scoped by warehouse; these keep them to the session's project as well (administrators too).
  ['outbound.sessionProjectOrders', ofSessionProject('so_header')],
  ['outbound.sessionProjectOrderLines', ofSessionProject('so_line')],
  ['outbound.sessionProjectAllocations', ofSessionProject('so_allocation')],
  ['outbound.sessionProjectWaves', ofSessionProject('wave')],
  ['outbound.sessionProjectPickTasks', ofSessionProject('pick_task')],
  ['outbound.sessionProjectPsos', ofSessionProject('pso_header')],
  ['outbound.sessionProjectPsoLines', ofSessionProject('pso_line')],
  ['outbound.sessionProjectShipmentOrders', ofSessionProject('shipment_order')],
  ['outbound.sessionProjectMaintenance', ofSessionProject('so_maintenance')],
  // /job and /timer are two screens over one table ("A timer entity also exists"),
  // each listing the jobs of the session's project (administrators also the system jobs, of no
  // project); the parameter and run tabs only those of such jobs.
  ['job.jobsOnly', (session, key) => sql`${key} in (select j.id from job j where j.type = 'job' and ${visibleJob(session)})`],
  ['job.timersOnly', (session, key) => sql`${key} in (select j.id from job j where j.type = 'timer' and ${visibleJob(session)})`],
  ['job.paramsOfVisibleJobs', (session, key) => sql`${key} in (select p.id from job_param p join job j on j.id = p.job_id where ${visibleJob(session)})`],
  ['job.runsOfVisibleJobs', (session, key) => sql`${key} in (select r.id from job_run r join job j on j.id = r.job_id where ${visibleJob(session)})`],
]);

/**
 * Users granted the session's project; an administrator chooses among every user, as on /user.
 */
const usersOfSessionProject: RowFilter = (session, key) => {
  if (session.isAdmin) return undefined;
  if (session.projectId === null) return sql`false`;
  return sql`${key} in (select g.user_id from user_project g where g.project_id = ${session.projectId})`;
};

/**
 * The access masters a dropdown offers (a foreign-table choice of any page): a caller who is not an
 * administrator chooses only among the organizations, projects and warehouses granted to it, and
 * among the users granted the session's project; jobs as the job screens show them.
 */
export const FOREIGN_ROW_FILTERS: ReadonlyMap<string, RowFilter> = new Map<string, RowFilter>([
  ['app_user', usersOfSessionProject],
  ['job', (session, key) => sql`${key} in (select j.id from job j where ${visibleJob(session)})`],
  ['organization', ROW_FILTERS.get('access.grantedOrganizations')!],
  ['project', ROW_FILTERS.get('access.grantedProjects')!],
  ['warehouse', ROW_FILTERS.get('access.grantedWarehouses')!],
]);

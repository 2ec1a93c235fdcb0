import type { Kysely } from 'kysely';
import { AppError } from '../../../../common/errors.js';
import type { MenuAnswer, MenuItem, ScopeOption, UserStatus } from '../../../../common/api-types.js';
import { isLanguage, DEFAULT_LANGUAGE } from '../../../../common/languages.js';
import type { DB } from '../../../db/schema.js';
import type { SessionUser } from '../../../http/access.js';
import { findSessionById, setSessionScope, setSessionSimulation } from '../auth/session.repository.js';
import { findUserById } from '../user/user.repository.js';
import {
  countUserRoles,
  findModules,
  findOrganization,
  findProjectNav,
  findProjectWarehouseIds,
  findUserPermissions,
  findUserProjects,
  findUserWarehouses,
  findWarehouseNav,
  insertAuditLog,
  type ScopeRow,
} from './access.repository.js';
import { parseRight, rowGrants, rowsGrant } from './rights.js';
import { inTransaction } from '../../../db/transaction.js';

export interface Scope {
  projectId: number | null;
  warehouseId: number | null;
}

/**
 * The scope a new session starts in: the user's default project if still granted, else the first
 * granted one; a warehouse of that project among the granted ones, else the first granted one.
 */
export async function chooseInitialScope(
  db: Kysely<DB>,
  user: { id: number; is_admin: boolean; default_project_id: number | null; default_warehouse_id: number | null },
): Promise<Scope> {
  const projects = await findUserProjects(db, user.id, user.is_admin);
  const warehouses = await findUserWarehouses(db, user.id, user.is_admin);
  const project = projects.find((p) => p.id === user.default_project_id) ?? projects[0];
  let warehouse: ScopeRow | undefined = warehouses.find((w) => w.id === user.default_warehouse_id);
  if (!warehouse && project) {
    const linked = new Set(await findProjectWarehouseIds(db, project.id));
    warehouse = warehouses.find((w) => linked.has(w.id));
  }
  warehouse ??= warehouses[0];
  return { projectId: project?.id ?? null, warehouseId: warehouse?.id ?? null };
}

/** Whether the account holds any right at all (otherwise "contact an administrator"). */
export async function userHasRights(db: Kysely<DB>, user: Pick<SessionUser, 'userId' | 'isAdmin'>): Promise<boolean> {
  if (user.isAdmin) return true;
  if ((await countUserRoles(db, user.userId)) === 0) return false;
  return (await findUserPermissions(db, user.userId)).some((row) => rowGrants(row, 'view'));
}

const option = (row: { id: number; code: string; name: string }): ScopeOption => ({ id: row.id, code: row.code, name: row.name });

/** `GET /api/user/status` (shape UserStatus). */
export async function getStatus(db: Kysely<DB>, sessionUser: SessionUser): Promise<UserStatus> {
  const user = await findUserById(db, sessionUser.userId);
  const session = await findSessionById(db, sessionUser.sessionId);
  if (!user || !session) throw new AppError('UNAUTHENTICATED');
  const projects = await findUserProjects(db, user.id, user.is_admin);
  const warehouses = await findUserWarehouses(db, user.id, user.is_admin);
  const project = sessionUser.projectId === null ? undefined : await findProjectNav(db, sessionUser.projectId);
  const warehouse = sessionUser.warehouseId === null ? undefined : await findWarehouseNav(db, sessionUser.warehouseId);
  const organization = sessionUser.organizationId === null ? undefined : await findOrganization(db, sessionUser.organizationId);
  let simulatedBy: UserStatus['simulatedBy'] = null;
  if (sessionUser.simulatedBy !== null) {
    const admin = await findUserById(db, sessionUser.simulatedBy);
    simulatedBy = { uid: sessionUser.simulatedBy, loginAccount: admin?.login_account ?? '' };
  }
  return {
    user: {
      uid: user.id,
      loginAccount: user.login_account,
      displayName: user.display_name,
      language: isLanguage(user.language) ? user.language : DEFAULT_LANGUAGE,
      email: user.email,
      timeZone: user.time_zone,
      isAdmin: user.is_admin,
    },
    organization: organization ? option(organization) : null,
    project: project ? option(project) : null,
    warehouse: warehouse ? option(warehouse) : null,
    projects: projects.map(option),
    warehouses: warehouses.map(option),
    // A project or warehouse setting chooses the layout; the warehouse's wins.
    navLayout: warehouse?.nav_layout ?? project?.nav_layout ?? 'left',
    simulatedBy,
    hasRights: await userHasRights(db, sessionUser),
    expiresAt: new Date(session.expires_at).toISOString(),
  };
}

/** `GET /api/user/menu`: the modules the user may view, grouped (admins see every module). */
export async function getMenu(db: Kysely<DB>, user: SessionUser): Promise<MenuAnswer> {
  const modules = await findModules(db);
  let visible: (entry: (typeof modules)[number]) => boolean = () => true;
  if (!user.isAdmin) {
    const rows = await findUserPermissions(db, user.userId);
    // Home is everybody's start page once the account holds any right at all.
    const anyRight = rows.some((r) => rowGrants(r, 'view'));
    visible = (entry) =>
      (entry.code === 'home' && anyRight) || rowsGrant(rows, parseRight(`${entry.right_name ?? entry.code}:view`));
  }
  const groups: MenuItem[] = [];
  for (const group of modules.filter((m) => m.parent_code === null)) {
    const children = modules
      .filter((m) => m.parent_code === group.code && m.route !== null && visible(m))
      .map((m): MenuItem => ({ code: m.code, titleKey: m.title_key, route: m.route ?? undefined }));
    if (children.length) groups.push({ code: group.code, titleKey: group.title_key, children });
  }
  return { items: groups };
}

/** The user's rights, merged over its enabled roles (`GET /api/permission`). */
export async function getPermissions(db: Kysely<DB>, user: SessionUser) {
  if (user.isAdmin) return { isAdmin: true, permissions: [] };
  const merged = new Map<string, { module: string; subModule: string | null; view: boolean; add: boolean; edit: boolean; delete: boolean }>();
  for (const row of await findUserPermissions(db, user.userId)) {
    const key = `${row.module_code}.${row.sub_module_code ?? ''}`;
    const entry = merged.get(key) ?? { module: row.module_code, subModule: row.sub_module_code, view: false, add: false, edit: false, delete: false };
    entry.view ||= rowGrants(row, 'view');
    entry.add ||= row.can_add;
    entry.edit ||= row.can_edit;
    entry.delete ||= row.can_delete;
    merged.set(key, entry);
  }
  return { isAdmin: false, permissions: [...merged.values()] };
}

function findByIdOrCode(rows: ScopeRow[], ref: { id?: number; code?: string }): ScopeRow | undefined {
  return rows.find((r) => (ref.id !== undefined && r.id === ref.id) || (ref.code !== undefined && r.code.toLowerCase() === ref.code.toLowerCase()));
}

/** `POST /api/user/project`: switches the session's project among the granted ones. */
export async function switchProject(db: Kysely<DB>, user: SessionUser, ref: { id?: number; code?: string }): Promise<void> {
  const projects = await findUserProjects(db, user.userId, user.isAdmin);
  const project = findByIdOrCode(projects, ref);
  // A project the user was not granted answers like one that does not exist.
  if (!project) throw new AppError('OUT_OF_SCOPE');
  await inTransaction(db, async (trx) => {
    let warehouseId = user.warehouseId;
    const linked = await findProjectWarehouseIds(trx, project.id);
    // Keep the warehouse if the new project runs in it; otherwise move to one that it runs in.
    if (linked.length && (warehouseId === null || !linked.includes(warehouseId))) {
      const warehouses = await findUserWarehouses(trx, user.userId, user.isAdmin);
      warehouseId = warehouses.find((w) => linked.includes(w.id))?.id ?? warehouseId;
    }
    await setSessionScope(trx, user.sessionId, { projectId: project.id, warehouseId });
  });
}

/** `POST /api/user/whs`: switches the session's warehouse among the granted ones. */
export async function switchWarehouse(db: Kysely<DB>, user: SessionUser, ref: { id?: number; code?: string }): Promise<void> {
  const warehouses = await findUserWarehouses(db, user.userId, user.isAdmin);
  const warehouse = findByIdOrCode(warehouses, ref);
  if (!warehouse) throw new AppError('OUT_OF_SCOPE');
  await inTransaction(db, (trx) => setSessionScope(trx, user.sessionId, { warehouseId: warehouse.id }));
}

/** `POST /api/user/simulate`: an administrator's session acts as another user until released. */
export async function simulateUser(db: Kysely<DB>, admin: SessionUser, targetUserId: number): Promise<void> {
  if (admin.simulatedBy !== null) throw new AppError('BAD_REQUEST', { reason: 'release the simulated user first' });
  await inTransaction(db, async (trx) => {
    const target = await findUserById(trx, targetUserId);
    if (!target) throw new AppError('USER_NOT_FOUND');
    if (!target.enabled) throw new AppError('ACCOUNT_DISABLED');
    const scope = await chooseInitialScope(trx, target);
    await setSessionSimulation(trx, admin.sessionId, target.id, scope);
    await insertAuditLog(trx, { actorUserId: admin.userId, action: 'user.simulate', targetUserId: target.id, details: { sessionId: admin.sessionId } });
  });
}

/** `POST /api/user/release`: ends the simulation and returns the session to its administrator. */
export async function releaseUser(db: Kysely<DB>, user: SessionUser): Promise<void> {
  if (user.simulatedBy === null) throw new AppError('BAD_REQUEST', { reason: 'no user is being simulated' });
  const adminId = user.simulatedBy;
  await inTransaction(db, async (trx) => {
    const admin = await findUserById(trx, adminId);
    if (!admin) throw new AppError('UNAUTHENTICATED');
    const scope = await chooseInitialScope(trx, admin);
    await setSessionSimulation(trx, user.sessionId, null, scope);
    await insertAuditLog(trx, { actorUserId: adminId, action: 'user.release', targetUserId: user.userId, details: { sessionId: user.sessionId } });
  });
}

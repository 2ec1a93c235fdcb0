import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../../common/errors.js';
import { toLanguage } from '../../../../common/languages.js';
import type { DB } from '../../../db/schema.js';
import type { SessionUser } from '../../../http/access.js';
import { requireProject } from '../../../http/access-plugin.js';
import { requireRight } from '../access/rights.js';
import { findUserProjects, findUserWarehouses, insertAuditLog } from '../access/access.repository.js';
import { assertEmail } from '../auth/account.service.js';
import { assertNewPassword } from '../auth/password-rules.js';
import { hashPassword } from '../auth/password.js';
import { revokeUserSessions } from '../auth/session.repository.js';
import {
  findUserById,
  findUserByLogin,
  findUserByEmail,
  findUserGrants,
  insertUser,
  listAssignableRoles,
  listLoginAccounts,
  listOrganizations,
  listUsers,
  PROFILE_COLUMNS,
  replaceGrants,
  setUsersEnabled,
  updatePasswordHash,
  updateUserRecord,
  userHasProject,
  type ProfileColumn,
  type UserRow,
} from './user.repository.js';
import { inTransaction } from '../../../db/transaction.js';
import { assertCoordinates } from './user-coordinates.js';
import { rolesWithinReach, withdrawOrphanWarehouses } from './user-reach.js';
import { pageAnswer, paging } from '../paged-list.js';

/**
 * The project a non-administrator administers users in: the session's current one. Users without a
 * grant of it are, for that editor, records that do not exist (NO_RECORD), neither readable nor
 * writable. Administrators see every user.
 */
function editorProject(editor: SessionUser): number | undefined {
  return editor.isAdmin ? undefined : requireProject(editor).projectId;
}

async function findVisibleUser(db: Kysely<DB>, editor: SessionUser, uid: number): Promise<UserRow> {
  const user = await findUserById(db, uid);
  const projectId = editorProject(editor);
  if (!user || (projectId !== undefined && !(await userHasProject(db, uid, projectId)))) throw new AppError('NO_RECORD');
  return user;
}

function present(user: UserRow) {
  const profile = Object.fromEntries(PROFILE_COLUMNS.map((c) => [camel(c), user[c]]));
  return {
    uid: user.id,
    loginAccount: user.login_account,
    displayName: user.display_name,
    email: user.email,
    language: user.language,
    timeZone: user.time_zone,
    enabled: user.enabled,
    isAdmin: user.is_admin,
    lockedUntil: user.locked_until ? new Date(user.locked_until).toISOString() : null,
    twoStep: { email: user.two_step_email, sms: user.two_step_sms, totp: user.totp_secret !== null },
    defaultProjectId: user.default_project_id,
    defaultWarehouseId: user.default_warehouse_id,
    updatedAt: new Date(user.updated_at).toISOString(),
    ...profile,
  };
}

function camel(column: string): string {
  return column.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()).replace(/(\d)$/, '$1');
}

export async function listUsersFor(db: Kysely<DB>, editor: SessionUser, input: { page?: number; pageSize?: number; search?: string; enabled?: boolean }) {
  const page = paging(input);
  const listed = await listUsers(db, { search: input.search?.trim() || undefined, enabled: input.enabled, projectId: editorProject(editor) }, page);
  return pageAnswer(page, listed, (r) => ({
    uid: r.id,
    loginAccount: r.login_account,
    displayName: r.display_name,
    email: r.email,
    language: r.language,
    enabled: r.enabled,
    isAdmin: r.is_admin,
    lockedUntil: r.locked_until ? new Date(r.locked_until).toISOString() : null,
  }));
}

export async function findOneUser(db: Kysely<DB>, editor: SessionUser, uid: number) {
  const user = await findVisibleUser(db, editor, uid);
  return { ...present(user), ...(await findUserGrants(db, uid)) };
}

export interface SaveUserInput {
  uid?: number;
  loginAccount: string;
  displayName: string;
  email?: string | null;
  language?: string | number;
  timeZone?: string;
  enabled?: boolean;
  isAdmin?: boolean;
  password?: string;
  defaultProjectId?: number | null;
  defaultWarehouseId?: number | null;
  organizationIds?: number[];
  projectIds?: number[];
  warehouseIds?: number[];
  roleIds?: number[];
  profile?: Partial<Record<string, string | number | null>>;
}

/**
 * Adds (user:add) or edits (user:edit) a user and its grants in one transaction. A non-administrator
 * grants only what it holds itself: its own projects, warehouses, organizations and roles, never
 * the administrator flag; grants beyond its reach are left as they are.
 */
export async function saveUser(db: Kysely<DB>, editor: SessionUser, input: SaveUserInput): Promise<{ uid: number }> {
  const creating = input.uid === undefined;
  await requireRight(db, editor, creating ? 'identity.user:add' : 'identity.user:edit');
  const loginAccount = input.loginAccount.trim();
  if (!loginAccount) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'loginAccount', code: 'VALIDATION_FAILED' }]);
  const email = input.email ? assertEmail(input.email) : null;
  const language = input.language === undefined ? undefined : toLanguage(input.language);
  if (input.language !== undefined && !language) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'language', code: 'VALIDATION_FAILED' }]);
  if (!editor.isAdmin && input.isAdmin) throw new AppError('FORBIDDEN', { right: 'admin' });
  if (creating && !input.password) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'password', code: 'VALIDATION_FAILED' }]);
  if (input.password) assertNewPassword(input.password, input.password, 'password');
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const profile: Record<string, unknown> = {};
  for (const column of PROFILE_COLUMNS) {
    const key = camel(column);
    if (input.profile && Object.hasOwn(input.profile, key)) profile[column satisfies ProfileColumn] = input.profile[key] === '' ? null : input.profile[key];
  }
  if (profile.gender !== undefined && profile.gender !== null && profile.gender !== 'male' && profile.gender !== 'female') {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: 'gender', code: 'VALIDATION_FAILED' }]);
  }
  assertCoordinates(profile);
  const projectId = editorProject(editor);

  return inTransaction(db, async (trx) => {
    let uid: number;
    const sameLogin = await findUserByLogin(trx, loginAccount);
    const sameEmail = email ? await findUserByEmail(trx, email) : undefined;
    if (creating) {
      if (sameLogin) throw new AppError('USER_EXISTS', {}, [{ field: 'loginAccount', code: 'USER_EXISTS' }]);
      if (sameEmail) throw new AppError('USER_EXISTS', {}, [{ field: 'email', code: 'USER_EXISTS' }]);
      uid = await insertUser(trx, { login_account: loginAccount, display_name: input.displayName, email, password_hash: passwordHash!, language, by: editor.loginAccount });
    } else {
      const existing = await findVisibleUser(trx, editor, input.uid!);
      if (!editor.isAdmin && existing.is_admin) throw new AppError('FORBIDDEN', { right: 'admin' });
      if (sameLogin && sameLogin.id !== existing.id) throw new AppError('USER_EXISTS', {}, [{ field: 'loginAccount', code: 'USER_EXISTS' }]);
      if (sameEmail && sameEmail.id !== existing.id) throw new AppError('USER_EXISTS', {}, [{ field: 'email', code: 'USER_EXISTS' }]);
      uid = existing.id;
      if (passwordHash) {
        await updatePasswordHash(trx, uid, passwordHash, editor.loginAccount);
        await revokeUserSessions(trx, uid);
      }
    }
    const values: Record<string, unknown> = { ...profile, login_account: loginAccount, display_name: input.displayName, email };
    if (language) values.language = language;
    if (input.timeZone) values.time_zone = input.timeZone;
    if (input.enabled !== undefined) values.enabled = input.enabled;
    if (editor.isAdmin && input.isAdmin !== undefined) values.is_admin = input.isAdmin;
    if (input.defaultProjectId !== undefined) values.default_project_id = input.defaultProjectId;
    if (input.defaultWarehouseId !== undefined) values.default_warehouse_id = input.defaultWarehouseId;
    await updateUserRecord(trx, uid, values, editor.loginAccount);
    if (input.enabled === false) await revokeUserSessions(trx, uid);

    // What the editor may hand out: everything for an administrator, else its own grants.
    const reach = editor.isAdmin ? undefined : await findUserGrants(trx, editor.userId);
    if (reach && projectId !== undefined && creating) {
      // A user made by a project's administrator belongs to that project, or it could not see it.
      input.projectIds = [...new Set([...(input.projectIds ?? []), projectId])];
    }
    const checkReach = (ids: number[] | undefined, allowed: number[] | undefined, field: string) => {
      if (ids && allowed && ids.some((id) => !allowed.includes(id))) throw new AppError('OUT_OF_SCOPE', {}, [{ field, code: 'OUT_OF_SCOPE' }]);
    };
    const projects = reach ? (await findUserProjects(trx, editor.userId, false)).map((p) => p.id) : undefined;
    const warehouses = reach ? (await findUserWarehouses(trx, editor.userId, false)).map((w) => w.id) : undefined;
    checkReach(input.projectIds, projects, 'projectIds');
    checkReach(input.warehouseIds, warehouses, 'warehouseIds');
    checkReach(input.organizationIds, reach?.organizationIds, 'organizationIds');
    // Roles follow the rule of the /user roles tab (user-reach.ts): only those below the editor's
    // level whose every right it holds; roles beyond its reach that the user holds stay untouched.
    const roles = reach && input.roleIds ? await rolesWithinReach(trx, editor) : undefined;
    if (input.roleIds && roles && input.roleIds.some((id) => !roles.includes(id))) {
      throw new AppError('GRANT_ROLE_BEYOND_REACH', {}, [{ field: 'roleIds', code: 'GRANT_ROLE_BEYOND_REACH' }]);
    }
    if (input.organizationIds) await replaceGrants(trx, 'user_organization', uid, input.organizationIds, reach?.organizationIds);
    if (input.projectIds) {
      await replaceGrants(trx, 'user_project', uid, input.projectIds, projects);
      await withdrawOrphanWarehouses(trx, editor, uid);
    }
    if (input.warehouseIds) await replaceGrants(trx, 'user_warehouse', uid, input.warehouseIds, warehouses);
    if (input.roleIds) await replaceGrants(trx, 'user_role', uid, input.roleIds, roles);
    await insertAuditLog(trx, { actorUserId: editor.userId, action: creating ? 'user.add' : 'user.edit', targetUserId: uid });
    return { uid };
  });
}

/** The account an editor works as: an administrator simulating another user is still himself. */
function ownAccount(editor: SessionUser): number {
  return editor.simulatedBy ?? editor.userId;
}

/**
 * Refuses, before anything is written, a batch that would disable or sign out the editor's own
 * account: an administrator cannot lock himself out from the user list.
 */
export function assertNotSelf(editor: SessionUser, uids: readonly number[], action: 'disable' | 'signOut'): void {
  if (!uids.includes(ownAccount(editor))) return;
  throw new AppError(action === 'disable' ? 'USER_SELF_DISABLE' : 'USER_SELF_SIGN_OUT');
}

/**
 * Enables or disables several users in the caller's transaction; disabling ends their sessions.
 * Each user must be visible to the editor (a project's administrator: users of its project), and
 * only an administrator changes an administrator.
 */
export async function setUsersEnabledBy(trx: Transaction<DB>, editor: SessionUser, uids: readonly number[], enabled: boolean): Promise<{ updated: number }> {
  if (!enabled) assertNotSelf(editor, uids, 'disable');
  const unique = [...new Set(uids)];
  for (const uid of unique) {
    const user = await findVisibleUser(trx, editor, uid);
    if (!editor.isAdmin && user.is_admin) throw new AppError('FORBIDDEN', { right: 'admin' });
    if (!enabled) await revokeUserSessions(trx, uid);
  }
  const updated = await setUsersEnabled(trx, unique, enabled, editor.loginAccount);
  await insertAuditLog(trx, { actorUserId: editor.userId, action: enabled ? 'user.enable' : 'user.disable', targetUserId: null, details: { uids: unique } });
  return { updated };
}

/** Enables or disables several users at once (`POST /api/user/batchUpdate`), in one transaction. */
export async function batchUpdateUsers(db: Kysely<DB>, editor: SessionUser, input: { uids: number[]; enabled: boolean }): Promise<{ updated: number }> {
  if (!input.enabled) assertNotSelf(editor, input.uids, 'disable');
  return inTransaction(db, (trx) => setUsersEnabledBy(trx, editor, input.uids, input.enabled));
}

/**
 * Ends every session of several users in the caller's transaction ("Sign out now" of the user
 * list): their next call is answered 401. Same visibility rules as enabling; never the editor's own.
 */
export async function signOutUsersBy(trx: Transaction<DB>, editor: SessionUser, uids: readonly number[]): Promise<{ users: number; ended: number }> {
  assertNotSelf(editor, uids, 'signOut');
  const unique = [...new Set(uids)];
  let ended = 0;
  for (const uid of unique) {
    const user = await findVisibleUser(trx, editor, uid);
    if (!editor.isAdmin && user.is_admin) throw new AppError('FORBIDDEN', { right: 'admin' });
    ended += await revokeUserSessions(trx, uid);
  }
  await insertAuditLog(trx, { actorUserId: editor.userId, action: 'user.signOut', targetUserId: null, details: { uids: unique, ended } });
  return { users: unique.length, ended };
}

/** `POST /api/user/signOut`: ends every session of the given users, in one transaction. */
export async function signOutUsers(db: Kysely<DB>, editor: SessionUser, uids: number[]): Promise<{ users: number; ended: number }> {
  assertNotSelf(editor, uids, 'signOut');
  return inTransaction(db, (trx) => signOutUsersBy(trx, editor, uids));
}

/**
 * What a batch on the user list would do, read only: how many users, and the refusal when the
 * editor's own account is among those to disable or sign out.
 */
export function previewUserBatch(editor: SessionUser, uids: readonly number[], action: 'enable' | 'disable' | 'signOut') {
  const count = new Set(uids).size;
  const self = action !== 'enable' && uids.includes(ownAccount(editor));
  return {
    messageCode: `md.behaviour.user.${action}Preview`,
    messageParams: { count },
    ...(self ? { refusal: { code: action === 'disable' ? ('USER_SELF_DISABLE' as const) : ('USER_SELF_SIGN_OUT' as const) } } : {}),
  };
}

export async function loginAccounts(db: Kysely<DB>, editor: SessionUser) {
  return listLoginAccounts(db, editor.isAdmin ? undefined : requireProject(editor).projectId);
}

/** Ends every session of an account (administrators; `POST /api/user/logout/loginAccount`). */
export async function signOutAccount(db: Kysely<DB>, admin: SessionUser, loginAccount: string): Promise<{ ended: number }> {
  return inTransaction(db, async (trx) => {
    const user = await findUserByLogin(trx, loginAccount);
    if (!user) throw new AppError('USER_NOT_FOUND');
    const ended = await revokeUserSessions(trx, user.id);
    await insertAuditLog(trx, { actorUserId: admin.userId, action: 'user.signOut', targetUserId: user.id, details: { ended } });
    return { ended };
  });
}

/**
 * What an editor may grant (`GET /api/user/org`): organizations, projects and warehouses within its
 * reach (all for administrators), for the grant pickers of the user screen.
 */
export async function grantOptions(db: Kysely<DB>, editor: SessionUser) {
  const [projects, warehouses] = await Promise.all([findUserProjects(db, editor.userId, editor.isAdmin), findUserWarehouses(db, editor.userId, editor.isAdmin)]);
  let organizations = await listOrganizations(db);
  if (!editor.isAdmin) {
    const own = new Set((await findUserGrants(db, editor.userId)).organizationIds);
    organizations = organizations.filter((o) => own.has(o.id));
  }
  const option = (r: { id: number; code: string; name: string }) => ({ id: r.id, code: r.code, name: r.name });
  return { organizations: organizations.map(option), projects: projects.map(option), warehouses: warehouses.map(option) };
}

/** The roles an editor may assign (`GET /api/user/role`): every enabled role for administrators, else those within its reach. */
export async function assignableRoles(db: Kysely<DB>, editor: SessionUser) {
  const roles = await listAssignableRoles(db);
  if (editor.isAdmin) return roles;
  const reachable = new Set(await rolesWithinReach(db, editor));
  return roles.filter((r) => reachable.has(Number(r.id)));
}

/** `PUT /api/user/timeZone`: the user's own time zone, an IANA name the server knows. */
export async function saveTimeZone(db: Kysely<DB>, user: SessionUser, timeZone: string): Promise<{ timeZone: string }> {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: 'timeZone', code: 'VALIDATION_FAILED' }]);
  }
  await inTransaction(db, (trx) => updateUserRecord(trx, user.userId, { time_zone: timeZone }, user.loginAccount));
  return { timeZone };
}

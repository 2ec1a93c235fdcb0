import type { Kysely } from 'kysely';
import { AppError } from '../../../../common/errors.js';
import type { DB } from '../../../db/schema.js';
import type { RightAction, SessionUser } from '../../../http/access.js';
import { requireProject } from '../../../http/access-plugin.js';
import { findUserPermissions, insertAuditLog } from '../access/access.repository.js';
import { requireRight, rowsGrant } from '../access/rights.js';
import { pageAnswer, paging } from '../paged-list.js';
import { replaceGrants, userHasProject } from '../user/user.repository.js';
import {
  countRulesWithIds,
  deleteRoles,
  deleteRules,
  findModuleCodes,
  findModulesCatalogue,
  findRole,
  findRoleByName,
  findRolePermissions,
  findRoleRuleIds,
  findRoleUsers,
  findRule,
  findRuleByName,
  insertRole,
  insertRule,
  listRoles,
  removeUserRole,
  rolesOf,
  listRules,
  replaceRolePermissions,
  replaceRoleRules,
  updateRole,
  updateRule,
  type PermissionValues,
} from './role.repository.js';
import { inTransaction } from '../../../db/transaction.js';

/** Role types offered by the role screen (a role has a type and a level). */
export const ROLE_TYPES = ['general', 'operator', 'supervisor', 'configurator', 'administrator'] as const;
/** Rule types (the /all_rule screen); `all_rule` applies to every project and warehouse. */
export const RULE_TYPES = ['all_rule', 'organization', 'project', 'warehouse'] as const;
const ACTIONS: RightAction[] = ['view', 'add', 'edit', 'delete'];

export interface PermissionInput {
  module: string;
  subModule?: string | null;
  view?: boolean;
  add?: boolean;
  edit?: boolean;
  delete?: boolean;
}

function toRow(p: PermissionInput): PermissionValues {
  return {
    module_code: p.module,
    sub_module_code: p.subModule || null,
    can_view: p.view ?? false,
    can_add: p.add ?? false,
    can_edit: p.edit ?? false,
    can_delete: p.delete ?? false,
  };
}

function presentPermission(r: PermissionValues) {
  return { module: r.module_code, subModule: r.sub_module_code, view: r.can_view, add: r.can_add, edit: r.can_edit, delete: r.can_delete };
}

/**
 * A non-administrator hands out only rights it holds itself, so editing roles can never raise
 * anybody (itself included) above the editor.
 */
async function assertWithinEditorRights(db: Kysely<DB>, editor: SessionUser, rows: PermissionValues[]): Promise<void> {
  if (editor.isAdmin) return;
  const own = await findUserPermissions(db, editor.userId);
  for (const row of rows) {
    const flags: Record<RightAction, boolean> = { view: row.can_view, add: row.can_add, edit: row.can_edit, delete: row.can_delete };
    for (const action of ACTIONS) {
      if (flags[action] && !rowsGrant(own, { module: row.module_code, subModule: row.sub_module_code, action })) {
        const right = `${row.module_code}${row.sub_module_code ? `.${row.sub_module_code}` : ''}:${action}`;
        throw new AppError('FORBIDDEN', { right });
      }
    }
  }
}

export async function fetchRoles(db: Kysely<DB>, input: { page?: number; pageSize?: number; search?: string }) {
  const page = paging(input);
  const listed = await listRoles(db, input.search?.trim() || undefined, page);
  return pageAnswer(page, listed, (r) => ({
    id: r.id,
    name: r.name,
    roleType: r.role_type,
    roleLevel: r.role_level,
    description: r.description,
    enabled: r.enabled,
    userCount: Number(r.user_count ?? 0),
  }));
}

export async function findOneRole(db: Kysely<DB>, editor: SessionUser, id: number) {
  const role = await findRole(db, id);
  if (!role) throw new AppError('NO_RECORD');
  let users = await findRoleUsers(db, id);
  if (!editor.isAdmin) {
    // The enabled users of a role are shown only as far as the editor's project reaches.
    const projectId = requireProject(editor).projectId;
    const visible = await Promise.all(users.map((u) => userHasProject(db, u.uid, projectId)));
    users = users.filter((_, i) => visible[i]);
  }
  return {
    id: role.id,
    name: role.name,
    roleType: role.role_type,
    roleLevel: role.role_level,
    description: role.description,
    enabled: role.enabled,
    updatedAt: new Date(role.updated_at).toISOString(),
    permissions: (await findRolePermissions(db, id)).map(presentPermission),
    ruleIds: await findRoleRuleIds(db, id),
    users,
  };
}

export interface SaveRoleInput {
  id?: number;
  name: string;
  roleType?: string;
  roleLevel?: number;
  description?: string | null;
  enabled?: boolean;
  permissions?: PermissionInput[];
  ruleIds?: number[];
  /** The role's enabled users. */
  userIds?: number[];
}

/** Adds (role:add) or edits (role:edit) a role with its rights, rules and users, in one transaction. */
export async function saveRole(db: Kysely<DB>, editor: SessionUser, input: SaveRoleInput): Promise<{ id: number }> {
  const creating = input.id === undefined;
  await requireRight(db, editor, creating ? 'identity.role:add' : 'identity.role:edit');
  const name = input.name.trim();
  if (!name) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'name', code: 'VALIDATION_FAILED' }]);
  const roleType = input.roleType ?? 'general';
  if (!(ROLE_TYPES as readonly string[]).includes(roleType)) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'roleType', code: 'VALIDATION_FAILED' }]);
  return inTransaction(db, async (trx) => {
    const modules = await findModuleCodes(trx);
    const permissionRows = input.permissions?.map(toRow);
    const unknown = permissionRows?.find((r) => !modules.has(r.module_code));
    if (unknown) throw new AppError('VALIDATION_FAILED', { }, [{ field: 'permissions', code: 'MODULE_NOT_FOUND', params: { module: unknown.module_code } }]);
    const keys = new Set<string>();
    for (const r of permissionRows ?? []) {
      const key = `${r.module_code}.${r.sub_module_code ?? ''}`;
      if (keys.has(key)) throw new AppError('DUPLICATE_VALUE', {}, [{ field: 'permissions', code: 'DUPLICATE_VALUE', params: { module: key } }]);
      keys.add(key);
    }
    const sameName = await findRoleByName(trx, name);
    let id: number;
    const values = {
      name,
      role_type: roleType,
      role_level: input.roleLevel ?? 1,
      description: input.description ?? null,
      enabled: input.enabled ?? true,
      by: editor.loginAccount,
    };
    if (creating) {
      if (sameName) throw new AppError('DUPLICATE_VALUE', {}, [{ field: 'name', code: 'DUPLICATE_VALUE' }]);
      id = await insertRole(trx, values);
    } else {
      const existing = await findRole(trx, input.id!);
      if (!existing) throw new AppError('NO_RECORD');
      if (sameName && sameName.id !== existing.id) throw new AppError('DUPLICATE_VALUE', {}, [{ field: 'name', code: 'DUPLICATE_VALUE' }]);
      id = existing.id;
      await updateRole(trx, id, values);
    }
    const finalRows = permissionRows ?? (await findRolePermissions(trx, id));
    await assertWithinEditorRights(trx, editor, finalRows);
    if (permissionRows) await replaceRolePermissions(trx, id, permissionRows);
    if (input.ruleIds) {
      if ((await countRulesWithIds(trx, input.ruleIds)) !== new Set(input.ruleIds).size) throw new AppError('NO_RECORD', {}, [{ field: 'ruleIds', code: 'NO_RECORD' }]);
      await replaceRoleRules(trx, id, [...new Set(input.ruleIds)]);
    }
    if (input.userIds) {
      const current = (await findRoleUsers(trx, id)).map((u) => u.uid);
      let reach: number[] | undefined;
      if (!editor.isAdmin) {
        const projectId = requireProject(editor).projectId;
        const candidates = [...new Set([...current, ...input.userIds])];
        const visible = await Promise.all(candidates.map((uid) => userHasProject(trx, uid, projectId)));
        reach = candidates.filter((_, i) => visible[i]);
        if (input.userIds.some((uid) => !reach!.includes(uid))) throw new AppError('NO_RECORD', {}, [{ field: 'userIds', code: 'NO_RECORD' }]);
      }
      const wanted = new Set(input.userIds);
      for (const uid of current) {
        if ((reach === undefined || reach.includes(uid)) && !wanted.has(uid)) await removeUserRole(trx, uid, id);
      }
      for (const uid of wanted) {
        if (!current.includes(uid)) await replaceGrants(trx, 'user_role', uid, [...(await rolesOf(trx, uid)), id], undefined);
      }
    }
    await insertAuditLog(trx, { actorUserId: editor.userId, action: creating ? 'role.add' : 'role.edit', targetUserId: null, details: { roleId: id } });
    return { id };
  });
}

export async function deleteRolesFor(db: Kysely<DB>, editor: SessionUser, ids: number[]): Promise<{ deleted: number }> {
  return inTransaction(db, async (trx) => {
    for (const id of ids) {
      if (!(await findRole(trx, id))) throw new AppError('NO_RECORD', { id });
      await assertWithinEditorRights(trx, editor, await findRolePermissions(trx, id));
    }
    const deleted = await deleteRoles(trx, ids);
    await insertAuditLog(trx, { actorUserId: editor.userId, action: 'role.delete', targetUserId: null, details: { ids } });
    return { deleted };
  });
}

/** Role types, rule types and the module catalogue a role's rights are chosen from. */
export async function typeAndPerm(db: Kysely<DB>) {
  const modules = await findModulesCatalogue(db);
  return {
    roleTypes: [...ROLE_TYPES],
    ruleTypes: [...RULE_TYPES],
    actions: ACTIONS,
    modules: modules.map((m) => ({ code: m.code, parentCode: m.parent_code, titleKey: m.title_key, route: m.route })),
  };
}

// --- rules ---

export async function fetchRules(db: Kysely<DB>) {
  return (await listRules(db)).map((r) => ({ id: r.id, name: r.name, ruleType: r.rule_type, description: r.description }));
}

export async function saveRule(db: Kysely<DB>, editor: SessionUser, input: { id?: number; name: string; ruleType: string; description?: string | null }) {
  await requireRight(db, editor, input.id === undefined ? 'identity.all_rule:add' : 'identity.all_rule:edit');
  const name = input.name.trim();
  if (!name) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'name', code: 'VALIDATION_FAILED' }]);
  if (!(RULE_TYPES as readonly string[]).includes(input.ruleType)) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'ruleType', code: 'VALIDATION_FAILED' }]);
  return inTransaction(db, async (trx) => {
    const same = await findRuleByName(trx, name);
    const values = { name, rule_type: input.ruleType, description: input.description ?? null, by: editor.loginAccount };
    if (input.id === undefined) {
      if (same) throw new AppError('DUPLICATE_VALUE', {}, [{ field: 'name', code: 'DUPLICATE_VALUE' }]);
      return { id: await insertRule(trx, values) };
    }
    if (!(await findRule(trx, input.id))) throw new AppError('NO_RECORD');
    if (same && same.id !== input.id) throw new AppError('DUPLICATE_VALUE', {}, [{ field: 'name', code: 'DUPLICATE_VALUE' }]);
    await updateRule(trx, input.id, values);
    return { id: input.id };
  });
}

export async function deleteRulesFor(db: Kysely<DB>, ids: number[]): Promise<{ deleted: number }> {
  return inTransaction(db, async (trx) => ({ deleted: await deleteRules(trx, ids) }));
}

import type { Kysely, Transaction } from 'kysely';
import { RIGHT_ACTIONS } from '../../../../common/rights.js';
import type { DB } from '../../../db/schema.js';
import type { SessionUser } from '../../../http/access.js';
import { findUserPermissions, insertAuditLog, userHoldsVerb } from '../access/access.repository.js';
import { rowGrants, rowsGrant } from '../access/rights.js';
import {
  deleteWarehouseGrants,
  findEnabledRoleIds,
  findGrantedWarehouseIds,
  findHeldProjects,
  findHighestRoleLevel,
  findRoleContent,
  findWarehousePlacement,
} from './user-grant.repository.js';

/**
 * Whether a role is within a non-administrator's reach: below the editor's own highest level (so
 * never the administrator's role, nor the editor's own), and every right and verb of it held by
 * the editor. Editing users never raises anybody above the one who edits them; both ways of
 * editing grants (the /user tabs and `POST /api/user/save`) keep this one rule.
 */
export async function roleWithinReach(trx: Kysely<DB>, editor: SessionUser, roleId: number): Promise<boolean> {
  const role = await findRoleContent(trx, roleId);
  if (!role) return false;
  const ownLevel = await findHighestRoleLevel(trx, editor.userId);
  if (ownLevel === undefined || role.level >= ownLevel) return false;
  const held = await findUserPermissions(trx, editor.userId);
  for (const row of role.permissions) {
    for (const action of RIGHT_ACTIONS) {
      if (rowGrants(row, action) && !rowsGrant(held, { module: row.module_code, subModule: row.sub_module_code, action })) return false;
    }
  }
  for (const verb of role.verbs) if (!(await userHoldsVerb(trx, editor.userId, verb))) return false;
  return true;
}

/** The enabled roles an editor may hand out: all of them for an administrator. */
export async function rolesWithinReach(trx: Kysely<DB>, editor: SessionUser): Promise<number[]> {
  const all = await findEnabledRoleIds(trx);
  if (editor.isAdmin) return all;
  const reachable: number[] = [];
  for (const id of all) if (await roleWithinReach(trx, editor, id)) reachable.push(id);
  return reachable;
}

/**
 * Whether a warehouse lies within some of the given projects (access goes through
 * organization, project and warehouse): one of the projects that run in it when the warehouse is
 * linked to projects, else a project of the warehouse's organization.
 */
export async function warehouseWithinProjects(trx: Kysely<DB>, warehouseId: number, projects: Array<{ projectId: number; organizationId: number }>): Promise<boolean | undefined> {
  const placement = await findWarehousePlacement(trx, warehouseId);
  if (!placement) return undefined;
  return placement.projectIds.length
    ? projects.some((p) => placement.projectIds.includes(p.projectId))
    : projects.some((p) => p.organizationId === placement.organizationId);
}

/**
 * After a project is withdrawn from a user, the warehouse grants that no remaining project reaches
 * go with it, each audited; otherwise the user would keep a warehouse it can no longer be granted.
 * `withdrawnProjectId` is left out of the held projects when the row is still there.
 */
export async function withdrawOrphanWarehouses(trx: Transaction<DB>, actor: SessionUser, userId: number, withdrawnProjectId?: number): Promise<number[]> {
  const projects = (await findHeldProjects(trx, userId)).filter((p) => p.projectId !== withdrawnProjectId);
  const orphans: number[] = [];
  for (const warehouseId of await findGrantedWarehouseIds(trx, userId)) {
    if ((await warehouseWithinProjects(trx, warehouseId, projects)) === false) orphans.push(warehouseId);
  }
  await deleteWarehouseGrants(trx, userId, orphans);
  for (const warehouseId of orphans) {
    await insertAuditLog(trx, { actorUserId: actor.userId, action: 'user.revoke', targetUserId: userId, details: { warehouse_id: warehouseId, reason: 'project withdrawn' } });
  }
  return orphans;
}

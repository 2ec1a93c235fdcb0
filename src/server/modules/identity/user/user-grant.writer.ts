import type { Kysely } from 'kysely';
import type { PageDefinition } from '../../../../../engine/schema/index.js';
import { AppError } from '../../../../common/errors.js';
import type { DB } from '../../../db/schema.js';
import type { SessionUser } from '../../../http/access.js';
import { insertAuditLog } from '../access/access.repository.js';
import { defineWriter } from '../../area.js';
import { findUserById, findUserGrants } from './user.repository.js';
import {
  GRANT_TABLES,
  findHeldProjects,
  grantExists,
  isGrantTable,
  usersShareProject,
  type GrantTable,
} from './user-grant.repository.js';
import { roleWithinReach, warehouseWithinProjects, withdrawOrphanWarehouses } from './user-reach.js';

/** What one grant row names: its table, the user, and the organization, project, warehouse or role. */
interface Grant {
  table: GrantTable;
  column: (typeof GRANT_TABLES)[GrantTable];
  userId: number;
  grantedId: number;
}

function grantOf(page: PageDefinition, row: Record<string, unknown>): Grant {
  const table = page.table.name;
  // Only the four grant pages name this writer; a copy pointed elsewhere is a configuration error.
  if (!isGrantTable(table)) throw new AppError('SYSTEM_CONFIG');
  const column = GRANT_TABLES[table];
  return { table, column, userId: Number(row.user_id), grantedId: Number(row[column]) };
}

const refuse = (grant: Grant, code: 'OUT_OF_SCOPE' | 'GRANT_ROLE_BEYOND_REACH') => new AppError(code, {}, [{ field: grant.column, code }]);

/**
 * Who may give or withdraw a grant: an administrator anything; anybody else only for a user who
 * shares a project with it (others do not exist for it) and is no administrator, and only the
 * organizations, projects and warehouses granted to itself and roles within its reach.
 */
async function assertMayGrant(trx: Kysely<DB>, editor: SessionUser, grant: Grant): Promise<void> {
  const target = await findUserById(trx, grant.userId);
  if (!target) throw new AppError('NO_RECORD');
  if (editor.isAdmin) return;
  if (!(await usersShareProject(trx, editor.userId, grant.userId))) throw new AppError('NO_RECORD');
  if (target.is_admin) throw new AppError('FORBIDDEN', { right: 'admin' });
  if (grant.table === 'user_role') {
    if (!(await roleWithinReach(trx, editor, grant.grantedId))) throw refuse(grant, 'GRANT_ROLE_BEYOND_REACH');
    return;
  }
  const own = await findUserGrants(trx, editor.userId);
  const reach = { user_organization: own.organizationIds, user_project: own.projectIds, user_warehouse: own.warehouseIds }[grant.table];
  if (!reach.map(Number).includes(grant.grantedId)) throw refuse(grant, 'OUT_OF_SCOPE');
}

/**
 * A warehouse is granted only within the user's projects (access goes through
 * organization, project and warehouse).
 */
async function assertWarehouseOfUserProjects(trx: Kysely<DB>, grant: Grant): Promise<void> {
  const fits = await warehouseWithinProjects(trx, grant.grantedId, await findHeldProjects(trx, grant.userId));
  if (fits === undefined) throw new AppError('VALIDATION_FAILED', {}, [{ field: grant.column, code: 'FIELD_FOREIGN' }]);
  if (!fits) throw new AppError('GRANT_WAREHOUSE_OUTSIDE_PROJECTS', {}, [{ field: grant.column, code: 'GRANT_WAREHOUSE_OUTSIDE_PROJECTS' }]);
}

/**
 * The organizations, projects, warehouses and roles of a user (the tabs of /user, through the
 * engine). A grant is given or withdrawn, never changed in place; a second grant of the same thing
 * is refused. Rights and scope are read afresh on every request (`findActiveSession`, `hasRight`),
 * so a grant takes effect on the user's next request and withdrawing one ends no session.
 */
export const userGrantWriter = defineWriter({
  name: 'user.grant',

  async beforeSave({ trx, user, page, old, values, merged }) {
    const grant = grantOf(page, merged);
    if (old) {
      const before = grantOf(page, old);
      if (before.userId !== grant.userId || before.grantedId !== grant.grantedId) {
        throw new AppError('VALIDATION_FAILED', {}, [{ field: grant.column, code: 'FIELD_UNKNOWN', params: { name: grant.column } }]);
      }
      // Nothing else of a grant is the caller's to change.
      for (const name of Object.keys(values)) delete values[name];
      return;
    }
    await assertMayGrant(trx, user, grant);
    if (await grantExists(trx, grant.table, grant.userId, grant.grantedId)) {
      throw new AppError('GRANT_EXISTS', {}, [{ field: grant.column, code: 'GRANT_EXISTS' }]);
    }
    if (grant.table === 'user_warehouse') await assertWarehouseOfUserProjects(trx, grant);
  },

  async afterSave({ trx, user, page, old, row }) {
    if (old) return;
    const grant = grantOf(page, row);
    await insertAuditLog(trx, { actorUserId: user.userId, action: 'user.grant', targetUserId: grant.userId, details: { [grant.column]: grant.grantedId } });
  },

  async beforeDelete({ trx, user, page, old }) {
    const grant = grantOf(page, old);
    await assertMayGrant(trx, user, grant);
    await insertAuditLog(trx, { actorUserId: user.userId, action: 'user.revoke', targetUserId: grant.userId, details: { [grant.column]: grant.grantedId } });
    if (grant.table === 'user_project') await withdrawOrphanWarehouses(trx, user, grant.userId, grant.grantedId);
  },
});

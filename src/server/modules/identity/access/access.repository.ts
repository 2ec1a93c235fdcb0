import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';

/** One permission row of the user's enabled roles. */
export interface PermissionRow {
  module_code: string;
  sub_module_code: string | null;
  can_view: boolean;
  can_add: boolean;
  can_edit: boolean;
  can_delete: boolean;
}

/** The permission rows of every enabled role of a user, optionally for one module only. */
export async function findUserPermissions(db: Kysely<DB>, userId: number, moduleCode?: string): Promise<PermissionRow[]> {
  let query = db
    .selectFrom('role_permission as rp')
    .innerJoin('role as r', 'r.id', 'rp.role_id')
    .innerJoin('user_role as ur', 'ur.role_id', 'r.id')
    .where('ur.user_id', '=', userId)
    .where('r.enabled', '=', true)
    .select(['rp.module_code', 'rp.sub_module_code', 'rp.can_view', 'rp.can_add', 'rp.can_edit', 'rp.can_delete']);
  if (moduleCode !== undefined) query = query.where('rp.module_code', '=', moduleCode);
  return query.execute();
}

/** Whether one of the user's enabled roles grants an area's verb, e.g. `outbound.so:allocate`. */
export async function userHoldsVerb(db: Kysely<DB>, userId: number, right: string): Promise<boolean> {
  const row = await db
    .selectFrom('role_verb as rv')
    .innerJoin('role as r', 'r.id', 'rv.role_id')
    .innerJoin('user_role as ur', 'ur.role_id', 'r.id')
    .where('ur.user_id', '=', userId)
    .where('r.enabled', '=', true)
    .where('rv.right_code', '=', right)
    .select('rv.role_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countUserRoles(db: Kysely<DB>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('user_role as ur')
    .innerJoin('role as r', 'r.id', 'ur.role_id')
    .where('ur.user_id', '=', userId)
    .where('r.enabled', '=', true)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface ScopeRow {
  id: number;
  code: string;
  name: string;
  organization_id: number;
}

/** The projects a user may work in: its grants, or every project for an administrator. */
export async function findUserProjects(db: Kysely<DB>, userId: number, isAdmin: boolean): Promise<ScopeRow[]> {
  let query = db.selectFrom('project as p').select(['p.id', 'p.code', 'p.name', 'p.organization_id']).orderBy('p.code');
  if (!isAdmin) {
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('user_project as up').select('up.user_id').where('up.user_id', '=', userId).whereRef('up.project_id', '=', 'p.id')),
    );
  }
  return query.execute();
}

/** The warehouses a user may work in: its grants, or every warehouse for an administrator. */
export async function findUserWarehouses(db: Kysely<DB>, userId: number, isAdmin: boolean): Promise<ScopeRow[]> {
  let query = db.selectFrom('warehouse as w').select(['w.id', 'w.code', 'w.name', 'w.organization_id']).orderBy('w.code');
  if (!isAdmin) {
    query = query.where((eb) =>
      eb.exists(
        eb.selectFrom('user_warehouse as uw').select('uw.user_id').where('uw.user_id', '=', userId).whereRef('uw.warehouse_id', '=', 'w.id'),
      ),
    );
  }
  return query.execute();
}

export async function findProjectWarehouseIds(db: Kysely<DB>, projectId: number): Promise<number[]> {
  const rows = await db.selectFrom('project_warehouse').select('warehouse_id').where('project_id', '=', projectId).execute();
  return rows.map((r) => r.warehouse_id);
}

export async function findOrganization(db: Kysely<DB>, id: number) {
  return db.selectFrom('organization').select(['id', 'code', 'name']).where('id', '=', id).executeTakeFirst();
}

export async function findProjectNav(db: Kysely<DB>, projectId: number) {
  return db.selectFrom('project').select(['id', 'code', 'name', 'nav_layout']).where('id', '=', projectId).executeTakeFirst();
}

export async function findWarehouseNav(db: Kysely<DB>, warehouseId: number) {
  return db.selectFrom('warehouse').select(['id', 'code', 'name', 'nav_layout']).where('id', '=', warehouseId).executeTakeFirst();
}

export async function findModules(db: Kysely<DB>) {
  return db
    .selectFrom('sys_module')
    .select(['code', 'parent_code', 'title_key', 'route', 'right_name', 'sequence'])
    .where('enabled', '=', true)
    .orderBy('sequence')
    .orderBy('code')
    .execute();
}

export async function insertAuditLog(
  trx: Transaction<DB>,
  entry: { actorUserId: number | null; action: string; targetUserId: number | null; details?: unknown },
): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      actor_user_id: entry.actorUserId,
      action: entry.action,
      target_user_id: entry.targetUserId,
      details: entry.details === undefined ? null : JSON.stringify(entry.details),
    })
    .execute();
}

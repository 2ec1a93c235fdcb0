import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';

/** The grant tables of a user and the column naming what each grants. */
export const GRANT_TABLES = {
  user_organization: 'organization_id',
  user_project: 'project_id',
  user_warehouse: 'warehouse_id',
  user_role: 'role_id',
} as const;
export type GrantTable = keyof typeof GRANT_TABLES;

export function isGrantTable(name: string): name is GrantTable {
  return Object.hasOwn(GRANT_TABLES, name);
}

/** Whether the user already holds this organization, project, warehouse or role. */
export async function grantExists(db: Kysely<DB>, table: GrantTable, userId: number, grantedId: number): Promise<boolean> {
  const column = GRANT_TABLES[table];
  const row = await db
    .selectFrom(table)
    .select('user_id')
    .where('user_id', '=', userId)
    .where(column as never, '=', grantedId as never)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether two users hold a project in common (who a project's administrator may administer). */
export async function usersShareProject(db: Kysely<DB>, userId: number, otherId: number): Promise<boolean> {
  const row = await db
    .selectFrom('user_project as mine')
    .innerJoin('user_project as theirs', 'theirs.project_id', 'mine.project_id')
    .select('mine.project_id')
    .where('mine.user_id', '=', userId)
    .where('theirs.user_id', '=', otherId)
    .executeTakeFirst();
  return row !== undefined;
}

/** A warehouse's organization and the projects that run in it (`project_warehouse`). */
export async function findWarehousePlacement(db: Kysely<DB>, warehouseId: number): Promise<{ organizationId: number; projectIds: number[] } | undefined> {
  const warehouse = await db.selectFrom('warehouse').select('organization_id').where('id', '=', warehouseId).executeTakeFirst();
  if (!warehouse) return undefined;
  const links = await db.selectFrom('project_warehouse').select('project_id').where('warehouse_id', '=', warehouseId).execute();
  return { organizationId: Number(warehouse.organization_id), projectIds: links.map((l) => Number(l.project_id)) };
}

/** The projects a user holds with their organizations. */
export async function findHeldProjects(db: Kysely<DB>, userId: number): Promise<Array<{ projectId: number; organizationId: number }>> {
  const rows = await db
    .selectFrom('user_project as up')
    .innerJoin('project as p', 'p.id', 'up.project_id')
    .select(['p.id', 'p.organization_id'])
    .where('up.user_id', '=', userId)
    .execute();
  return rows.map((r) => ({ projectId: Number(r.id), organizationId: Number(r.organization_id) }));
}

/** A role as granting needs it: its level, module rights and verbs. */
export async function findRoleContent(db: Kysely<DB>, roleId: number) {
  const role = await db.selectFrom('role').select(['id', 'name', 'role_level']).where('id', '=', roleId).executeTakeFirst();
  if (!role) return undefined;
  const permissions = await db
    .selectFrom('role_permission')
    .select(['module_code', 'sub_module_code', 'can_view', 'can_add', 'can_edit', 'can_delete'])
    .where('role_id', '=', roleId)
    .execute();
  const verbs = await db.selectFrom('role_verb').select('right_code').where('role_id', '=', roleId).execute();
  return { name: role.name, level: Number(role.role_level), permissions, verbs: verbs.map((v) => v.right_code) };
}

/** The highest level among a user's enabled roles, or undefined when it holds none. */
export async function findHighestRoleLevel(db: Kysely<DB>, userId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('user_role as ur')
    .innerJoin('role as r', 'r.id', 'ur.role_id')
    .select((eb) => eb.fn.max('r.role_level').as('level'))
    .where('ur.user_id', '=', userId)
    .where('r.enabled', '=', true)
    .executeTakeFirst();
  return row?.level === null || row?.level === undefined ? undefined : Number(row.level);
}

/** The warehouses granted to a user. */
export async function findGrantedWarehouseIds(db: Kysely<DB>, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('user_warehouse').select('warehouse_id').where('user_id', '=', userId).execute();
  return rows.map((r) => Number(r.warehouse_id));
}

/** The enabled roles, for choosing those within an editor's reach. */
export async function findEnabledRoleIds(db: Kysely<DB>): Promise<number[]> {
  const rows = await db.selectFrom('role').select('id').where('enabled', '=', true).execute();
  return rows.map((r) => Number(r.id));
}

/** Withdraws some of a user's warehouse grants. */
export async function deleteWarehouseGrants(trx: Transaction<DB>, userId: number, warehouseIds: number[]): Promise<void> {
  if (!warehouseIds.length) return;
  await trx.deleteFrom('user_warehouse').where('user_id', '=', userId).where('warehouse_id', 'in', warehouseIds).execute();
}

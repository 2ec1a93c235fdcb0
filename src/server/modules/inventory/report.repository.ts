import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** SQL of the scheduled report: the warehouse and project it names and the user it goes to. */

export async function findReportWarehouse(db: Kysely<DB>, code: string) {
  const row = await db.selectFrom('warehouse').select(['id', 'code', 'organization_id']).where('code', '=', code).executeTakeFirst();
  return row ? { id: Number(row.id), code: row.code, organizationId: Number(row.organization_id) } : undefined;
}

/** The projects the warehouse serves, or the one of this code among them. */
export async function findWarehouseProjects(db: Kysely<DB>, warehouseId: number, code: string | undefined) {
  let query = db
    .selectFrom('project_warehouse as pw')
    .innerJoin('project as p', 'p.id', 'pw.project_id')
    .select(['p.id', 'p.code', 'p.organization_id'])
    .where('pw.warehouse_id', '=', warehouseId)
    .orderBy('p.id');
  if (code !== undefined) query = query.where('p.code', '=', code);
  return (await query.execute()).map((p) => ({ id: Number(p.id), code: p.code, organizationId: Number(p.organization_id) }));
}

/** An enabled user by login account, and whether the user may work in the project and the warehouse. */
export async function findReportRecipient(db: Kysely<DB>, loginAccount: string, projectId: number, warehouseId: number) {
  const user = await db.selectFrom('app_user').select(['id', 'login_account', 'is_admin', 'language']).where('login_account', '=', loginAccount).where('enabled', '=', true).executeTakeFirst();
  if (!user) return undefined;
  const id = Number(user.id);
  const inProject = await db.selectFrom('user_project').select('user_id').where('user_id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  const inWarehouse = await db.selectFrom('user_warehouse').select('user_id').where('user_id', '=', id).where('warehouse_id', '=', warehouseId).executeTakeFirst();
  return { id, loginAccount: user.login_account, isAdmin: user.is_admin, language: user.language, inScope: user.is_admin || (Boolean(inProject) && Boolean(inWarehouse)) };
}

import type { Kysely } from 'kysely';
import { findInScope } from '../../db/scoped-rows.js';
import type { DB } from '../../db/schema.js';

/**
 * What the inbound area reads of other areas' tables (locations, owners, SKUs, lots, users), in one
 * place: it never writes them. Stock changes go through the inventory service; a SKU named by a code
 * or barcode is found by the masterdata area (`findSkuByCode`).
 */

type Db = Kysely<DB>;

export async function findLocationByCode(db: Db, warehouseId: number, code: string) {
  return db.selectFrom('location').select(['id', 'code', 'location_type', 'status']).where('warehouse_id', '=', warehouseId).where('code', '=', code).executeTakeFirst();
}

/** An owner of the project, by id or by code. */
export async function findOwner(db: Db, projectId: number, match: number | { code: string }) {
  return findInScope(db, 'owner', { projectId }, typeof match === 'number' ? match : { column: 'code', value: match.code });
}

export async function findSku(db: Db, projectId: number, id: number) {
  return findInScope(db, 'sku', { projectId }, id);
}

/** The lot a receipt line names (it exists: receipt lines keep their lots). */
export async function findLot(db: Db, projectId: number, lotId: number) {
  const lot = await findInScope(db, 'lot', { projectId }, lotId);
  if (!lot) throw new Error(`lot ${lotId} of project ${projectId} not found`);
  return lot;
}

export async function firstSkusOfOwner(db: Db, projectId: number, ownerId: number, limit: number) {
  return db.selectFrom('sku').select(['id', 'code']).where('project_id', '=', projectId).where('owner_id', '=', ownerId).orderBy('code').limit(limit).execute();
}

/** Enabled users granted this project and this warehouse (administrators only when granted them too), by id. */
export async function warehouseUsers(db: Db, projectId: number, warehouseId: number, limit: number): Promise<{ id: number; login: string; isAdmin: boolean }[]> {
  const rows = await db
    .selectFrom('app_user as u')
    .innerJoin('user_warehouse as uw', 'uw.user_id', 'u.id')
    .innerJoin('user_project as up', 'up.user_id', 'u.id')
    .select(['u.id', 'u.login_account', 'u.is_admin'])
    .where('u.enabled', '=', true)
    .where('uw.warehouse_id', '=', warehouseId)
    .where('up.project_id', '=', projectId)
    .orderBy('u.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), login: r.login_account, isAdmin: r.is_admin }));
}

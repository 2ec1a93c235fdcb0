import { sql, type Selectable, type SelectQueryBuilder, type Transaction } from 'kysely';
import { insertPlacedRowReturning } from '../../db/row-writes.js';
import { whereInScope } from '../../db/scoped-rows.js';
import type { DB, Db } from '../../db/schema.js';
import type { Place } from '../../db/row-stamps.js';
import type { CfsCartonStatus, CfsCartonTable, CfsOrderTable, CfsPalletTable } from './cfs.tables.js';
import './cfs.tables.js';

/**
 * The CFS area's SQL: nothing else of the area writes queries. It writes only its own tables and
 * reads orders, shipment orders, loads and the code master (the manifest's read model `cfs.read`).
 */

export type CfsCartonRow = Selectable<CfsCartonTable>;
export type CfsPalletRow = Selectable<CfsPalletTable>;
export type CfsOrderRow = Selectable<CfsOrderTable>;
export interface OrderHead {
  id: number;
  order_no: string;
  status: string;
}

/** The code-master type of the reasons an order is cancelled for. */
export const CANCEL_REASON = 'CANCEL_REASON';

/** The query locked FOR UPDATE until the transaction ends when asked (a scan or cancel waits for the other), else as it is. */
function lockedIf<QueryDB, Tables extends keyof QueryDB, Output>(query: SelectQueryBuilder<QueryDB, Tables, Output>, lock: boolean): SelectQueryBuilder<QueryDB, Tables, Output> {
  return lock ? query.forUpdate() : query;
}

/** The loads (containers) of the scope. */
function loadsOf(db: Db, scope: Place) {
  return db.selectFrom('load_header').select(['id', 'load_no', 'container_no', 'status']).$call((q) => whereInScope(q, 'load_header', scope));
}

// ---------------------------------------------------------------- orders (read model)

/** The orders of the scope with these numbers, in id order; locked when asked (a cancel or scan waits for the other). */
export async function ordersByNo(db: Db, scope: Place, orderNos: readonly string[], lock = false): Promise<OrderHead[]> {
  if (orderNos.length === 0) return [];
  return (await db
    .selectFrom('so_header')
    .select(['id', 'order_no', 'status'])
    .$call((q) => whereInScope(q, 'so_header', scope))
    .where('order_no', 'in', [...orderNos])
    .orderBy('id')
    .$call((q) => lockedIf(q, lock))
    .execute()).map((r) => ({ id: Number(r.id), order_no: r.order_no, status: r.status }));
}

/** The orders of the scope with these ids. */
export async function ordersById(db: Db, scope: Place, ids: readonly number[]): Promise<Map<number, OrderHead>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('so_header')
    .select(['id', 'order_no', 'status'])
    .$call((q) => whereInScope(q, 'so_header', scope))
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [Number(r.id), { id: Number(r.id), order_no: r.order_no, status: r.status }]));
}

/** The shipment order of the scope with this number. */
export async function shipmentByNo(db: Db, scope: Place, shipmentNo: string) {
  return db
    .selectFrom('shipment_order')
    .select(['id', 'shipment_no', 'status'])
    .$call((q) => whereInScope(q, 'shipment_order', scope))
    .where('shipment_no', '=', shipmentNo)
    .executeTakeFirst();
}

/** The load (container) of the scope whose load number or container number is the code; the newest when several carry it. */
export async function loadByCode(db: Db, scope: Place, code: string, lock = false) {
  return loadsOf(db, scope)
    .where((eb) => eb.or([eb('load_no', '=', code), eb('container_no', '=', code)]))
    .orderBy('id', 'desc')
    .$call((q) => lockedIf(q, lock))
    .executeTakeFirst();
}

export async function loadById(db: Db, scope: Place, id: number, lock = false) {
  return loadsOf(db, scope).where('id', '=', id).$call((q) => lockedIf(q, lock)).executeTakeFirst();
}

export async function loadNosOf(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('load_header').select(['id', 'load_no']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [Number(r.id), r.load_no]));
}

// ---------------------------------------------------------------- CFS orders

export async function cfsOrdersOf(db: Db, soIds: readonly number[]): Promise<Map<number, CfsOrderRow>> {
  if (soIds.length === 0) return new Map();
  const rows = await db.selectFrom('cfs_order').selectAll().where('so_id', 'in', [...soIds]).execute();
  return new Map(rows.map((r) => [Number(r.so_id), r]));
}

export interface CfsOrderFields {
  reference?: string | null;
  vessel?: string | null;
  voyage?: string | null;
  etd?: string | null;
  cancel_reason?: string | null;
  cancel_remark?: string | null;
  cancelled?: boolean;
}

/** Writes the CFS fields of an order, making its row the first time. */
export async function saveCfsOrder(trx: Transaction<DB>, scope: Place, soId: number, fields: CfsOrderFields, by: string): Promise<void> {
  const { cancelled, ...values } = fields;
  const stamp = cancelled ? { cancelled_at: sql<Date>`now()`, cancelled_by: by } : {};
  await trx
    .insertInto('cfs_order')
    .values({ project_id: scope.projectId, warehouse_id: scope.warehouseId, so_id: soId, ...values, ...stamp, created_by: by, updated_by: by })
    .onConflict((oc) => oc.column('so_id').doUpdateSet({ ...values, ...stamp, updated_at: sql`now()`, updated_by: by }))
    .execute();
}

// ---------------------------------------------------------------- cartons

export async function cartonByCode(db: Db, scope: Place, code: string, lock = false): Promise<CfsCartonRow | undefined> {
  return db.selectFrom('cfs_carton').selectAll().$call((q) => whereInScope(q, 'cfs_carton', scope)).where('code', '=', code).$call((q) => lockedIf(q, lock)).executeTakeFirst();
}

export async function cartonById(db: Db, id: number): Promise<CfsCartonRow | undefined> {
  return db.selectFrom('cfs_carton').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertCarton(trx: Transaction<DB>, scope: Place, values: { code: string; so_id: number }, by: string): Promise<CfsCartonRow> {
  return insertPlacedRowReturning(trx, 'cfs_carton', scope, values, by);
}

export async function updateCartons(trx: Transaction<DB>, ids: readonly number[], values: { status: CfsCartonStatus; pallet_id?: number | null; load_id?: number | null; loaded?: boolean }, by: string): Promise<void> {
  if (ids.length === 0) return;
  const { loaded, ...rest } = values;
  await trx
    .updateTable('cfs_carton')
    .set({ ...rest, ...(loaded ? { loaded_at: sql<Date>`now()` } : {}), updated_at: sql`now()`, updated_by: by })
    .where('id', 'in', [...ids])
    .execute();
}

export async function cartonsOfPallet(db: Db, palletId: number, lock = false): Promise<CfsCartonRow[]> {
  return db.selectFrom('cfs_carton').selectAll().where('pallet_id', '=', palletId).orderBy('id').$call((q) => lockedIf(q, lock)).execute();
}

export async function cartonsOfOrders(db: Db, soIds: readonly number[], lock = false): Promise<CfsCartonRow[]> {
  if (soIds.length === 0) return [];
  return db.selectFrom('cfs_carton').selectAll().where('so_id', 'in', [...soIds]).orderBy('id').$call((q) => lockedIf(q, lock)).execute();
}

// ---------------------------------------------------------------- pallets

export async function palletByCode(db: Db, scope: Place, code: string, lock = false): Promise<CfsPalletRow | undefined> {
  return db
    .selectFrom('cfs_pallet')
    .selectAll()
    .$call((q) => whereInScope(q, 'cfs_pallet', scope))
    .where((eb) => eb.or([eb('pallet_no', '=', code), eb('sscc', '=', code)]))
    .$call((q) => lockedIf(q, lock))
    .executeTakeFirst();
}

export async function palletById(db: Db, scope: Place, id: number, lock = false): Promise<CfsPalletRow | undefined> {
  return db.selectFrom('cfs_pallet').selectAll().$call((q) => whereInScope(q, 'cfs_pallet', scope)).where('id', '=', id).$call((q) => lockedIf(q, lock)).executeTakeFirst();
}

export async function palletNosOf(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('cfs_pallet').select(['id', 'pallet_no']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [Number(r.id), r.pallet_no]));
}

export async function insertPallet(trx: Transaction<DB>, scope: Place, values: { pallet_no: string; sscc: string }, by: string): Promise<CfsPalletRow> {
  return insertPlacedRowReturning(trx, 'cfs_pallet', scope, values, by);
}

export async function loadPallet(trx: Transaction<DB>, palletId: number, loadId: number, by: string): Promise<void> {
  await trx
    .updateTable('cfs_pallet')
    .set({ status: 'loaded', load_id: loadId, loaded_at: sql<Date>`now()`, updated_at: sql`now()`, updated_by: by })
    .where('id', '=', palletId)
    .execute();
}

/** How many cartons and pallets of the scope are on the load. */
export async function countsOnLoad(db: Db, loadId: number): Promise<{ cartons: number; pallets: number }> {
  const cartons = await db.selectFrom('cfs_carton').select((eb) => eb.fn.countAll<string>().as('n')).where('load_id', '=', loadId).executeTakeFirstOrThrow();
  const pallets = await db.selectFrom('cfs_pallet').select((eb) => eb.fn.countAll<string>().as('n')).where('load_id', '=', loadId).executeTakeFirstOrThrow();
  return { cartons: Number(cartons.n), pallets: Number(pallets.n) };
}

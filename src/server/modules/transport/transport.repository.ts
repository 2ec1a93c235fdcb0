import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { insertPlacedRow, updateRowById } from '../../db/row-writes.js';
import type { DB } from '../../db/schema.js';
import { whereInScope } from '../../db/scoped-rows.js';
import type { DoStatus, RouteStatus, TmsDoHeaderTable, TmsRouteTable } from './transport.tables.js';
import './transport.tables.js';

/**
 * The transport area's SQL: nothing else of the area writes queries. It reads the vehicle and
 * driver master data, shipped sales orders and the map's system parameters (the manifest's read
 * model `transport.sources`).
 */

export type DoRow = Selectable<TmsDoHeaderTable> & { route_id: number | null };
export type RouteRow = Selectable<TmsRouteTable> & {
  plate_no: string | null;
  capacity_weight_kg: string | null;
  capacity_volume_m3: string | null;
  capacity_pallets: number | null;
  driver_name: string | null;
};

type Db = Kysely<DB> | Transaction<DB>;

export interface Scope {
  projectId: number;
  warehouseId: number;
}

/** The columns a delivery order is written with. */
export interface DoValues {
  do_no: string;
  customer_name: string;
  consignee_name?: string | null;
  address?: string | null;
  city?: string | null;
  latitude?: string | null;
  longitude?: string | null;
  window_from?: string | null;
  window_to?: string | null;
  weight_kg?: string;
  volume_m3?: string;
  pallet_count?: number;
  so_id?: number | null;
  so_no?: string | null;
  remarks?: string | null;
}

export interface DoFilter {
  status?: DoStatus;
  routeIds?: number[];
  ids?: number[];
  text?: string;
  limit: number;
}

function doQuery(db: Db, scope: Scope) {
  return whereInScope(
    db.selectFrom('tms_do_header as d').leftJoin('tms_route_way as w', 'w.do_id', 'd.id').selectAll('d').select('w.route_id').select('w.seq'),
    'd',
    scope,
  );
}

/** Delivery orders of the scope by status, route, ids or a text in their number, customer, consignee or city; stops in route order, else newest first. */
export async function listDos(db: Db, scope: Scope, filter: DoFilter): Promise<Array<DoRow & { seq: number | null }>> {
  let query = doQuery(db, scope);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  if (filter.routeIds) query = filter.routeIds.length ? query.where('w.route_id', 'in', filter.routeIds) : query.where(sql<boolean>`false`);
  if (filter.ids) query = filter.ids.length ? query.where('d.id', 'in', filter.ids) : query.where(sql<boolean>`false`);
  if (filter.text) {
    const like = `%${filter.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or(['d.do_no', 'd.customer_name', 'd.consignee_name', 'd.city', 'd.so_no'].map((c) => eb(sql.ref(c), 'ilike', like))));
  }
  return query.orderBy('w.route_id').orderBy('w.seq').orderBy('d.id', 'desc').limit(filter.limit).execute();
}

/** These delivery orders of the scope, locked in id order. */
export async function lockDos(trx: Transaction<DB>, scope: Scope, ids: readonly number[]): Promise<Array<Selectable<TmsDoHeaderTable>>> {
  if (ids.length === 0) return [];
  return whereInScope(trx.selectFrom('tms_do_header').selectAll(), 'tms_do_header', scope)
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function routeOfDos(db: Db, doIds: readonly number[]): Promise<Map<number, number>> {
  if (doIds.length === 0) return new Map();
  const rows = await db.selectFrom('tms_route_way').select(['do_id', 'route_id']).where('do_id', 'in', [...doIds]).execute();
  return new Map(rows.map((r) => [Number(r.do_id), Number(r.route_id)]));
}

export async function existingDoNos(db: Db, warehouseId: number, numbers: readonly string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await db.selectFrom('tms_do_header').select('do_no').where('warehouse_id', '=', warehouseId).where('do_no', 'in', [...numbers]).execute();
  return new Set(rows.map((r) => r.do_no));
}

export async function insertDos(trx: Transaction<DB>, scope: Scope, rows: DoValues[], by: string): Promise<number[]> {
  if (rows.length === 0) return [];
  const ids = await trx
    .insertInto('tms_do_header')
    .values(rows.map((r) => ({ ...r, project_id: scope.projectId, warehouse_id: scope.warehouseId, created_by: by, updated_by: by })))
    .returning('id')
    .execute();
  return ids.map((r) => Number(r.id));
}

export async function updateDo(trx: Transaction<DB>, id: number, values: Partial<DoValues>, by: string): Promise<void> {
  await updateRowById(trx, 'tms_do_header', id, values, by);
}

export async function deleteDo(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.deleteFrom('tms_do_header').where('id', '=', id).execute();
}

export async function setDoStatus(trx: Transaction<DB>, ids: readonly number[], status: DoStatus, by: string): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('tms_do_header')
    .set({ status, updated_at: sql`now()`, updated_by: by })
    .where('id', 'in', [...ids])
    .execute();
}

/** Shipped (or delivered) sales orders of the scope that no delivery order was made from yet, oldest first. */
export async function shippedOrdersWithoutDo(db: Db, scope: Scope, soIds: readonly number[] | undefined, limit: number) {
  // What the order's cartons weigh (in kg, from their own weight unit) and how many pallets they stand on.
  let query = whereInScope(
    db.selectFrom('so_header as h').select([
      'h.id',
      'h.order_no',
      'h.ship_to_name',
      'h.ship_to_address_en',
      'h.ship_to_address_cn',
      'h.consignee_id',
      sql<string>`(select coalesce(sum(c.gross_weight * case upper(coalesce(c.weight_uom, 'KG')) when 'G' then 0.001 when 'LB' then 0.45359237 else 1 end), 0) from carton c where c.so_id = h.id)`.as('weight_kg'),
      sql<number>`(select count(distinct c.pallet_id)::int from carton c where c.so_id = h.id)`.as('pallet_count'),
    ]),
    'h',
    scope,
  )
    .where('h.status', 'in', ['shipped', 'delivered'])
    .where((eb) => eb.not(eb.exists(eb.selectFrom('tms_do_header as d').select('d.id').whereRef('d.so_id', '=', 'h.id'))));
  if (soIds) query = soIds.length ? query.where('h.id', 'in', [...soIds]) : query.where(sql<boolean>`false`);
  return query.orderBy('h.id').limit(limit).execute();
}

function routeQuery(db: Db, scope: Scope) {
  return whereInScope(
    db
      .selectFrom('tms_route as r')
      .leftJoin('vehicle as v', 'v.id', 'r.vehicle_id')
      .leftJoin('driver as dr', 'dr.id', 'r.driver_id')
      .selectAll('r')
      .select(['v.plate_no', 'v.capacity_weight_kg', 'v.capacity_volume_m3', sql<number | null>`v.capacity_pallets`.as('capacity_pallets'), 'dr.name as driver_name']),
    'r',
    scope,
  );
}

/** The routes of the scope (of one day when given, else those not confirmed and those of the last 7 days), newest first. */
export async function listRoutes(db: Db, scope: Scope, filter: { date?: string; ids?: number[] }): Promise<RouteRow[]> {
  let query = routeQuery(db, scope);
  if (filter.ids) query = filter.ids.length ? query.where('r.id', 'in', filter.ids) : query.where(sql<boolean>`false`);
  else if (filter.date) query = query.where('r.route_date', '=', filter.date);
  else query = query.where((eb) => eb.or([eb('r.status', '=', 'open'), eb('r.route_date', '>=', sql<string>`current_date - 7`)]));
  return query.orderBy('r.route_date', 'desc').orderBy('r.id', 'desc').limit(200).execute();
}

/** A route of the scope, locked. */
export async function lockRoute(trx: Transaction<DB>, scope: Scope, id: number) {
  return whereInScope(trx.selectFrom('tms_route').selectAll(), 'tms_route', scope).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function insertRoute(trx: Transaction<DB>, scope: Scope, values: { route_no: string; route_date: string; vehicle_id: number | null; driver_id: number | null; remarks: string | null }, by: string): Promise<number> {
  return insertPlacedRow(trx, 'tms_route', scope, values, by);
}

export async function updateRoute(trx: Transaction<DB>, id: number, values: { route_date?: string; vehicle_id?: number | null; driver_id?: number | null; remarks?: string | null; status?: RouteStatus }, by: string) {
  await updateRowById(trx, 'tms_route', id, values, by);
}

export async function deleteRoute(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.deleteFrom('tms_route').where('id', '=', id).execute();
}

/** The delivery order ids of a route in stop order. */
export async function stopsOf(db: Db, routeId: number): Promise<number[]> {
  const rows = await db.selectFrom('tms_route_way').select('do_id').where('route_id', '=', routeId).orderBy('seq').orderBy('id').execute();
  return rows.map((r) => Number(r.do_id));
}

/** Puts these delivery orders on the route (taking them off any other), in the order given, then numbers the route's stops 1.. in `order`. */
export async function writeStops(trx: Transaction<DB>, routeId: number, order: readonly number[], by: string): Promise<void> {
  if (order.length === 0) return;
  await trx.deleteFrom('tms_route_way').where('do_id', 'in', [...order]).execute();
  await trx
    .insertInto('tms_route_way')
    .values(order.map((doId, index) => ({ route_id: routeId, do_id: doId, seq: index + 1, created_by: by, updated_by: by })))
    .execute();
}

export async function removeStops(trx: Transaction<DB>, doIds: readonly number[]): Promise<void> {
  if (doIds.length === 0) return;
  await trx.deleteFrom('tms_route_way').where('do_id', 'in', [...doIds]).execute();
}

/** Active vehicles and drivers of the warehouse, for the route's dropdowns. */
export async function vehiclesOf(db: Db, warehouseId: number) {
  return db
    .selectFrom('vehicle')
    .select(['id', 'plate_no', 'vehicle_type', 'capacity_weight_kg', 'capacity_volume_m3', sql<number | null>`capacity_pallets`.as('capacity_pallets'), 'active'])
    .where('warehouse_id', '=', warehouseId)
    .orderBy('plate_no')
    .execute();
}

export async function driversOf(db: Db, warehouseId: number) {
  return db.selectFrom('driver').select(['id', 'code', 'name', 'active']).where('warehouse_id', '=', warehouseId).orderBy('code').execute();
}


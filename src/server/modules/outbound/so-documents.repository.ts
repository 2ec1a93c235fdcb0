import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { whereInScope } from '../../db/scoped-rows.js';
import type { SoHeaderRow, SoLineRow } from './outbound.repository.js';
import type { ShipmentOrderTable } from './so-documents.tables.js';
import './so-documents.tables.js';
import './wave.tables.js';

/** The SQL of the order-entry calls around sales orders (/so/*, /pso, /shipmentOrder). */

type Db = Kysely<DB> | Transaction<DB>;

export interface Place {
  projectId: number;
  warehouseId: number;
}

export async function linesOf(db: Db, soId: number): Promise<SoLineRow[]> {
  return db.selectFrom('so_line').selectAll().where('so_id', '=', soId).orderBy('line_no').execute();
}

export async function findSkuOfOwner(db: Db, projectId: number, ownerId: number, code: string): Promise<{ id: number; base_uom: string } | undefined> {
  const row = await db.selectFrom('sku').select(['id', 'base_uom']).where('project_id', '=', projectId).where('owner_id', '=', ownerId).where('code', '=', code).executeTakeFirst();
  return row ? { id: Number(row.id), base_uom: row.base_uom } : undefined;
}

export async function findOwnerByCode(db: Db, projectId: number, code: string): Promise<number | undefined> {
  const row = await db.selectFrom('owner').select('id').where('project_id', '=', projectId).where('code', '=', code).executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

export async function orderNosTaken(db: Db, projectId: number, orderNos: readonly string[]): Promise<Set<string>> {
  if (orderNos.length === 0) return new Set();
  const rows = await db.selectFrom('so_header').select('order_no').where('project_id', '=', projectId).where('order_no', 'in', [...orderNos]).execute();
  return new Set(rows.map((r) => r.order_no));
}

export async function skusByCode(db: Db, projectId: number, codes: readonly string[]): Promise<Array<{ id: number; code: string; owner_id: number; base_uom: string }>> {
  if (codes.length === 0) return [];
  const rows = await db.selectFrom('sku').select(['id', 'code', 'owner_id', 'base_uom']).where('project_id', '=', projectId).where('code', 'in', [...codes]).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), owner_id: Number(r.owner_id) }));
}

export async function ownersByCode(db: Db, projectId: number, codes: readonly string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await db.selectFrom('owner').select(['id', 'code']).where('project_id', '=', projectId).where('code', 'in', [...codes]).execute();
  return new Map(rows.map((r) => [r.code, Number(r.id)]));
}

/** Stock a line may take, as the allocation reads it: active storage or pick locations, not expired, with something available. */
const AVAILABLE = sql`(b.on_hand_qty - b.allocated_qty - b.picked_qty - b.held_qty)`;

/** The minimum remaining shelf life (days) of the owner's rule for the SKU, else for every SKU; 0 without a rule. */
export async function minShelfLifeDays(db: Db, ownerId: number, skuId: number): Promise<number> {
  const row = await db
    .selectFrom('so_rule')
    .select('min_shelf_life_days')
    .where('owner_id', '=', ownerId)
    .where('active', '=', true)
    .where((eb) => eb.or([eb('sku_id', '=', skuId), eb('sku_id', 'is', null)]))
    .orderBy(sql`sku_id nulls last`)
    .limit(1)
    .executeTakeFirst();
  return Number(row?.min_shelf_life_days ?? 0);
}

/** Per line of an order: what is still to allocate and what the warehouse has available of its SKU. */
export async function lineAvailability(db: Db, warehouseId: number, soId: number) {
  const result = await sql<{ id: number; line_no: number; sku_id: number; sku_code: string; qty: string; allocated_qty: string; picked_qty: string; available: string }>`
    select sl.id, sl.line_no, sl.sku_id, s.code as sku_code, sl.qty::text, sl.allocated_qty::text, sl.picked_qty::text,
           coalesce((select sum(${AVAILABLE}) from inventory_balance b
                       join lot l on l.id = b.lot_id
                       join location loc on loc.id = b.location_id
                      where b.warehouse_id = ${warehouseId} and b.owner_id = h.owner_id and b.sku_id = sl.sku_id
                        and loc.status = 'active' and loc.location_type in ('storage', 'pick')
                        and (l.expiry_date is null or l.expiry_date - current_date >= coalesce(r.min_shelf_life_days, 0))
                        and (coalesce(sl.lot_no, '') = '' or l.lot_no = sl.lot_no)
                        and (coalesce(sl.udf1, '') = '' or l.udf1 = sl.udf1)
                        and (coalesce(sl.udf2, '') = '' or l.udf2 = sl.udf2)
                        and (coalesce(sl.udf3, '') = '' or l.udf3 = sl.udf3)
                        and (sl.expiry_from is null or l.expiry_date >= sl.expiry_from)
                        and (sl.expiry_to is null or l.expiry_date <= sl.expiry_to)), 0)::text as available
      from so_line sl
      join so_header h on h.id = sl.so_id
      join sku s on s.id = sl.sku_id
      left join lateral (
        select sr.min_shelf_life_days from so_rule sr
         where sr.owner_id = h.owner_id and sr.active and (sr.sku_id = sl.sku_id or sr.sku_id is null)
         order by sr.sku_id nulls last
         limit 1) r on true
     where sl.so_id = ${soId}
     order by sl.line_no`.execute(db);
  return result.rows.map((r) => ({ ...r, id: Number(r.id), sku_id: Number(r.sku_id) }));
}

/** SKUs of an owner whose code or description holds the text, with what is available in the warehouse. */
export async function searchSkus(db: Db, projectId: number, warehouseId: number, ownerId: number, text: string, limit: number) {
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const result = await sql<{ id: number; code: string; description: string; base_uom: string; available: string }>`
    select s.id, s.code, s.description, s.base_uom,
           coalesce((select sum(${AVAILABLE}) from inventory_balance b
                       join location loc on loc.id = b.location_id
                      where b.warehouse_id = ${warehouseId} and b.sku_id = s.id and loc.status = 'active' and loc.location_type in ('storage', 'pick')), 0)::text as available
      from sku s
     where s.project_id = ${projectId} and s.owner_id = ${ownerId} and (s.code ilike ${like} or s.description ilike ${like})
     order by s.code
     limit ${limit}`.execute(db);
  return result.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

// ---------------------------------------------------------------- maintenance list

export async function maintenanceList(db: Db, place: Place) {
  return db
    .selectFrom('so_maintenance as m')
    .leftJoin('so_header as h', 'h.id', 'm.so_id')
    .leftJoin('sku as s', 's.id', 'm.sku_id')
    .select(['m.id', 'm.so_id', 'h.order_no', 'm.sku_id', 's.code as sku_code', 'm.reason', 'm.created_at', 'm.created_by'])
    .where('m.project_id', '=', place.projectId)
    .where('m.warehouse_id', '=', place.warehouseId)
    .orderBy('m.id')
    .execute();
}

export async function addMaintenance(trx: Transaction<DB>, place: Place, rows: ReadonlyArray<{ so_id: number | null; sku_id: number | null; reason: string | null }>, by: string): Promise<number> {
  if (rows.length === 0) return 0;
  const added = await trx
    .insertInto('so_maintenance')
    .values(rows.map((r) => ({ ...r, project_id: place.projectId, warehouse_id: place.warehouseId, created_by: by, updated_by: by })))
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .execute();
  return added.length;
}

export async function deleteMaintenance(trx: Transaction<DB>, place: Place, ids: readonly number[]): Promise<number> {
  const result = await trx.deleteFrom('so_maintenance').where('project_id', '=', place.projectId).where('warehouse_id', '=', place.warehouseId).where('id', 'in', [...ids]).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Whether the order, or one of these SKUs, is on the warehouse's maintenance list. */
export async function underMaintenance(db: Db, warehouseId: number, soId: number, skuIds: readonly number[]): Promise<boolean> {
  const row = await db
    .selectFrom('so_maintenance')
    .select('id')
    .where('warehouse_id', '=', warehouseId)
    .where((eb) => (skuIds.length ? eb.or([eb('so_id', '=', soId), eb('sku_id', 'in', [...skuIds])]) : eb('so_id', '=', soId)))
    .executeTakeFirst();
  return row !== undefined;
}

// ---------------------------------------------------------------- pre-checks (cancel, close, pack)

/** The orders of these ids that are of the place (project and warehouse). */
export async function ordersIn(db: Db, place: Place, ids: readonly number[]): Promise<SoHeaderRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('so_header').selectAll().where('project_id', '=', place.projectId).where('warehouse_id', '=', place.warehouseId).where('id', 'in', [...ids]).execute();
}

export interface LineQuantityRow {
  id: number;
  so_id: number;
  line_no: number;
  sku_code: string;
  qty: string;
  allocated_qty: string;
  picked_qty: string;
}

/** The lines of the orders with their ordered, allocated and picked quantities, by order and line number. */
export async function lineQuantities(db: Db, soIds: readonly number[]): Promise<LineQuantityRow[]> {
  if (soIds.length === 0) return [];
  const rows = await db
    .selectFrom('so_line as sl')
    .innerJoin('sku as s', 's.id', 'sl.sku_id')
    .select(['sl.id', 'sl.so_id', 'sl.line_no', 's.code as sku_code', sql<string>`sl.qty::text`.as('qty'), sql<string>`sl.allocated_qty::text`.as('allocated_qty'), sql<string>`sl.picked_qty::text`.as('picked_qty')])
    .where('sl.so_id', 'in', [...soIds])
    .orderBy('sl.so_id')
    .orderBy('sl.line_no')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), so_id: Number(r.so_id) }));
}

/** How many open pick tasks each order has (orders without any are left out). */
export async function openTaskCounts(db: Db, soIds: readonly number[]): Promise<Map<number, number>> {
  if (soIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('pick_task')
    .select(['so_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('so_id', 'in', [...soIds])
    .where('status', '=', 'open')
    .groupBy('so_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.so_id), Number(r.n)]));
}

// ---------------------------------------------------------------- lines

export async function insertLine(trx: Transaction<DB>, row: { project_id: number; warehouse_id: number; so_id: number; line_no: number; sku_id: number; qty: string; uom: string; lot_no: string | null; expiry_from: string | null; expiry_to: string | null; udf1?: string | null; udf2?: string | null; udf3?: string | null; required_date: string | null; created_by: string; updated_by: string }): Promise<SoLineRow> {
  return trx.insertInto('so_line').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateLine(trx: Transaction<DB>, id: number, values: Partial<{ sku_id: number; qty: string; uom: string; lot_no: string | null; expiry_from: string | null; expiry_to: string | null; udf1: string | null; udf2: string | null; udf3: string | null; required_date: string | null }>, by: string): Promise<void> {
  await trx.updateTable('so_line').set({ ...values, updated_by: by, updated_at: sql`now()` }).where('id', '=', id).execute();
}

export async function deleteLines(trx: Transaction<DB>, soId: number, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await trx.deleteFrom('so_line').where('so_id', '=', soId).where('id', 'in', [...ids]).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function maxLineNo(trx: Transaction<DB>, soId: number): Promise<number> {
  const row = await trx.selectFrom('so_line').select(sql<number>`coalesce(max(line_no), 0)`.as('n')).where('so_id', '=', soId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertOrder(trx: Transaction<DB>, row: { project_id: number; warehouse_id: number; order_no: string; owner_id: number; consignee_id?: number | null; customer_order_no?: string | null; ship_to_name: string | null; ship_to_address_en: string | null; ship_to_address_cn: string | null; carrier_code: string | null; required_ship_date: string | null; remark?: string | null; created_by: string; updated_by: string }): Promise<number> {
  const added = await trx.insertInto('so_header').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(added.id);
}

// ---------------------------------------------------------------- export, store arrival, shipment orders

export interface ExportedOrderLine {
  order_no: string;
  status: string;
  owner_code: string;
  customer_order_no: string | null;
  ship_to_name: string | null;
  carrier_code: string | null;
  required_ship_date: string | null;
  store_arrival_at: string | null;
  line_no: number;
  sku_code: string;
  qty: string;
  uom: string;
  allocated_qty: string;
  picked_qty: string;
}

/** The orders of the warehouse with their lines, batch by batch in order number order. */
export async function* exportOrderLines(db: Kysely<DB>, place: Place, status: string | undefined, batch = 1000): AsyncGenerator<ExportedOrderLine[]> {
  let after: { orderNo: string; lineNo: number } | null = null;
  for (;;) {
    const cursor: { orderNo: string; lineNo: number } | null = after;
    const result: { rows: ExportedOrderLine[] } = await sql<ExportedOrderLine>`
      select h.order_no, h.status, o.code as owner_code, h.customer_order_no, h.ship_to_name, h.carrier_code,
             h.required_ship_date::text as required_ship_date, to_char(h.store_arrival_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as store_arrival_at,
             sl.line_no, s.code as sku_code, sl.qty::text as qty, sl.uom, sl.allocated_qty::text as allocated_qty, sl.picked_qty::text as picked_qty
        from so_header h
        join owner o on o.id = h.owner_id
        join so_line sl on sl.so_id = h.id
        join sku s on s.id = sl.sku_id
       where h.project_id = ${place.projectId} and h.warehouse_id = ${place.warehouseId}
         ${status ? sql`and h.status = ${status}` : sql``}
         ${cursor ? sql`and (h.order_no, sl.line_no) > (${cursor.orderNo}, ${cursor.lineNo})` : sql``}
       order by h.order_no, sl.line_no
       limit ${batch}`.execute(db);
    if (result.rows.length === 0) return;
    yield result.rows;
    const last: ExportedOrderLine = result.rows[result.rows.length - 1];
    after = { orderNo: last.order_no, lineNo: Number(last.line_no) };
    if (result.rows.length < batch) return;
  }
}

/** The orders of the place (project and warehouse) with one of these ids, or order numbers: id, number and status. */
export async function ordersOfPlace(db: Db, place: Place, keys: { ids: readonly number[] } | { orderNos: readonly string[] }): Promise<Array<{ id: number; order_no: string; status: string }>> {
  const byId = 'ids' in keys;
  const values: ReadonlyArray<number | string> = byId ? keys.ids : keys.orderNos;
  if (values.length === 0) return [];
  const rows = await db
    .selectFrom('so_header')
    .select(['id', 'order_no', 'status'])
    .$call((q) => whereInScope(q, 'so_header', place))
    .where(byId ? 'id' : 'order_no', 'in', [...values])
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function ordersByNo(db: Db, place: Place, orderNos: readonly string[]): Promise<Array<{ id: number; order_no: string; status: string }>> {
  return ordersOfPlace(db, place, { orderNos });
}

export async function setStoreArrival(trx: Transaction<DB>, id: number, at: Date, by: string): Promise<void> {
  await trx.updateTable('so_header').set({ store_arrival_at: at, updated_by: by, updated_at: sql`now()` }).where('id', '=', id).execute();
}

export async function ordersOfShipment(db: Db, shipmentOrderId: number) {
  return db.selectFrom('so_header').select(['id', 'order_no', 'status', 'carrier_code']).where('shipment_order_id', '=', shipmentOrderId).orderBy('order_no').execute();
}

export async function setShipmentOrder(trx: Transaction<DB>, soIds: readonly number[], shipmentOrderId: number | null, by: string): Promise<void> {
  if (soIds.length === 0) return;
  await trx.updateTable('so_header').set({ shipment_order_id: shipmentOrderId, updated_by: by, updated_at: sql`now()` }).where('id', 'in', [...soIds]).execute();
}

// ---------------------------------------------------------------- pre-sales orders

export async function lockPsos(trx: Transaction<DB>, projectId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return trx.selectFrom('pso_header').selectAll().where('project_id', '=', projectId).where('id', 'in', [...ids]).orderBy('id').forUpdate().execute();
}

export async function psoLines(trx: Transaction<DB>, psoId: number) {
  return trx.selectFrom('pso_line').selectAll().where('pso_id', '=', psoId).orderBy('line_no').execute();
}

export async function findPso(db: Db, id: number) {
  return db.selectFrom('pso_header').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function markPsoConfirmed(trx: Transaction<DB>, id: number, soId: number, by: string): Promise<void> {
  await trx.updateTable('pso_header').set({ status: 'confirmed', so_id: soId, updated_by: by, updated_at: sql`now()` }).where('id', '=', id).execute();
}

export async function setPsoStatus(trx: Transaction<DB>, id: number, status: string, by: string): Promise<void> {
  await trx.updateTable('pso_header').set({ status, updated_by: by, updated_at: sql`now()` }).where('id', '=', id).execute();
}

export async function nextPsoLineNo(trx: Transaction<DB>, psoId: number): Promise<number> {
  const row = await trx.selectFrom('pso_line').select(sql<number>`coalesce(max(line_no), 0) + 1`.as('n')).where('pso_id', '=', psoId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function firstSkusOfOwner(db: Db, projectId: number, ownerId: number, limit: number) {
  return db.selectFrom('sku').select(['id', 'code']).where('project_id', '=', projectId).where('owner_id', '=', ownerId).orderBy('code').limit(limit).execute();
}

export async function insertPso(trx: Transaction<DB>, row: { project_id: number; warehouse_id: number; pso_no: string; owner_id: number; ship_to_name: string | null; ship_to_address_en: string | null; required_ship_date: string | null; remark: string | null; created_by: string; updated_by: string }, lines: ReadonlyArray<{ sku_id: number; qty: string }>): Promise<number> {
  const added = await trx.insertInto('pso_header').values(row).returning('id').executeTakeFirstOrThrow();
  if (lines.length) {
    await trx
      .insertInto('pso_line')
      .values(lines.map((l, i) => ({ project_id: row.project_id, warehouse_id: row.warehouse_id, pso_id: Number(added.id), line_no: i + 1, sku_id: l.sku_id, qty: l.qty, created_by: row.created_by, updated_by: row.updated_by })))
      .execute();
  }
  return Number(added.id);
}

export async function insertShipmentOrder(trx: Transaction<DB>, row: Insertable<ShipmentOrderTable>): Promise<number> {
  const added = await trx.insertInto('shipment_order').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(added.id);
}

import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { PREPARED } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import './outbound.tables.js';
import './wave.tables.js';

/** The SQL of what packing reads of orders: an order of a project and warehouse, its lines, where its picked stock stands. */

type Db = Kysely<DB> | Transaction<DB>;

export async function findScopedOrder(db: Db, scope: { projectId: number; warehouseId: number }, which: { soId: number } | { orderNo: string }) {
  let query = db
    .selectFrom('so_header')
    .select(['id', 'order_no', 'status', 'owner_id', 'wave_id'])
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId);
  query = 'soId' in which ? query.where('id', '=', which.soId) : query.where('order_no', '=', which.orderNo);
  return query.orderBy('id').executeTakeFirst();
}

/**
 * The order of the scope (by id, or the first of that number) with its lines in one statement, the
 * order row locked until the transaction ends with `lock` (read as it stands once the lock is held).
 * One row per line with its SKU (line columns null for an order without lines); none when there is no such order.
 */
export async function scopedOrderWithLines(db: Db, scope: { projectId: number; warehouseId: number }, which: { soId: number } | { orderNo: string }, lock: boolean) {
  return scopedOrderWithLinesQuery(db, scope, which, lock).execute();
}

/** A row of `scopedOrderWithLines`. */
export type ScopedOrderRow = Awaited<ReturnType<typeof scopedOrderWithLines>>[number];

/** The query of `scopedOrderWithLines`, for a caller that sends it with others (`pipelined`). */
export function scopedOrderWithLinesQuery(db: Db, scope: { projectId: number; warehouseId: number }, which: { soId: number } | { orderNo: string }, lock: boolean) {
  return db
    .with('h', (qb) => {
      let query = qb
        .selectFrom('so_header')
        .select(['id', 'order_no', 'status', 'owner_id', 'wave_id'])
        .where('project_id', '=', scope.projectId)
        .where('warehouse_id', '=', scope.warehouseId);
      query = 'soId' in which ? query.where('id', '=', which.soId) : query.where('order_no', '=', which.orderNo).orderBy('id').limit(1);
      return lock ? query.forUpdate() : query;
    })
    .selectFrom('h')
    .leftJoin('so_line as l', 'l.so_id', 'h.id')
    .leftJoin('sku as s', 's.id', 'l.sku_id')
    .select(['h.id', 'h.order_no', 'h.status', 'h.owner_id', 'h.wave_id', 'l.id as line_id', 'l.line_no', 'l.sku_id', 'l.qty', 'l.picked_qty'])
    .select(['s.code as sku_code', 's.gift', 's.anti_counterfeit', 's.collar_barcode'])
    .orderBy('l.line_no')
    .modifyEnd(PREPARED);
}

export async function orderStatus(db: Db, soId: number): Promise<string> {
  return (await db.selectFrom('so_header').select('status').where('id', '=', soId).executeTakeFirstOrThrow()).status;
}

export async function packingLines(db: Db, soId: number) {
  return db.selectFrom('so_line').select(['id', 'line_no', 'sku_id', 'qty', 'picked_qty']).where('so_id', '=', soId).orderBy('line_no').execute();
}

/** Per line, per balance key picking put stock of the line on, the qty its tasks picked there, in the order of the line's first task there: one statement for all the lines. */
export async function pickedPlacesOfLines(db: Db, soLineIds: readonly number[]) {
  if (soLineIds.length === 0) return [];
  return db
    .selectFrom('pick_task')
    .select(['so_line_id', 'owner_id', 'sku_id', 'lot_id', 'to_location_id', 'to_lpn', sql<string>`sum(picked_qty)`.as('qty'), sql<number>`min(id)`.as('first')])
    .where('so_line_id', 'in', [...soLineIds])
    .where('picked_qty', '>', '0')
    .where('to_location_id', 'is not', null)
    .groupBy(['so_line_id', 'owner_id', 'sku_id', 'lot_id', 'to_location_id', 'to_lpn'])
    .orderBy('so_line_id')
    .orderBy('first')
    .execute();
}

/** A row of `pickedPlacesOfOrderSkuSql`. */
export interface PickedPlaceRow {
  so_line_id: number;
  owner_id: number;
  sku_id: number;
  lot_id: number;
  to_location_id: number;
  to_lpn: string | null;
  qty: string;
  /** The line's first task there: the order the places are taken in. */
  first: number;
}

/**
 * The statement of `pickedPlacesOfLines` for the order's lines of one SKU (`skuId`, a value or an
 * expression of the caller's statement), for a caller that reads it within a statement of its own:
 * per line, per balance key, the qty picked there (as text), in the order of the line's first task
 * there. Found through the order's tasks (index on the order).
 */
export function pickedPlacesOfOrderSkuSql(soId: number, skuId: RawBuilder<unknown>): RawBuilder<PickedPlaceRow> {
  return sql<PickedPlaceRow>`
    select so_line_id, owner_id, sku_id, lot_id, to_location_id, to_lpn, sum(picked_qty)::text as qty, min(id) as first
      from pick_task
     where so_id = ${soId}
       and so_line_id in (select l.id from so_line l where l.so_id = ${soId} and l.sku_id = ${skuId})
       and picked_qty > 0 and to_location_id is not null
     group by so_line_id, owner_id, sku_id, lot_id, to_location_id, to_lpn
     order by so_line_id, first`;
}

/** The pick tasks of an order that picked something, newest first. */
export async function pickedTaskIdsOfOrder(db: Db, soId: number): Promise<number[]> {
  const rows = await db.selectFrom('pick_task').select('id').where('so_id', '=', soId).where('picked_qty', '>', '0').orderBy('id', 'desc').execute();
  return rows.map((r) => Number(r.id));
}

/** The consignee an order ships to, as the order carries it. */
export async function shipToOf(db: Db, soId: number) {
  return db.selectFrom('so_header').select(['order_no', 'ship_to_name', 'ship_to_address_en', 'ship_to_address_cn']).where('id', '=', soId).executeTakeFirst();
}

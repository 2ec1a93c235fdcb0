import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

/** The order a pack list is printed for, within the project and warehouse. */
export function packListOrder(db: Db, scope: { projectId: number; warehouseId: number }, soId: number) {
  return db
    .selectFrom('so_header')
    .select(['id', 'order_no', 'customer_order_no', 'ship_to_name', 'ship_to_address_en', 'ship_to_address_cn', 'status'])
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where('id', '=', soId)
    .executeTakeFirst();
}

/**
 * What the order's closed cartons hold (of `cartonIds` only, when given), one row per carton, order
 * line and lot, in carton and line order.
 */
export function packListRows(db: Db, soId: number, cartonIds?: readonly number[]) {
  let query = db
    .selectFrom('carton as c')
    .innerJoin('carton_line as cl', 'cl.carton_id', 'c.id')
    .innerJoin('so_line as l', 'l.id', 'cl.so_line_id')
    .innerJoin('sku as s', 's.id', 'cl.sku_id')
    .innerJoin('lot as t', 't.id', 'cl.lot_id')
    .select(['c.id as carton_id', 'c.carton_no', 'c.sscc', 'c.gross_weight', 'c.weight_uom', 'l.line_no', 'l.uom', 's.code as sku_code', 's.description as sku_description', 't.lot_no', 't.expiry_date'])
    .select((eb) => eb.fn.sum<string>('cl.qty').as('qty'))
    .where('c.so_id', '=', soId)
    .where('c.status', '=', 'closed')
    .groupBy(['c.id', 'c.carton_no', 'c.sscc', 'c.gross_weight', 'c.weight_uom', 'l.line_no', 'l.uom', 's.code', 's.description', 't.lot_no', 't.expiry_date'])
    .orderBy('c.carton_no')
    .orderBy('l.line_no');
  if (cartonIds) query = query.where('c.id', 'in', cartonIds.length ? [...cartonIds] : [-1]);
  return query.execute();
}

import type { Kysely, Transaction } from 'kysely';
import { whereInScope } from '../../db/scoped-rows.js';
import type { DB } from '../../db/schema.js';

/** What the ship notice of an order is made from (read model `edi.orderNotice`): the order, its warehouse, its closed cartons with their pallets and what each holds. */

type Db = Kysely<DB> | Transaction<DB>;

export async function orderOfNotice(db: Db, scope: { projectId: number; warehouseId: number }, soId: number) {
  return db
    .selectFrom('so_header as h')
    .innerJoin('warehouse as w', 'w.id', 'h.warehouse_id')
    .select(['h.id', 'h.order_no', 'h.owner_id', 'h.customer_order_no', 'h.ship_to_name', 'h.ship_to_address_en', 'h.carrier_code', 'w.name as warehouse_name'])
    .where('h.id', '=', soId)
    .$call((q) => whereInScope(q, 'h', scope))
    .executeTakeFirst();
}

export async function closedCartonsOfOrder(db: Db, soId: number) {
  return db
    .selectFrom('carton as c')
    .leftJoin('pallet as p', 'p.id', 'c.pallet_id')
    .select(['c.id', 'c.sscc', 'p.sscc as pallet_sscc'])
    .where('c.so_id', '=', soId)
    .where('c.status', '=', 'closed')
    .where('c.sscc', 'is not', null)
    .orderBy('c.id')
    .execute();
}

export async function cartonContents(db: Db, cartonIds: number[]) {
  if (!cartonIds.length) return [];
  return db
    .selectFrom('carton_line as cl')
    .innerJoin('sku as s', 's.id', 'cl.sku_id')
    .innerJoin('lot as l', 'l.id', 'cl.lot_id')
    .select((eb) => ['cl.carton_id', 's.code as sku_code', 's.base_uom', 'l.lot_no', 'l.expiry_date', eb.fn.sum<string>('cl.qty').as('qty')])
    .where('cl.carton_id', 'in', cartonIds)
    .groupBy(['cl.carton_id', 's.code', 's.base_uom', 'l.lot_no', 'l.expiry_date'])
    .orderBy('cl.carton_id')
    .orderBy('s.code')
    .execute();
}

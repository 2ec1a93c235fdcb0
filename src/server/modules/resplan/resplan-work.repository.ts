import { sql } from 'kysely';
import type { ResPlanActivity } from '../../../common/resplan-api.js';
import type { Db } from '../../db/schema.js';

/**
 * The read model `resplan.openWork`: the open work of a warehouse, per activity, counted in the
 * units its rate is given in, read-only over the tables of the inbound, outbound, packing and
 * loading areas, in one statement so that the five counts are of one moment. Every project working
 * in the warehouse counts: the shifts' people and equipment serve them all.
 *
 * - receiving: ASN lines not fully received, of ASNs that may still receive (new, partly received,
 *   partly put away);
 * - putaway: receipt lines (one LPN, a pallet, each) waiting for putaway, whether or not a putaway
 *   task was made for them yet;
 * - picking: allocation rows still held for order lines (one pick at one location each; picking
 *   takes them down), of orders not ended;
 * - packing: order lines with more picked than is in cartons, of orders not yet fully packed;
 * - loading: closed cartons on no load, of orders not shipped or ended.
 */

/** Order statuses in which nothing is left to pick, pack or load. */
const ENDED_ORDER = ['shipped', 'delivered', 'billed', 'cancelled', 'deleted', 'closed'];
/** Order statuses in which picked lines may still wait for a carton. */
const PACKABLE_ORDER = ['partial_allocated', 'allocated', 'partial_picked', 'picked', 'partial_packed'];
/** ASN statuses in which stock may still be received. */
const RECEIVABLE_ASN = ['new', 'partial_received', 'partial_putaway'];

const list = (values: readonly string[]) => sql.join(values.map((v) => sql.lit(v)));

export async function openWorkOfWarehouse(db: Db, warehouseId: number): Promise<Record<ResPlanActivity, number>> {
  const { rows } = await sql<Record<ResPlanActivity, string>>`
    select
      (select count(*) from asn_line l join asn a on a.id = l.asn_id
        where a.warehouse_id = ${warehouseId} and a.status in (${list(RECEIVABLE_ASN)}) and l.received_qty < l.expected_qty) as receiving,
      (select count(*) from receipt_line r
        where r.warehouse_id = ${warehouseId} and r.status = 'open') as putaway,
      (select count(*) from so_allocation x join so_header h on h.id = x.so_id
        where x.warehouse_id = ${warehouseId} and x.qty > 0 and h.status not in (${list(ENDED_ORDER)})) as picking,
      (select count(*) from so_line sl join so_header h on h.id = sl.so_id
        where h.warehouse_id = ${warehouseId} and h.status in (${list(PACKABLE_ORDER)}) and sl.picked_qty > 0
          and sl.picked_qty > coalesce((select sum(cl.qty) from carton_line cl where cl.so_line_id = sl.id), 0)) as packing,
      (select count(*) from carton c join so_header h on h.id = c.so_id
        where c.warehouse_id = ${warehouseId} and c.status = 'closed' and h.status not in (${list(ENDED_ORDER)})
          and not exists (select 1 from load_carton lc where lc.carton_id = c.id)) as loading`.execute(db);
  const row = rows[0];
  return {
    receiving: Number(row.receiving),
    putaway: Number(row.putaway),
    picking: Number(row.picking),
    packing: Number(row.packing),
    loading: Number(row.loading),
  };
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The stock of SKUs in a warehouse by location, lot and licence plate, for the SKU and UPC search. */
export async function stockOfSkus(db: Kysely<DB>, scope: { projectId: number; warehouseId: number }, skuIds: readonly number[]) {
  if (skuIds.length === 0) return [];
  return db
    .selectFrom('inventory_balance as b')
    .innerJoin('location as loc', 'loc.id', 'b.location_id')
    .innerJoin('lot as l', 'l.id', 'b.lot_id')
    .select(['b.sku_id', 'loc.code as location_code', 'l.lot_no', 'l.expiry_date', 'b.lpn', 'b.on_hand_qty', 'b.allocated_qty', 'b.picked_qty', 'b.held_qty'])
    .where('b.project_id', '=', scope.projectId)
    .where('b.warehouse_id', '=', scope.warehouseId)
    .where('b.sku_id', 'in', [...skuIds])
    .where('b.on_hand_qty', '<>', '0')
    .orderBy('b.sku_id')
    .orderBy('loc.code')
    .orderBy('l.lot_no')
    .orderBy('b.lpn')
    .limit(500)
    .execute();
}

/** The codes of these owners by id. */
export async function ownerCodes(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('owner').select(['id', 'code']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [Number(r.id), r.code]));
}

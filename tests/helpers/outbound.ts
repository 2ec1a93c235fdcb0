import type { Kysely } from 'kysely';
import type { DB } from '../../src/server/db/schema.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { holdStock, lotFor, receiveStock, type LotAttributes, type StockScope } from '../../src/server/modules/inventory/inventory.service.js';

/** Master data and stock for the outbound tests and benchmark, made through the inventory service. */
export interface OutboundFixture {
  scope: StockScope;
  ownerId: number;
  skuIds: number[];
  /** Storage locations; the first is a pick face. */
  locationIds: number[];
}

export async function outboundFixture(db: Kysely<DB>, tag: string, skus: number, locations = 4): Promise<OutboundFixture> {
  const project = await db.selectFrom('project').select(['id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
  const scope: StockScope = { projectId: project.id, warehouseId: warehouse.id, operator: 'tester' };
  const owner = await db.insertInto('owner').values({ project_id: project.id, code: `OW-${tag}`, name: `Owner ${tag}` }).returning('id').executeTakeFirstOrThrow();
  const skuIds: number[] = [];
  for (let start = 0; start < skus; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, skus - start) }, (_, i) => ({ project_id: project.id, owner_id: owner.id, code: `SKU-${tag}-${start + i}`, description: `SKU ${start + i}` }));
    skuIds.push(...(await db.insertInto('sku').values(rows).returning('id').execute()).map((r) => r.id));
  }
  const locationRows = Array.from({ length: locations }, (_, i) => ({
    warehouse_id: warehouse.id,
    code: `L-${tag}-${i}`,
    location_type: i === 0 ? ('pick' as const) : ('storage' as const),
    pick_seq: locations - i,
  }));
  const locationIds = (await db.insertInto('location').values(locationRows).returning('id').execute()).map((r) => r.id);
  return { scope, ownerId: owner.id, skuIds, locationIds };
}

/** Receives `qty` of a SKU into a location, in a lot of these attributes; `held` of it on hold. */
export async function stock(db: Kysely<DB>, f: OutboundFixture, skuId: number, locationId: number, qty: number, lot: LotAttributes = {}, held = 0): Promise<number> {
  return inTransaction(db, async (trx) => {
    const row = await lotFor(trx, f.scope, f.ownerId, skuId, lot);
    const key = { ownerId: f.ownerId, skuId, lotId: row.id, locationId };
    await receiveStock(trx, f.scope, { key, qty, reference: { type: 'test', orderNo: 'RCV' } });
    if (held > 0) await holdStock(trx, f.scope, { key, qty: held });
    return row.id;
  });
}

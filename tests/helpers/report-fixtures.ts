import { inTransaction } from '../../src/server/db/transaction.js';
import { lotFor, receiveStock } from '../../src/server/modules/inventory/inventory.service.js';
import type { ReportSpec } from '../../src/common/report-api.js';
import type { Database } from '../../src/server/db/database.js';

/** Codes of a project's seeded stock: SKUs `<tag>-A`, `<tag>-B`, `<tag>-C` under two owners, one location each. */
export interface SeededStock {
  skuCodes: string[];
  ownerCodes: string[];
}

/** Receives stock through the inventory service: per SKU one balance of `qty` (10, 20, 30) at its own location. */
export async function seedReportStock(db: Database['db'], projectId: number, warehouseId: number, tag: string): Promise<SeededStock> {
  return inTransaction(db, async (trx) => {
    const scope = { projectId, warehouseId, operator: 'tester' };
    const owners = [];
    for (const suffix of ['X', 'Y']) {
      owners.push(await trx.insertInto('owner').values({ project_id: projectId, code: `OW-${tag}-${suffix}`, name: `Owner ${suffix}` }).returning(['id', 'code']).executeTakeFirstOrThrow());
    }
    const skuCodes: string[] = [];
    for (const [i, suffix] of ['A', 'B', 'C'].entries()) {
      const owner = owners[i === 2 ? 1 : 0];
      const sku = await trx.insertInto('sku').values({ project_id: projectId, owner_id: owner.id, code: `${tag}-${suffix}`, description: `SKU ${suffix}` }).returning('id').executeTakeFirstOrThrow();
      const location = await trx.insertInto('location').values({ warehouse_id: warehouseId, code: `L-${tag}-${suffix}`, location_type: 'pick', pick_seq: i + 1 }).returning('id').executeTakeFirstOrThrow();
      const lot = await lotFor(trx, scope, owner.id, sku.id, {});
      await receiveStock(trx, scope, { key: { ownerId: owner.id, skuId: sku.id, lotId: lot.id, locationId: location.id }, qty: (i + 1) * 10, reference: { type: 'test', orderNo: `RCV-${tag}-${suffix}` } });
      skuCodes.push(`${tag}-${suffix}`);
    }
    return { skuCodes, ownerCodes: owners.map((o) => o.code) };
  });
}

const labels = (en: string) => ({ en, zh: en, zh_tw: en, th: en, kor: en, jp: en });

/** A report over the stock balance with its SKU: a SKU prefix parameter and the quantity summed by owner. */
export function stockReportSpec(): ReportSpec {
  return {
    sql: `select s.code as sku, o.code as owner, l.code as location, b.on_hand_qty as qty
from inventory_balance b
join sku s on s.id = b.sku_id
join owner o on o.id = b.owner_id
join location l on l.id = b.location_id
where (:sku is null or s.code like :sku || '%')
order by s.code`,
    params: [{ name: 'sku', labels: labels('SKU'), type: 'text' }],
    columns: [
      { name: 'sku', labels: labels('SKU'), type: 'text' },
      { name: 'owner', labels: labels('Owner'), type: 'text' },
      { name: 'location', labels: labels('Location'), type: 'text' },
      { name: 'qty', labels: labels('Quantity'), type: 'number', decimals: 0 },
    ],
    grouping: { groupBy: 'owner', totals: [{ column: 'qty', aggregate: 'sum' }, { column: 'qty', aggregate: 'count' }] },
  };
}

export const reportLabels = labels;

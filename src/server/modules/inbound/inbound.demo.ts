import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { DemoDataProvider } from '../area.js';
import { DEMO } from '../masterdata/index.js';
import { asnLines } from './asn.repository.js';
import { cancelAsn, closeAsn, deleteAsns, saveAsnDetail, saveAsnHeader } from './asn.service.js';
import type { Actor } from './inbound.common.js';
import { findLocationByCode, findOwner, firstSkusOfOwner } from './lookups.repository.js';
import { createAsnFromPo, createPo } from './po.service.js';
import { confirmPutaway, putawayTasks } from './putaway.service.js';
import { receiveAsnLines } from './receiving.service.js';

/**
 * Demonstration inbound work for the demo data (a new user sees a living warehouse): in the
 * first warehouse, a purchase order and ASNs in every status, received on the dock and partly put
 * away, all through the inbound service, so that the inventory ledger agrees with the balance.
 * Answers how many ASNs it made.
 */
export async function loadInboundDemo(trx: Transaction<DB>, projectId: number, warehouseId: number, ownerCode: string): Promise<number> {
  const work = await demoWork(trx, projectId, warehouseId, ownerCode, 6);
  if (!work) return 0;
  const { actor, skus, asns, make, receiveAll, putAway } = work;

  const po = await createPo(trx, actor, {
    ownerId: work.ownerId,
    supplierCode: null,
    remark: 'Demo purchase order',
    lines: skus.slice(0, 3).map((sku, i) => ({ skuId: sku.id, qty: 24 * (i + 1) })),
  });
  const fromPo = await createAsnFromPo(trx, actor, po.id);
  asns.push(fromPo.id);

  // New, with cartons announced for scan-in.
  const scanIn = await saveAsnHeader(trx, actor, { ownerCode, remark: 'Demo container for scan-in' });
  await saveAsnDetail(trx, actor, scanIn.id, [
    { skuCode: skus[3].code, expectedQty: 20, cartons: [1, 2].map((n) => ({ containerId: 'CONT-DEMO-1', cartonId: `CTN-DEMO-${n}`, qty: 10 })) },
  ]);
  asns.push(scanIn.id);

  const partial = await make('Demo: partly received', [{ code: skus[0].code, qty: 40 }]);
  await receiveAll(partial, 0.5);

  const received = await make('Demo: received, waiting for putaway', [{ code: skus[1].code, qty: 30 }, { code: skus[2].code, qty: 12 }]);
  await receiveAll(received);

  const partlyAway = await make('Demo: partly put away', [{ code: skus[3].code, qty: 16 }, { code: skus[4].code, qty: 8 }]);
  const partlyReceipt = await receiveAll(partlyAway);
  await putAway(partlyReceipt.putawayTaskIds.slice(0, 1));

  const away = await make('Demo: put away', [{ code: skus[4].code, qty: 50 }]);
  await putAway((await receiveAll(away)).putawayTaskIds);

  const closed = await make('Demo: closed', [{ code: skus[5].code, qty: 60 }]);
  await putAway((await receiveAll(closed)).putawayTaskIds);
  await closeAsn(trx, actor, closed.id);

  const cancelled = await make('Demo: cancelled', [{ code: skus[5].code, qty: 5 }]);
  await cancelAsn(trx, actor, cancelled.id);

  const deleted = await make('Demo: deleted', [{ code: skus[2].code, qty: 5 }]);
  await deleteAsns(trx, actor, [deleted.id]);

  return asns.length;
}

/**
 * The second warehouse's smaller day, so that switching to it shows work too: stock of another
 * owner received and put away, and one ASN still on the dock. Answers how many ASNs it made.
 */
export async function loadSecondWarehouseInbound(trx: Transaction<DB>, projectId: number, warehouseId: number, ownerCode: string): Promise<number> {
  const work = await demoWork(trx, projectId, warehouseId, ownerCode, 4);
  if (!work) return 0;
  const { skus, asns, make, receiveAll, putAway } = work;
  const away = await make('Demo: put away', skus.slice(0, 3).map((sku, i) => ({ code: sku.code, qty: 40 + 20 * i })));
  await putAway((await receiveAll(away)).putawayTaskIds);
  await receiveAll(await make('Demo: received, waiting for putaway', [{ code: skus[3].code, qty: 18 }]));
  return asns.length;
}

/** What every demo day of a warehouse works with: its owner's first SKUs and the dock, and the steps made through the inbound services. */
async function demoWork(trx: Transaction<DB>, projectId: number, warehouseId: number, ownerCode: string, skuCount: number) {
  const actor: Actor = { projectId, warehouseId, login: 'demo' };
  const owner = await findOwner(trx, projectId, { code: ownerCode });
  const dock = await findLocationByCode(trx, warehouseId, 'DOCK-01');
  if (!owner || !dock) return undefined;
  const skus = await firstSkusOfOwner(trx, projectId, owner.id, skuCount);
  if (skus.length < skuCount) return undefined;
  const asns: number[] = [];
  const make = async (remark: string, lines: { code: string; qty: number }[]) => {
    const asn = await saveAsnHeader(trx, actor, { ownerCode, remark });
    await saveAsnDetail(trx, actor, asn.id, lines.map((l) => ({ skuCode: l.code, expectedQty: l.qty })));
    asns.push(asn.id);
    return { id: asn.id, lines: await asnLines(trx, asn.id) };
  };
  const receiveAll = async (asn: { id: number; lines: { id: number; expected_qty: string }[] }, part = 1) =>
    receiveAsnLines(
      trx,
      actor,
      asn.id,
      asn.lines.map((l) => ({ asnLineId: l.id, qty: Math.max(1, Math.floor(Number(l.expected_qty) * part)), locationCode: dock.code })),
      'batch',
    );
  const putAway = async (taskIds: number[]) => {
    const open = new Map((await putawayTasks(trx, actor)).map((task) => [task.id, task]));
    for (const id of taskIds) {
      const task = open.get(id);
      if (task?.suggested_location) await confirmPutaway(trx, actor, { taskId: id, locationCode: task.suggested_location, lpn: task.lpn });
    }
  };
  return { actor, ownerId: owner.id, skus, asns, make, receiveAll, putAway };
}

/**
 * Inbound work made through the services so the stock ledger agrees: every ASN status in the
 * demo's first warehouse for its first owner, and a smaller day in the second for the third owner (apparel: no expiry dates to enter).
 */
export const inboundDemo: DemoDataProvider = {
  async load(trx, { projectId }) {
    const first = await demoWarehouseId(trx, 0);
    const asn = await loadInboundDemo(trx, projectId, first, DEMO.owners[0].code);
    return { asn: asn + (await loadSecondWarehouseInbound(trx, projectId, await demoWarehouseId(trx, 1), DEMO.owners[2].code)) };
  },
};

async function demoWarehouseId(trx: Transaction<DB>, index: number): Promise<number> {
  return (await trx.selectFrom('warehouse').select('id').where('code', '=', DEMO.warehouses[index].code).executeTakeFirstOrThrow()).id;
}

import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { DemoDataProvider } from '../area.js';
import { DEMO } from '../masterdata/index.js';
import { allocateOrders, endOrders } from './outbound.service.js';
import { confirmPick, pickTasks } from './pick.service.js';
import { confirmPsos } from './pso.behaviours.js';
import * as repo from './so-documents.repository.js';
import { addOrdersToShipment, allocateManually, createOrder, findAllocation, type Actor } from './so-documents.service.js';
import { releaseWave, saveWave } from './wave.service.js';

/**
 * Demonstration sales orders for the demo data, after the inbound demo has put stock away: orders
 * in every status reachable up to picking (new, partial allocated, allocated, partial picked,
 * picked, cancelled, closed, deleted), one allocated by hand, a released wave of two orders being
 * picked onto a tote (one picked, one half picked), pre-sales orders (one confirmed into a sales
 * order) and a shipment order, all through the outbound services so that the balance and the
 * ledger agree.
 * Answers how many sales orders it made.
 */
export async function loadOutboundDemo(trx: Transaction<DB>, projectId: number, warehouseId: number, ownerCode: string): Promise<number> {
  const actor: Actor = { projectId, warehouseId, login: 'demo' };
  const scope = { projectId, warehouseId, operator: 'demo' };
  const ownerId = await repo.findOwnerByCode(trx, projectId, ownerCode);
  if (ownerId === undefined) return 0;
  const skus = await repo.firstSkusOfOwner(trx, projectId, ownerId, 6);
  if (skus.length < 6) return 0;
  const address = { shipToName: 'Harbour City Store', shipToAddressEn: '3 Canton Road, Tsim Sha Tsui', carrierCode: 'DHL', requiredShipDate: '2030-12-31' };
  const ids: number[] = [];
  const order = async (orderNo: string, lines: Array<{ sku: number; qty: number }>, extra: Partial<Parameters<typeof createOrder>[2]> = {}) => {
    const id = await createOrder(trx, actor, { orderNo, ownerId, ...address, ...extra, lines: lines.map((l) => ({ skuCode: skus[l.sku].code, qty: l.qty })) });
    ids.push(id);
    return id;
  };

  await order('SO-DEMO-NEW', [{ sku: 0, qty: 5 }], { shipToAddressEn: null, shipToAddressCn: '上海市浦东新区世纪大道1号' });
  const allocated = await order('SO-DEMO-ALLOCATED', [{ sku: 4, qty: 10 }]);
  await allocateOrders(trx, scope, [allocated]);
  // Part of the second line is only on the dock, not yet put away: the order stays partial allocated.
  const partial = await order('SO-DEMO-PARTIAL', [
    { sku: 4, qty: 5 },
    { sku: 1, qty: 10 },
  ]);
  await allocateOrders(trx, scope, [partial]);
  const byHand = await order('SO-DEMO-MANUAL', [{ sku: 5, qty: 4 }]);
  const [line] = await repo.linesOf(trx, byHand);
  const candidate = (await findAllocation(trx, actor, Number(line.id))).candidates[0];
  if (candidate) await allocateManually(trx, actor, Number(line.id), [{ balanceId: candidate.balance_id, qty: 4 }]);
  const cancelled = await order('SO-DEMO-CANCELLED', [{ sku: 4, qty: 3 }]);
  await allocateOrders(trx, scope, [cancelled]);
  await endOrders(trx, scope, [cancelled], 'cancelled');
  const closed = await order('SO-DEMO-CLOSED', [{ sku: 5, qty: 2 }]);
  await allocateOrders(trx, scope, [closed]);
  await endOrders(trx, scope, [closed], 'closed');
  const deleted = await order('SO-DEMO-DELETED', [{ sku: 2, qty: 1 }]);
  await endOrders(trx, scope, [deleted], 'deleted');

  // A wave of two orders released to the floor: the first picked whole, the second half picked.
  const waveOrders = [await order('SO-DEMO-WAVE-1', [{ sku: 5, qty: 2 }]), await order('SO-DEMO-WAVE-2', [{ sku: 4, qty: 4 }])];
  const { waveId } = await saveWave(trx, scope, { orderIds: waveOrders, carrierCode: address.carrierCode });
  await releaseWave(trx, scope, waveId);
  const { tasks } = await pickTasks(trx, scope, { waveId });
  for (const task of tasks) {
    const whole = Number(task.so_id) === waveOrders[0];
    const qty = whole ? task.qty : Math.floor(Number(task.qty) / 2).toString();
    if (Number(qty) > 0) await confirmPick(trx, scope, { taskId: Number(task.id), locationCode: task.location_code, sku: task.sku_code, qty, toLpn: 'TOTE-DEMO-1' });
  }

  const pso = (psoNo: string, sku: number, qty: number) =>
    repo.insertPso(
      trx,
      { project_id: projectId, warehouse_id: warehouseId, pso_no: psoNo, owner_id: ownerId, ship_to_name: address.shipToName, ship_to_address_en: address.shipToAddressEn, required_ship_date: address.requiredShipDate, remark: null, created_by: 'demo', updated_by: 'demo' },
      [{ sku_id: Number(skus[sku].id), qty: String(qty) }],
    );
  await pso('PSO-DEMO-1', 3, 6);
  const confirmed = await pso('PSO-DEMO-2', 4, 2);
  await confirmPsos(trx, actor, [confirmed], 'demo');

  const shipment = await repo.insertShipmentOrder(trx, { project_id: projectId, warehouse_id: warehouseId, shipment_no: 'SHP-DEMO-1', carrier_code: 'DHL', ship_date: '2030-12-31', shipment_reference: 'DEMO-REF-1', expected_delivery_date: '2031-01-03', gateway: 'HKG', service: 'EXPRESS', service_provider: 'DHL Express', battery: 'none', created_by: 'demo', updated_by: 'demo' });
  await addOrdersToShipment(trx, actor, shipment, [allocated, partial]);
  return ids.length + 1;
}

/**
 * The second warehouse's orders, from the stock its smaller inbound day put away: one allocated,
 * one still new. Answers how many it made.
 */
export async function loadSecondWarehouseOutbound(trx: Transaction<DB>, projectId: number, warehouseId: number, ownerCode: string): Promise<number> {
  const actor: Actor = { projectId, warehouseId, login: 'demo' };
  const ownerId = await repo.findOwnerByCode(trx, projectId, ownerCode);
  if (ownerId === undefined) return 0;
  const skus = await repo.firstSkusOfOwner(trx, projectId, ownerId, 3);
  if (skus.length < 3) return 0;
  const address = { ownerId, shipToName: 'Kowloon Bay Outlet', shipToAddressEn: '8 Wang Chiu Road, Kowloon Bay', carrierCode: 'DHL', requiredShipDate: '2030-12-31' };
  const allocated = await createOrder(trx, actor, { orderNo: 'SO-DEMO-WH2-1', ...address, lines: [{ skuCode: skus[0].code, qty: 12 }, { skuCode: skus[1].code, qty: 6 }] });
  await allocateOrders(trx, { projectId, warehouseId, operator: 'demo' }, [allocated]);
  await createOrder(trx, actor, { orderNo: 'SO-DEMO-WH2-2', ...address, lines: [{ skuCode: skus[2].code, qty: 10 }] });
  return 2;
}

/**
 * Sales orders allocated from the stock the inbound part put away: every status reachable before
 * picking in the demo's first warehouse for its first owner, and two orders in the second
 * warehouse for the owner whose stock is there.
 */
export const outboundDemo: DemoDataProvider = {
  async load(trx, { projectId }) {
    const warehouseId = async (index: number) => (await trx.selectFrom('warehouse').select('id').where('code', '=', DEMO.warehouses[index].code).executeTakeFirstOrThrow()).id;
    const so = await loadOutboundDemo(trx, projectId, await warehouseId(0), DEMO.owners[0].code);
    return { so: so + (await loadSecondWarehouseOutbound(trx, projectId, await warehouseId(1), DEMO.owners[2].code)) };
  },
};

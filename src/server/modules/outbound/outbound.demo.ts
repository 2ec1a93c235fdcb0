import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { DemoDataProvider } from '../area.js';
import { DEMO } from '../masterdata/masterdata.demo.js';
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

  const shipment = await repo.insertShipmentOrder(trx, { project_id: projectId, warehouse_id: warehouseId, shipment_no: 'SHP-DEMO-1', carrier_code: 'DHL', ship_date: '2030-12-31', created_by: 'demo', updated_by: 'demo' });
  await addOrdersToShipment(trx, actor, shipment, [allocated, partial]);
  return ids.length + 1;
}

/** Sales orders in every status reachable before picking, allocated from the stock the inbound part put away. In the demo's first warehouse, for its first owner. */
export const outboundDemo: DemoDataProvider = {
  async load(trx, { projectId }) {
    const warehouse = await trx.selectFrom('warehouse').select('id').where('code', '=', DEMO.warehouses[0].code).executeTakeFirstOrThrow();
    return { so: await loadOutboundDemo(trx, projectId, warehouse.id, DEMO.owners[0].code) };
  },
};

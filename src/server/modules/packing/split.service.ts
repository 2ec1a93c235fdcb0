import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { applyStockChanges, type StockScope } from '../inventory/index.js';
import { nextDocumentNumber, readBarcode, skusOfBarcode } from '../masterdata/index.js';
import { findPackingOrder, type PackingOrder } from '../outbound/index.js';
import * as repo from './packing.repository.js';
import type { CartonRow } from './packing.repository.js';
import { findCartonByNo, lotNumbers } from './split.repository.js';

/**
 * Split scan: items are taken out of a packed carton (open or closed) into another carton of the
 * same order by scanning them. The first scan opens the new carton; each scan moves its stock from
 * the source carton's licence plate to the new carton's at the same location, through the
 * inventory service, and stays picked stock of the order line it was packed for. The order's packed
 * quantity does not change. A carton of another order, a closed target, more than the source
 * carton holds of the item, or an order already shipped is refused and nothing changes.
 */

const ZERO = new Decimal(0);

/** Order statuses in which packed cartons may still be rearranged: from picking until packing is checked complete, and after. */
const SPLITTABLE = new Set(['partial_picked', 'picked', 'partial_packed', 'packed']);

export interface SplitCarton {
  id: number;
  cartonNo: string;
  status: string;
  lines: Array<{ skuId: number; skuCode: string; lotNo: string; qty: string }>;
  total: string;
}

export interface SplitAnswer {
  order: { id: number; orderNo: string; status: string };
  source: SplitCarton;
  /** The carton the items go into; null until the first item is scanned. */
  target: SplitCarton | null;
}

async function cartonView(db: Kysely<DB> | Transaction<DB>, carton: CartonRow): Promise<SplitCarton> {
  const lines = await repo.linesOfCartons(db, [Number(carton.id)]);
  const codes = await repo.skuCodes(db, [...new Set(lines.map((l) => Number(l.sku_id)))]);
  const lots = await lotNumbers(db, [...new Set(lines.map((l) => Number(l.lot_id)))]);
  const merged = new Map<string, { skuId: number; skuCode: string; lotNo: string; qty: Decimal }>();
  for (const line of lines) {
    const key = `${line.sku_id}/${line.lot_id}`;
    const entry = merged.get(key) ?? { skuId: Number(line.sku_id), skuCode: codes.get(Number(line.sku_id)) ?? '', lotNo: lots.get(Number(line.lot_id)) ?? '', qty: ZERO };
    entry.qty = entry.qty.plus(line.qty);
    merged.set(key, entry);
  }
  const rows = [...merged.values()];
  return {
    id: Number(carton.id),
    cartonNo: carton.carton_no,
    status: carton.status,
    lines: rows.map((r) => ({ ...r, qty: r.qty.toString() })),
    total: rows.reduce((sum, r) => sum.plus(r.qty), ZERO).toString(),
  };
}

function orderView(order: PackingOrder) {
  return { id: order.id, orderNo: order.orderNo, status: order.status };
}

function assertSplittable(order: PackingOrder): void {
  if (!SPLITTABLE.has(order.status)) throw new AppError('SPLIT_NOT_ALLOWED');
}

/** `/pack/split/source`: the carton of a scanned carton number with its order and contents. Reads only. */
export async function splitSource(db: Kysely<DB>, scope: StockScope, cartonNo: string): Promise<SplitAnswer> {
  const carton = await findCartonByNo(db, scope, cartonNo.trim());
  if (!carton) throw new AppError('NO_RECORD');
  const order = await findPackingOrder(db, scope, { soId: Number(carton.so_id) });
  if (!order) throw new AppError('NO_RECORD');
  assertSplittable(order);
  return { order: orderView(order), source: await cartonView(db, carton), target: null };
}

export interface SplitScanInput {
  sourceCartonId: number;
  /** The carton the items go into; absent or null opens a new carton of the order. */
  targetCartonId?: number | null;
  barcode: string;
  qty?: string;
}

/**
 * `/pack/split/scan`: moves the scanned qty of an item (a SKU code, barcode or GS1-128 label; a
 * label's batch takes only that lot) from the source carton into the target carton, opening the
 * target first when none is given. Locks the order, then both cartons in id order, then the stock.
 */
export async function splitScan(trx: Transaction<DB>, scope: StockScope, input: SplitScanInput): Promise<SplitAnswer> {
  const seen = await repo.findCarton(trx, scope, input.sourceCartonId);
  if (!seen) throw new AppError('NO_RECORD');
  const order = await findPackingOrder(trx, scope, { soId: Number(seen.so_id) }, true);
  if (!order) throw new AppError('NO_RECORD');
  assertSplittable(order);

  const targetId = input.targetCartonId ?? null;
  if (targetId === Number(seen.id)) throw new AppError('SPLIT_SAME_CARTON', { cartonNo: seen.carton_no });
  const ids = targetId === null ? [Number(seen.id)] : [Number(seen.id), targetId].sort((a, b) => a - b);
  const locked = new Map<number, CartonRow>();
  for (const id of ids) {
    const carton = await repo.findCarton(trx, scope, id, true);
    if (!carton) throw new AppError('NO_RECORD');
    locked.set(id, carton);
  }
  const source = locked.get(Number(seen.id))!;
  let target = targetId === null ? undefined : locked.get(targetId)!;
  if (target && Number(target.so_id) !== order.id) throw new AppError('SPLIT_OTHER_ORDER', { cartonNo: target.carton_no, orderNo: order.orderNo });
  if (target && target.status !== 'open') throw new AppError('CARTON_CLOSED', { cartonNo: target.carton_no });

  // What the scan names, in base units.
  if (!input.barcode.trim()) throw new AppError('INVALID_SKU');
  const read = readBarcode(input.barcode);
  if (!read.ok) throw new AppError('BARCODE_FORMAT');
  let scans = new Decimal(input.qty ?? 1);
  if (read.gs1?.count !== undefined) {
    if (read.gs1.count <= 0) throw new AppError('BARCODE_FORMAT');
    scans = new Decimal(read.gs1.count);
  }
  const [sku] = await skusOfBarcode(trx, scope.projectId, read.code, { ownerId: order.ownerId, gs1Label: read.gs1 !== null });
  if (!sku) throw new AppError('INVALID_SKU');
  const qty = scans.times(sku.perScan);

  const batch = read.gs1?.batch;
  const lots = batch === undefined ? undefined : new Set(await repo.lotIdsOfNumber(trx, scope.projectId, sku.skuId, batch));
  const held = (await repo.linesOfCartons(trx, [Number(source.id)])).filter((l) => Number(l.sku_id) === sku.skuId && (!lots || lots.has(Number(l.lot_id)))).reverse();
  const total = held.reduce((sum, l) => sum.plus(l.qty), ZERO);
  if (total.isZero() || qty.greaterThan(total)) throw new AppError('NOT_ENOUGH_TO_REMOVE');

  if (!target) {
    const cartonNo = await nextDocumentNumber(trx, 'CARTON', { warehouseId: scope.warehouseId, projectId: scope.projectId });
    target = await repo.insertCarton(trx, { project_id: scope.projectId, warehouse_id: scope.warehouseId, so_id: order.id, carton_no: cartonNo, carton_type: source.carton_type, by: scope.operator });
  }

  let left = qty;
  const reference = { type: 'pack', orderNo: target.carton_no };
  for (const line of held) {
    if (left.isZero()) break;
    const take = Decimal.min(left, line.qty);
    const key = { ownerId: Number(line.owner_id), skuId: Number(line.sku_id), lotId: Number(line.lot_id), locationId: Number(line.from_location_id) };
    // Packed stock stands at the place it was picked to, on the carton's licence plate, and stays picked.
    await applyStockChanges(trx, scope, [
      { key: { ...key, lpn: source.carton_no }, transType: 'move', onHand: take.negated(), picked: take.negated(), reference },
      { key: { ...key, lpn: target.carton_no }, transType: 'move', onHand: take, picked: take, reference },
    ]);
    await repo.takeFromCartonLine(trx, Number(line.id), new Decimal(line.qty).minus(take).toString(), scope.operator);
    // An item's anti-counterfeit code goes with it into the new carton.
    await repo.addCartonLine(
      trx,
      { carton_id: Number(target.id), so_line_id: Number(line.so_line_id), owner_id: key.ownerId, sku_id: key.skuId, lot_id: key.lotId, from_location_id: key.locationId, from_lpn: line.from_lpn, qty: take.toString(), anti_counterfeit_code: line.anti_counterfeit_code },
      scope.operator,
    );
    left = left.minus(take);
  }
  await repo.touchCarton(trx, Number(source.id), scope.operator);
  await repo.touchCarton(trx, Number(target.id), scope.operator);
  return { order: orderView(order), source: await cartonView(trx, source), target: await cartonView(trx, target) };
}

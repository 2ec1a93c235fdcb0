import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { StockScope } from '../inventory/index.js';
import { lockOrders, setOrderStatus } from './outbound.repository.js';
import * as repo from './pack-order.repository.js';
import { assertTransition, type SoStatus } from './so-status.js';

/**
 * What packing needs of a sales order: the order with its lines' ordered and picked quantities,
 * where the picked stock of a line stands, and the order's status once packing is checked
 * complete. Packing is another area; it reaches orders only through these functions.
 */

export interface PackingOrderLine {
  id: number;
  lineNo: number;
  skuId: number;
  qty: string;
  pickedQty: string;
}

export interface PackingOrder {
  id: number;
  orderNo: string;
  status: string;
  ownerId: number;
  /** The wave number the order is on, or null. */
  waveNo: string | null;
  lines: PackingOrderLine[];
}

/** Where picked stock of an order line stands: the balance key picking put it on, and how much of the line it is. */
export interface PickedSource {
  ownerId: number;
  skuId: number;
  lotId: number;
  locationId: number;
  lpn: string;
  qty: string;
}

/**
 * The order of the scope's project and warehouse, by its id or its order number, with its lines;
 * undefined when there is none there. With `lock` the order row stays locked until the transaction
 * ends (order first, then stock, as allocation and picking lock).
 */
export async function findPackingOrder(
  db: Kysely<DB> | Transaction<DB>,
  scope: Pick<StockScope, 'projectId' | 'warehouseId'>,
  which: { soId: number } | { orderNo: string },
  lock = false,
): Promise<PackingOrder | undefined> {
  const header = await repo.findScopedOrder(db, scope, which);
  if (!header) return undefined;
  if (lock) await lockOrders(db as Transaction<DB>, scope.projectId, [Number(header.id)]);
  const status = lock ? await repo.orderStatus(db, Number(header.id)) : header.status;
  const lines = await repo.packingLines(db, Number(header.id));
  return {
    id: Number(header.id),
    orderNo: header.order_no,
    status,
    ownerId: Number(header.owner_id),
    waveNo: header.wave_id ?? null,
    lines: lines.map((l) => ({ id: Number(l.id), lineNo: l.line_no, skuId: Number(l.sku_id), qty: l.qty, pickedQty: l.picked_qty })),
  };
}

/** Where the picked stock of an order line was put by its pick tasks, summed per balance key, in task order. */
export async function pickedSourcesOfLine(db: Kysely<DB> | Transaction<DB>, soLineId: number): Promise<PickedSource[]> {
  const rows = await repo.pickedPlacesOfLine(db, soLineId);
  return rows.map((r) => ({ ownerId: Number(r.owner_id), skuId: Number(r.sku_id), lotId: Number(r.lot_id), locationId: Number(r.to_location_id), lpn: r.to_lpn ?? '', qty: String(r.qty) }));
}

/**
 * Check-complete of packing: the order becomes packed when every line's picked quantity is packed,
 * partially packed otherwise. Refused (ORDER_STATUS_ERROR) where the status table does not allow
 * it. The caller holds the order's lock.
 */
export async function setPackingStatus(trx: Transaction<DB>, scope: StockScope, soId: number, to: Extract<SoStatus, 'packed' | 'partial_packed'>): Promise<SoStatus> {
  const [order] = await lockOrders(trx, scope.projectId, [soId]);
  assertTransition(order.order_no, order.status, to);
  await setOrderStatus(trx, soId, to, scope.operator);
  return to;
}

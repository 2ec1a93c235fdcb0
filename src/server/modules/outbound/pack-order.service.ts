import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { Statement } from '../../db/pipeline.js';
import type { DB } from '../../db/schema.js';
import type { StockScope } from '../inventory/index.js';
import { linesOfOrders, lockOrders, setOrderStatus } from './outbound.repository.js';
import * as repo from './pack-order.repository.js';
import { unpickTask } from './pick.service.js';
import { assertTransition, statusFromLines, type SoStatus } from './so-status.js';

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
  /** What packing shows and checks of the line's SKU: its code, gift, anti-counterfeit code per unit and collar barcode. */
  sku: { code: string; gift: boolean; antiCounterfeit: boolean; collarBarcode: string | null };
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
  // One statement: the order (locked with `lock`, read as it stands once the lock is held) with its lines and their SKUs.
  return packingOrderOfRows(await repo.scopedOrderWithLines(db, scope, which, lock));
}

/**
 * `findPackingOrder` as a statement, for a caller that sends it together with statements of its own
 * (`pipelined`): they run after it, the order's lock held.
 */
export function packingOrderStatement(
  db: Kysely<DB> | Transaction<DB>,
  scope: Pick<StockScope, 'projectId' | 'warehouseId'>,
  which: { soId: number } | { orderNo: string },
  lock = false,
): Statement<PackingOrder | undefined> {
  return { query: repo.scopedOrderWithLinesQuery(db, scope, which, lock).compile(), answer: (result) => packingOrderOfRows(result.rows as repo.ScopedOrderRow[]) };
}

function packingOrderOfRows(rows: readonly repo.ScopedOrderRow[]): PackingOrder | undefined {
  if (rows.length === 0) return undefined;
  const header = rows[0];
  return {
    id: Number(header.id),
    orderNo: header.order_no,
    status: header.status,
    ownerId: Number(header.owner_id),
    waveNo: header.wave_id ?? null,
    lines: rows.flatMap((l) => (l.line_id === null ? [] : [
            {
              id: Number(l.line_id),
              lineNo: Number(l.line_no),
              skuId: Number(l.sku_id),
              qty: String(l.qty),
              pickedQty: String(l.picked_qty),
              sku: { code: l.sku_code ?? '', gift: l.gift === true, antiCounterfeit: l.anti_counterfeit === true, collarBarcode: l.collar_barcode ?? null },
            },
          ])),
  };
}

/** Where the picked stock of these order lines was put by their pick tasks, per line: summed per balance key, in task order. */
export async function pickedSourcesOfLines(db: Kysely<DB> | Transaction<DB>, soLineIds: readonly number[]): Promise<Map<number, PickedSource[]>> {
  const sources = new Map<number, PickedSource[]>(soLineIds.map((id) => [id, []]));
  for (const r of await repo.pickedPlacesOfLines(db, soLineIds)) {
    sources.get(Number(r.so_line_id))?.push({ ownerId: Number(r.owner_id), skuId: Number(r.sku_id), lotId: Number(r.lot_id), locationId: Number(r.to_location_id), lpn: r.to_lpn ?? '', qty: String(r.qty) });
  }
  return sources;
}

/** Rows of `pickedPlacesOfOrderSkuSql` as the picked sources of each line (in task order). */
export function pickedSourcesOfRows(rows: readonly repo.PickedPlaceRow[]): Map<number, PickedSource[]> {
  const sources = new Map<number, PickedSource[]>();
  for (const r of rows) {
    const line = Number(r.so_line_id);
    const list = sources.get(line) ?? [];
    list.push({ ownerId: Number(r.owner_id), skuId: Number(r.sku_id), lotId: Number(r.lot_id), locationId: Number(r.to_location_id), lpn: r.to_lpn ?? '', qty: String(r.qty) });
    sources.set(line, list);
  }
  return sources;
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

/**
 * Cancelling a check-complete: a packed or partially packed order goes back to the status its
 * picking gives (picked, or partially picked). Refused (ORDER_STATUS_ERROR) for an order that is
 * not check-completed. The caller holds the order's lock.
 */
export async function cancelPackingStatus(trx: Transaction<DB>, scope: StockScope, soId: number): Promise<SoStatus> {
  const [order] = await lockOrders(trx, scope.projectId, [soId]);
  if (order.status !== 'packed' && order.status !== 'partial_packed') throw new AppError('ORDER_STATUS_ERROR', { orderNo: order.order_no, status: order.status });
  const next = statusFromLines(await linesOfOrders(trx, [soId]));
  await setOrderStatus(trx, soId, next, scope.operator);
  return next;
}

/**
 * Every pick task of the order that picked something is unpicked: its stock goes from where picking
 * put it back to the location and licence plate it was picked from, allocated to the order again,
 * and the order's status follows (allocated, partially allocated). The order must be picked or
 * partially picked; the caller holds the order's lock.
 */
export async function unpickOrder(trx: Transaction<DB>, scope: StockScope, soId: number): Promise<SoStatus> {
  for (const taskId of await repo.pickedTaskIdsOfOrder(trx, soId)) await unpickTask(trx, scope, taskId);
  return (await repo.orderStatus(trx, soId)) as SoStatus;
}

/** Order number and consignee (name and address lines) of an order of the scope, for its carton labels. */
export async function shipToOfOrder(db: Kysely<DB> | Transaction<DB>, scope: Pick<StockScope, 'projectId' | 'warehouseId'>, soId: number): Promise<{ orderNo: string; name: string; lines: string[] } | undefined> {
  if (!(await repo.findScopedOrder(db, scope, { soId }))) return undefined;
  const row = await repo.shipToOf(db, soId);
  if (!row) return undefined;
  const address = row.ship_to_address_en?.trim() || row.ship_to_address_cn?.trim() || '';
  return { orderNo: row.order_no, name: row.ship_to_name ?? '', lines: address.split(/\r?\n|,\s*/).map((l) => l.trim()).filter(Boolean) };
}

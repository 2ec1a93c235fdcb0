import Decimal from 'decimal.js';
import type { Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { applyStockChanges, lockAvailableStock, type AvailableStock, type StockChange, type StockScope } from '../inventory/index.js';
import {
  allocationLines,
  allocationsOfLines,
  deleteAllocations,
  findLines,
  linesOfOrders,
  lockOrders,
  writeAllocation,
  type AllocationLine,
  type SoHeaderRow,
  type SoRuleRow,
} from './outbound.repository.js';
import { lotFits } from './lot-match.js';
import { endTasksOfLines } from './open-tasks.js';
import { ALLOCATABLE, assertTransition, statusFromLines, type LineQuantities, type SoStatus } from './so-status.js';

/**
 * Sales order rules: allocation by the owner's and SKU's rule, unallocation
 * of exactly the balance rows a line holds, cancel, close and delete through the status table.
 * Every quantity change goes through the inventory service in the caller's transaction.
 */

export interface Shortage {
  orderNo: string;
  lineNo: number;
  skuId: number;
  requested: string;
  allocated: string;
  short: string;
}

export interface AllocationResult {
  /** Quantity allocated by this call, over every line. */
  allocated: string;
  shortages: Shortage[];
  statuses: Record<string, SoStatus>;
}

type Rule = Pick<SoRuleRow, 'strategy' | 'min_shelf_life_days' | 'pick_face_first' | 'full_pallet_first'>;

const DEFAULT_RULE: Rule = { strategy: 'fifo', min_shelf_life_days: 0, pick_face_first: true, full_pallet_first: true };

function checkScope(headers: SoHeaderRow[], ids: readonly number[], scope: StockScope): void {
  if (headers.length !== new Set(ids).size) throw new AppError('NO_RECORD');
  for (const h of headers) if (Number(h.warehouse_id) !== scope.warehouseId) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
}

function remainingOf(line: LineQuantities): Decimal {
  return new Decimal(line.qty).minus(line.allocated_qty).minus(line.picked_qty);
}

/** Each order's status from its lines (`lines` as they are now), checked against the status table; only the changes. */
function nextStatuses(headers: SoHeaderRow[], lines: ReadonlyArray<LineQuantities & { so_id: number }>): { statuses: Record<string, SoStatus>; changed: Array<{ soId: number; status: SoStatus }> } {
  const byOrder = new Map<number, Array<LineQuantities & { so_id: number }>>();
  for (const l of lines) {
    const list = byOrder.get(Number(l.so_id));
    if (list) list.push(l);
    else byOrder.set(Number(l.so_id), [l]);
  }
  const statuses: Record<string, SoStatus> = {};
  const changed: Array<{ soId: number; status: SoStatus }> = [];
  for (const h of headers) {
    const next = statusFromLines(byOrder.get(Number(h.id)) ?? []);
    assertTransition(h.order_no, h.status, next);
    if (next !== h.status) changed.push({ soId: Number(h.id), status: next });
    statuses[h.order_no] = next;
  }
  return { statuses, changed };
}

async function refreshStatuses(trx: Transaction<DB>, headers: SoHeaderRow[], by: string): Promise<Record<string, SoStatus>> {
  const lines = await linesOfOrders(
    trx,
    headers.map((h) => Number(h.id)),
  );
  const { statuses, changed } = nextStatuses(headers, lines);
  await writeAllocation(trx, by, [], [], changed);
  return statuses;
}

/** The line's rule (its SKU's, else its owner's for every SKU, as read with the line), else FIFO with pick face and full pallets first. */
function ruleOf(line: AllocationLine): Rule {
  if (line.strategy === null) return DEFAULT_RULE;
  return {
    strategy: line.strategy,
    min_shelf_life_days: line.min_shelf_life_days ?? 0,
    pick_face_first: line.pick_face_first ?? true,
    full_pallet_first: line.full_pallet_first ?? true,
  };
}

/** Best first by the rule: pick face before reserve (when the rule says so), then FIFO, FEFO, LIFO or location sequence. */
function compareBy(rule: Rule): (a: AvailableStock, b: AvailableStock) => number {
  const byStrategy = (a: AvailableStock, b: AvailableStock): number => {
    switch (rule.strategy) {
      case 'fefo':
        if (a.expiry_date !== b.expiry_date) return a.expiry_date === null ? 1 : b.expiry_date === null ? -1 : a.expiry_date < b.expiry_date ? -1 : 1;
        return a.received_at - b.received_at;
      case 'lifo':
        return b.received_at - a.received_at || b.lot_id - a.lot_id;
      case 'location':
        if (a.pick_seq !== b.pick_seq) return a.pick_seq === null ? 1 : b.pick_seq === null ? -1 : a.pick_seq - b.pick_seq;
        return a.location_code < b.location_code ? -1 : a.location_code > b.location_code ? 1 : 0;
      default:
        return a.received_at - b.received_at || a.lot_id - b.lot_id;
    }
  };
  return (a, b) => {
    if (rule.pick_face_first) {
      const face = (a.location_type === 'pick' ? 0 : 1) - (b.location_type === 'pick' ? 0 : 1);
      if (face !== 0) return face;
    }
    return byStrategy(a, b) || a.balance_id - b.balance_id;
  };
}

/** Whether the line may take this balance row: not expired nor within the minimum shelf life, and of the wanted lot attributes. */
interface Candidate {
  row: AvailableStock;
  /** What is still available of the row in this allocation. */
  left: Decimal;
  /** The LPN's whole quantity when the row is the whole, untouched pallet; else null. */
  pallet: Decimal | null;
}

/**
 * The order in which the line takes its candidates (already sorted by its rule): with "full pallet
 * before loose", every whole pallet that fits the remaining need is taken first, in the rule's
 * order, then the rest (loose stock and what no longer fits) in the rule's order.
 */
function* takingOrder(rule: Rule, sorted: Candidate[], need: () => Decimal): Generator<{ candidate: Candidate; whole: boolean }> {
  const wholeTaken = new Set<Candidate>();
  if (rule.full_pallet_first) {
    for (const c of sorted) {
      if (c.pallet === null || !c.left.equals(c.pallet) || c.pallet.greaterThan(need())) continue;
      wholeTaken.add(c);
      yield { candidate: c, whole: true };
    }
  }
  for (const c of sorted) if (!wholeTaken.has(c)) yield { candidate: c, whole: false };
}

/** Statuses in which given lines may be allocated: also a partly picked order, for the rest of a short-picked line. */
const LINES_ALLOCATABLE: readonly SoStatus[] = [...ALLOCATABLE, 'partial_picked'];

/**
 * Allocates the orders' lines (or only `lineIds` of them) that are not fully allocated, by the
 * rule of each owner and SKU; what cannot be covered is reported short per line and the order is
 * left partial allocated. Never oversells: the orders are locked, then every candidate balance
 * row in the inventory service's key order, and the inventory service checks again what it is
 * asked to allocate. Expired, held and in-transit stock (not in an active storage or pick
 * location) is never taken. Round trips per call do not grow with the number of lines: lock the
 * orders, read lines and rules, lock the candidates through the inventory service, one inventory
 * change, one write of the allocation records, lines and statuses.
 */
export async function allocateOrders(trx: Transaction<DB>, scope: StockScope, soIds: readonly number[], lineIds?: readonly number[]): Promise<AllocationResult> {
  const headers = await lockOrders(trx, scope.projectId, soIds);
  checkScope(headers, soIds, scope);
  const allowed = lineIds ? LINES_ALLOCATABLE : ALLOCATABLE;
  for (const h of headers) if (!allowed.includes(h.status as SoStatus)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: h.order_no, status: h.status });
  const byId = new Map(headers.map((h) => [Number(h.id), h]));
  const allLines = await allocationLines(trx, [...byId.keys()], lineIds ? [...lineIds] : null);
  // The stock the wanted lines may take, locked by the inventory service: what is read is what is really left.
  const pairs = allLines.filter((l) => l.wanted).map((l) => ({ ownerId: Number(l.owner_id), skuId: Number(l.sku_id) }));
  const candidates = await lockAvailableStock(trx, { warehouseId: scope.warehouseId, pairs });
  const only = lineIds ? new Set(lineIds) : null;
  const lines = allLines.filter((l) => (!only || only.has(l.id)) && remainingOf(l).greaterThan(0));
  const byPair = new Map<string, Candidate[]>();
  for (const row of candidates) {
    const key = `${row.owner_id}|${row.sku_id}`;
    const left = new Decimal(row.available);
    const candidate: Candidate = { row, left, pallet: row.lpn_on_hand !== null && left.equals(row.on_hand) ? new Decimal(row.lpn_on_hand) : null };
    const list = byPair.get(key);
    if (list) list.push(candidate);
    else byPair.set(key, [candidate]);
  }

  const changes: StockChange[] = [];
  const held = new Map<string, { so_id: number; so_line_id: number; balance_id: number; qty: Decimal }>();
  const taken = new Map<number, Decimal>();
  const shortages: Shortage[] = [];
  let total = new Decimal(0);
  for (const line of lines) {
    const header = byId.get(line.so_id)!;
    const rule = ruleOf(line);
    const order = compareBy(rule);
    const sorted = (byPair.get(`${line.owner_id}|${line.sku_id}`) ?? []).filter((c) => lotFits(line, c.row, rule.min_shelf_life_days)).sort((a, b) => order(a.row, b.row));
    const remaining = remainingOf(line);
    let need = remaining;
    for (const { candidate: c, whole } of takingOrder(rule, sorted, () => need)) {
      if (!need.greaterThan(0)) break;
      const qty = whole ? c.left : Decimal.min(need, c.left);
      if (!qty.greaterThan(0)) continue;
      need = need.minus(qty);
      c.left = c.left.minus(qty);
      const b = c.row;
      changes.push({
        key: { ownerId: b.owner_id, skuId: b.sku_id, lotId: b.lot_id, locationId: b.location_id, lpn: b.lpn, warehouseId: b.warehouse_id },
        transType: 'allocate',
        allocated: qty,
        uom: line.uom,
        reference: { type: 'so', orderNo: header.order_no, line: line.line_no },
      });
      const key = `${line.id}|${b.balance_id}`;
      const entry = held.get(key) ?? { so_id: line.so_id, so_line_id: line.id, balance_id: b.balance_id, qty: new Decimal(0) };
      entry.qty = entry.qty.plus(qty);
      held.set(key, entry);
    }
    const got = remaining.minus(need);
    total = total.plus(got);
    if (got.greaterThan(0)) taken.set(line.id, got);
    if (need.greaterThan(0)) {
      shortages.push({
        orderNo: header.order_no,
        lineNo: line.line_no,
        skuId: line.sku_id,
        requested: new Decimal(line.qty).toString(),
        allocated: new Decimal(line.allocated_qty).plus(got).toString(),
        short: need.toString(),
      });
    }
  }
  await applyStockChanges(trx, scope, changes);
  const after = allLines.map((l) => ({ ...l, allocated_qty: new Decimal(l.allocated_qty).plus(taken.get(l.id) ?? 0).toString() }));
  const { statuses, changed } = nextStatuses(headers, after);
  await writeAllocation(
    trx,
    scope.operator,
    [...held.values()].map((h) => ({ project_id: scope.projectId, warehouse_id: scope.warehouseId, so_id: h.so_id, so_line_id: h.so_line_id, balance_id: h.balance_id, qty: h.qty.toString() })),
    [...taken].map(([lineId, qty]) => ({ lineId, delta: qty.toString() })),
    changed,
  );
  return { allocated: total.toString(), shortages, statuses };
}

/**
 * Gives back exactly the balance rows the lines hold (every line of the orders when `lineIds` is
 * absent), and ends the lines' open pick tasks with it: a task must never outlive the allocation
 * it was made from, or confirming it would take stock another order holds by then.
 */
async function releaseAllocations(trx: Transaction<DB>, scope: StockScope, headers: SoHeaderRow[], lineIds?: readonly number[]): Promise<Decimal> {
  const only = lineIds ? new Set(lineIds) : null;
  const lineIdsToRelease = (
    await linesOfOrders(
      trx,
      headers.map((h) => Number(h.id)),
    )
  )
    .filter((l) => !only || only.has(Number(l.id)))
    .map((l) => Number(l.id));
  const total = await giveBack(trx, scope, headers, lineIdsToRelease);
  await endTasksOfLines(trx, scope, lineIdsToRelease);
  return total;
}

/** Every allocation record of the lines goes back to available through the inventory service; the records go, the lines follow. */
async function giveBack(trx: Transaction<DB>, scope: StockScope, headers: SoHeaderRow[], lineIds: readonly number[]): Promise<Decimal> {
  const held = await allocationsOfLines(trx, lineIds);
  if (held.length === 0) return new Decimal(0);
  const orderNo = new Map(headers.map((h) => [Number(h.id), h.order_no]));
  await applyStockChanges(
    trx,
    scope,
    held.map((a) => ({
      key: { ownerId: a.owner_id, skuId: a.sku_id, lotId: a.lot_id, locationId: a.location_id, lpn: a.lpn, warehouseId: a.warehouse_id },
      transType: 'unallocate' as const,
      allocated: new Decimal(a.qty).negated(),
      reference: { type: 'so', orderNo: orderNo.get(a.so_id) ?? '', line: a.line_no },
    })),
  );
  await deleteAllocations(
    trx,
    held.map((a) => a.id),
  );
  const perLine = new Map<number, Decimal>();
  for (const a of held) perLine.set(a.so_line_id, (perLine.get(a.so_line_id) ?? new Decimal(0)).plus(a.qty));
  let total = new Decimal(0);
  for (const qty of perLine.values()) total = total.plus(qty);
  await writeAllocation(
    trx,
    scope.operator,
    [],
    [...perLine].map(([lineId, qty]) => ({ lineId, delta: qty.negated().toString() })),
    [],
  );
  return total;
}

/** Unallocates the orders (or only `lineIds` of them); the status follows the lines. */
export async function unallocateOrders(trx: Transaction<DB>, scope: StockScope, soIds: readonly number[], lineIds?: readonly number[]): Promise<{ unallocated: string; statuses: Record<string, SoStatus> }> {
  const headers = await lockOrders(trx, scope.projectId, soIds);
  checkScope(headers, soIds, scope);
  for (const h of headers) if (!ALLOCATABLE.includes(h.status as SoStatus)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: h.order_no, status: h.status });
  const total = await releaseAllocations(trx, scope, headers, lineIds);
  return { unallocated: total.toString(), statuses: await refreshStatuses(trx, headers, scope.operator) };
}

/** The orders of these lines (for the line page's behaviours). */
export async function ordersOfLines(trx: Transaction<DB>, projectId: number, lineIds: readonly number[]): Promise<number[]> {
  const lines = await findLines(trx, projectId, lineIds);
  if (lines.length !== new Set(lineIds).size) throw new AppError('NO_RECORD');
  return [...new Set(lines.map((l) => Number(l.so_id)))];
}

/**
 * Cancel, close or delete (cancel and close need confirmation; cancel cannot be
 * undone; cancelled, deleted and closed are terminal). What the order still holds is given back.
 */
export async function endOrders(trx: Transaction<DB>, scope: StockScope, soIds: readonly number[], to: 'cancelled' | 'closed' | 'deleted'): Promise<number> {
  const headers = await lockOrders(trx, scope.projectId, soIds);
  checkScope(headers, soIds, scope);
  for (const h of headers) {
    assertTransition(h.order_no, h.status, to);
    if (to === 'deleted' && h.status !== 'new') throw new AppError('DELETE_CANCEL_NOT_ALLOWED', { orderNo: h.order_no });
  }
  await releaseAllocations(trx, scope, headers);
  await writeAllocation(
    trx,
    scope.operator,
    [],
    [],
    headers.map((h) => ({ soId: Number(h.id), status: to })),
  );
  return headers.length;
}

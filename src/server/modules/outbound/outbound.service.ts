import Decimal from 'decimal.js';
import type { Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { applyStockChanges, type StockChange, type StockScope } from '../inventory/inventory.service.js';
import {
  addLineAllocated,
  addLinesAllocated,
  allocationsOfLines,
  deleteAllocations,
  findLines,
  linesOfOrders,
  lockCandidateBalances,
  lockOrders,
  recordAllocations,
  rulesOfOwners,
  setOrderStatus,
  type LockedBalance,
  type SoHeaderRow,
  type SoLineRow,
  type SoRuleRow,
} from './outbound.repository.js';
import { ALLOCATABLE, assertTransition, statusFromLines, type LineQuantities, type SoStatus } from './so-status.js';

/**
 * Sales order rules (spec sections 4 and 5): allocation by the owner's and SKU's rule, unallocation
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

type Rule = Pick<SoRuleRow, 'strategy' | 'min_shelf_life_days' | 'pick_face_first'>;

const DEFAULT_RULE: Rule = { strategy: 'fifo', min_shelf_life_days: 0, pick_face_first: true };

function checkScope(headers: SoHeaderRow[], ids: readonly number[], scope: StockScope): void {
  if (headers.length !== new Set(ids).size) throw new AppError('NO_RECORD');
  for (const h of headers) if (Number(h.warehouse_id) !== scope.warehouseId) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
}

function remainingOf(line: SoLineRow): Decimal {
  return new Decimal(line.qty).minus(line.allocated_qty).minus(line.picked_qty);
}

/** Sets each order's status from its lines (`lines` as they are now), through the status table. */
async function applyStatuses(trx: Transaction<DB>, headers: SoHeaderRow[], lines: ReadonlyArray<LineQuantities & { so_id: number }>, by: string): Promise<Record<string, SoStatus>> {
  const statuses: Record<string, SoStatus> = {};
  for (const h of headers) {
    const next = statusFromLines(lines.filter((l) => Number(l.so_id) === Number(h.id)));
    assertTransition(h.order_no, h.status, next);
    if (next !== h.status) await setOrderStatus(trx, Number(h.id), next, by);
    statuses[h.order_no] = next;
  }
  return statuses;
}

async function refreshStatuses(trx: Transaction<DB>, headers: SoHeaderRow[], by: string): Promise<Record<string, SoStatus>> {
  const lines = await linesOfOrders(
    trx,
    headers.map((h) => Number(h.id)),
  );
  return applyStatuses(trx, headers, lines, by);
}

/** The rule of the SKU, else the owner's rule for every SKU, else FIFO with the pick face first. */
function ruleFor(rules: readonly SoRuleRow[], ownerId: number, skuId: number): Rule {
  return (
    rules.find((r) => Number(r.owner_id) === ownerId && r.sku_id !== null && Number(r.sku_id) === skuId) ??
    rules.find((r) => Number(r.owner_id) === ownerId && r.sku_id === null) ??
    DEFAULT_RULE
  );
}

/** Best first by the rule: pick face before reserve (when the rule says so), then FIFO, FEFO, LIFO or location sequence. */
function compareBy(rule: Rule): (a: LockedBalance, b: LockedBalance) => number {
  const byStrategy = (a: LockedBalance, b: LockedBalance): number => {
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
function fits(line: SoLineRow, rule: Rule, b: LockedBalance): boolean {
  if (b.days_left !== null && b.days_left < rule.min_shelf_life_days) return false;
  const lotNo = line.lot_no?.trim();
  if (lotNo && b.lot_no !== lotNo) return false;
  if (line.expiry_from && (b.expiry_date === null || b.expiry_date < line.expiry_from)) return false;
  if (line.expiry_to && (b.expiry_date === null || b.expiry_date > line.expiry_to)) return false;
  return true;
}

/**
 * Allocates the orders' lines (or only `lineIds` of them) that are not fully allocated, by the
 * rule of each owner and SKU; what cannot be covered is reported short per line and the order is
 * left partial allocated. Never oversells: every candidate balance row is locked first (in the
 * inventory service's key order) and the inventory service checks again what it is asked to
 * allocate. Expired and held stock is never taken.
 */
export async function allocateOrders(trx: Transaction<DB>, scope: StockScope, soIds: readonly number[], lineIds?: readonly number[]): Promise<AllocationResult> {
  const headers = await lockOrders(trx, scope.projectId, soIds);
  checkScope(headers, soIds, scope);
  for (const h of headers) if (!ALLOCATABLE.includes(h.status as SoStatus)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: h.order_no, status: h.status });
  const byId = new Map(headers.map((h) => [Number(h.id), h]));
  const only = lineIds ? new Set(lineIds) : null;
  const allLines = await linesOfOrders(trx, [...byId.keys()]);
  const lines = allLines.filter((l) => (!only || only.has(Number(l.id))) && remainingOf(l).greaterThan(0));
  const pairs = new Map<string, { ownerId: number; skuId: number }>();
  for (const line of lines) {
    const ownerId = Number(byId.get(Number(line.so_id))!.owner_id);
    pairs.set(`${ownerId}|${line.sku_id}`, { ownerId, skuId: Number(line.sku_id) });
  }
  const balances = await lockCandidateBalances(trx, scope.warehouseId, [...pairs.values()]);
  const rules = await rulesOfOwners(trx, [...new Set([...pairs.values()].map((p) => p.ownerId))]);
  const left = new Map(balances.map((b) => [b.balance_id, new Decimal(b.available)]));
  const bySku = new Map<string, LockedBalance[]>();
  for (const b of balances) {
    const key = `${b.owner_id}|${b.sku_id}`;
    bySku.set(key, [...(bySku.get(key) ?? []), b]);
  }

  const changes: StockChange[] = [];
  const held = new Map<string, { so_id: number; so_line_id: number; balance_id: number; qty: Decimal }>();
  const taken = new Map<number, Decimal>();
  const shortages: Shortage[] = [];
  let total = new Decimal(0);
  for (const line of lines) {
    const header = byId.get(Number(line.so_id))!;
    const ownerId = Number(header.owner_id);
    const rule = ruleFor(rules, ownerId, Number(line.sku_id));
    const candidates = (bySku.get(`${ownerId}|${line.sku_id}`) ?? []).filter((b) => fits(line, rule, b)).sort(compareBy(rule));
    const remaining = remainingOf(line);
    let need = remaining;
    for (const b of candidates) {
      if (!need.greaterThan(0)) break;
      const qty = Decimal.min(need, left.get(b.balance_id)!);
      if (!qty.greaterThan(0)) continue;
      need = need.minus(qty);
      left.set(b.balance_id, left.get(b.balance_id)!.minus(qty));
      changes.push({
        key: { ownerId: b.owner_id, skuId: b.sku_id, lotId: b.lot_id, locationId: b.location_id, lpn: b.lpn, warehouseId: b.warehouse_id },
        transType: 'allocate',
        allocated: qty,
        uom: line.uom,
        reference: { type: 'so', orderNo: header.order_no, line: line.line_no },
      });
      const key = `${line.id}|${b.balance_id}`;
      const entry = held.get(key) ?? { so_id: Number(line.so_id), so_line_id: Number(line.id), balance_id: b.balance_id, qty: new Decimal(0) };
      entry.qty = entry.qty.plus(qty);
      held.set(key, entry);
    }
    const got = remaining.minus(need);
    total = total.plus(got);
    if (got.greaterThan(0)) taken.set(Number(line.id), got);
    if (need.greaterThan(0)) {
      shortages.push({
        orderNo: header.order_no,
        lineNo: line.line_no,
        skuId: Number(line.sku_id),
        requested: new Decimal(line.qty).toString(),
        allocated: new Decimal(line.allocated_qty).plus(got).toString(),
        short: need.toString(),
      });
    }
  }
  await applyStockChanges(trx, scope, changes);
  await recordAllocations(
    trx,
    [...held.values()].map((h) => ({ project_id: scope.projectId, warehouse_id: scope.warehouseId, so_id: h.so_id, so_line_id: h.so_line_id, balance_id: h.balance_id, qty: h.qty.toString() })),
  );
  await addLinesAllocated(
    trx,
    [...taken].map(([lineId, qty]) => ({ lineId, delta: qty.toString() })),
    scope.operator,
  );
  const after = allLines.map((l) => ({ ...l, allocated_qty: new Decimal(l.allocated_qty).plus(taken.get(Number(l.id)) ?? 0).toString() }));
  return { allocated: total.toString(), shortages, statuses: await applyStatuses(trx, headers, after, scope.operator) };
}

/** Gives back exactly the balance rows the lines hold (every line of the orders when `lineIds` is absent). */
async function releaseAllocations(trx: Transaction<DB>, scope: StockScope, headers: SoHeaderRow[], lineIds?: readonly number[]): Promise<Decimal> {
  const only = lineIds ? new Set(lineIds) : null;
  const lines = (
    await linesOfOrders(
      trx,
      headers.map((h) => Number(h.id)),
    )
  ).filter((l) => !only || only.has(Number(l.id)));
  const held = await allocationsOfLines(
    trx,
    lines.map((l) => Number(l.id)),
  );
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
  for (const [lineId, qty] of perLine) {
    await addLineAllocated(trx, lineId, qty.negated().toString(), scope.operator);
    total = total.plus(qty);
  }
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
 * Cancel, close or delete (spec section 4: cancel and close need confirmation; cancel cannot be
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
  for (const h of headers) await setOrderStatus(trx, Number(h.id), to, scope.operator);
  return headers.length;
}

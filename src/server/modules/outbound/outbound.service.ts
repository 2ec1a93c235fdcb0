import Decimal from 'decimal.js';
import type { Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { applyStockChanges, type StockChange, type StockScope } from '../inventory/inventory.service.js';
import {
  addLineAllocated,
  allocationsOfLines,
  deleteAllocations,
  findCandidates,
  findLines,
  findRule,
  linesOfOrders,
  lockCandidateBalances,
  lockOrders,
  recordAllocation,
  setOrderStatus,
  type SoHeaderRow,
  type SoLineRow,
  type SoRuleRow,
} from './outbound.repository.js';
import { ALLOCATABLE, assertTransition, statusFromLines, type SoStatus } from './so-status.js';

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

/** How many candidate balance rows one read brings; a line needing more reads again. */
const CANDIDATE_BATCH = 50;
/** Reads of candidates for one line before the remainder is reported short. */
const MAX_ROUNDS = 20;

const DEFAULT_RULE: Pick<SoRuleRow, 'strategy' | 'min_shelf_life_days' | 'pick_face_first'> = { strategy: 'fifo', min_shelf_life_days: 0, pick_face_first: true };

function checkScope(headers: SoHeaderRow[], ids: readonly number[], scope: StockScope): void {
  if (headers.length !== new Set(ids).size) throw new AppError('NO_RECORD');
  for (const h of headers) if (Number(h.warehouse_id) !== scope.warehouseId) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
}

function remainingOf(line: SoLineRow): Decimal {
  return new Decimal(line.qty).minus(line.allocated_qty).minus(line.picked_qty);
}

async function refreshStatuses(trx: Transaction<DB>, headers: SoHeaderRow[], by: string): Promise<Record<string, SoStatus>> {
  const lines = await linesOfOrders(
    trx,
    headers.map((h) => Number(h.id)),
  );
  const statuses: Record<string, SoStatus> = {};
  for (const h of headers) {
    const next = statusFromLines(lines.filter((l) => Number(l.so_id) === Number(h.id)));
    assertTransition(h.order_no, h.status, next);
    if (next !== h.status) await setOrderStatus(trx, Number(h.id), next, by);
    statuses[h.order_no] = next;
  }
  return statuses;
}

async function allocateLine(trx: Transaction<DB>, scope: StockScope, header: SoHeaderRow, line: SoLineRow, rule: Pick<SoRuleRow, 'strategy' | 'min_shelf_life_days' | 'pick_face_first'>): Promise<Decimal> {
  let remaining = remainingOf(line);
  let taken = new Decimal(0);
  for (let round = 0; round < MAX_ROUNDS && remaining.greaterThan(0); round += 1) {
    const candidates = await findCandidates(trx, {
      projectId: scope.projectId,
      warehouseId: scope.warehouseId,
      ownerId: Number(header.owner_id),
      skuId: Number(line.sku_id),
      strategy: rule.strategy,
      pickFaceFirst: rule.pick_face_first,
      minShelfLifeDays: rule.min_shelf_life_days,
      lotNo: line.lot_no?.trim() || null,
      expiryFrom: line.expiry_from,
      expiryTo: line.expiry_to,
      limit: CANDIDATE_BATCH,
    });
    if (candidates.length === 0) break;
    const plan: Array<{ balanceId: number; qty: Decimal; change: StockChange }> = [];
    let left = remaining;
    for (const c of candidates) {
      if (!left.greaterThan(0)) break;
      const qty = Decimal.min(left, c.available);
      if (!qty.greaterThan(0)) continue;
      left = left.minus(qty);
      plan.push({
        balanceId: c.balance_id,
        qty,
        change: {
          key: { ownerId: c.owner_id, skuId: c.sku_id, lotId: c.lot_id, locationId: c.location_id, lpn: c.lpn, warehouseId: c.warehouse_id },
          transType: 'allocate',
          allocated: qty,
          uom: line.uom,
          reference: { type: 'so', orderNo: header.order_no, line: line.line_no },
        },
      });
    }
    try {
      await applyStockChanges(
        trx,
        scope,
        plan.map((p) => p.change),
      );
    } catch (error) {
      // Someone took part of this stock since it was read: the rows are now locked by this
      // transaction, so the next read sees what is really left.
      if (error instanceof AppError && error.code === 'INSUFFICIENT_INVENTORY') continue;
      throw error;
    }
    let sum = new Decimal(0);
    for (const p of plan) {
      await recordAllocation(trx, {
        project_id: scope.projectId,
        warehouse_id: scope.warehouseId,
        so_id: Number(header.id),
        so_line_id: Number(line.id),
        balance_id: p.balanceId,
        qty: p.qty.toString(),
      });
      sum = sum.plus(p.qty);
    }
    remaining = remaining.minus(sum);
    taken = taken.plus(sum);
    if (candidates.length < CANDIDATE_BATCH && remaining.greaterThan(0)) break;
  }
  if (taken.greaterThan(0)) await addLineAllocated(trx, Number(line.id), taken.toString(), scope.operator);
  return taken;
}

/**
 * Allocates the orders' lines (or only `lineIds` of them) that are not fully allocated, by the
 * rule of each owner and SKU; what cannot be covered is reported short per line and the order is
 * left partial allocated. Never oversells: the inventory service locks every balance row it
 * changes and refuses more than is available.
 */
export async function allocateOrders(trx: Transaction<DB>, scope: StockScope, soIds: readonly number[], lineIds?: readonly number[]): Promise<AllocationResult> {
  const headers = await lockOrders(trx, scope.projectId, soIds);
  checkScope(headers, soIds, scope);
  for (const h of headers) if (!ALLOCATABLE.includes(h.status as SoStatus)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: h.order_no, status: h.status });
  const byId = new Map(headers.map((h) => [Number(h.id), h]));
  const only = lineIds ? new Set(lineIds) : null;
  const lines = (await linesOfOrders(trx, [...byId.keys()])).filter((l) => !only || only.has(Number(l.id)));
  const pairs = new Map<string, { ownerId: number; skuId: number }>();
  for (const line of lines) {
    const ownerId = Number(byId.get(Number(line.so_id))!.owner_id);
    if (remainingOf(line).greaterThan(0)) pairs.set(`${ownerId}|${line.sku_id}`, { ownerId, skuId: Number(line.sku_id) });
  }
  await lockCandidateBalances(trx, scope.warehouseId, [...pairs.values()]);
  const rules = new Map<string, Pick<SoRuleRow, 'strategy' | 'min_shelf_life_days' | 'pick_face_first'>>();
  const shortages: Shortage[] = [];
  let total = new Decimal(0);
  for (const line of lines) {
    const header = byId.get(Number(line.so_id))!;
    const remaining = remainingOf(line);
    if (!remaining.greaterThan(0)) continue;
    const ruleKey = `${header.owner_id}|${line.sku_id}`;
    let rule = rules.get(ruleKey);
    if (!rule) {
      rule = (await findRule(trx, Number(header.owner_id), Number(line.sku_id))) ?? DEFAULT_RULE;
      rules.set(ruleKey, rule);
    }
    const taken = await allocateLine(trx, scope, header, line, rule);
    total = total.plus(taken);
    if (taken.lessThan(remaining)) {
      shortages.push({
        orderNo: header.order_no,
        lineNo: line.line_no,
        skuId: Number(line.sku_id),
        requested: new Decimal(line.qty).toString(),
        allocated: new Decimal(line.allocated_qty).plus(taken).toString(),
        short: remaining.minus(taken).toString(),
      });
    }
  }
  return { allocated: total.toString(), shortages, statuses: await refreshStatuses(trx, headers, scope.operator) };
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

import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError, type ErrorCode, type FieldError } from '../../../common/errors.js';
import type { AllocationCandidate } from '../../../common/outbound-api.js';
import { parseQuantity } from '../../../common/quantity.js';
import { isCalendarDate } from './input-checks.js';
import { checkSplitChanges, splitValues, type SplitChange } from '../../area-kit/split-changes.js';
import type { DB } from '../../db/schema.js';
import { newRowOf } from '../../db/row-stamps.js';
import { findInScope, lockInScope } from '../../db/scoped-rows.js';
import { applyStockChanges, availableStock, lockAvailableStock, type AvailableStock, type StockChange, type StockScope } from '../inventory/index.js';
import { checkAddress } from './address.js';
import { lotFits } from './lot-match.js';
import { addLinesAllocated, recordAllocations, setOrderStatus, type SoHeaderRow } from './outbound.repository.js';
import * as repo from './so-documents.repository.js';
import { assertTransition, ALLOCATABLE, statusFromLines, TERMINAL_STATUSES, type SoStatus } from './so-status.js';

/**
 * Order entry around the sales order: lines added and saved outside the
 * engine's pages, the SKU look-up and availability per line, manual allocation from candidate
 * balances, the split of a line, the maintenance list, store-arrival times and shipment orders.
 */

export interface Actor extends repo.Place {
  login: string;
}

function scopeOf(actor: Actor): StockScope {
  return { projectId: actor.projectId, warehouseId: actor.warehouseId, operator: actor.login };
}

function dec(value: Decimal.Value | null | undefined): Decimal {
  return new Decimal(value ?? 0);
}

async function orderOrRefuse(db: Kysely<DB>, actor: Actor, soId: number): Promise<SoHeaderRow> {
  const order = await findInScope(db, 'so_header', actor, soId);
  if (!order) throw new AppError('NO_RECORD');
  return order;
}

/** The order locked until the transaction ends; NO_RECORD when it is not of the actor's project and warehouse. */
async function lockedOrderOrRefuse(trx: Transaction<DB>, actor: Actor, soId: number): Promise<SoHeaderRow> {
  const order = await lockInScope(trx, 'so_header', actor, soId);
  if (!order) throw new AppError('NO_RECORD');
  return order;
}

/** Lines change only while their order is new (the writer of /so's line page keeps the same rule). */
function assertNew(order: SoHeaderRow): void {
  if (order.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { orderNo: order.order_no, status: order.status });
}

/**
 * The maintenance list: orders and SKUs whose data is being corrected (a wrong ship-to, a SKU
 * master under review). While an order or one of its SKUs is on the list, order entry leaves it
 * alone: its lines are not changed or split, it is not allocated by hand and no store-arrival time
 * is written to it, until it is taken off the list.
 */
async function assertNotUnderMaintenance(db: Kysely<DB> | Transaction<DB>, actor: Actor, order: SoHeaderRow, skuIds: readonly number[]): Promise<void> {
  if (await repo.underMaintenance(db, actor.warehouseId, Number(order.id), skuIds)) throw new AppError('ORDER_UNDER_MAINTENANCE', { orderNo: order.order_no });
}

// ---------------------------------------------------------------- lines

export interface LineInput {
  id?: number;
  skuCode: string;
  qty: Decimal.Value;
  uom?: string | null;
  lotNo?: string | null;
  expiryFrom?: string | null;
  expiryTo?: string | null;
  udf1?: string | null;
  udf2?: string | null;
  udf3?: string | null;
  requiredDate?: string | null;
}

function lineValues(input: LineInput, index: number): { qty: Decimal; details: FieldError[] } {
  const details: FieldError[] = [];
  const qty = dec(input.qty);
  if (!qty.greaterThan(0)) details.push({ field: `lines[${index}].qty`, code: 'QTY_NOT_POSITIVE' });
  if (input.expiryFrom && input.expiryTo && input.expiryFrom > input.expiryTo) details.push({ field: `lines[${index}].expiryTo`, code: 'FIELD_RANGE' });
  return { qty, details };
}

/**
 * `/so/save/soDetail` (and `/so/create/soDetail` with one line): adds lines (no id), changes lines
 * (id) and deletes lines of a new order; every line's problems are listed and nothing is written
 * on any of them.
 */
export async function saveLines(trx: Transaction<DB>, actor: Actor, soId: number, lines: LineInput[], deleteLineIds: number[] = []): Promise<number[]> {
  const order = await lockedOrderOrRefuse(trx, actor, soId);
  assertNew(order);
  const existing = new Map((await repo.linesOf(trx, soId)).map((l) => [Number(l.id), l]));
  const details: FieldError[] = [];
  const skus = new Map((await repo.skusByCode(trx, actor.projectId, [...new Set(lines.map((l) => l.skuCode))])).filter((s) => s.owner_id === Number(order.owner_id)).map((s) => [s.code, s]));
  lines.forEach((line, i) => {
    details.push(...lineValues(line, i).details);
    if (!skus.has(line.skuCode)) details.push({ field: `lines[${i}].skuCode`, code: 'INVALID_SKU' });
    if (line.id !== undefined && !existing.has(line.id)) details.push({ field: `lines[${i}].id`, code: 'NO_RECORD' });
  });
  deleteLineIds.forEach((id, i) => {
    if (!existing.has(id)) details.push({ field: `deleteLineIds[${i}]`, code: 'NO_RECORD' });
  });
  if (details.length) throw new AppError('VALIDATION_FAILED', {}, details);
  await assertNotUnderMaintenance(trx, actor, order, [...skus.values()].map((s) => s.id));

  await repo.deleteLines(trx, soId, deleteLineIds);
  let lineNo = await repo.maxLineNo(trx, soId);
  const ids: number[] = [];
  for (const line of lines) {
    const sku = skus.get(line.skuCode)!;
    const values = {
      sku_id: sku.id,
      qty: dec(line.qty).toString(),
      uom: line.uom?.trim() || sku.base_uom,
      lot_no: line.lotNo?.trim() || null,
      expiry_from: line.expiryFrom ?? null,
      expiry_to: line.expiryTo ?? null,
      udf1: line.udf1?.trim() || null,
      udf2: line.udf2?.trim() || null,
      udf3: line.udf3?.trim() || null,
      required_date: line.requiredDate ?? null,
    };
    if (line.id !== undefined) {
      await repo.updateLine(trx, line.id, values, actor.login);
      ids.push(line.id);
    } else {
      lineNo += 1;
      const added = await repo.insertLine(trx, { ...newRowOf(actor), so_id: soId, line_no: lineNo, ...values });
      ids.push(Number(added.id));
    }
  }
  return ids;
}

export async function orderLines(db: Kysely<DB>, actor: Actor, soId: number) {
  await orderOrRefuse(db, actor, soId);
  return repo.linesOf(db, soId);
}

export interface OrderInput {
  orderNo: string;
  ownerId: number;
  customerOrderNo?: string | null;
  shipToName?: string | null;
  shipToAddressEn?: string | null;
  shipToAddressCn?: string | null;
  carrierCode?: string | null;
  requiredShipDate?: string | null;
  remark?: string | null;
  lines: LineInput[];
}

/** A new sales order with its lines, under the same rules as the /so page (address rule, SKUs of the owner). */
export async function createOrder(trx: Transaction<DB>, actor: Actor, input: OrderInput): Promise<number> {
  checkAddress({ ship_to_address_en: input.shipToAddressEn ?? '', ship_to_address_cn: input.shipToAddressCn ?? '' });
  if ((await repo.orderNosTaken(trx, actor.projectId, [input.orderNo])).size) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'orderNo', code: 'FIELD_NOT_UNIQUE' }]);
  const soId = await repo.insertOrder(trx, {
    ...newRowOf(actor),
    order_no: input.orderNo,
    owner_id: input.ownerId,
    customer_order_no: input.customerOrderNo ?? null,
    ship_to_name: input.shipToName ?? null,
    ship_to_address_en: input.shipToAddressEn ?? null,
    ship_to_address_cn: input.shipToAddressCn ?? null,
    carrier_code: input.carrierCode ?? null,
    required_ship_date: input.requiredShipDate ?? null,
    remark: input.remark ?? null,
  });
  if (input.lines.length) await saveLines(trx, actor, soId, input.lines);
  return soId;
}

// ---------------------------------------------------------------- look-ups

/** `/so/sku`: the order owner's SKUs matching the text, with what is available in the warehouse. */
export async function skuLookup(db: Kysely<DB>, actor: Actor, input: { soId?: number; ownerCode?: string; text: string; limit?: number }) {
  let ownerId: number | undefined;
  if (input.soId !== undefined) ownerId = Number((await orderOrRefuse(db, actor, input.soId)).owner_id);
  else if (input.ownerCode) ownerId = await repo.findOwnerByCode(db, actor.projectId, input.ownerCode);
  if (ownerId === undefined) throw new AppError('NO_RECORD');
  return repo.searchSkus(db, actor.projectId, actor.warehouseId, ownerId, input.text.trim(), input.limit ?? 20);
}

/** `/so/balance`: per line, what is still open and what the warehouse has available for it. */
export async function orderBalance(db: Kysely<DB>, actor: Actor, soId: number) {
  const order = await orderOrRefuse(db, actor, soId);
  const lines = await repo.lineAvailability(db, actor.warehouseId, soId);
  return {
    orderNo: order.order_no,
    status: order.status,
    lines: lines.map((l) => {
      const open = dec(l.qty).minus(l.allocated_qty).minus(l.picked_qty);
      return { ...l, open: open.toString(), short: Decimal.max(0, open.minus(l.available)).toString() };
    }),
  };
}

/** A balance row as the manual allocation offers it. */
function candidateOf(b: AvailableStock): AllocationCandidate {
  return {
    balance_id: b.balance_id,
    owner_id: b.owner_id,
    sku_id: b.sku_id,
    lot_id: b.lot_id,
    location_id: b.location_id,
    lpn: b.lpn,
    location_code: b.location_code,
    location_type: b.location_type,
    lot_no: b.lot_no,
    expiry_date: b.expiry_date,
    days_left: b.days_left,
    udf1: b.udf1,
    udf2: b.udf2,
    udf3: b.udf3,
    on_hand: b.on_hand,
    available: b.available,
  };
}

/**
 * `/so/findAllocation`: the balance rows a line may be allocated from by hand: held, expired and
 * non-pickable stock left out, and lots that do not match the line's lot attributes or keep less
 * than the rule's minimum shelf life.
 */
export async function findAllocation(db: Kysely<DB>, actor: Actor, lineId: number) {
  const line = await findInScope(db, 'so_line', actor, lineId);
  if (!line) throw new AppError('NO_RECORD');
  const order = await orderOrRefuse(db, actor, Number(line.so_id));
  const minDays = await repo.minShelfLifeDays(db, Number(order.owner_id), Number(line.sku_id));
  const stock = await availableStock(db, { warehouseId: actor.warehouseId, pairs: [{ ownerId: Number(order.owner_id), skuId: Number(line.sku_id) }], notExpired: true });
  const candidates = stock.filter((b) => lotFits(line, b, minDays)).map(candidateOf);
  return { lineId: Number(line.id), orderNo: order.order_no, lineNo: line.line_no, open: dec(line.qty).minus(line.allocated_qty).minus(line.picked_qty).toString(), candidates };
}

/**
 * Manual allocation ("the allocation qty must be entered"): allocates the chosen
 * quantities of the chosen candidate balances to one line. Every quantity must be entered and above
 * 0, their sum not above what the line still needs, and each not above what the balance row has
 * available after locking it: never oversells. Written like the automatic allocation (inventory
 * service, allocation records, line quantity, status from the lines).
 */
export async function allocateManually(trx: Transaction<DB>, actor: Actor, lineId: number, picks: Array<{ balanceId: number; qty?: Decimal.Value | null }>): Promise<{ allocated: string; status: SoStatus }> {
  const probe = await findInScope(trx, 'so_line', actor, lineId);
  if (!probe) throw new AppError('NO_RECORD');
  const order = await lockedOrderOrRefuse(trx, actor, Number(probe.so_id));
  if (!ALLOCATABLE.includes(order.status as SoStatus)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: order.order_no, status: order.status });
  const details: FieldError[] = [];
  const seen = new Set<number>();
  picks.forEach((p, i) => {
    if (p.qty === undefined || p.qty === null || p.qty === '') details.push({ field: `allocations[${i}].qty`, code: 'ALLOCATION_QTY_REQUIRED' });
    else if (!dec(p.qty).greaterThan(0)) details.push({ field: `allocations[${i}].qty`, code: 'QTY_NOT_POSITIVE' });
    if (seen.has(p.balanceId)) details.push({ field: `allocations[${i}].balanceId`, code: 'FIELD_NOT_UNIQUE' });
    seen.add(p.balanceId);
  });
  if (picks.length === 0) details.push({ field: 'allocations', code: 'ALLOCATION_QTY_REQUIRED' });
  if (details.length) throw new AppError('VALIDATION_FAILED', {}, details);
  const line = (await findInScope(trx, 'so_line', actor, lineId))!;
  await assertNotUnderMaintenance(trx, actor, order, [Number(line.sku_id)]);
  const minDays = await repo.minShelfLifeDays(trx, Number(order.owner_id), Number(line.sku_id));
  const stock = await lockAvailableStock(trx, { warehouseId: actor.warehouseId, pairs: [{ ownerId: Number(order.owner_id), skuId: Number(line.sku_id) }], notExpired: true });
  const candidates = new Map(stock.filter((b) => lotFits(line, b, minDays)).map((b) => [b.balance_id, b]));
  let total = new Decimal(0);
  picks.forEach((p, i) => {
    const b = candidates.get(p.balanceId);
    if (!b) details.push({ field: `allocations[${i}].balanceId`, code: 'INSUFFICIENT_INVENTORY' });
    else if (dec(p.qty).greaterThan(b.available)) details.push({ field: `allocations[${i}].qty`, code: 'INSUFFICIENT_INVENTORY', params: { available: b.available } });
    total = total.plus(dec(p.qty));
  });
  if (details.length) throw new AppError('INSUFFICIENT_INVENTORY', {}, details);
  const open = dec(line.qty).minus(line.allocated_qty).minus(line.picked_qty);
  if (total.greaterThan(open)) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'allocations', code: 'FIELD_RANGE', params: { max: open.toString() } }]);

  const changes: StockChange[] = picks.map((p) => {
    const b = candidates.get(p.balanceId)!;
    return {
      key: { ownerId: b.owner_id, skuId: b.sku_id, lotId: b.lot_id, locationId: b.location_id, lpn: b.lpn },
      transType: 'allocate',
      allocated: dec(p.qty),
      uom: line.uom,
      reference: { type: 'so', orderNo: order.order_no, line: line.line_no },
    };
  });
  await applyStockChanges(trx, scopeOf(actor), changes);
  await recordAllocations(
    trx,
    picks.map((p) => ({ project_id: actor.projectId, warehouse_id: actor.warehouseId, so_id: Number(order.id), so_line_id: Number(line.id), balance_id: p.balanceId, qty: dec(p.qty).toString() })),
  );
  await addLinesAllocated(trx, [{ lineId: Number(line.id), delta: total.toString() }], actor.login);
  const next = statusFromLines(await repo.linesOf(trx, Number(order.id)));
  assertTransition(order.order_no, order.status, next);
  if (next !== order.status) await setOrderStatus(trx, Number(order.id), next, actor.login);
  return { allocated: total.toString(), status: next };
}

// ---------------------------------------------------------------- split

/** The fields of an order line a split may change. */
export const SO_SPLIT_FIELDS = ['lot_no', 'required_date', 'expiry_from', 'expiry_to', 'udf1', 'udf2', 'udf3', 'uom'] as const;

/**
 * Splits `qty` of a line of a new order into a new line whose fields change from their from-values
 * to their to-values (from-value and to-value must be set, duplicate field names
 * are refused). The from-value must be the line's current value.
 */
export async function splitLine(trx: Transaction<DB>, actor: Actor, lineId: number, qtyValue: Decimal.Value, changes: readonly SplitChange[]) {
  const checked = checkSplitChanges(changes, SO_SPLIT_FIELDS, (c, i) => {
    if ((c.field === 'required_date' || c.field.startsWith('expiry')) && !isCalendarDate(c.toValue)) throw new AppError('VALIDATION_FAILED', {}, [{ field: `changes[${i}].toValue`, code: 'FIELD_TYPE' }]);
  });
  const probe = await findInScope(trx, 'so_line', actor, lineId);
  if (!probe) throw new AppError('NO_RECORD');
  const order = await lockedOrderOrRefuse(trx, actor, Number(probe.so_id));
  if (TERMINAL_STATUSES.includes(order.status as SoStatus) || order.status !== 'new') throw new AppError('SPLIT_NOT_ALLOWED');
  const line = (await findInScope(trx, 'so_line', actor, lineId))!;
  const qty = dec(qtyValue);
  if (!qty.greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE');
  if (!qty.lessThan(line.qty)) throw new AppError('SPLIT_NOT_ALLOWED');
  await assertNotUnderMaintenance(trx, actor, order, [Number(line.sku_id)]);
  const next = splitValues(SO_SPLIT_FIELDS, line, checked);
  await repo.updateLine(trx, Number(line.id), { qty: dec(line.qty).minus(qty).toString() }, actor.login);
  const added = await repo.insertLine(trx, {
    project_id: actor.projectId,
    warehouse_id: actor.warehouseId,
    so_id: Number(order.id),
    line_no: (await repo.maxLineNo(trx, Number(order.id))) + 1,
    sku_id: Number(line.sku_id),
    qty: qty.toString(),
    uom: next.uom,
    lot_no: next.lot_no || null,
    expiry_from: next.expiry_from || null,
    expiry_to: next.expiry_to || null,
    udf1: next.udf1 || null,
    udf2: next.udf2 || null,
    udf3: next.udf3 || null,
    required_date: next.required_date || null,
    created_by: actor.login,
    updated_by: actor.login,
  });
  return { lineId: Number(added.id), lineNo: added.line_no };
}

// ---------------------------------------------------------------- maintenance list

export async function getMaintenanceList(db: Kysely<DB>, actor: Actor) {
  return repo.maintenanceList(db, actor);
}

export async function addMaintenanceList(trx: Transaction<DB>, actor: Actor, entries: Array<{ orderNo?: string | null; skuCode?: string | null; reason?: string | null }>): Promise<number> {
  const details: FieldError[] = [];
  const orders = new Map((await repo.ordersByNo(trx, actor, entries.flatMap((e) => (e.orderNo ? [e.orderNo] : [])))).map((o) => [o.order_no, o.id]));
  const skus = new Map((await repo.skusByCode(trx, actor.projectId, entries.flatMap((e) => (e.skuCode ? [e.skuCode] : [])))).map((s) => [s.code, s.id]));
  const rows = entries.map((e, i) => {
    if (!!e.orderNo === !!e.skuCode) details.push({ field: `entries[${i}]`, code: 'FIELD_REQUIRED' });
    else if (e.orderNo && !orders.has(e.orderNo)) details.push({ field: `entries[${i}].orderNo`, code: 'NO_RECORD' });
    else if (e.skuCode && !skus.has(e.skuCode)) details.push({ field: `entries[${i}].skuCode`, code: 'INVALID_SKU' });
    return { so_id: e.orderNo ? (orders.get(e.orderNo) ?? null) : null, sku_id: e.skuCode ? (skus.get(e.skuCode) ?? null) : null, reason: e.reason?.trim() || null };
  });
  if (details.length) throw new AppError('VALIDATION_FAILED', {}, details);
  return repo.addMaintenance(trx, actor, rows, actor.login);
}

export async function deleteMaintenanceList(trx: Transaction<DB>, actor: Actor, ids: number[]): Promise<number> {
  const deleted = await repo.deleteMaintenance(trx, actor, ids);
  if (deleted !== new Set(ids).size) throw new AppError('NO_RECORD');
  return deleted;
}

// ---------------------------------------------------------------- store arrival

/** A store-arrival time as read from a file: a date of the sheet, or text `YYYY-MM-DD[ HH:MM[:SS]]` (UTC). */
export function arrivalTime(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1);
  const at = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  return at.getUTCMonth() === Number(mo) - 1 && at.getUTCDate() === Number(d) && Number(h) < 24 && Number(mi) < 60 ? at : null;
}

/**
 * `importStoreArrival`: store-arrival times read from a file (order number, arrival time) written
 * onto the orders, all or none: every row's problems are listed (unknown order, bad time, a
 * terminal order, an order under maintenance) and nothing is written on any of them.
 */
export async function importStoreArrival(
  trx: Transaction<DB>,
  actor: Actor,
  rows: Array<{ row: number; orderNo: unknown; arrival: unknown }>,
  orderNoLength: number,
): Promise<number> {
  const problems: FieldError[] = [];
  const problem = (row: number, field: string, code: string) => problems.push({ field: `row ${row}: ${field}`, code, params: { row, name: field } });
  const orderNos = rows.map((r) => (typeof r.orderNo === 'string' || typeof r.orderNo === 'number' ? String(r.orderNo).trim() : ''));
  // A NUL character cannot be looked up (PostgreSQL text holds none): such a cell is refused below.
  const hasNul = (text: string) => text.includes('\u0000');
  const tooLong = (text: string) => text.length > orderNoLength && [...text].length > orderNoLength;
  const orders = new Map((await repo.ordersByNo(trx, actor, orderNos.filter((no) => no && !hasNul(no) && !tooLong(no)))).map((o) => [o.order_no, o]));
  const maintenance = new Set((await repo.maintenanceList(trx, actor)).flatMap((m) => (m.so_id === null ? [] : [Number(m.so_id)])));
  const writes: Array<{ id: number; at: Date }> = [];
  rows.forEach((r, i) => {
    const order = orders.get(orderNos[i]);
    const at = arrivalTime(r.arrival);
    if (!orderNos[i]) problem(r.row, 'orderNo', 'FIELD_REQUIRED');
    else if (hasNul(orderNos[i])) problem(r.row, 'orderNo', 'FIELD_TYPE');
    else if (tooLong(orderNos[i])) problems.push({ field: `row ${r.row}: orderNo`, code: 'FIELD_TOO_LONG', params: { row: r.row, name: 'orderNo', max: orderNoLength } });
    else if (!order) problem(r.row, 'orderNo', 'NO_RECORD');
    else if (TERMINAL_STATUSES.includes(order.status as SoStatus)) problem(r.row, 'orderNo', 'ORDER_STATUS_ERROR');
    else if (maintenance.has(order.id)) problem(r.row, 'orderNo', 'ORDER_UNDER_MAINTENANCE');
    if (!at) problem(r.row, 'arrival', 'FIELD_TYPE');
    if (order && at) writes.push({ id: order.id, at });
  });
  if (rows.length === 0) throw new AppError('IMPORT_FILE_INVALID', { reason: 'no rows' });
  if (problems.length) throw new AppError('IMPORT_REJECTED', { rows: rows.length }, problems);
  for (const w of writes) await repo.setStoreArrival(trx, w.id, w.at, actor.login);
  return writes.length;
}

// ---------------------------------------------------------------- shipment orders

/** `/so/addOrderToShipmentId`: puts orders of the warehouse on an open shipment order (an order is on one shipment at a time). */
export async function addOrdersToShipment(trx: Transaction<DB>, actor: Actor, shipmentOrderId: number, soIds: number[]): Promise<number> {
  const shipment = await lockInScope(trx, 'shipment_order', actor, shipmentOrderId);
  if (!shipment) throw new AppError('NO_RECORD');
  if (shipment.status !== 'open') throw new AppError('ORDER_STATUS_ERROR', { orderNo: shipment.shipment_no, status: shipment.status });
  for (const id of soIds) {
    const order = await lockedOrderOrRefuse(trx, actor, id);
    if (TERMINAL_STATUSES.includes(order.status as SoStatus)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: order.order_no, status: order.status });
    if (order.shipment_order_id !== null && Number(order.shipment_order_id) !== shipmentOrderId) throw new AppError('ORDER_STATUS_ERROR', { orderNo: order.order_no, status: order.status });
  }
  await repo.setShipmentOrder(trx, soIds, shipmentOrderId, actor.login);
  return soIds.length;
}

/**
 * `/so/removeOrderFromShipmentId`: takes orders off an open shipment order. Every order must be on
 * that shipment; a closed shipment keeps its orders.
 */
export async function removeOrdersFromShipment(trx: Transaction<DB>, actor: Actor, shipmentOrderId: number, soIds: number[]): Promise<number> {
  const ids = [...new Set(soIds)];
  const shipment = await lockInScope(trx, 'shipment_order', actor, shipmentOrderId);
  if (!shipment) throw new AppError('NO_RECORD');
  if (shipment.status !== 'open') throw new AppError('ORDER_STATUS_ERROR', { orderNo: shipment.shipment_no, status: shipment.status });
  for (const id of ids) {
    const order = await lockedOrderOrRefuse(trx, actor, id);
    if (order.shipment_order_id === null || Number(order.shipment_order_id) !== shipmentOrderId) throw new AppError('NO_RECORD');
  }
  await repo.setShipmentOrder(trx, ids, null, actor.login);
  return ids.length;
}

/** The order numbers typed into one text (separated by commas, semicolons, spaces or new lines), each once. */
export function orderNosOf(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((no) => no.trim()).filter((no) => no !== ''))];
}

/**
 * Puts orders named by their numbers on an open shipment order: an unknown number (or one of
 * another warehouse) is refused by name, and nothing changes.
 */
export async function addOrdersToShipmentByNo(trx: Transaction<DB>, actor: Actor, shipmentOrderId: number, orderNos: string[], field: string): Promise<number> {
  if (orderNos.length === 0) throw new AppError('VALIDATION_FAILED', {}, [{ field, code: 'FIELD_REQUIRED' }]);
  if (orderNos.length > 100) throw new AppError('VALIDATION_FAILED', {}, [{ field, code: 'SELECTION_CAP', params: { max: 100 } }]);
  const found = new Map((await repo.ordersByNo(trx, actor, orderNos)).map((o) => [o.order_no, Number(o.id)]));
  const missing = orderNos.filter((no) => !found.has(no));
  if (missing.length) throw new AppError('VALIDATION_FAILED', {}, missing.map((no) => ({ field, code: 'FIELD_FOREIGN', params: { field: no } })));
  return addOrdersToShipment(trx, actor, shipmentOrderId, orderNos.map((no) => found.get(no) as number));
}

/** What a shipment order must carry on every save: the carrier cannot take the shipment without them. */
export const SHIPMENT_REQUIRED_FIELDS = ['shipment_reference', 'expected_delivery_date', 'gateway', 'service', 'service_provider', 'battery'] as const;

/** Battery content a shipment order may declare. */
export const BATTERY_VALUES = ['none', 'lithium_ion', 'lithium_metal'] as const;

/** Refuses a shipment order (the row as it will be saved) lacking a required field or naming an unknown battery content. */
export function assertShipmentComplete(row: Record<string, unknown>): void {
  const details: FieldError[] = [];
  for (const field of SHIPMENT_REQUIRED_FIELDS) {
    const value = row[field];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) details.push({ field, code: 'FIELD_REQUIRED' });
  }
  const battery = row.battery;
  if (typeof battery === 'string' && battery.trim() !== '' && !(BATTERY_VALUES as readonly string[]).includes(battery)) details.push({ field: 'battery', code: 'FIELD_FOREIGN' });
  if (details.length) throw new AppError('VALIDATION_FAILED', {}, details);
}

/** `/so/findShipmentReference`: a shipment order by its number, with its orders. */
export async function findShipmentReference(db: Kysely<DB>, actor: Actor, shipmentNo: string) {
  const shipment = await findInScope(db, 'shipment_order', actor, { column: 'shipment_no', value: shipmentNo });
  if (!shipment) throw new AppError('NO_RECORD');
  return { ...shipment, orders: await repo.ordersOfShipment(db, Number(shipment.id)) };
}

// ---------------------------------------------------------------- pre-checks: cancel, close, pack

/** Why an action would be refused: an error code and its parameters, as the action itself would answer. */
export interface Refusal {
  code: ErrorCode;
  params: Record<string, string | number>;
}

/** The orders of the place, in the order asked (each once); not found when one of them is not of the place. */
async function ordersOrRefuse(db: Kysely<DB>, actor: Actor, soIds: readonly number[]): Promise<SoHeaderRow[]> {
  const ids = [...new Set(soIds)];
  const found = new Map((await repo.ordersIn(db, actor, ids)).map((o) => [Number(o.id), o]));
  if (found.size !== ids.length) throw new AppError('NO_RECORD');
  return ids.map((id) => found.get(id)!);
}

/** The selected orders of the scope (NO_RECORD when one is not), each with its lines' quantities. */
async function ordersWithLines(db: Kysely<DB>, actor: Actor, soIds: readonly number[]): Promise<Array<{ order: SoHeaderRow; lines: repo.LineQuantityRow[] }>> {
  const orders = await ordersOrRefuse(db, actor, soIds);
  const byOrder = new Map<number, repo.LineQuantityRow[]>();
  for (const l of await repo.lineQuantities(db, orders.map((o) => Number(o.id)))) byOrder.set(l.so_id, [...(byOrder.get(l.so_id) ?? []), l]);
  return orders.map((order) => ({ order, lines: byOrder.get(Number(order.id)) ?? [] }));
}

/** Which order a check of selected orders is about, and its status. */
interface CheckedOrder {
  soId: number;
  orderNo: string;
  status: string;
}

function checkedOrder(order: SoHeaderRow): CheckedOrder {
  return { soId: Number(order.id), orderNo: order.order_no, status: order.status };
}

function sum(lines: readonly repo.LineQuantityRow[], field: 'qty' | 'allocated_qty' | 'picked_qty'): Decimal {
  return lines.reduce((n, l) => n.plus(l[field]), new Decimal(0));
}

/** Whether the status table lets the order move to `to`, else the refusal the action would give. */
function transitionCheck(order: SoHeaderRow, to: SoStatus): { allowed: boolean; reason: Refusal | null } {
  try {
    assertTransition(order.order_no, order.status, to);
    return { allowed: true, reason: null };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { allowed: false, reason: { code: error.code, params: error.params } };
  }
}

export interface EndCheck extends CheckedOrder {
  cancel: { allowed: boolean; reason: Refusal | null };
  close: { allowed: boolean; reason: Refusal | null };
  /** Allocated qty cancel or close would release back to available. */
  allocatedQty: string;
  /** Picked qty that would have to go back to stock. */
  pickedQty: string;
  /** Open pick tasks of the order. */
  openTasks: number;
  /** The wave the order is on, if any. */
  waveNo: string | null;
  lines: Array<{ lineId: number; lineNo: number; skuCode: string; qty: string; allocatedQty: string; pickedQty: string }>;
}

/**
 * `/so/cancelCloseCheck`: for each order, whether the status table allows cancel and close, and
 * what they would undo: allocated qty released, picked qty to go back to stock, open pick tasks and
 * wave membership. Reads only.
 */
export async function cancelCloseCheck(db: Kysely<DB>, actor: Actor, soIds: readonly number[]): Promise<EndCheck[]> {
  const orders = await ordersWithLines(db, actor, soIds);
  const tasks = await repo.openTaskCounts(db, orders.map(({ order }) => Number(order.id)));
  return orders.map(({ order, lines }) => ({
    ...checkedOrder(order),
    cancel: transitionCheck(order, 'cancelled'),
    close: transitionCheck(order, 'closed'),
    allocatedQty: sum(lines, 'allocated_qty').toString(),
    pickedQty: sum(lines, 'picked_qty').toString(),
    openTasks: tasks.get(Number(order.id)) ?? 0,
    waveNo: order.wave_id,
    lines: lines.map((l) => ({ lineId: l.id, lineNo: l.line_no, skuCode: l.sku_code, qty: dec(l.qty).toString(), allocatedQty: dec(l.allocated_qty).toString(), pickedQty: dec(l.picked_qty).toString() })),
  }));
}

/** Statuses from which packing may still take picked stock (before packing is complete, not ended). */
const PACK_OPEN: readonly SoStatus[] = ['new', 'partial_allocated', 'allocated', 'partial_picked', 'picked', 'partial_packed'];

export interface PackCheck extends CheckedOrder {
  /** Packing now would ship less than ordered: a line picked short of its qty, or not picked at all. */
  partial: boolean;
  /** Nothing of the order is picked. */
  nothingPicked: boolean;
  /** The order is partially check-completed: its check-complete must be cancelled before scan-pack. */
  partialCheckComplete: boolean;
  /** Refused: the order is ended (cancelled, deleted, closed) or already past packing. */
  reason: Refusal | null;
  lines: Array<{ lineId: number; lineNo: number; skuCode: string; ordered: string; picked: string; short: string }>;
}

/**
 * `/so/checkPartialPack`: per order, ordered against picked qty per line, before the pack screen
 * packs it, and whether a partial check-complete must be cancelled first. Reads only.
 */
export async function checkPartialPack(db: Kysely<DB>, actor: Actor, soIds: readonly number[]): Promise<PackCheck[]> {
  return (await ordersWithLines(db, actor, soIds)).map(({ order, lines: quantities }) => {
    const lines = quantities.map((l) => {
      const ordered = dec(l.qty);
      const picked = dec(l.picked_qty);
      return { lineId: l.id, lineNo: l.line_no, skuCode: l.sku_code, ordered: ordered.toString(), picked: picked.toString(), short: Decimal.max(0, ordered.minus(picked)).toString() };
    });
    const open = PACK_OPEN.includes(order.status as SoStatus);
    // A partial check-complete must be cancelled before the order is scan-packed again.
    const partialCheckComplete = order.status === 'partial_packed';
    let reason: Refusal | null = null;
    if (partialCheckComplete) reason = { code: 'PACK_CANCEL_CHECK_COMPLETE_FIRST', params: { orderNo: order.order_no } };
    else if (!open) reason = { code: 'ORDER_STATUS_ERROR', params: { orderNo: order.order_no, status: order.status } };
    return {
      ...checkedOrder(order),
      partial: lines.some((l) => dec(l.short).greaterThan(0)),
      nothingPicked: lines.every((l) => dec(l.picked).isZero()),
      partialCheckComplete,
      reason,
      lines,
    };
  });
}

// ---------------------------------------------------------------- import of sales orders

export interface ImportedOrderRow {
  row: number;
  record: Record<string, unknown>;
}

function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** The columns of the order import, by header text (English) and the field each fills. */
export const ORDER_IMPORT_COLUMNS = {
  'Order no': 'orderNo',
  Owner: 'ownerCode',
  'Customer order no': 'customerOrderNo',
  'Ship-to name': 'shipToName',
  'Address (English)': 'addressEn',
  'Address (Chinese)': 'addressCn',
  Carrier: 'carrierCode',
  'Ship date': 'requiredShipDate',
  SKU: 'skuCode',
  Qty: 'qty',
  UOM: 'uom',
  Lot: 'lotNo',
  'Lot attribute 1': 'udf1',
  'Lot attribute 2': 'udf2',
  'Lot attribute 3': 'udf3',
} as const;

/** The text fields of the order import and the page field (`so` header or `soDetail` line) whose declared length each keeps. */
export const ORDER_IMPORT_TEXT_FIELDS = {
  orderNo: ['so', 'order_no'],
  customerOrderNo: ['so', 'customer_order_no'],
  shipToName: ['so', 'ship_to_name'],
  addressEn: ['so', 'ship_to_address_en'],
  addressCn: ['so', 'ship_to_address_cn'],
  carrierCode: ['so', 'carrier_code'],
  uom: ['soDetail', 'uom'],
  lotNo: ['soDetail', 'lot_no'],
  udf1: ['soDetail', 'udf1'],
  udf2: ['soDetail', 'udf2'],
  udf3: ['soDetail', 'udf3'],
} as const;

/** Longest text a page may declare for a field; a field that declares none keeps to it. */
export const LONGEST_DECLARED_TEXT = 100_000;

/** The most characters each text field of an import may hold, by import field name. */
export type ImportLengths = Record<string, number>;

/**
 * The declared lengths of the import's text fields in the project's /so pages as published (a
 * project may have its own copy of a page): `lengthOf` answers a page field's declared length.
 */
export async function declaredImportLengths(lengthOf: (functionCode: 'so' | 'soDetail', field: string) => Promise<number | undefined>): Promise<ImportLengths> {
  const lengths: ImportLengths = {};
  for (const [field, [functionCode, column]] of Object.entries(ORDER_IMPORT_TEXT_FIELDS)) lengths[field] = (await lengthOf(functionCode, column)) ?? LONGEST_DECLARED_TEXT;
  return lengths;
}

/** Characters of a text as the page rules count them (code points, not UTF-16 units). */
function characters(text: string): number {
  return [...text].length;
}

/** One FIELD_TOO_LONG problem per text of the row longer than its field's declared length. */
function checkLengths(record: Record<string, unknown>, lengths: ImportLengths, problem: (field: string, code: string, params: Record<string, string | number>) => void): void {
  for (const [field, max] of Object.entries(lengths)) {
    const text = textOf(record[field]);
    if (text.length > max && characters(text) > max) problem(field, 'FIELD_TOO_LONG', { max, length: characters(text) });
  }
}

/**
 * Imports sales orders from sheet rows (one row per line; rows of the same order number make one
 * order, whose header is read from its first row): all or none. Every row's problems are listed
 * with its row number (unknown owner or SKU, SKU of another owner, quantity, date, the address rule,
 * an order number already on file) and nothing is written on any of them.
 */
export async function importOrders(trx: Transaction<DB>, actor: Actor, rows: ImportedOrderRow[], lengths: ImportLengths): Promise<{ orders: number; lines: number }> {
  if (rows.length === 0) throw new AppError('IMPORT_FILE_INVALID', { reason: 'no rows' });
  const problems: FieldError[] = [];
  const problem = (row: number, field: string, code: string, params: Record<string, string | number> = {}) => problems.push({ field: `row ${row}: ${field}`, code, params: { ...params, row, name: field } });
  const get = (r: ImportedOrderRow, field: string) => textOf(r.record[field]);
  const owners = await repo.ownersByCode(trx, actor.projectId, [...new Set(rows.map((r) => get(r, 'ownerCode')).filter(Boolean))]);
  const skus = await repo.skusByCode(trx, actor.projectId, [...new Set(rows.map((r) => get(r, 'skuCode')).filter(Boolean))]);
  const taken = await repo.orderNosTaken(trx, actor.projectId, [...new Set(rows.map((r) => get(r, 'orderNo')).filter(Boolean))]);
  const orders = new Map<string, { first: ImportedOrderRow; ownerId: number | undefined; lines: Array<{ skuId: number; qty: string; uom: string; lotNo: string | null; udf1: string | null; udf2: string | null; udf3: string | null }> }>();
  for (const r of rows) {
    // PostgreSQL text holds no NUL character: a cell with one is refused, not a failed insert.
    for (const field of Object.keys(r.record)) if (get(r, field).includes('\u0000')) problem(r.row, field, 'FIELD_TYPE');
    // Every text keeps to its column's declared length: an over-long one is its row's problem, never stored.
    checkLengths(r.record, lengths, (field, code, params) => problem(r.row, field, code, params));
    const orderNo = get(r, 'orderNo');
    if (!orderNo) problem(r.row, 'orderNo', 'FIELD_REQUIRED');
    else if (taken.has(orderNo)) problem(r.row, 'orderNo', 'FIELD_NOT_UNIQUE');
    const ownerCode = get(r, 'ownerCode');
    const ownerId = owners.get(ownerCode);
    if (!ownerCode) problem(r.row, 'ownerCode', 'FIELD_REQUIRED');
    else if (ownerId === undefined) problem(r.row, 'ownerCode', 'FIELD_FOREIGN');
    const group = orderNo ? (orders.get(orderNo) ?? { first: r, ownerId, lines: [] }) : undefined;
    if (group && !orders.has(orderNo)) {
      orders.set(orderNo, group);
      try {
        checkAddress({ ship_to_address_en: get(r, 'addressEn'), ship_to_address_cn: get(r, 'addressCn') });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        for (const d of error.details ?? []) problem(r.row, d.field, d.code, d.params);
      }
      const date = get(r, 'requiredShipDate');
      if (date && !isCalendarDate(date)) problem(r.row, 'requiredShipDate', 'FIELD_TYPE');
    } else if (group && group.ownerId !== ownerId) problem(r.row, 'ownerCode', 'FIELD_RANGE');
    const skuCode = get(r, 'skuCode');
    const sku = skus.find((s) => s.code === skuCode && s.owner_id === ownerId);
    if (!skuCode) problem(r.row, 'skuCode', 'FIELD_REQUIRED');
    else if (ownerId !== undefined && !sku) problem(r.row, 'skuCode', 'INVALID_SKU');
    // The quantity rule of every route: a cell of five decimals is refused, never rounded.
    const parsed = parseQuantity(get(r, 'qty'));
    const qty = parsed.ok ? new Decimal(parsed.value) : null;
    if (!parsed.ok) problem(r.row, 'qty', parsed.problem.code, parsed.problem.params);
    if (group && sku && qty) group.lines.push({ skuId: sku.id, qty: qty.toString(), uom: get(r, 'uom') || sku.base_uom, lotNo: get(r, 'lotNo') || null, udf1: get(r, 'udf1') || null, udf2: get(r, 'udf2') || null, udf3: get(r, 'udf3') || null });
  }
  if (problems.length) throw new AppError('IMPORT_REJECTED', { rows: rows.length }, problems);
  let lines = 0;
  for (const [orderNo, group] of orders) {
    const r = group.first;
    const soId = await repo.insertOrder(trx, {
      project_id: actor.projectId,
      warehouse_id: actor.warehouseId,
      order_no: orderNo,
      owner_id: group.ownerId!,
      customer_order_no: get(r, 'customerOrderNo') || null,
      ship_to_name: get(r, 'shipToName') || null,
      ship_to_address_en: get(r, 'addressEn') || null,
      ship_to_address_cn: get(r, 'addressCn') || null,
      carrier_code: get(r, 'carrierCode') || null,
      required_ship_date: get(r, 'requiredShipDate') || null,
      created_by: actor.login,
      updated_by: actor.login,
    });
    let lineNo = 0;
    for (const l of group.lines) {
      lineNo += 1;
      await repo.insertLine(trx, { ...newRowOf(actor), so_id: soId, line_no: lineNo, sku_id: l.skuId, qty: l.qty, uom: l.uom, lot_no: l.lotNo, udf1: l.udf1, udf2: l.udf2, udf3: l.udf3, expiry_from: null, expiry_to: null, required_date: null });
      lines += 1;
    }
  }
  return { orders: orders.size, lines };
}

export { textOf as cellText };

/** Maps sheet rows to import records by the header row (English column titles, case and spaces ignored). */
export function orderImportRows(cells: unknown[][]): ImportedOrderRow[] {
  const norm = (v: unknown) => textOf(v).toLowerCase().replace(/\s+/g, ' ');
  const header = (cells[0] ?? []).map(norm);
  const byTitle = new Map(Object.entries(ORDER_IMPORT_COLUMNS).map(([title, field]) => [title.toLowerCase(), field]));
  const fields = header.map((h) => byTitle.get(h));
  const missing = Object.keys(ORDER_IMPORT_COLUMNS).filter((title) => ['order no', 'owner', 'sku', 'qty'].includes(title.toLowerCase()) && !header.includes(title.toLowerCase()));
  if (missing.length) throw new AppError('IMPORT_FILE_INVALID', { reason: `missing columns: ${missing.join(', ')}` });
  const rows: ImportedOrderRow[] = [];
  cells.slice(1).forEach((values, i) => {
    if (values.every((v) => textOf(v) === '')) return;
    const record: Record<string, unknown> = {};
    fields.forEach((field, c) => {
      if (field) record[field] = values[c];
    });
    rows.push({ row: i + 2, record });
  });
  return rows;
}



import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { applyStockChanges, lotFor, lotsFor, type BalanceKey, type LotAttributes, type StockChange, type StockReference, type StockScope } from '../inventory/inventory.service.js';
import { assertClosable, assertTransition, PUTAWAY_ALLOWED, RECEIVABLE, statusFromTotals, type AsnStatus } from './asn-status.js';
import type { EventBus } from '../../events/events.js';
import { hasRight } from '../access/rights.js';
import { raiseNotification } from '../notification/notification.service.js';
import * as repo from './inbound.repository.js';
import { requireForeignInScope } from '../access/foreign-scope.repository.js';
import type { AsnLineRow, AsnRow, Scope } from './inbound.repository.js';

/**
 * THE inbound rules (spec sections 1, 3, 4, 5): purchase orders to ASNs, ASN header and lines with
 * the status table of `asn-status.ts`, receiving (batch, scan-in, handheld), split of a receipt
 * line and putaway. Every stock change goes through the inventory service in the caller's
 * transaction; every change of an ASN first locks its header, so two sessions receiving the same
 * line queue and the second one sees the first one's quantity.
 */

declare module '../../events/events.js' {
  interface DomainEvents {
    /** An ASN became partially received or received (spec section 4). */
    'inbound.asn.received': { asnId: number; asnNo: string; projectId: number; warehouseId: number; status: AsnStatus };
    /** An ASN was closed. */
    'inbound.asn.closed': { asnId: number; asnNo: string; projectId: number; warehouseId: number };
  }
}

export interface Actor extends Scope {
  login: string;
  /**
   * The event bus of the request: with it, status changes emit the inbound domain events and raise
   * the "ASN received" notification in the same transaction. Work outside a request (demo data,
   * benchmarks) passes none and notifies no one.
   */
  events?: EventBus;
}

/** Who hears that an ASN was received: its creator and the warehouse's users who close ASNs, at most this many. */
const MAX_ASN_RECIPIENTS = 100;
const SUPERVISOR_RIGHT = 'inbound.asn:close';

async function asnRecipients(trx: Transaction<DB>, asn: AsnRow): Promise<number[]> {
  const users = await repo.warehouseUsers(trx, asn.project_id, asn.warehouse_id, 500);
  const ids: number[] = [];
  for (const user of users) {
    if (ids.length >= MAX_ASN_RECIPIENTS) break;
    if (user.login === asn.created_by || (await hasRight(trx, { userId: user.id, isAdmin: user.isAdmin }, SUPERVISOR_RIGHT))) ids.push(user.id);
  }
  return ids;
}

/**
 * The inbound domain events of an ASN's new status, and the "ASN received" notification (spec
 * section 4: received and partially received) to the ASN's creator and the supervisors of its
 * warehouse, all in the caller's transaction.
 */
async function announceStatus(trx: Transaction<DB>, actor: Actor, asn: AsnRow, status: AsnStatus): Promise<void> {
  const events = actor.events;
  if (!events) return;
  const about = { asnId: asn.id, asnNo: asn.asn_no, projectId: asn.project_id, warehouseId: asn.warehouse_id };
  if (status === 'closed') {
    await events.emit(trx, 'inbound.asn.closed', about);
    return;
  }
  if (status !== 'received' && status !== 'partial_received') return;
  await events.emit(trx, 'inbound.asn.received', { ...about, status });
  const userIds = await asnRecipients(trx, asn);
  if (userIds.length === 0) return;
  await raiseNotification(trx, events, {
    userIds,
    category: 'inbound',
    title: { key: status === 'received' ? 'inb.notice.received' : 'inb.notice.partialReceived' },
    body: { key: 'inb.notice.receivedBody' },
    params: { asnNo: asn.asn_no, by: actor.login },
    link: `asn?asnNo=${encodeURIComponent(asn.asn_no)}`,
    projectId: asn.project_id,
    by: actor.login,
  });
}

function stockScope(actor: Actor): StockScope {
  return { projectId: actor.projectId, warehouseId: actor.warehouseId, operator: actor.login };
}

function dec(value: Decimal.Value | null | undefined): Decimal {
  if (value === null || value === undefined || value === '') return new Decimal(0);
  const d = new Decimal(value);
  if (!d.isFinite()) throw new AppError('BAD_REQUEST', { reason: 'not a number' });
  return d;
}

const now = () => new Date();

/** A calendar date YYYY-MM-DD that exists (2026-02-31 does not), or null. */
function dateOf(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const parsed = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  if (!parsed || parsed.toISOString().slice(0, 10) !== value || Number(match![1]) < 1900) throw new AppError('FIELD_TYPE', { field }, [{ field, code: 'FIELD_TYPE' }]);
  return value;
}

export async function listAsns(db: Kysely<DB>, actor: Scope, input: { status?: string; text?: string; page?: number; pageSize?: number }) {
  const pageSize = input.pageSize ?? 20;
  return repo.listAsns(db, actor, { status: input.status, text: input.text, limit: pageSize, offset: ((input.page ?? 1) - 1) * pageSize });
}

// ---------------------------------------------------------------- status

async function refreshStatus(trx: Transaction<DB>, asn: AsnRow, actor: Actor): Promise<AsnStatus> {
  const totals = await repo.asnTotals(trx, asn.id);
  const next = statusFromTotals(totals);
  if (next !== asn.status) {
    assertTransition(asn.status, next);
    await repo.updateAsn(trx, asn.id, {
      status: next,
      updated_at: now(),
      updated_by: actor.login,
      ...(asn.received_at === null && next !== 'new' ? { received_at: now() } : {}),
    });
    await announceStatus(trx, actor, asn, next);
  }
  return next;
}

async function lockedAsn(trx: Transaction<DB>, actor: Actor, id: number): Promise<AsnRow> {
  const asn = await repo.lockAsn(trx, actor, id);
  if (!asn) throw new AppError('NO_RECORD');
  return asn;
}

// ---------------------------------------------------------------- purchase orders

export interface PoInput {
  ownerId: number;
  supplierCode?: string | null;
  expectedDate?: string | null;
  remark?: string | null;
  lines: { skuId: number; qty: Decimal.Value; uom?: string | null; lotNo?: string | null }[];
}

export async function createPo(trx: Transaction<DB>, actor: Actor, input: PoInput) {
  if (!(await repo.findOwner(trx, actor.projectId, input.ownerId))) throw new AppError('NO_RECORD');
  dateOf(input.expectedDate, 'expectedDate');
  const po = await repo.insertPo(trx, {
    project_id: actor.projectId,
    warehouse_id: actor.warehouseId,
    owner_id: input.ownerId,
    supplier_code: input.supplierCode ?? null,
    expected_date: input.expectedDate ?? null,
    remark: input.remark ?? null,
    created_by: actor.login,
    updated_by: actor.login,
  });
  const lines = [];
  for (const [i, line] of input.lines.entries()) {
    const sku = await repo.findSku(trx, actor.projectId, line.skuId);
    if (!sku || sku.owner_id !== input.ownerId) throw new AppError('INVALID_SKU');
    if (!dec(line.qty).greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE');
    lines.push({
      project_id: actor.projectId,
      po_id: po.id,
      line_no: i + 1,
      sku_id: sku.id,
      qty: dec(line.qty).toString(),
      uom: line.uom ?? sku.base_uom,
      lot_no: line.lotNo ?? null,
      created_by: actor.login,
      updated_by: actor.login,
    });
  }
  await repo.insertPoLines(trx, lines);
  return po;
}

/**
 * A new ASN announcing what is still open on the purchase order (each line's quantity less what
 * earlier ASNs announced), or the quantities given. The order becomes open; a closed or cancelled
 * order, or one with nothing left, answers the status error.
 */
export async function createAsnFromPo(trx: Transaction<DB>, actor: Actor, poId: number, wanted?: { poLineId: number; qty: Decimal.Value }[]): Promise<AsnRow> {
  const po = await repo.lockPo(trx, actor.projectId, poId);
  if (!po || po.warehouse_id !== actor.warehouseId) throw new AppError('NO_RECORD');
  if (po.status === 'closed' || po.status === 'cancelled') throw new AppError('ORDER_STATUS_ERROR', { status: po.status });
  const lines = await repo.poLines(trx, po.id);
  const byId = new Map(lines.map((l) => [l.id, l]));
  const picks = wanted
    ? wanted.map((w) => {
        const line = byId.get(w.poLineId);
        if (!line) throw new AppError('NO_RECORD');
        return { line, qty: dec(w.qty) };
      })
    : lines.map((line) => ({ line, qty: dec(line.qty).minus(line.asn_qty) }));
  const chosen = picks.filter((p) => (wanted ? true : p.qty.greaterThan(0)));
  if (chosen.length === 0) throw new AppError('ORDER_STATUS_ERROR', { status: po.status });
  for (const p of chosen) {
    if (!p.qty.greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE');
    if (p.qty.greaterThan(dec(p.line.qty).minus(p.line.asn_qty))) throw new AppError('OVER_RECEIVE');
  }
  const asn = await repo.insertAsn(trx, {
    project_id: actor.projectId,
    warehouse_id: actor.warehouseId,
    owner_id: po.owner_id,
    po_id: po.id,
    supplier_code: po.supplier_code,
    expected_date: po.expected_date,
    remark: po.remark,
    created_by: actor.login,
    updated_by: actor.login,
  });
  await repo.insertAsnLines(
    trx,
    chosen.map((p, i) => ({
      project_id: actor.projectId,
      asn_id: asn.id,
      line_no: i + 1,
      sku_id: p.line.sku_id,
      expected_qty: p.qty.toString(),
      uom: p.line.uom,
      po_line_id: p.line.id,
      lot_no: p.line.lot_no,
      created_by: actor.login,
      updated_by: actor.login,
    })),
  );
  for (const p of chosen) await repo.addPoLineAsnQty(trx, p.line.id, p.qty.toString(), actor.login);
  if (po.status === 'new') await repo.setPoStatus(trx, po.id, 'open', actor.login);
  return asn;
}

// ---------------------------------------------------------------- ASN header and lines

export interface AsnHeaderInput {
  id?: number;
  ownerCode?: string;
  supplierCode?: string | null;
  expectedDate?: string | null;
  remark?: string | null;
}

/** Creates an ASN (owner required) or changes its header; the owner can change only while the ASN is new. */
export async function saveAsnHeader(trx: Transaction<DB>, actor: Actor, input: AsnHeaderInput): Promise<AsnRow> {
  // Owner and supplier as the /asn page's dropdowns offer them: of the session's project, else a field error.
  const owner = input.ownerCode === undefined ? undefined : await requireForeignInScope(trx, actor, 'owner', { code: input.ownerCode }, 'ownerCode');
  if (input.supplierCode) await requireForeignInScope(trx, actor, 'partner', { code: input.supplierCode }, 'supplierCode');
  if (input.id === undefined) {
    if (!owner) throw new AppError('FIELD_REQUIRED', { field: 'ownerCode' });
    return repo.insertAsn(trx, {
      project_id: actor.projectId,
      warehouse_id: actor.warehouseId,
      owner_id: owner.id,
      supplier_code: input.supplierCode ?? null,
      expected_date: dateOf(input.expectedDate, 'expectedDate'),
      remark: input.remark ?? null,
      created_by: actor.login,
      updated_by: actor.login,
    });
  }
  const asn = await lockedAsn(trx, actor, input.id);
  if (['cancelled', 'deleted', 'closed'].includes(asn.status)) throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
  if (owner && owner.id !== asn.owner_id && asn.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
  const changes = {
    ...(owner ? { owner_id: owner.id } : {}),
    ...(input.supplierCode !== undefined ? { supplier_code: input.supplierCode } : {}),
    ...(input.expectedDate !== undefined ? { expected_date: dateOf(input.expectedDate, 'expectedDate') } : {}),
    ...(input.remark !== undefined ? { remark: input.remark } : {}),
  };
  const stored = asn as unknown as Record<string, string | number | null>;
  const same = Object.entries(changes).every(([k, v]) => String(stored[k] ?? '') === String(v ?? ''));
  if (same) throw new AppError('DATA_NOT_CHANGED');
  await repo.updateAsn(trx, asn.id, { ...changes, updated_at: now(), updated_by: actor.login });
  return (await repo.findAsn(trx, actor, asn.id))!;
}

export interface AsnLineInput {
  id?: number;
  skuCode: string;
  expectedQty: Decimal.Value;
  uom?: string | null;
  lotNo?: string | null;
  manufactureDate?: string | null;
  expiryDate?: string | null;
  shelfDate?: string | null;
  udf1?: string | null;
  udf2?: string | null;
  udf3?: string | null;
  /** Cartons of the line for scan-in: container id, carton id, quantity. */
  cartons?: { containerId: string; cartonId: string; qty: Decimal.Value }[];
}

/** Lines are added, changed and deleted only while the ASN is new (spec section 4). */
export async function saveAsnDetail(trx: Transaction<DB>, actor: Actor, asnId: number, lines: AsnLineInput[], deleteLineIds: number[] = []): Promise<void> {
  const asn = await lockedAsn(trx, actor, asnId);
  if (asn.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
  const existing = new Map((await repo.lockAsnLines(trx, asn.id, lines.flatMap((l) => (l.id ? [l.id] : [])))).map((l) => [l.id, l]));
  let lineNo = await repo.nextLineNo(trx, 'asn_line', asn.id);
  for (const line of lines) {
    const sku = await repo.findSkuByCodeOrBarcode(trx, actor.projectId, line.skuCode.trim(), asn.owner_id);
    if (!sku) throw new AppError('INVALID_SKU');
    const qty = dec(line.expectedQty);
    if (!qty.greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE');
    const values = {
      sku_id: sku.id,
      expected_qty: qty.toString(),
      uom: line.uom ?? sku.base_uom,
      lot_no: line.lotNo ?? null,
      manufacture_date: dateOf(line.manufactureDate, 'manufactureDate'),
      expiry_date: dateOf(line.expiryDate, 'expiryDate'),
      shelf_date: dateOf(line.shelfDate, 'shelfDate'),
      udf1: line.udf1 ?? null,
      udf2: line.udf2 ?? null,
      udf3: line.udf3 ?? null,
      updated_by: actor.login,
    };
    let saved: AsnLineRow;
    if (line.id !== undefined) {
      const old = existing.get(line.id);
      if (!old) throw new AppError('NO_RECORD');
      await repo.updateAsnLine(trx, old.id, { ...values, updated_at: now() });
      saved = old;
    } else {
      [saved] = await repo.insertAsnLines(trx, [{ ...values, project_id: actor.projectId, asn_id: asn.id, line_no: lineNo++, created_by: actor.login }]);
    }
    if (line.cartons?.length) {
      const total = line.cartons.reduce((sum, c) => sum.plus(dec(c.qty)), new Decimal(0));
      if (total.greaterThan(qty)) throw new AppError('OVER_RECEIVE');
      for (const c of line.cartons) if (!dec(c.qty).greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE');
      await repo.insertCartons(
        trx,
        line.cartons.map((c) => ({
          project_id: actor.projectId,
          warehouse_id: actor.warehouseId,
          asn_id: asn.id,
          asn_line_id: saved.id,
          container_id: c.containerId.trim(),
          carton_id: c.cartonId.trim(),
          qty: dec(c.qty).toString(),
          created_by: actor.login,
          updated_by: actor.login,
        })),
      );
    }
  }
  if (deleteLineIds.length > 0) {
    const deleted = await repo.deleteAsnLines(trx, asn.id, deleteLineIds);
    if (deleted !== new Set(deleteLineIds).size) throw new AppError('NO_RECORD');
  }
  await repo.updateAsn(trx, asn.id, { updated_at: now(), updated_by: actor.login });
}

/** `/asn/deletelist`: each ASN must be new; it becomes deleted (kept for the record). */
export async function deleteAsns(trx: Transaction<DB>, actor: Actor, ids: number[]): Promise<void> {
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const asn = await lockedAsn(trx, actor, id);
    assertTransition(asn.status, 'deleted');
    await repo.updateAsn(trx, id, { status: 'deleted', updated_at: now(), updated_by: actor.login });
  }
}

/** Cancel: only an ASN with nothing received; cannot be undone. */
export async function cancelAsn(trx: Transaction<DB>, actor: Actor, id: number): Promise<void> {
  const asn = await lockedAsn(trx, actor, id);
  assertTransition(asn.status, 'cancelled');
  await repo.updateAsn(trx, id, { status: 'cancelled', updated_at: now(), updated_by: actor.login });
}

/** Close: needs everything received to be put away. */
export async function closeAsn(trx: Transaction<DB>, actor: Actor, id: number): Promise<void> {
  const asn = await lockedAsn(trx, actor, id);
  assertClosable(asn.status, await repo.asnTotals(trx, asn.id));
  await repo.updateAsn(trx, id, { status: 'closed', updated_at: now(), updated_by: actor.login });
  await announceStatus(trx, actor, asn, 'closed');
}

export async function asnHeader(db: Kysely<DB>, actor: Scope, id: number) {
  const asn = await repo.findAsn(db, actor, id);
  if (!asn) throw new AppError('NO_RECORD');
  return { ...asn, totals: await repo.asnTotals(db, asn.id) };
}

export async function asnDetail(db: Kysely<DB>, actor: Scope, id: number) {
  const asn = await repo.findAsn(db, actor, id);
  if (!asn) throw new AppError('NO_RECORD');
  return repo.asnLines(db, asn.id);
}

// ---------------------------------------------------------------- receiving

export interface ReceiveLineInput {
  asnLineId: number;
  qty: Decimal.Value;
  locationCode: string;
  damageQty?: Decimal.Value | null;
  holdQty?: Decimal.Value | null;
  lpn?: string | null;
  lotNo?: string | null;
  manufactureDate?: string | null;
  expiryDate?: string | null;
  shelfDate?: string | null;
  udf1?: string | null;
  udf2?: string | null;
  udf3?: string | null;
  palletId?: string | null;
  cartonId?: string | null;
  traceId?: string | null;
}

export interface ReceiveResult {
  receiptNo: string;
  receiptLineIds: number[];
  putawayTaskIds: number[];
  status: AsnStatus;
}

/** Refusals of one input line: the field that is wrong and its code. */
function lineProblem(index: number, field: string, code: 'FIELD_REQUIRED' | 'QTY_NOT_POSITIVE' | 'OVER_RECEIVE' | 'LOCATION_NOT_FOUND'): FieldError {
  return { field: `lines[${index}].${field}`, code };
}

/**
 * Receives lines of one ASN (spec section 5, batch receive): received qty above 0, location
 * required and existing in the warehouse, the line's received qty never above expected (over-receive
 * refused), damage and hold quantities landing as held stock. One receipt, one receipt line and one
 * putaway task per input line; the ASN moves to partial received or received.
 */
export async function receiveAsnLines(trx: Transaction<DB>, actor: Actor, asnId: number, lines: ReceiveLineInput[], source: string, cartonOf?: Map<number, number[]>): Promise<ReceiveResult> {
  if (lines.length === 0) throw new AppError('QTY_NOT_POSITIVE');
  const asn = await lockedAsn(trx, actor, asnId);
  if (!(RECEIVABLE as readonly string[]).includes(asn.status)) throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
  const locked = new Map((await repo.lockAsnLines(trx, asn.id, [...new Set(lines.map((l) => l.asnLineId))])).map((l) => [l.id, l]));
  const receivedSoFar = new Map<number, Decimal>();
  const locations = new Map<string, number>();
  for (const [i, line] of lines.entries()) {
    const asnLine = locked.get(line.asnLineId);
    if (!asnLine) throw new AppError('NO_RECORD');
    const qty = dec(line.qty);
    if (!qty.greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE', {}, [lineProblem(i, 'qty', 'QTY_NOT_POSITIVE')]);
    const code = line.locationCode?.trim() ?? '';
    if (code === '') throw new AppError('LOCATION_REQUIRED', {}, [lineProblem(i, 'locationCode', 'FIELD_REQUIRED')]);
    if (!locations.has(code)) {
      const location = await repo.findLocationByCode(trx, actor.warehouseId, code);
      if (!location || location.status === 'inactive') throw new AppError('LOCATION_NOT_FOUND', { location: code }, [lineProblem(i, 'locationCode', 'LOCATION_NOT_FOUND')]);
      locations.set(code, location.id);
    }
    for (const field of ['manufactureDate', 'expiryDate', 'shelfDate'] as const) dateOf(line[field], field);
    const damage = dec(line.damageQty);
    const hold = dec(line.holdQty);
    if (damage.isNegative() || hold.isNegative() || damage.plus(hold).greaterThan(qty)) throw new AppError('INSUFFICIENT_INVENTORY', { qty: qty.toString() });
    const total = (receivedSoFar.get(asnLine.id) ?? dec(asnLine.received_qty)).plus(qty);
    if (total.greaterThan(asnLine.expected_qty)) {
      throw new AppError('OVER_RECEIVE', { expected: asnLine.expected_qty, received: asnLine.received_qty }, [lineProblem(i, 'qty', 'OVER_RECEIVE')]);
    }
    receivedSoFar.set(asnLine.id, total);
  }

  // Set-based from here: one lot look-up, one stock change, bulk inserts of receipt lines and
  // putaway tasks, whatever the number of lines.
  const receipt = await repo.insertReceipt(trx, { project_id: actor.projectId, warehouse_id: actor.warehouseId, asn_id: asn.id, source, created_by: actor.login, updated_by: actor.login });
  const result: ReceiveResult = { receiptNo: receipt.receipt_no, receiptLineIds: [], putawayTaskIds: [], status: asn.status as AsnStatus };
  const scope = stockScope(actor);
  const lots = await lotsFor(
    trx,
    scope,
    lines.map((line) => {
      const asnLine = locked.get(line.asnLineId)!;
      const attributes: LotAttributes = {
        lotNo: line.lotNo ?? asnLine.lot_no,
        manufactureDate: line.manufactureDate ?? asnLine.manufacture_date,
        expiryDate: line.expiryDate ?? asnLine.expiry_date,
        shelfDate: line.shelfDate ?? asnLine.shelf_date,
        udf1: line.udf1 ?? asnLine.udf1,
        udf2: line.udf2 ?? asnLine.udf2,
        udf3: line.udf3 ?? asnLine.udf3,
        traceId: line.traceId,
        palletId: line.palletId,
        cartonId: line.cartonId,
      };
      return { ownerId: asn.owner_id, skuId: asnLine.sku_id, attributes };
    }),
  );
  const prepared = lines.map((line, i) => {
    const asnLine = locked.get(line.asnLineId)!;
    return {
      line,
      asnLine,
      qty: dec(line.qty),
      held: dec(line.damageQty).plus(dec(line.holdQty)),
      lotId: lots[i].id,
      locationId: locations.get(line.locationCode.trim())!,
      lpn: line.lpn?.trim() || line.palletId?.trim() || '',
    };
  });
  await applyStockChanges(
    trx,
    scope,
    prepared.map((p) => ({
      key: { ownerId: asn.owner_id, skuId: p.asnLine.sku_id, lotId: p.lotId, locationId: p.locationId, lpn: p.lpn },
      transType: 'receive' as const,
      onHand: p.qty,
      held: p.held,
      reference: { type: 'ASN', orderNo: asn.asn_no, line: p.asnLine.line_no },
      uom: p.asnLine.uom,
      reason: p.held.greaterThan(0) ? 'damage/hold on receipt' : null,
    })),
  );
  const receiptLines = await repo.insertReceiptLines(
    trx,
    prepared.map((p) => ({
      project_id: actor.projectId,
      warehouse_id: actor.warehouseId,
      receipt_id: receipt.id,
      asn_id: asn.id,
      asn_line_id: p.asnLine.id,
      owner_id: asn.owner_id,
      sku_id: p.asnLine.sku_id,
      lot_id: p.lotId,
      location_id: p.locationId,
      lpn: p.lpn,
      qty: p.qty.toString(),
      damage_qty: dec(p.line.damageQty).toString(),
      hold_qty: dec(p.line.holdQty).toString(),
      uom: p.asnLine.uom,
      trace_id: p.line.traceId ?? null,
      created_by: actor.login,
      updated_by: actor.login,
    })),
  );
  const byLine = new Map<number, Decimal>();
  for (const p of prepared) byLine.set(p.asnLine.id, (byLine.get(p.asnLine.id) ?? new Decimal(0)).plus(p.qty));
  await repo.addReceivedQtys(trx, new Map([...byLine].map(([id, q]) => [id, q.toString()])), actor.login);
  const suggestions = await suggestLocations(
    trx,
    actor,
    prepared.map((p) => ({ skuId: p.asnLine.sku_id, allHeld: p.held.equals(p.qty) })),
  );
  const tasks = await repo.insertPutawayTasks(
    trx,
    prepared.map((p, i) => ({
      project_id: actor.projectId,
      warehouse_id: actor.warehouseId,
      receipt_line_id: receiptLines[i].id,
      asn_id: asn.id,
      owner_id: asn.owner_id,
      sku_id: p.asnLine.sku_id,
      lot_id: p.lotId,
      from_location_id: p.locationId,
      lpn: p.lpn,
      qty: p.qty.toString(),
      held_qty: p.held.toString(),
      suggested_location_id: suggestions[i]?.locationId ?? null,
      suggestion_rule: suggestions[i]?.rule ?? null,
      created_by: actor.login,
      updated_by: actor.login,
    })),
  );
  for (const [i, receiptLine] of receiptLines.entries()) {
    const cartons = cartonOf?.get(i);
    if (cartons) await repo.setCartonStatus(trx, cartons, 'received', actor.login, receiptLine.id);
  }
  result.receiptLineIds = receiptLines.map((r) => r.id);
  result.putawayTaskIds = tasks.map((r) => r.id);
  result.status = await refreshStatus(trx, asn, actor);
  return result;
}

/** `/inbound/batch/receive`: lines of several ASNs, each ASN locked in id order. */
export async function batchReceive(trx: Transaction<DB>, actor: Actor, lines: ReceiveLineInput[]): Promise<ReceiveResult[]> {
  const byAsn = new Map<number, ReceiveLineInput[]>();
  for (const line of lines) {
    const asnLine = await repo.findAsnLine(trx, actor.projectId, line.asnLineId);
    if (!asnLine) throw new AppError('NO_RECORD');
    byAsn.set(asnLine.asn_id, [...(byAsn.get(asnLine.asn_id) ?? []), line]);
  }
  const results: ReceiveResult[] = [];
  for (const asnId of [...byAsn.keys()].sort((a, b) => a - b)) results.push(await receiveAsnLines(trx, actor, asnId, byAsn.get(asnId)!, 'batch'));
  return results;
}

/** Batch receive search: the query text needs more than 4 characters (spec sections 5 and 9). */
export async function batchReceiveLines(db: Kysely<DB>, actor: Scope, text: string) {
  const query = text.trim();
  if (query.length <= 4) throw new AppError('QUERY_TEXT_TOO_SHORT');
  return repo.searchReceivableLines(db, actor, query, RECEIVABLE, 200);
}

// ---------------------------------------------------------------- scan-in

/** Scanning a carton id marks it scanned; scanning a container id marks all its open cartons. */
export async function scanInId(trx: Transaction<DB>, actor: Actor, code: string) {
  const id = code.trim();
  const carton = await repo.lockCarton(trx, actor, id);
  if (carton) {
    if (carton.status === 'received') throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
    await assertAsnReceivable(trx, actor, carton.asn_id);
    if (carton.status === 'open') await repo.setCartonStatus(trx, [carton.id], 'scanned', actor.login);
    return { kind: 'carton' as const, containerId: carton.container_id, cartons: await repo.cartonsOfContainer(trx, actor, carton.container_id) };
  }
  const cartons = await repo.lockCartonsOfContainer(trx, actor, id, ['open', 'scanned']);
  if (cartons.length === 0) throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
  for (const asnId of new Set(cartons.map((c) => c.asn_id))) await assertAsnReceivable(trx, actor, asnId);
  await repo.setCartonStatus(trx, cartons.filter((c) => c.status === 'open').map((c) => c.id), 'scanned', actor.login);
  return { kind: 'container' as const, containerId: id, cartons: await repo.cartonsOfContainer(trx, actor, id) };
}

async function assertAsnReceivable(db: Kysely<DB>, actor: Scope, asnId: number) {
  const asn = await repo.findAsn(db, actor, asnId);
  if (!asn || !(RECEIVABLE as readonly string[]).includes(asn.status)) throw new AppError('ORDER_STATUS_ERROR', { status: asn?.status ?? '' });
}

export async function containerCartons(db: Kysely<DB>, actor: Scope, containerId: string) {
  const cartons = await repo.cartonsOfContainer(db, actor, containerId.trim());
  if (cartons.length === 0) throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
  return cartons;
}

/** The SKUs of a container with their quantities: announced, scanned and received. */
export async function containerSkus(db: Kysely<DB>, actor: Scope, containerId: string) {
  const cartons = await containerCartons(db, actor, containerId);
  const bySku = new Map<string, { skuCode: string; description: string; cartons: number; qty: Decimal; scannedQty: Decimal; receivedQty: Decimal }>();
  for (const c of cartons) {
    const entry = bySku.get(c.sku_code) ?? { skuCode: c.sku_code, description: c.sku_description, cartons: 0, qty: new Decimal(0), scannedQty: new Decimal(0), receivedQty: new Decimal(0) };
    entry.cartons += 1;
    entry.qty = entry.qty.plus(c.qty);
    if (c.status === 'scanned') entry.scannedQty = entry.scannedQty.plus(c.qty);
    if (c.status === 'received') entry.receivedQty = entry.receivedQty.plus(c.qty);
    bySku.set(c.sku_code, entry);
  }
  return [...bySku.values()].map((e) => ({ ...e, qty: e.qty.toString(), scannedQty: e.scannedQty.toString(), receivedQty: e.receivedQty.toString() }));
}

/** Undoes the scan of a carton, or of every scanned carton of a container. */
export async function cancelScan(trx: Transaction<DB>, actor: Actor, code: string): Promise<number> {
  const carton = await repo.lockCarton(trx, actor, code.trim());
  const cartons = carton ? [carton] : await repo.lockCartonsOfContainer(trx, actor, code.trim(), ['scanned']);
  const scanned = cartons.filter((c) => c.status === 'scanned');
  if (scanned.length === 0) throw new AppError('NO_PICKED_STOCK');
  await repo.setCartonStatus(trx, scanned.map((c) => c.id), 'open', actor.login);
  return scanned.length;
}

/** Removes a container id and its cartons that are not received yet. */
export async function deleteContainer(trx: Transaction<DB>, actor: Actor, containerId: string): Promise<number> {
  const cartons = await repo.lockCartonsOfContainer(trx, actor, containerId.trim(), ['open', 'scanned']);
  if (cartons.length === 0) throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
  for (const asnId of new Set(cartons.map((c) => c.asn_id))) await assertAsnReceivable(trx, actor, asnId);
  return repo.deleteCartons(trx, cartons.map((c) => c.id));
}

/**
 * Converts the scanned cartons of a container into a receipt at a location: one receipt line per
 * carton (carton id kept on the lot). A container with no scanned carton has nothing to receive:
 * "no picked stock in this container" (spec section 8).
 */
export async function convertContainerToReceipt(trx: Transaction<DB>, actor: Actor, containerId: string, locationCode: string, lpn?: string | null): Promise<ReceiveResult[]> {
  const cartons = await repo.lockCartonsOfContainer(trx, actor, containerId.trim(), ['open', 'scanned']);
  const scanned = cartons.filter((c) => c.status === 'scanned');
  if (scanned.length === 0) {
    if (cartons.length === 0 && (await repo.cartonsOfContainer(trx, actor, containerId.trim())).length === 0) throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
    throw new AppError('NO_PICKED_STOCK');
  }
  const results: ReceiveResult[] = [];
  for (const asnId of [...new Set(scanned.map((c) => c.asn_id))].sort((a, b) => a - b)) {
    const mine = scanned.filter((c) => c.asn_id === asnId);
    const cartonOf = new Map(mine.map((c, i) => [i, [c.id]]));
    const lines = mine.map((c) => ({ asnLineId: c.asn_line_id, qty: c.qty, locationCode, cartonId: c.carton_id, lpn: lpn ?? null }));
    results.push(await receiveAsnLines(trx, actor, asnId, lines, 'scan', cartonOf));
  }
  return results;
}

// ---------------------------------------------------------------- split

export const SPLIT_FIELDS = ['lpn', 'udf1', 'udf2', 'udf3', 'trace_id', 'pallet_id', 'carton_id'] as const;
export type SplitField = (typeof SPLIT_FIELDS)[number];

export interface SplitChange {
  field: string;
  fromValue?: string | null;
  toValue?: string | null;
}

/** Checks the split rules of spec section 5: each change names a known field once, with a from-value and a to-value. */
export function checkSplitChanges(changes: SplitChange[]): { field: SplitField; fromValue: string; toValue: string }[] {
  const seen = new Set<string>();
  return changes.map((c, i) => {
    if (!(SPLIT_FIELDS as readonly string[]).includes(c.field)) throw new AppError('SPLIT_NOT_ALLOWED', {}, [{ field: `changes[${i}].field`, code: 'SPLIT_NOT_ALLOWED' }]);
    if (seen.has(c.field)) throw new AppError('SPLIT_DUPLICATE_FIELD', { field: c.field }, [{ field: `changes[${i}].field`, code: 'SPLIT_DUPLICATE_FIELD' }]);
    seen.add(c.field);
    const fromValue = c.fromValue?.trim() ?? '';
    const toValue = c.toValue?.trim() ?? '';
    if (fromValue === '' || toValue === '') throw new AppError('SPLIT_VALUE_REQUIRED', { field: c.field }, [{ field: `changes[${i}]`, code: 'SPLIT_VALUE_REQUIRED' }]);
    return { field: c.field as SplitField, fromValue, toValue };
  });
}

/**
 * Splits `qty` of an open receipt line (nothing put away yet) into a new line whose fields are
 * changed from their from-values to their to-values: the stock moves from the old balance key to
 * the new one (lot or LPN) in the ledger, and the putaway work follows.
 */
export async function splitReceiptLine(trx: Transaction<DB>, actor: Actor, receiptLineId: number, qtyValue: Decimal.Value, changeInput: SplitChange[]) {
  const changes = checkSplitChanges(changeInput);
  if (changes.length === 0) throw new AppError('SPLIT_VALUE_REQUIRED', { field: '' });
  const probe = await repo.lockReceiptLine(trx, actor, receiptLineId);
  if (!probe) throw new AppError('NO_RECORD');
  const asn = await lockedAsn(trx, actor, probe.asn_id);
  const line = (await repo.lockReceiptLine(trx, actor, receiptLineId))!;
  const qty = dec(qtyValue);
  if (!qty.greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE');
  const free = dec(line.qty).minus(line.damage_qty).minus(line.hold_qty);
  if (line.status !== 'open' || !dec(line.putaway_qty).isZero() || !qty.lessThan(line.qty) || qty.greaterThan(free)) throw new AppError('SPLIT_NOT_ALLOWED');
  const lot = await repo.findLot(trx, actor.projectId, line.lot_id);
  const current: Record<SplitField, string> = {
    lpn: line.lpn,
    udf1: lot.udf1 ?? '',
    udf2: lot.udf2 ?? '',
    udf3: lot.udf3 ?? '',
    trace_id: lot.trace_id ?? '',
    pallet_id: lot.pallet_id ?? '',
    carton_id: lot.carton_id ?? '',
  };
  const next = { ...current };
  for (const c of changes) {
    if (current[c.field] !== c.fromValue) throw new AppError('SPLIT_NOT_ALLOWED', {}, [{ field: c.field, code: 'SPLIT_NOT_ALLOWED' }]);
    next[c.field] = c.toValue;
  }
  const scope = stockScope(actor);
  const newLot = await lotFor(trx, scope, line.owner_id, line.sku_id, {
    lotNo: lot.lot_no,
    manufactureDate: lot.manufacture_date,
    expiryDate: lot.expiry_date,
    shelfDate: lot.shelf_date,
    udf1: next.udf1,
    udf2: next.udf2,
    udf3: next.udf3,
    traceId: next.trace_id,
    palletId: next.pallet_id,
    cartonId: next.carton_id,
  });
  const from: BalanceKey = { ownerId: line.owner_id, skuId: line.sku_id, lotId: line.lot_id, locationId: line.location_id, lpn: line.lpn };
  const to: BalanceKey = { ...from, lotId: newLot.id, lpn: next.lpn };
  const reference = { type: 'RECEIPT_SPLIT', orderNo: asn.asn_no };
  await applyStockChanges(trx, scope, [
    { key: from, transType: 'move', onHand: qty.negated(), reference, reason: 'split' },
    { key: to, transType: 'move', onHand: qty, reference, reason: 'split' },
  ]);
  await repo.updateReceiptLine(trx, line.id, { qty: dec(line.qty).minus(qty).toString(), updated_at: now(), updated_by: actor.login });
  const added = await repo.insertReceiptLine(trx, {
    project_id: line.project_id,
    warehouse_id: line.warehouse_id,
    receipt_id: line.receipt_id,
    asn_id: line.asn_id,
    asn_line_id: line.asn_line_id,
    owner_id: line.owner_id,
    sku_id: line.sku_id,
    lot_id: newLot.id,
    location_id: line.location_id,
    lpn: next.lpn,
    qty: qty.toString(),
    uom: line.uom,
    trace_id: next.trace_id || null,
    created_by: actor.login,
    updated_by: actor.login,
  });
  await repo.shrinkOpenTask(trx, line.id, qty.toString(), actor.login);
  await createPutawayTask(trx, actor, {
    receiptLineId: added.id,
    asnId: line.asn_id,
    ownerId: line.owner_id,
    skuId: line.sku_id,
    lotId: newLot.id,
    fromLocationId: line.location_id,
    lpn: next.lpn,
    qty,
    held: new Decimal(0),
  });
  return { receiptLineId: added.id };
}

/** `/split/table`: the open receipt lines of an ASN and the fields a split may change. */
export async function splitTable(db: Kysely<DB>, actor: Scope, asnId: number) {
  const asn = await repo.findAsn(db, actor, asnId);
  if (!asn) throw new AppError('NO_RECORD');
  return { fields: [...SPLIT_FIELDS], lines: await repo.openReceiptLines(db, actor, asnId) };
}

// ---------------------------------------------------------------- putaway

/**
 * The handheld location logic of spec section 3, in this order (the first that answers wins):
 * held stock goes to an empty QC or damage location; otherwise 1. last location (where this SKU was
 * last put away, if still active), 2. same SKU (a storage or pick location already holding it),
 * 3. pick face (an empty pick location), 4. next empty storage location in pick-path order.
 * Nothing found leaves the task without a suggestion: the operator scans any location.
 */
export async function suggestLocation(db: Kysely<DB>, actor: Scope, skuId: number, allHeld: boolean): Promise<{ locationId: number; rule: string } | undefined> {
  if (allHeld) {
    const qc = await repo.nextEmptyLocation(db, actor.warehouseId, ['qc', 'damage']);
    return qc === undefined ? undefined : { locationId: qc, rule: 'held' };
  }
  const last = await repo.lastPutawayLocation(db, actor, skuId);
  if (last !== undefined) {
    const [active] = await repo.findLocationsByIds(db, actor.warehouseId, [last]);
    if (active) return { locationId: last, rule: 'last' };
  }
  const same = await repo.sameSkuLocation(db, actor, skuId, ['storage', 'pick']);
  if (same !== undefined) return { locationId: same, rule: 'sameSku' };
  const pick = await repo.nextEmptyLocation(db, actor.warehouseId, ['pick']);
  if (pick !== undefined) return { locationId: pick, rule: 'pick' };
  const storage = await repo.nextEmptyLocation(db, actor.warehouseId, ['storage']);
  if (storage !== undefined) return { locationId: storage, rule: 'empty' };
  return undefined;
}

/**
 * `suggestLocation` for the tasks of a whole receipt at once, in order: the last and same-SKU rules
 * by SKU in one query each, and the empty pick, storage and QC locations handed out one per task
 * as the one-by-one logic would (a location suggested to an open task is not suggested again).
 */
export async function suggestLocations(db: Kysely<DB>, actor: Scope, wanted: readonly { skuId: number; allHeld: boolean }[]): Promise<({ locationId: number; rule: string } | undefined)[]> {
  const skuIds = [...new Set(wanted.filter((w) => !w.allHeld).map((w) => w.skuId))];
  const [last, same] = await Promise.all([repo.lastPutawayLocations(db, actor, skuIds), repo.sameSkuLocations(db, actor, skuIds, ['storage', 'pick'])]);
  const needEmpty = wanted.filter((w) => !w.allHeld && !last.has(w.skuId) && !same.has(w.skuId)).length;
  const needQc = wanted.filter((w) => w.allHeld).length;
  const pick = await repo.nextEmptyLocations(db, actor.warehouseId, ['pick'], needEmpty);
  const storage = await repo.nextEmptyLocations(db, actor.warehouseId, ['storage'], Math.max(0, needEmpty - pick.length));
  const qc = await repo.nextEmptyLocations(db, actor.warehouseId, ['qc', 'damage'], needQc);
  return wanted.map((w) => {
    if (w.allHeld) {
      const id = qc.shift();
      return id === undefined ? undefined : { locationId: id, rule: 'held' };
    }
    const lastId = last.get(w.skuId);
    if (lastId !== undefined) return { locationId: lastId, rule: 'last' };
    const sameId = same.get(w.skuId);
    if (sameId !== undefined) return { locationId: sameId, rule: 'sameSku' };
    const pickId = pick.shift();
    if (pickId !== undefined) return { locationId: pickId, rule: 'pick' };
    const storageId = storage.shift();
    if (storageId !== undefined) return { locationId: storageId, rule: 'empty' };
    return undefined;
  });
}

interface TaskInput {
  receiptLineId: number;
  asnId: number;
  ownerId: number;
  skuId: number;
  lotId: number;
  fromLocationId: number;
  lpn: string;
  qty: Decimal;
  held: Decimal;
}

async function createPutawayTask(trx: Transaction<DB>, actor: Actor, input: TaskInput) {
  const suggestion = await suggestLocation(trx, actor, input.skuId, input.held.equals(input.qty));
  return repo.insertPutawayTask(trx, {
    project_id: actor.projectId,
    warehouse_id: actor.warehouseId,
    receipt_line_id: input.receiptLineId,
    asn_id: input.asnId,
    owner_id: input.ownerId,
    sku_id: input.skuId,
    lot_id: input.lotId,
    from_location_id: input.fromLocationId,
    lpn: input.lpn,
    qty: input.qty.toString(),
    held_qty: input.held.toString(),
    suggested_location_id: suggestion?.locationId ?? null,
    suggestion_rule: suggestion?.rule ?? null,
    created_by: actor.login,
    updated_by: actor.login,
  });
}

export interface ConfirmPutawayInput {
  taskId: number;
  locationCode: string;
  /** The LPN (or pallet/carton id) scanned; must be the task's when the task has one. */
  lpn?: string | null;
  /** Required when the location is not the suggested one. */
  reason?: string | null;
  /** Part of the task (above 0, not above its qty); the whole task when absent. */
  qty?: Decimal.Value | null;
}

/**
 * Confirms a putaway task (spec section 1, putaway): the scanned location must exist; another
 * location than the suggested one needs a reason; the stock moves from the receiving location to it
 * (held stock stays held) and the ASN moves to partial putaway or putaway. A quantity below the
 * task's puts away that part: the rest stays an open task (available stock goes first, then held),
 * and the ASN stays partial putaway until all of it is put away.
 */
export async function confirmPutaway(trx: Transaction<DB>, actor: Actor, input: ConfirmPutawayInput) {
  const probe = await repo.lockPutawayTask(trx, actor, input.taskId);
  if (!probe) throw new AppError('NO_RECORD');
  const asn = await lockedAsn(trx, actor, probe.asn_id);
  const task = (await repo.lockPutawayTask(trx, actor, input.taskId))!;
  if (task.status !== 'open') throw new AppError('ORDER_STATUS_ERROR', { status: task.status });
  if (!(PUTAWAY_ALLOWED as readonly string[]).includes(asn.status)) throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
  const taskQty = dec(task.qty);
  const qty = input.qty === undefined || input.qty === null || input.qty === '' ? taskQty : dec(input.qty);
  if (!qty.greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE', {}, [{ field: 'qty', code: 'QTY_NOT_POSITIVE' }]);
  if (qty.greaterThan(taskQty)) throw new AppError('PUTAWAY_QTY_ABOVE_TASK', { qty: taskQty.toString() }, [{ field: 'qty', code: 'PUTAWAY_QTY_ABOVE_TASK' }]);
  const code = input.locationCode?.trim() ?? '';
  if (code === '') throw new AppError('LOCATION_REQUIRED');
  const location = await repo.findLocationByCode(trx, actor.warehouseId, code);
  if (!location || location.status === 'inactive') throw new AppError('LOCATION_NOT_FOUND', { location: code });
  const scanned = input.lpn?.trim() ?? '';
  if (task.lpn !== '' && scanned !== task.lpn) throw new AppError('LPN_MISMATCH', { lpn: scanned });
  const reason = input.reason?.trim() || null;
  if (task.suggested_location_id !== null && location.id !== task.suggested_location_id && !reason) throw new AppError('PUTAWAY_REASON_REQUIRED');
  const receiptLine = (await repo.lockReceiptLine(trx, actor, task.receipt_line_id))!;
  const [asnLine] = await repo.lockAsnLines(trx, asn.id, [receiptLine.asn_line_id]);
  const scope = stockScope(actor);
  const from: BalanceKey = { ownerId: task.owner_id, skuId: task.sku_id, lotId: task.lot_id, locationId: task.from_location_id, lpn: task.lpn };
  const taskHeld = dec(task.held_qty);
  const free = Decimal.min(qty, taskQty.minus(taskHeld));
  const held = qty.minus(free);
  const reference = { type: 'ASN', orderNo: asn.asn_no, line: asnLine.line_no };
  if (location.id !== task.from_location_id) {
    const changes: StockChange[] = [];
    if (free.greaterThan(0)) changes.push(...moveChanges(from, location.id, free, false, reference, reason));
    if (held.greaterThan(0)) changes.push(...moveChanges(from, location.id, held, true, reference, reason));
    await applyStockChanges(trx, scope, changes);
  }
  const confirmed = { status: 'done', to_location_id: location.id, reason, confirmed_at: now(), updated_at: now(), updated_by: actor.login };
  let doneTaskId = task.id;
  if (qty.lessThan(taskQty)) {
    // The part put away is recorded as a done task; the open task keeps the rest.
    const { id: _id, created_at: _c, updated_at: _u, ...rest } = task;
    doneTaskId = (await repo.insertPutawayTask(trx, { ...rest, ...confirmed, qty: qty.toString(), held_qty: held.toString(), created_by: actor.login })).id;
    await repo.updatePutawayTask(trx, task.id, { qty: taskQty.minus(qty).toString(), held_qty: taskHeld.minus(held).toString(), updated_at: now(), updated_by: actor.login });
  } else {
    await repo.updatePutawayTask(trx, task.id, confirmed);
  }
  const putaway = dec(receiptLine.putaway_qty).plus(qty);
  await repo.updateReceiptLine(trx, receiptLine.id, {
    putaway_qty: putaway.toString(),
    status: putaway.greaterThanOrEqualTo(receiptLine.qty) ? 'putaway' : 'open',
    updated_at: now(),
    updated_by: actor.login,
  });
  await repo.addAsnLinePutawayQty(trx, receiptLine.asn_line_id, qty.toString(), actor.login);
  const status = await refreshStatus(trx, asn, actor);
  return { taskId: task.id, doneTaskId, qty: qty.toString(), left: taskQty.minus(qty).toString(), locationCode: location.code, status, asnNo: asn.asn_no, asnLineNo: asnLine.line_no };
}

/** The two ledger changes of moving stock (held stock stays held) to another location, as `moveStock` writes them. */
function moveChanges(from: BalanceKey, toLocationId: number, qty: Decimal, withHeld: boolean, reference: StockReference, reason: string | null): StockChange[] {
  const to: BalanceKey = { ...from, locationId: toLocationId };
  return [
    { key: from, transType: 'putaway', onHand: qty.negated(), ...(withHeld ? { held: qty.negated() } : {}), reference, reason },
    { key: to, transType: 'putaway', onHand: qty, ...(withHeld ? { held: qty } : {}), reference, reason },
  ];
}

export async function putawayTasks(db: Kysely<DB>, actor: Scope) {
  return repo.openPutawayTasks(db, actor);
}

/** The open task of a scanned LPN, pallet or carton id. */
export async function findTaskByScan(db: Kysely<DB>, actor: Scope, code: string) {
  const task = await repo.findOpenTaskByLpnOrCarton(db, actor, code.trim());
  if (!task) throw new AppError('NO_RECORD');
  return task.id;
}

// ---------------------------------------------------------------- home

/** Open inbound work of the warehouse: ASNs by status and receipt lines waiting for putaway. */
export async function inboundOpenWork(db: Kysely<DB>, actor: Scope) {
  const [asns, waiting] = await Promise.all([repo.countAsnsByStatus(db, actor), repo.countOpenReceiptLines(db, actor)]);
  return { asnsByStatus: asns.map((r) => ({ status: r.status, count: Number(r.n) })), receiptsWaitingForPutaway: waiting };
}

import Decimal from 'decimal.js';
import type { Transaction } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { RightName } from '../../../common/rights.js';
import type { DB } from '../../db/schema.js';
import { lockInScope } from '../../db/scoped-rows.js';
import type { EventBus } from '../../events/events.js';
import type { SessionUser } from '../../http/access.js';
import { hasRight } from '../identity/index.js';
import { ensureVirtualLocation } from '../masterdata/index.js';
import {
  documentLines,
  findLocations,
  findLotById,
  findOwner,
  findSku,
  inTransitOfLine,
  matchingStock,
  reasonCodes,
  setLineTransit,
  sourceLegsOfLine,
  TRANSIT_CODE,
  updateDocument,
  warehouseOfProject,
  type DocumentLineRow,
  type DocumentRow,
  type StockRow,
} from './document.repository.js';
import { applyStockChanges, availableOf, lotFor, type StockChange, type StockScope } from './inventory.service.js';
import { notifyWarehouse } from './inventory.notices.js';
import type { DocType } from './inventory.tables.js';

/**
 * The inventory operation documents: adjustment, move, transfer and
 * hold/release. A document is edited while new; its header actions are confirm, cancel, request
 * approval and cancel request, plus transit and cancel transit for a transfer. Confirming a
 * requested document is its approval: it needs the type's approve verb and another user than the
 * requester. A document whose reason code needs approval (/invCode) cannot be confirmed before it
 * was requested. Confirming writes the whole document through the inventory service at once.
 *
 * In transit (a transfer between transit and confirm): the stock leaves its location for the
 * destination warehouse's TRANSIT location, where it is on hand and held, so it shows in the
 * balance and is not available; confirm moves it on to the to-location, cancel transit brings it
 * back where it came from.
 */

/** The page (function code) of each document type and back. */
export const DOC_PAGES: Record<DocType, string> = { adjust: 'invAdjust', move: 'lnvnMove', transfer: 'invTransfer', hold: 'invHold' };
export const LINE_PAGES: Record<DocType, string> = { adjust: 'invAdjustLine', move: 'lnvnMoveLine', transfer: 'invTransferLine', hold: 'invHoldLine' };
export const ID_RULES: Record<DocType, string> = { adjust: 'ADJ', move: 'MOVE', transfer: 'TRF', hold: 'HOLD' };

export function docTypeOfPage(functionCode: string): DocType | undefined {
  for (const [type, page] of Object.entries(DOC_PAGES)) if (page === functionCode) return type as DocType;
  for (const [type, page] of Object.entries(LINE_PAGES)) if (page === functionCode) return type as DocType;
  return undefined;
}

export const confirmVerb = (type: DocType): RightName => `inventory.${type}:confirm` as RightName;
export const approveVerb = (type: DocType): RightName => `inventory.${type}:approve` as RightName;
export const RELEASE_VERB = 'inventory.hold:release' as RightName;

export interface DocumentActor {
  user: Pick<SessionUser, 'userId' | 'isAdmin' | 'loginAccount' | 'projectId' | 'warehouseId'>;
  /** The bus the action's notifications go out on (approval requested, count variance); none without it. */
  events?: EventBus;
}

function scopeOf(actor: DocumentActor): StockScope {
  const { projectId, warehouseId, loginAccount } = actor.user;
  if (projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  if (warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
  return { projectId, warehouseId, operator: loginAccount };
}

/** The document, locked, of the session's warehouse and the expected type; NO_RECORD otherwise. */
async function openDocument(trx: Transaction<DB>, actor: DocumentActor, docType: DocType, documentId: number): Promise<DocumentRow> {
  const scope = scopeOf(actor);
  const doc = await lockInScope(trx, 'inventory_document', scope, documentId);
  if (!doc || doc.doc_type !== docType) throw new AppError('NO_RECORD');
  return doc;
}

function statusError(doc: DocumentRow): AppError {
  return new AppError('ORDER_STATUS_ERROR', { status: doc.status });
}

/** Does any reason of the document (header or lines) need approval (/invCode)? */
async function needsApproval(trx: Transaction<DB>, doc: DocumentRow, lines: DocumentLineRow[]): Promise<boolean> {
  const codes = [...new Set([doc.reason, ...lines.map((l) => l.reason)].filter((c): c is string => Boolean(c)))];
  return (await reasonCodes(trx, doc.doc_type, codes)).some((c) => c.requires_approval);
}

/**
 * Who may take a new or requested document on (confirm or transit): a requested one only a holder
 * of the approve verb who did not request it, which records the approval.
 */
async function checkApproval(trx: Transaction<DB>, actor: DocumentActor, doc: DocumentRow, lines: DocumentLineRow[]): Promise<{ approvedBy?: string }> {
  if (doc.status === 'requested') {
    if (!(await hasRight(trx, actor.user, approveVerb(doc.doc_type)))) throw new AppError('FORBIDDEN', { right: approveVerb(doc.doc_type) });
    if (doc.requested_by === actor.user.loginAccount) throw new AppError('APPROVAL_BY_REQUESTER');
    return { approvedBy: actor.user.loginAccount };
  }
  if (doc.status !== 'new') throw statusError(doc);
  if (await needsApproval(trx, doc, lines)) throw new AppError('APPROVAL_REQUIRED');
  return {};
}

async function linesOf(trx: Transaction<DB>, doc: DocumentRow): Promise<DocumentLineRow[]> {
  const lines = await documentLines(trx, Number(doc.id));
  if (lines.length === 0) throw new AppError('DOCUMENT_NO_LINES');
  return lines;
}

/** Request approval: new -> requested, by whoever edits the document; the requester can then not approve it. */
export async function requestApproval(trx: Transaction<DB>, actor: DocumentActor, docType: DocType, documentId: number): Promise<void> {
  const doc = await openDocument(trx, actor, docType, documentId);
  if (doc.status !== 'new') throw statusError(doc);
  await linesOf(trx, doc);
  await updateDocument(trx, Number(doc.id), { status: 'requested', requested_by: actor.user.loginAccount, requested_at: new Date(), updated_by: actor.user.loginAccount });
  // The people who may approve hear of it with the request (same transaction), the requester not.
  if (actor.events) {
    await notifyWarehouse(trx, actor.events, {
      warehouseId: Number(doc.warehouse_id),
      projectId: Number(doc.project_id),
      right: approveVerb(docType),
      exceptLogin: actor.user.loginAccount,
      category: 'approval',
      title: { key: 'inv.notice.approvalRequested' },
      body: { key: 'inv.notice.approvalRequestedBody' },
      params: { docNo: doc.doc_no, by: actor.user.loginAccount },
      link: `${DOC_PAGES[docType]}?docNo=${encodeURIComponent(doc.doc_no)}`,
      by: actor.user.loginAccount,
    });
  }
}

/** Cancel request: requested -> new (the requester withdraws it, or an approver sends it back). */
export async function cancelRequest(trx: Transaction<DB>, actor: DocumentActor, docType: DocType, documentId: number): Promise<void> {
  const doc = await openDocument(trx, actor, docType, documentId);
  if (doc.status !== 'requested') throw statusError(doc);
  if (doc.requested_by !== actor.user.loginAccount && !(await hasRight(trx, actor.user, approveVerb(docType)))) {
    throw new AppError('FORBIDDEN', { right: approveVerb(docType) });
  }
  await updateDocument(trx, Number(doc.id), { status: 'new', requested_by: null, requested_at: null, updated_by: actor.user.loginAccount });
}

/** Cancel: new or requested -> cancelled, for good (cancel cannot be undone). */
export async function cancelDocument(trx: Transaction<DB>, actor: DocumentActor, docType: DocType, documentId: number): Promise<void> {
  const doc = await openDocument(trx, actor, docType, documentId);
  if (doc.status !== 'new' && doc.status !== 'requested') throw statusError(doc);
  await updateDocument(trx, Number(doc.id), { status: 'cancelled', updated_by: actor.user.loginAccount });
}

function dec(value: string | number | null | undefined): Decimal {
  return new Decimal(value ?? 0);
}

/** Takes `qty` of available stock from the rows, oldest lot first; refuses INSUFFICIENT_INVENTORY with what is available. */
function takeAvailable(rows: StockRow[], qty: Decimal): { row: StockRow; qty: Decimal }[] {
  const taken: { row: StockRow; qty: Decimal }[] = [];
  let left = qty;
  let available = new Decimal(0);
  for (const row of rows) {
    const free = availableOf(row);
    if (free.lessThanOrEqualTo(0)) continue;
    available = available.plus(free);
    if (left.lessThanOrEqualTo(0)) continue;
    const take = Decimal.min(free, left);
    taken.push({ row, qty: take });
    left = left.minus(take);
  }
  if (left.greaterThan(0)) throw new AppError('INSUFFICIENT_INVENTORY', { qty: available.toString() });
  return taken;
}

function keyOf(row: StockRow) {
  return { warehouseId: row.warehouse_id, ownerId: row.owner_id, skuId: row.sku_id, lotId: row.lot_id, locationId: row.location_id, lpn: row.lpn };
}

/** The source stock a line takes: its owner, SKU, location, LPN and (when given) lot. */
async function sourceStock(trx: Transaction<DB>, scope: StockScope, line: DocumentLineRow): Promise<StockRow[]> {
  return matchingStock(trx, { warehouseId: scope.warehouseId, ownerId: line.owner_id, skuId: line.sku_id, lotId: line.lot_id, locationId: line.location_id, lpn: line.lpn });
}

/** The lot at the destination: the same lot, or the lot with the same attributes of the new owner and SKU. */
async function destinationLot(trx: Transaction<DB>, scope: StockScope, lotId: number, toOwnerId: number, toSkuId: number): Promise<number> {
  const lot = await findLotById(trx, lotId);
  if (!lot) throw new AppError('NO_RECORD');
  if (Number(lot.owner_id) === toOwnerId && Number(lot.sku_id) === toSkuId) return lotId;
  const created = await lotFor(trx, scope, toOwnerId, toSkuId, {
    lotNo: lot.lot_no,
    manufactureDate: lot.manufacture_date,
    expiryDate: lot.expiry_date,
    shelfDate: lot.shelf_date,
    udf1: lot.udf1,
    udf2: lot.udf2,
    udf3: lot.udf3,
    traceId: lot.trace_id,
    palletId: lot.pallet_id,
    cartonId: lot.carton_id,
  });
  return Number(created.id);
}

function reference(doc: DocumentRow, line: DocumentLineRow) {
  return { reference: { type: doc.doc_type, orderNo: doc.doc_no, line: line.line_no }, reason: line.reason ?? doc.reason };
}

/** The stock changes of confirming a new or requested document. */
async function changesOf(trx: Transaction<DB>, actor: DocumentActor, scope: StockScope, doc: DocumentRow, lines: DocumentLineRow[]): Promise<StockChange[]> {
  const changes: StockChange[] = [];
  for (const line of lines) {
    const common = reference(doc, line);
    const qty = line.qty === null ? null : dec(line.qty);
    switch (doc.doc_type) {
      case 'adjust': {
        if (line.action === 'add') {
          const lotId = line.lot_id ?? Number((await lotFor(trx, scope, line.owner_id!, line.sku_id!, {})).id);
          changes.push({ ...common, transType: 'adjust', key: { ownerId: line.owner_id!, skuId: line.sku_id!, lotId, locationId: line.location_id!, lpn: line.lpn }, onHand: qty! });
        } else {
          for (const part of takeAvailable(await sourceStock(trx, scope, line), qty!)) {
            changes.push({ ...common, transType: 'adjust', key: keyOf(part.row), onHand: part.qty.negated() });
          }
        }
        break;
      }
      case 'move': {
        for (const part of takeAvailable(await sourceStock(trx, scope, line), qty!)) {
          changes.push({ ...common, transType: 'move', key: keyOf(part.row), onHand: part.qty.negated() });
          changes.push({ ...common, transType: 'move', key: { ...keyOf(part.row), locationId: line.to_location_id!, lpn: line.to_lpn ?? part.row.lpn }, onHand: part.qty });
        }
        break;
      }
      case 'transfer': {
        const toWarehouseId = Number(doc.to_warehouse_id ?? scope.warehouseId);
        const toOwnerId = Number(line.to_owner_id ?? line.owner_id);
        const toSkuId = Number(line.to_sku_id ?? line.sku_id);
        for (const part of takeAvailable(await sourceStock(trx, scope, line), qty!)) {
          const lotId = await destinationLot(trx, scope, part.row.lot_id, toOwnerId, toSkuId);
          changes.push({ ...common, transType: 'transfer_out', key: keyOf(part.row), onHand: part.qty.negated() });
          changes.push({
            ...common,
            transType: 'transfer_in',
            key: { warehouseId: toWarehouseId, ownerId: toOwnerId, skuId: toSkuId, lotId, locationId: line.to_location_id!, lpn: line.to_lpn ?? part.row.lpn },
            onHand: part.qty,
          });
        }
        break;
      }
      case 'hold': {
        const rows = await matchingStock(trx, { warehouseId: scope.warehouseId, ownerId: line.owner_id, skuId: line.sku_id, lotId: line.lot_id, locationId: line.location_id, lpn: line.lpn });
        if (line.action === 'hold') {
          const parts = qty === null ? rows.filter((r) => availableOf(r).greaterThan(0)).map((row) => ({ row, qty: availableOf(row) })) : takeAvailable(rows, qty);
          if (parts.length === 0) throw new AppError('INSUFFICIENT_INVENTORY', { qty: '0' });
          for (const part of parts) changes.push({ ...common, transType: 'hold', key: keyOf(part.row), held: part.qty });
        } else {
          if (!(await hasRight(trx, actor.user, RELEASE_VERB))) throw new AppError('FORBIDDEN', { right: RELEASE_VERB });
          let left = qty;
          const heldTotal = rows.reduce((sum, r) => sum.plus(r.held_qty), new Decimal(0));
          if (heldTotal.isZero() || (left !== null && left.greaterThan(heldTotal))) throw new AppError('INSUFFICIENT_INVENTORY', { qty: heldTotal.toString() });
          for (const row of rows) {
            const held = dec(row.held_qty);
            if (held.isZero()) continue;
            const take = left === null ? held : Decimal.min(held, left);
            if (take.isZero()) break;
            changes.push({ ...common, transType: 'release', key: keyOf(row), held: take.negated() });
            if (left !== null) left = left.minus(take);
          }
        }
        break;
      }
    }
  }
  return changes;
}

/**
 * Confirm: a new document (when its reasons need no approval) or a requested one (the approval)
 * is applied to stock in one go; a transfer in transit is delivered to its to-locations.
 */
export async function confirmDocument(trx: Transaction<DB>, actor: DocumentActor, docType: DocType, documentId: number): Promise<{ ledgerRows: number }> {
  const scope = scopeOf(actor);
  const doc = await openDocument(trx, actor, docType, documentId);
  const lines = await linesOf(trx, doc);
  let changes: StockChange[];
  let approval: { approvedBy?: string } = {};
  if (doc.status === 'in_transit') {
    changes = await transitChanges(trx, scope, doc, lines, 'deliver');
  } else {
    approval = await checkApproval(trx, actor, doc, lines);
    changes = await changesOf(trx, actor, scope, doc, lines);
  }
  return applyDocumentChanges(trx, actor, doc, changes, approval, 'confirmed');
}

/**
 * Applies a document's stock changes and moves it to `status`, with its approval when one was
 * needed and, when confirmed, who confirmed it and when. Answers how many ledger rows it wrote.
 */
async function applyDocumentChanges(trx: Transaction<DB>, actor: DocumentActor, doc: DocumentRow, changes: StockChange[], approval: { approvedBy?: string }, status: 'confirmed' | 'in_transit'): Promise<{ ledgerRows: number }> {
  const applied = await applyStockChanges(trx, scopeOf(actor), changes);
  const now = new Date();
  await updateDocument(trx, Number(doc.id), {
    status,
    ...(status === 'confirmed' ? { confirmed_by: actor.user.loginAccount, confirmed_at: now } : {}),
    ...(approval.approvedBy ? { approved_by: approval.approvedBy, approved_at: now } : {}),
    updated_by: actor.user.loginAccount,
  });
  return { ledgerRows: applied.length };
}

/** Transit: a transfer's stock leaves for the destination's transit location, held there (visible, not available). */
export async function transitDocument(trx: Transaction<DB>, actor: DocumentActor, documentId: number): Promise<{ ledgerRows: number }> {
  const scope = scopeOf(actor);
  const doc = await openDocument(trx, actor, 'transfer', documentId);
  const lines = await linesOf(trx, doc);
  const approval = await checkApproval(trx, actor, doc, lines);
  const toWarehouseId = Number(doc.to_warehouse_id ?? scope.warehouseId);
  // The destination's transit location, made when first needed (virtual, so nothing picks from or puts away to it).
  const transitId = await ensureVirtualLocation(trx, { warehouseId: toWarehouseId, code: TRANSIT_CODE, description: 'Stock of transfers in transit', by: actor.user.loginAccount });
  const changes: StockChange[] = [];
  for (const line of lines) {
    const common = reference(doc, line);
    for (const part of takeAvailable(await sourceStock(trx, scope, line), dec(line.qty))) {
      changes.push({ ...common, transType: 'transfer_out', key: keyOf(part.row), onHand: part.qty.negated() });
      changes.push({ ...common, transType: 'transfer_out', key: { ...keyOf(part.row), warehouseId: toWarehouseId, locationId: transitId }, onHand: part.qty, held: part.qty });
    }
    await setLineTransit(trx, Number(line.id), transitId);
  }
  return applyDocumentChanges(trx, actor, doc, changes, approval, 'in_transit');
}

/** Cancel transit: the stock in transit goes back to where it came from; the transfer is new again. */
export async function cancelTransit(trx: Transaction<DB>, actor: DocumentActor, documentId: number): Promise<{ ledgerRows: number }> {
  const scope = scopeOf(actor);
  const doc = await openDocument(trx, actor, 'transfer', documentId);
  if (doc.status !== 'in_transit') throw statusError(doc);
  const lines = await linesOf(trx, doc);
  const applied = await applyStockChanges(trx, scope, await transitChanges(trx, scope, doc, lines, 'return'));
  for (const line of lines) await setLineTransit(trx, Number(line.id), null);
  await updateDocument(trx, Number(doc.id), { status: 'new', requested_by: null, requested_at: null, approved_by: null, approved_at: null, updated_by: actor.user.loginAccount });
  return { ledgerRows: applied.length };
}

/** Moves what each line has in transit on to its destination ('deliver') or back to its source ('return'). */
async function transitChanges(trx: Transaction<DB>, scope: StockScope, doc: DocumentRow, lines: DocumentLineRow[], way: 'deliver' | 'return'): Promise<StockChange[]> {
  const changes: StockChange[] = [];
  const toWarehouseId = Number(doc.to_warehouse_id ?? scope.warehouseId);
  for (const line of lines) {
    if (line.transit_location_id === null) continue;
    const transitId = Number(line.transit_location_id);
    const common = { ...reference(doc, line), description: way === 'return' ? 'cancel transit' : null };
    const waiting = await inTransitOfLine(trx, scope.projectId, doc.doc_no, line.line_no, transitId);
    if (way === 'deliver') {
      const toOwnerId = Number(line.to_owner_id ?? line.owner_id);
      const toSkuId = Number(line.to_sku_id ?? line.sku_id);
      for (const part of waiting) {
        const qty = dec(part.qty);
        const lotId = await destinationLot(trx, scope, part.lotId, toOwnerId, toSkuId);
        changes.push({ ...common, transType: 'transfer_in', key: { ...part, locationId: transitId }, onHand: qty.negated(), held: qty.negated() });
        changes.push({ ...common, transType: 'transfer_in', key: { warehouseId: toWarehouseId, ownerId: toOwnerId, skuId: toSkuId, lotId, locationId: line.to_location_id!, lpn: line.to_lpn ?? part.lpn }, onHand: qty });
      }
    } else {
      const legs = await sourceLegsOfLine(trx, scope.projectId, doc.doc_no, line.line_no, transitId);
      for (const part of waiting) {
        const qty = dec(part.qty);
        changes.push({ ...common, transType: 'transfer_in', key: { ...part, locationId: transitId }, onHand: qty.negated(), held: qty.negated() });
        // Back to the source legs of the same lot, in the order they left.
        let left = qty;
        for (const leg of legs.filter((l) => l.lotId === part.lotId)) {
          const back = Decimal.min(left, dec(leg.qty));
          if (back.lessThanOrEqualTo(0)) continue;
          changes.push({ ...common, transType: 'transfer_in', key: { ownerId: part.ownerId, skuId: part.skuId, lotId: part.lotId, locationId: leg.locationId, lpn: leg.lpn }, onHand: back });
          left = left.minus(back);
        }
        if (left.greaterThan(0)) throw new AppError('INSUFFICIENT_INVENTORY', { qty: qty.minus(left).toString() });
      }
    }
  }
  return changes;
}

/* ---------- the rules of an edited line (writers) ---------- */

const REQUIRED: Record<DocType, string[]> = {
  adjust: ['action', 'owner_id', 'sku_id', 'location_id', 'qty', 'reason'],
  move: ['owner_id', 'sku_id', 'location_id', 'to_location_id', 'qty', 'reason'],
  transfer: ['owner_id', 'sku_id', 'location_id', 'to_owner_id', 'to_sku_id', 'to_location_id', 'qty', 'reason'],
  hold: ['action', 'reason'],
};

function blank(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

/**
 * The problems of a line's owner and SKU fields (its own, or the ones a transfer goes to): the owner
 * must be of the project, the SKU of the project and of that owner.
 */
async function ownerAndSkuProblems(trx: Transaction<DB>, projectId: number, [ownerField, skuField]: readonly [string, string], idOf: (field: string) => number | null): Promise<FieldError[]> {
  const ownerId = idOf(ownerField);
  const skuId = idOf(skuField);
  const problems: FieldError[] = [];
  if (ownerId !== null) {
    const owner = await findOwner(trx, ownerId);
    if (!owner || Number(owner.project_id) !== projectId) problems.push({ field: ownerField, code: 'FIELD_FOREIGN' });
  }
  if (skuId !== null) {
    const sku = await findSku(trx, skuId);
    if (!sku || Number(sku.project_id) !== projectId || (ownerId !== null && Number(sku.owner_id) !== ownerId)) problems.push({ field: skuField, code: 'FIELD_FOREIGN' });
  }
  return problems;
}

/**
 * Checks one line of a document (action, to-location, to-SKU, qty and reason are
 * required; there must be enough inventory): every field problem at once, then the stock.
 */
export async function checkLine(trx: Transaction<DB>, actor: DocumentActor, doc: DocumentRow, line: Record<string, unknown>): Promise<void> {
  const scope = scopeOf(actor);
  const type = doc.doc_type;
  const errors: FieldError[] = [];
  for (const field of REQUIRED[type]) if (blank(line[field])) errors.push({ field, code: 'FIELD_REQUIRED' });
  const action = line.action;
  const allowed = type === 'adjust' ? ['add', 'subtract'] : type === 'hold' ? ['hold', 'release'] : [];
  if (!blank(action) && !allowed.includes(String(action))) errors.push({ field: 'action', code: 'FIELD_TYPE' });
  if (type === 'hold' && [line.sku_id, line.lot_id, line.location_id, line.lpn].every(blank)) errors.push({ field: 'sku_id', code: 'FIELD_REQUIRED' });
  if (!blank(line.qty) && !dec(line.qty as string).greaterThan(0)) errors.push({ field: 'qty', code: 'QTY_NOT_POSITIVE' });
  const num = (name: string) => (blank(line[name]) ? null : Number(line[name]));
  // The SKU belongs to the owner, the lot to both, the locations to the right warehouses.
  errors.push(...(await ownerAndSkuProblems(trx, scope.projectId, ['owner_id', 'sku_id'], num)));
  errors.push(...(await ownerAndSkuProblems(trx, scope.projectId, ['to_owner_id', 'to_sku_id'], num)));
  const ownerId = num('owner_id');
  const skuId = num('sku_id');
  const lotId = num('lot_id');
  if (lotId !== null) {
    const lot = await findLotById(trx, lotId);
    if (!lot || Number(lot.project_id) !== scope.projectId || (ownerId !== null && Number(lot.owner_id) !== ownerId) || (skuId !== null && Number(lot.sku_id) !== skuId)) {
      errors.push({ field: 'lot_id', code: 'FIELD_FOREIGN' });
    }
  }
  const locationId = num('location_id');
  const toLocationId = num('to_location_id');
  const locations = new Map((await findLocations(trx, [locationId, toLocationId].filter((v): v is number => v !== null))).map((l) => [l.id, l]));
  if (locationId !== null && locations.get(locationId)?.warehouse_id !== scope.warehouseId) errors.push({ field: 'location_id', code: 'FIELD_FOREIGN' });
  const toWarehouseId = Number(doc.to_warehouse_id ?? scope.warehouseId);
  if (toLocationId !== null && locations.get(toLocationId)?.warehouse_id !== toWarehouseId) errors.push({ field: 'to_location_id', code: 'FIELD_FOREIGN' });
  if (!blank(line.reason)) {
    const known = await reasonCodes(trx, type, [String(line.reason)]);
    if (known.length === 0) errors.push({ field: 'reason', code: 'FIELD_FOREIGN' });
  }
  if (errors.length > 0) throw new AppError('VALIDATION_FAILED', {}, errors);

  // Enough inventory for what the line takes (checked again, under lock, when confirmed).
  const takes = (type === 'adjust' && action === 'subtract') || type === 'move' || type === 'transfer' || (type === 'hold' && action === 'hold' && !blank(line.qty));
  if (takes) {
    const rows = await matchingStock(trx, {
      warehouseId: scope.warehouseId,
      ownerId,
      skuId,
      lotId,
      locationId,
      lpn: blank(line.lpn) ? null : String(line.lpn),
    });
    takeAvailable(rows, dec(line.qty as string));
  }
}

/** A header may change only while new; its transfer destination must be a warehouse of the project. */
export async function checkHeader(trx: Transaction<DB>, actor: DocumentActor, values: Record<string, unknown>): Promise<void> {
  const scope = scopeOf(actor);
  const to = values.to_warehouse_id;
  if (!blank(to) && !(await warehouseOfProject(trx, scope.projectId, Number(to)))) {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: 'to_warehouse_id', code: 'FIELD_FOREIGN' }]);
  }
  if (!blank(values.reason)) {
    const type = values.doc_type as DocType;
    if ((await reasonCodes(trx, type, [String(values.reason)])).length === 0) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'reason', code: 'FIELD_FOREIGN' }]);
  }
}

/** The document a line belongs to, locked, when it is still new (lines change only while new). */
export async function openDocumentForLines(trx: Transaction<DB>, actor: DocumentActor, documentId: number, docType: DocType | undefined): Promise<DocumentRow> {
  const scope = scopeOf(actor);
  const doc = await lockInScope(trx, 'inventory_document', scope, documentId);
  if (!doc || (docType !== undefined && doc.doc_type !== docType)) throw new AppError('NO_RECORD');
  if (doc.status !== 'new') throw statusError(doc);
  return doc;
}

export { scopeOf as documentScope };

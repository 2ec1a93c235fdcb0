import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { BlindCountTicket, CountTicketSummary, HandheldStockAnswer } from '../../../common/inventory-api.js';
import type { DB } from '../../db/schema.js';
import { findInScope } from '../../db/scoped-rows.js';
import { findSkuByCode, nextDocumentNumber } from '../masterdata/index.js';
import { ID_RULES, confirmDocument, documentScope, type DocumentActor } from './document.service.js';
import {
  blindTicketLines,
  countTicketsToCount,
  findLocationByCode,
  findLotByNo,
  firstFreeReason,
  insertDocument,
  insertDocumentLine,
  stockAtLocation,
} from './handheld.repository.js';

/**
 * The handheld move and count flows. A handheld move is a move document
 * of one line, made and confirmed in the same transaction, so it is in the ledger and in /lnvnMove
 * like any other move; a move of more than is available is refused by the confirmation
 * (INSUFFICIENT_INVENTORY) and nothing is written. The count flow reads a ticket blind (never the
 * system qty); its entries go through the count service's `enterCount`.
 */

export interface HandheldMoveInput {
  fromLocation: string;
  sku: string;
  lotNo?: string | null;
  lpn?: string | null;
  qty: number | string;
  toLocation: string;
  toLpn?: string | null;
  reason?: string | null;
}

function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

async function requireLocation(db: Kysely<DB> | Transaction<DB>, warehouseId: number, code: string) {
  const location = await findLocationByCode(db, warehouseId, code.trim());
  if (!location) throw new AppError('LOCATION_NOT_FOUND', { location: code.trim() });
  return location;
}

async function requireSku(db: Kysely<DB> | Transaction<DB>, projectId: number, code: string) {
  const sku = await findSkuByCode(db, projectId, code.trim(), { gs1Label: true });
  if (!sku) throw new AppError('INVALID_SKU');
  return sku;
}

function movedQty(value: number | string): Decimal {
  let qty: Decimal;
  try {
    qty = new Decimal(typeof value === 'string' ? value.trim() : value);
  } catch {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: 'qty', code: 'FIELD_TYPE' }]);
  }
  if (!qty.isFinite() || !qty.greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE');
  return qty;
}

/** What the handheld shows after the from-location (and SKU) scan: the stock there and what is free to move. */
export async function handheldStock(db: Kysely<DB>, actor: DocumentActor, input: { location: string; sku?: string | null; lotNo?: string | null; lpn?: string | null }): Promise<HandheldStockAnswer> {
  const scope = documentScope(actor);
  const location = await requireLocation(db, scope.warehouseId, input.location);
  const skuCode = text(input.sku);
  const sku = skuCode === null ? null : await requireSku(db, scope.projectId, skuCode);
  const lotNo = text(input.lotNo);
  const lot = sku && lotNo !== null ? await findLotByNo(db, scope.projectId, Number(sku.id), lotNo) : undefined;
  if (lotNo !== null && sku && !lot) return { location: location.code, sku: sku.code, rows: [] };
  const rows = await stockAtLocation(db, { projectId: scope.projectId, warehouseId: scope.warehouseId, locationId: Number(location.id), skuId: sku ? Number(sku.id) : null, lotId: lot ? Number(lot.id) : null, lpn: text(input.lpn) });
  return { location: location.code, sku: sku?.code ?? null, rows };
}

/** The handheld move: one move document of one line, created and confirmed at once. */
export async function handheldMove(trx: Transaction<DB>, actor: DocumentActor, input: HandheldMoveInput): Promise<{ docNo: string; documentId: number; ledgerRows: number }> {
  const scope = documentScope(actor);
  const from = await requireLocation(trx, scope.warehouseId, input.fromLocation);
  const to = await requireLocation(trx, scope.warehouseId, input.toLocation);
  const sku = await requireSku(trx, scope.projectId, input.sku);
  const qty = movedQty(input.qty);
  const lotNo = text(input.lotNo);
  const lpn = text(input.lpn);
  const toLpn = text(input.toLpn);
  if (Number(from.id) === Number(to.id) && (toLpn ?? lpn) === lpn) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'toLocation', code: 'FIELD_FOREIGN' }]);
  let lotId: number | null = null;
  if (lotNo !== null) {
    const lot = await findLotByNo(trx, scope.projectId, Number(sku.id), lotNo);
    if (!lot) throw new AppError('INSUFFICIENT_INVENTORY', { qty: '0' });
    lotId = Number(lot.id);
  }
  const reason = text(input.reason) ?? (await firstFreeReason(trx));
  const docNo = await nextDocumentNumber(trx, ID_RULES.move, { warehouseId: scope.warehouseId, projectId: scope.projectId });
  const documentId = await insertDocument(trx, {
    project_id: scope.projectId,
    warehouse_id: scope.warehouseId,
    doc_type: 'move',
    doc_no: docNo,
    status: 'new',
    reason,
    remark: 'handheld',
    to_warehouse_id: null,
    requested_by: null,
    approved_by: null,
    confirmed_by: null,
    created_by: scope.operator,
    updated_by: scope.operator,
  });
  await insertDocumentLine(trx, {
    project_id: scope.projectId,
    warehouse_id: scope.warehouseId,
    document_id: documentId,
    line_no: 1,
    action: null,
    owner_id: Number(sku.owner_id),
    sku_id: Number(sku.id),
    lot_id: lotId,
    location_id: Number(from.id),
    lpn: lpn ?? '',
    qty: qty.toString(),
    to_owner_id: null,
    to_sku_id: null,
    to_location_id: Number(to.id),
    to_lpn: toLpn,
    reason,
    transit_location_id: null,
    created_by: scope.operator,
    updated_by: scope.operator,
  });
  // The confirmation checks the reason's approval and the available stock under lock.
  const { ledgerRows } = await confirmDocument(trx, actor, 'move', documentId);
  return { docNo, documentId, ledgerRows };
}

/** The tickets a counter may pick: open or counted (a recount sends lines back), with their locations. */
export async function handheldCountTickets(db: Kysely<DB>, actor: DocumentActor): Promise<CountTicketSummary[]> {
  const scope = documentScope(actor);
  const rows = await countTicketsToCount(db, scope.projectId, scope.warehouseId);
  return rows.map((r) => ({ id: Number(r.id), ticketNo: r.ticket_no, status: r.status, locations: Number(r.locations ?? 0), recount: Number(r.recount_lines ?? 0) > 0 }));
}

/** One ticket (by id or by its scanned number) with its lines, blind: no system qty, no counted qty. */
export async function handheldCountTicket(db: Kysely<DB>, actor: DocumentActor, ticket: { id?: number; ticketNo?: string }): Promise<BlindCountTicket> {
  const scope = documentScope(actor);
  const found = await findInScope(db, 'count_ticket', scope, ticket.id ?? { column: 'ticket_no', value: ticket.ticketNo ?? '' });
  if (!found) throw new AppError('NO_RECORD');
  const lines = await blindTicketLines(db, Number(found.id));
  const recount = lines.some((l) => l.status === 'recount');
  return {
    id: Number(found.id),
    ticketNo: found.ticket_no,
    status: found.status,
    recount,
    lines: lines.map((l) => ({
      id: Number(l.id),
      lineNo: l.line_no,
      locationCode: l.location_code,
      skuCode: l.sku_code,
      skuDescription: l.sku_description,
      lotNo: l.lot_no,
      lpn: l.lpn,
      barcodes: l.barcodes,
      // In a recount only the lines sent back are to count; the others are done.
      toCount: recount ? l.status === 'recount' : l.status === 'open' || l.status === 'recount',
    })),
  };
}

import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { ReceivableLine, ReceiveResult } from '../../../common/inbound-api.js';
import { newRowOf } from '../../db/row-stamps.js';
import type { DB } from '../../db/schema.js';
import { applyStockChanges, lotsFor, type LotAttributes } from '../inventory/index.js';
import { lockedAsn, refreshStatus } from './asn-progress.js';
import { RECEIVABLE, type AsnStatus } from './asn-status.js';
import { addReceivedQtys, findAsnLine, lockAsnLines } from './asn.repository.js';
import { setCartonStatus } from './carton.repository.js';
import { dateOf, dec, stockScope, type Actor, type LotFieldsInput, type Scope } from './inbound.common.js';
import { findLocationByCode } from './lookups.repository.js';
import { createPutawayTasks } from './putaway.service.js';
import * as repo from './receiving.repository.js';

/**
 * Receiving (batch receive, handheld receiving and the receipts of scan-in): what arrived of an
 * ASN's lines lands as stock at the receiving location through the inventory service, with one
 * receipt line and one putaway task per line received.
 */

export interface ReceiveLineInput extends LotFieldsInput {
  asnLineId: number;
  qty: Decimal.Value;
  locationCode: string;
  damageQty?: Decimal.Value | null;
  holdQty?: Decimal.Value | null;
  lpn?: string | null;
  palletId?: string | null;
  cartonId?: string | null;
  traceId?: string | null;
}

export type { ReceiveResult };

/** Refusals of one input line: the field that is wrong and its code. */
function lineProblem(index: number, field: string, code: 'FIELD_REQUIRED' | 'QTY_NOT_POSITIVE' | 'OVER_RECEIVE' | 'LOCATION_NOT_FOUND'): FieldError {
  return { field: `lines[${index}].${field}`, code };
}

/**
 * Receives lines of one ASN: received qty above 0, location required and existing in the
 * warehouse, the line's received qty never above expected (over-receive refused), damage and hold
 * quantities landing as held stock. One receipt, one receipt line and one putaway task per input
 * line; the ASN moves to partial received or received. `cartonOf` names, by input line, the
 * scan-in cartons the line receives.
 */
export async function receiveAsnLines(trx: Transaction<DB>, actor: Actor, asnId: number, lines: ReceiveLineInput[], source: string, cartonOf?: Map<number, number[]>): Promise<ReceiveResult> {
  if (lines.length === 0) throw new AppError('QTY_NOT_POSITIVE');
  const asn = await lockedAsn(trx, actor, asnId);
  if (!(RECEIVABLE as readonly string[]).includes(asn.status)) throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
  const locked = new Map((await lockAsnLines(trx, asn.id, [...new Set(lines.map((l) => l.asnLineId))])).map((l) => [l.id, l]));
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
      const location = await findLocationByCode(trx, actor.warehouseId, code);
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
  const receipt = await repo.insertReceipt(trx, { ...newRowOf(actor), asn_id: asn.id, source });
  const result: ReceiveResult = { receiptNo: receipt.receipt_no, asnNo: asn.asn_no, receiptLineIds: [], putawayTaskIds: [], status: asn.status as AsnStatus };
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
  await addReceivedQtys(trx, new Map([...byLine].map(([id, q]) => [id, q.toString()])), actor.login);
  const tasks = await createPutawayTasks(
    trx,
    actor,
    prepared.map((p, i) => ({
      receiptLineId: receiptLines[i].id,
      asnId: asn.id,
      ownerId: asn.owner_id,
      skuId: p.asnLine.sku_id,
      lotId: p.lotId,
      fromLocationId: p.locationId,
      lpn: p.lpn,
      qty: p.qty,
      held: p.held,
    })),
  );
  for (const [i, receiptLine] of receiptLines.entries()) {
    const cartons = cartonOf?.get(i);
    if (cartons) await setCartonStatus(trx, cartons, 'received', actor.login, receiptLine.id);
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
    const asnLine = await findAsnLine(trx, actor.projectId, line.asnLineId);
    if (!asnLine) throw new AppError('NO_RECORD');
    byAsn.set(asnLine.asn_id, [...(byAsn.get(asnLine.asn_id) ?? []), line]);
  }
  const results: ReceiveResult[] = [];
  for (const asnId of [...byAsn.keys()].sort((a, b) => a - b)) results.push(await receiveAsnLines(trx, actor, asnId, byAsn.get(asnId)!, 'batch'));
  return results;
}

/** Batch receive search: the query text needs more than 4 characters. */
export async function batchReceiveLines(db: Kysely<DB>, actor: Scope, text: string): Promise<ReceivableLine[]> {
  const query = text.trim();
  if (query.length <= 4) throw new AppError('QUERY_TEXT_TOO_SHORT');
  return repo.searchReceivableLines(db, actor, query, RECEIVABLE, 200);
}

import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import { checkSplitChanges, splitValues, type SplitChange } from '../../area-kit/split-changes.js';
import type { DB } from '../../db/schema.js';
import { applyStockChanges, lotFor, type BalanceKey } from '../inventory/index.js';
import { lockedAsn } from './asn-progress.js';
import { findAsn } from './asn.repository.js';
import { dec, now, stockScope, type Actor, type Scope } from './inbound.common.js';
import { findLot } from './lookups.repository.js';
import { shrinkOpenTask } from './putaway.repository.js';
import { createPutawayTasks } from './putaway.service.js';
import * as repo from './receiving.repository.js';

/**
 * The split of a receipt line (/rec/split, /split/table): part of a line not yet put away becomes a
 * new line with another LPN or other lot attributes; its stock and its putaway work follow.
 */

export const SPLIT_FIELDS = ['lpn', 'udf1', 'udf2', 'udf3', 'trace_id', 'pallet_id', 'carton_id'] as const;
export type SplitField = (typeof SPLIT_FIELDS)[number];

/**
 * Splits `qty` of an open receipt line (nothing put away yet) into a new line whose fields are
 * changed from their from-values to their to-values: the stock moves from the old balance key to
 * the new one (lot or LPN) in the ledger, and the putaway work follows.
 */
export async function splitReceiptLine(trx: Transaction<DB>, actor: Actor, receiptLineId: number, qtyValue: Decimal.Value, changeInput: SplitChange[]) {
  const changes = checkSplitChanges(changeInput, SPLIT_FIELDS);
  const probe = await repo.lockReceiptLine(trx, actor, receiptLineId);
  if (!probe) throw new AppError('NO_RECORD');
  const asn = await lockedAsn(trx, actor, probe.asn_id);
  const line = (await repo.lockReceiptLine(trx, actor, receiptLineId))!;
  const qty = dec(qtyValue);
  if (!qty.greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE');
  const free = dec(line.qty).minus(line.damage_qty).minus(line.hold_qty);
  if (line.status !== 'open' || !dec(line.putaway_qty).isZero() || !qty.lessThan(line.qty) || qty.greaterThan(free)) throw new AppError('SPLIT_NOT_ALLOWED');
  const lot = await findLot(trx, actor.projectId, line.lot_id);
  const next = splitValues(SPLIT_FIELDS, { ...lot, lpn: line.lpn }, changes);
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
  const [added] = await repo.insertReceiptLines(trx, [
    {
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
    },
  ]);
  await shrinkOpenTask(trx, line.id, qty.toString(), actor.login);
  await createPutawayTasks(trx, actor, [
    { receiptLineId: added.id, asnId: line.asn_id, ownerId: line.owner_id, skuId: line.sku_id, lotId: newLot.id, fromLocationId: line.location_id, lpn: next.lpn, qty, held: new Decimal(0) },
  ]);
  return { receiptLineId: added.id };
}

/** The current values of a receipt line's split fields ('' where it has none), for the split dialog's from-values. */
export async function receiptLineSplitValues(db: Kysely<DB>, actor: Scope, receiptLineId: number): Promise<Record<SplitField, string>> {
  const line = await repo.findReceiptLine(db, actor, receiptLineId);
  if (!line) throw new AppError('NO_RECORD');
  const lot = await findLot(db, actor.projectId, line.lot_id);
  return Object.fromEntries(SPLIT_FIELDS.map((field) => [field, String((field === 'lpn' ? line.lpn : lot[field]) ?? '')])) as Record<SplitField, string>;
}

/** `/split/table`: the open receipt lines of an ASN and the fields a split may change. */
export async function splitTable(db: Kysely<DB>, actor: Scope, asnId: number) {
  const asn = await findAsn(db, actor, asnId);
  if (!asn) throw new AppError('NO_RECORD');
  return { fields: [...SPLIT_FIELDS], lines: await repo.openReceiptLines(db, actor, asnId) };
}

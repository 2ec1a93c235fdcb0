import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { requireForeignInScope } from '../identity/index.js';
import { findSkuByCode } from '../masterdata/index.js';
import { announceStatus, lockedAsn } from './asn-progress.js';
import { assertClosable, assertTransition, TERMINAL_STATUSES } from './asn-status.js';
import * as asnRepo from './asn.repository.js';
import type { AsnLineRow, AsnRow } from './asn.repository.js';
import { insertCartons } from './carton.repository.js';
import { nextLineNo } from './document.repository.js';
import { assertCartonIdPattern, dateOf, dec, now, type Actor, type LotFieldsInput, type Scope } from './inbound.common.js';
import { countOpenReceiptLines } from './receiving.repository.js';

/**
 * The ASN header and lines outside the engine's pages (/asn/*): saving a header and its lines with
 * their scan-in cartons, and the header actions delete, cancel and close, each checked against the
 * status table of `asn-status.ts`.
 */

export async function listAsns(db: Kysely<DB>, actor: Scope, input: { status?: string; text?: string; page?: number; pageSize?: number }) {
  const pageSize = input.pageSize ?? 20;
  return asnRepo.listAsns(db, actor, { status: input.status, text: input.text, limit: pageSize, offset: ((input.page ?? 1) - 1) * pageSize });
}

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
    return asnRepo.insertAsn(trx, {
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
  if ((TERMINAL_STATUSES as readonly string[]).includes(asn.status)) throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
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
  await asnRepo.updateAsn(trx, asn.id, { ...changes, updated_at: now(), updated_by: actor.login });
  return (await asnRepo.findAsn(trx, actor, asn.id))!;
}

export interface AsnLineInput extends LotFieldsInput {
  id?: number;
  skuCode: string;
  expectedQty: Decimal.Value;
  uom?: string | null;
  /** Cartons of the line for scan-in: container id, carton id, quantity. */
  cartons?: { containerId: string; cartonId: string; qty: Decimal.Value }[];
}

/** Lines are added, changed and deleted only while the ASN is new. */
export async function saveAsnDetail(trx: Transaction<DB>, actor: Actor, asnId: number, lines: AsnLineInput[], deleteLineIds: number[] = []): Promise<void> {
  const asn = await lockedAsn(trx, actor, asnId);
  if (asn.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
  const existing = new Map((await asnRepo.lockAsnLines(trx, asn.id, lines.flatMap((l) => (l.id ? [l.id] : [])))).map((l) => [l.id, l]));
  let lineNo = await nextLineNo(trx, 'asn', asn.id);
  for (const line of lines) {
    const sku = await findSkuByCode(trx, actor.projectId, line.skuCode.trim(), { ownerId: asn.owner_id });
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
      await asnRepo.updateAsnLine(trx, old.id, { ...values, updated_at: now() });
      saved = old;
    } else {
      [saved] = await asnRepo.insertAsnLines(trx, [{ ...values, project_id: actor.projectId, asn_id: asn.id, line_no: lineNo++, created_by: actor.login }]);
    }
    if (line.cartons?.length) await saveCartons(trx, actor, saved, qty, line.cartons);
  }
  if (deleteLineIds.length > 0) {
    const deleted = await asnRepo.deleteAsnLines(trx, asn.id, deleteLineIds);
    if (deleted !== new Set(deleteLineIds).size) throw new AppError('NO_RECORD');
  }
  await asnRepo.updateAsn(trx, asn.id, { updated_at: now(), updated_by: actor.login });
}

/** The cartons of a saved line for scan-in: each above 0, together not above the line's expected quantity. */
async function saveCartons(trx: Transaction<DB>, actor: Actor, line: AsnLineRow, expected: Decimal, cartons: NonNullable<AsnLineInput['cartons']>): Promise<void> {
  const total = cartons.reduce((sum, c) => sum.plus(dec(c.qty)), new Decimal(0));
  if (total.greaterThan(expected)) throw new AppError('OVER_RECEIVE');
  for (const c of cartons) if (!dec(c.qty).greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE');
  cartons.forEach((c, i) => assertCartonIdPattern(c.cartonId.trim(), `cartons[${i}].cartonId`));
  await insertCartons(
    trx,
    cartons.map((c) => ({
      project_id: actor.projectId,
      warehouse_id: actor.warehouseId,
      asn_id: line.asn_id,
      asn_line_id: line.id,
      container_id: c.containerId.trim(),
      carton_id: c.cartonId.trim(),
      qty: dec(c.qty).toString(),
      created_by: actor.login,
      updated_by: actor.login,
    })),
  );
}

/** `/asn/deletelist`: each ASN must be new; it becomes deleted (kept for the record). */
export async function deleteAsns(trx: Transaction<DB>, actor: Actor, ids: number[]): Promise<void> {
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const asn = await lockedAsn(trx, actor, id);
    assertTransition(asn.status, 'deleted');
    await asnRepo.updateAsn(trx, id, { status: 'deleted', updated_at: now(), updated_by: actor.login });
  }
}

/** Cancel: only an ASN with nothing received; cannot be undone. */
export async function cancelAsn(trx: Transaction<DB>, actor: Actor, id: number): Promise<void> {
  const asn = await lockedAsn(trx, actor, id);
  assertTransition(asn.status, 'cancelled');
  await asnRepo.updateAsn(trx, id, { status: 'cancelled', updated_at: now(), updated_by: actor.login });
}

/** Close: needs everything received to be put away. */
export async function closeAsn(trx: Transaction<DB>, actor: Actor, id: number): Promise<void> {
  const asn = await lockedAsn(trx, actor, id);
  assertClosable(asn.status, await asnRepo.asnTotals(trx, asn.id));
  await asnRepo.updateAsn(trx, id, { status: 'closed', updated_at: now(), updated_by: actor.login });
  await announceStatus(trx, actor, asn, 'closed');
}

/**
 * The support area's reopener of ASNs (an approved reopen request): puts a closed ASN of the project
 * back to putaway, the only way out of closed; answers whether it was closed.
 */
export async function reopenClosedAsn(trx: Transaction<DB>, projectId: number, asnNo: string, by: string): Promise<'reopened' | 'notFound' | 'notClosed'> {
  const asn = await asnRepo.lockAsnByNo(trx, projectId, asnNo);
  if (!asn) return 'notFound';
  if (asn.status !== 'closed') return 'notClosed';
  await asnRepo.updateAsn(trx, asn.id, { status: 'putaway', updated_by: by, updated_at: now() });
  return 'reopened';
}

export async function asnHeader(db: Kysely<DB>, actor: Scope, id: number) {
  const asn = await asnRepo.findAsn(db, actor, id);
  if (!asn) throw new AppError('NO_RECORD');
  return { ...asn, totals: await asnRepo.asnTotals(db, asn.id) };
}

export async function asnDetail(db: Kysely<DB>, actor: Scope, id: number) {
  const asn = await asnRepo.findAsn(db, actor, id);
  if (!asn) throw new AppError('NO_RECORD');
  return asnRepo.asnLines(db, asn.id);
}

/** Open inbound work of the warehouse: ASNs by status and receipt lines waiting for putaway. */
export async function inboundOpenWork(db: Kysely<DB>, actor: Scope) {
  const [asns, waiting] = await Promise.all([asnRepo.countAsnsByStatus(db, actor), countOpenReceiptLines(db, actor)]);
  return { asnsByStatus: asns.map((r) => ({ status: r.status, count: Number(r.n) })), receiptsWaitingForPutaway: waiting };
}

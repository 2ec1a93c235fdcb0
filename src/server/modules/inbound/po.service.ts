import type Decimal from 'decimal.js';
import type { Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import { newRowOf } from '../../db/row-stamps.js';
import type { DB } from '../../db/schema.js';
import * as asnRepo from './asn.repository.js';
import type { AsnRow } from './asn.repository.js';
import { addToLineQty, lockDocument } from './document.repository.js';
import { dateOf, dec, type Actor } from './inbound.common.js';
import { findOwner, findSku } from './lookups.repository.js';
import * as poRepo from './po.repository.js';

/** Purchase orders outside the engine's pages: made by the demo data, turned into ASNs by /asn/fromPo and the PO page's action. */

export interface PoInput {
  ownerId: number;
  supplierCode?: string | null;
  expectedDate?: string | null;
  remark?: string | null;
  lines: { skuId: number; qty: Decimal.Value; uom?: string | null; lotNo?: string | null }[];
}

export async function createPo(trx: Transaction<DB>, actor: Actor, input: PoInput) {
  if (!(await findOwner(trx, actor.projectId, input.ownerId))) throw new AppError('NO_RECORD');
  dateOf(input.expectedDate, 'expectedDate');
  const po = await poRepo.insertPo(trx, {
    ...newRowOf(actor),
    owner_id: input.ownerId,
    supplier_code: input.supplierCode ?? null,
    expected_date: input.expectedDate ?? null,
    remark: input.remark ?? null,
  });
  const lines = [];
  for (const [i, line] of input.lines.entries()) {
    const sku = await findSku(trx, actor.projectId, line.skuId);
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
  await poRepo.insertPoLines(trx, lines);
  return po;
}

/**
 * A new ASN announcing what is still open on the purchase order (each line's quantity less what
 * earlier ASNs announced), or the quantities given. The order becomes open; a closed or cancelled
 * order, or one with nothing left, answers the status error.
 */
export async function createAsnFromPo(trx: Transaction<DB>, actor: Actor, poId: number, wanted?: { poLineId: number; qty: Decimal.Value }[]): Promise<AsnRow> {
  const po = await lockDocument(trx, 'po', actor.projectId, poId);
  if (!po || po.warehouse_id !== actor.warehouseId) throw new AppError('NO_RECORD');
  if (po.status === 'closed' || po.status === 'cancelled') throw new AppError('ORDER_STATUS_ERROR', { status: po.status });
  const lines = await poRepo.poLines(trx, po.id);
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
  const asn = await asnRepo.insertAsn(trx, {
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
  await asnRepo.insertAsnLines(
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
  for (const p of chosen) await addToLineQty(trx, 'po', 'asn_qty', p.line.id, p.qty.toString(), actor.login);
  if (po.status === 'new') await poRepo.setPoStatus(trx, po.id, 'open', actor.login);
  return asn;
}

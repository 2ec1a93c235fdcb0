import Decimal from 'decimal.js';
import { AppError } from '../../../common/errors.js';
import { defineWriter, type WriterDefinition } from '../area.js';
import type { EngineSession } from '../../../../engine/server/index.js';
import * as repo from './inbound.repository.js';

/**
 * Domain rules on the engine saves of purchase orders, ASNs and their lines (pages po, asn and
 * their line sub-pages): a new document belongs to the session's warehouse and starts new; an ASN's
 * lines change only while it is new; an ASN is deleted only while new (spec section 4).
 */

function warehouseOf(session: EngineSession): number {
  if (session.warehouseId === null) throw new AppError('NO_RIGHTS_CONTACT_ADMIN');
  return session.warehouseId;
}

function projectOf(session: EngineSession): number {
  if (session.projectId === null) throw new AppError('NO_RIGHTS_CONTACT_ADMIN');
  return session.projectId;
}

function positive(value: unknown, field: string): void {
  let qty: Decimal;
  try {
    qty = new Decimal(typeof value === 'number' || typeof value === 'string' ? value : Number.NaN);
  } catch {
    throw new AppError('QTY_NOT_POSITIVE', {}, [{ field, code: 'QTY_NOT_POSITIVE' }]);
  }
  if (!qty.isFinite() || qty.lessThanOrEqualTo(0)) throw new AppError('QTY_NOT_POSITIVE', {}, [{ field, code: 'QTY_NOT_POSITIVE' }]);
}

const TERMINAL = ['cancelled', 'deleted', 'closed'];

export const poWriter = defineWriter({
  name: 'inbound.po',
  async beforeSave({ old, values, session }) {
    if (!old) {
      values.warehouse_id = warehouseOf(session);
      values.status = 'new';
      return;
    }
    delete values.status;
    if (old.status === 'closed' || old.status === 'cancelled') throw new AppError('ORDER_STATUS_ERROR', { status: String(old.status) });
    if (values.owner_id !== undefined && values.owner_id !== old.owner_id && old.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: String(old.status) });
  },
  async beforeDelete({ old }) {
    if (old.status !== 'new') throw new AppError('DELETE_CANCEL_NOT_ALLOWED');
  },
});

export const poLineWriter = defineWriter({
  name: 'inbound.poLine',
  async beforeSave({ trx, old, values, merged, session }) {
    const projectId = projectOf(session);
    const po = await repo.lockPo(trx, projectId, Number(merged.po_id));
    if (!po) throw new AppError('NO_RECORD');
    if (po.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: po.status });
    positive(merged.qty, 'qty');
    const sku = await repo.findSku(trx, projectId, Number(merged.sku_id));
    if (!sku || sku.owner_id !== po.owner_id) throw new AppError('INVALID_SKU');
    if (!old) {
      values.line_no = await repo.nextLineNo(trx, 'po_line', po.id);
      values.asn_qty = 0;
      if (!merged.uom) values.uom = sku.base_uom;
    } else if (values.po_id !== undefined && values.po_id !== old.po_id) {
      throw new AppError('ORDER_STATUS_ERROR', { status: po.status });
    }
  },
  async beforeDelete({ trx, old, session }) {
    const po = await repo.lockPo(trx, projectOf(session), Number(old.po_id));
    if (po && po.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: po.status });
  },
});

export const asnWriter = defineWriter({
  name: 'inbound.asn',
  async beforeSave({ old, values, session }) {
    if (!old) {
      values.warehouse_id = warehouseOf(session);
      values.status = 'new';
      return;
    }
    delete values.status;
    if (TERMINAL.includes(String(old.status))) throw new AppError('ORDER_STATUS_ERROR', { status: String(old.status) });
    if (values.owner_id !== undefined && values.owner_id !== old.owner_id && old.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: String(old.status) });
  },
  async beforeDelete({ old }) {
    if (old.status !== 'new') throw new AppError('DELETE_CANCEL_NOT_ALLOWED');
  },
});

export const asnLineWriter = defineWriter({
  name: 'inbound.asnLine',
  async beforeSave({ trx, old, values, merged, session }) {
    const projectId = projectOf(session);
    const asn = await repo.lockAsnById(trx, projectId, Number(merged.asn_id));
    if (!asn) throw new AppError('NO_RECORD');
    if (asn.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
    positive(merged.expected_qty, 'expected_qty');
    const sku = await repo.findSku(trx, projectId, Number(merged.sku_id));
    if (!sku || sku.owner_id !== asn.owner_id) throw new AppError('INVALID_SKU');
    if (!old) {
      values.line_no = await repo.nextLineNo(trx, 'asn_line', asn.id);
      if (!merged.uom) values.uom = sku.base_uom;
    } else if (values.asn_id !== undefined && values.asn_id !== old.asn_id) {
      throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
    }
    delete values.received_qty;
    delete values.putaway_qty;
  },
  async beforeDelete({ trx, old, session }) {
    const asn = await repo.lockAsnById(trx, projectOf(session), Number(old.asn_id));
    if (asn && asn.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
  },
});

export const inboundWriters: WriterDefinition[] = [poWriter, poLineWriter, asnWriter, asnLineWriter];

import Decimal from 'decimal.js';
import { AppError } from '../../../common/errors.js';
import { defineWriter, type WriterDefinition } from '../area.js';
import type { EngineSession } from '../../../../engine/server/index.js';
import { lockDocument, nextLineNo, type DocumentKind } from './document.repository.js';
import { findSku } from './lookups.repository.js';
import { assertCartonIdPattern } from './inbound.common.js';
import { lineCartonRoom } from './carton.repository.js';

/**
 * Domain rules on the engine saves of purchase orders, ASNs and their lines (pages po, asn and
 * their line sub-pages): a new document belongs to the session's warehouse and starts new; its
 * lines change only while it is new; it is deleted only while new. Purchase orders and ASNs follow
 * the same rules, so one header writer and one line writer serve both, set up by document kind.
 */

function warehouseOf(session: EngineSession): number {
  if (session.warehouseId === null) throw new AppError('NO_RIGHTS_CONTACT_ADMIN');
  return session.warehouseId;
}

function projectOf(session: EngineSession): number {
  if (session.projectId === null) throw new AppError('NO_RIGHTS_CONTACT_ADMIN');
  return session.projectId;
}

function textOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
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

/** How the writers of one document kind differ. */
interface DocumentRules {
  /** Statuses in which the header no longer changes. */
  finished: readonly string[];
  /** The line's ordered or announced quantity, above 0. */
  qtyField: string;
  /** The line's column naming its header. */
  parentField: string;
  /** Values a new line starts with. */
  newLine: Record<string, unknown>;
  /** Columns the service alone writes: a page's values for them are dropped. */
  serviceOnly: readonly string[];
}

const RULES: Record<DocumentKind, DocumentRules> = {
  po: { finished: ['closed', 'cancelled'], qtyField: 'qty', parentField: 'po_id', newLine: { asn_qty: 0 }, serviceOnly: [] },
  asn: { finished: ['cancelled', 'deleted', 'closed'], qtyField: 'expected_qty', parentField: 'asn_id', newLine: {}, serviceOnly: ['received_qty', 'putaway_qty'] },
};

function headerWriter(name: string, kind: DocumentKind) {
  const rules = RULES[kind];
  return defineWriter({
    name,
    async beforeSave({ old, values, session }) {
      if (!old) {
        values.warehouse_id = warehouseOf(session);
        values.status = 'new';
        return;
      }
      delete values.status;
      if (rules.finished.includes(String(old.status))) throw new AppError('ORDER_STATUS_ERROR', { status: String(old.status) });
      if (values.owner_id !== undefined && values.owner_id !== old.owner_id && old.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: String(old.status) });
    },
    async beforeDelete({ old }) {
      if (old.status !== 'new') throw new AppError('DELETE_CANCEL_NOT_ALLOWED');
    },
  });
}

function lineWriter(name: string, kind: DocumentKind) {
  const rules = RULES[kind];
  return defineWriter({
    name,
    async beforeSave({ trx, old, values, merged, session }) {
      const projectId = projectOf(session);
      const header = await lockDocument(trx, kind, projectId, Number(merged[rules.parentField]));
      if (!header) throw new AppError('NO_RECORD');
      if (header.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: header.status });
      positive(merged[rules.qtyField], rules.qtyField);
      const sku = await findSku(trx, projectId, Number(merged.sku_id));
      if (!sku || sku.owner_id !== header.owner_id) throw new AppError('INVALID_SKU');
      if (!old) {
        values.line_no = await nextLineNo(trx, kind, header.id);
        Object.assign(values, rules.newLine);
        if (!merged.uom) values.uom = sku.base_uom;
      } else if (values[rules.parentField] !== undefined && values[rules.parentField] !== old[rules.parentField]) {
        throw new AppError('ORDER_STATUS_ERROR', { status: header.status });
      }
      for (const column of rules.serviceOnly) delete values[column];
    },
    async beforeDelete({ trx, old, session }) {
      const header = await lockDocument(trx, kind, projectOf(session), Number(old[rules.parentField]));
      if (header && header.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: header.status });
    },
  });
}

export const poWriter = headerWriter('inbound.po', 'po');
export const poLineWriter = lineWriter('inbound.poLine', 'po');
export const asnWriter = headerWriter('inbound.asn', 'asn');
export const asnLineWriter = lineWriter('inbound.asnLine', 'asn');

/**
 * The cartons of an ASN for scan-in (its cartons tab): container id and carton id are entered while
 * the ASN is new; the carton id must match the carton id pattern, the quantity be above 0, the line
 * be one of the ASN's, and the cartons of a line together not above its expected quantity. What
 * scan-in records (status, EPC, carton type, anti-counterfeit code) is written by scan-in only.
 */
export const asnCartonWriter = defineWriter({
  name: 'inbound.asnCarton',
  async beforeSave({ trx, old, values, merged, session }) {
    const projectId = projectOf(session);
    const header = await lockDocument(trx, 'asn', projectId, Number(merged.asn_id));
    if (!header) throw new AppError('NO_RECORD');
    if (header.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: header.status });
    if (old && values.asn_id !== undefined && Number(values.asn_id) !== Number(old.asn_id)) throw new AppError('ORDER_STATUS_ERROR', { status: header.status });
    for (const column of ['status', 'epc', 'carton_type', 'anti_counterfeit_code', 'receipt_line_id']) delete values[column];
    if (!old) values.warehouse_id = header.warehouse_id;
    const cartonId = textOf(merged.carton_id);
    assertCartonIdPattern(cartonId, 'carton_id');
    if (values.carton_id !== undefined) values.carton_id = cartonId;
    if (values.container_id !== undefined) values.container_id = textOf(values.container_id);
    positive(merged.qty, 'qty');
    const lineId = Number(merged.asn_line_id);
    const line = await lineCartonRoom(trx, header.id, lineId, old ? Number(old.id) : null);
    if (!line) throw new AppError('NO_RECORD', {}, [{ field: 'asn_line_id', code: 'NO_RECORD' }]);
    if (new Decimal(line.others ?? 0).plus(new Decimal(String(merged.qty))).greaterThan(line.expected_qty)) throw new AppError('OVER_RECEIVE', {}, [{ field: 'qty', code: 'OVER_RECEIVE' }]);
  },
  async beforeDelete({ trx, old, session }) {
    const header = await lockDocument(trx, 'asn', projectOf(session), Number(old.asn_id));
    if (header && header.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: header.status });
  },
});

export const inboundWriters: WriterDefinition[] = [poWriter, poLineWriter, asnWriter, asnLineWriter, asnCartonWriter];

import type { Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import type { EngineSession } from '../../../../engine/server/index.js';
import { defineWriter } from '../area.js';
import { checkAddress } from './address.js';
import { orderLineWriter } from './outbound.writer.js';
import { defineSelectionBehaviour } from './selection-behaviour.js';
import * as repo from './so-documents.repository.js';
import { assertShipmentComplete } from './so-documents.service.js';

/**
 * Pre-sales orders (`/pso`): an order taken before it is released to the warehouse.
 * It is entered and changed while new; confirming it (behind confirmation) makes a sales order of
 * the same header and lines in status new and leaves the pre-sales order confirmed, pointing at it.
 * A confirmed or cancelled pre-sales order refuses every change.
 */

function place(session: EngineSession): repo.Place {
  if (session.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  if (session.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
  return { projectId: session.projectId, warehouseId: session.warehouseId };
}

/** A header row a page saves: its project and warehouse are the session's when new, and never changed by the page. */
function keepPlace(values: Record<string, unknown>, old: unknown, session: EngineSession): void {
  delete values.project_id;
  delete values.warehouse_id;
  if (old !== null) return;
  const p = place(session);
  values.project_id = p.projectId;
  values.warehouse_id = p.warehouseId;
}

export const psoHeaderWriter = defineWriter({
  name: 'outbound.pso',
  async beforeSave({ old, values, merged, session }) {
    delete values.status;
    delete values.so_id;
    keepPlace(values, old, session);
    if (old === null) {
      values.status = 'new';
    } else if (old.status !== 'new') {
      throw new AppError('ORDER_STATUS_ERROR', { orderNo: String(old.pso_no), status: String(old.status) });
    }
    checkAddress(merged);
  },
  async beforeDelete({ old }) {
    if (old.status !== 'new') throw new AppError('DELETE_CANCEL_NOT_ALLOWED', { orderNo: String(old.pso_no) });
  },
});

export const psoLineWriter = orderLineWriter('outbound.psoLine', {
  column: 'pso_id',
  find: repo.findPso,
  orderNo: (header) => header.pso_no,
  nextLineNo: repo.nextPsoLineNo,
  place: ['project_id', 'warehouse_id'],
});

/** Confirms new pre-sales orders: each becomes a sales order of the same number, header and lines. Answers the order numbers. */
export async function confirmPsos(trx: Transaction<DB>, p: repo.Place, ids: readonly number[], login: string): Promise<string[]> {
  const psos = await repo.lockPsos(trx, p.projectId, ids);
  if (psos.length !== new Set(ids).size) throw new AppError('NO_RECORD');
  const orderNos: string[] = [];
  for (const pso of psos) {
    if (pso.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { orderNo: pso.pso_no, status: pso.status });
    if (Number(pso.warehouse_id) !== p.warehouseId) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
    const lines = await repo.psoLines(trx, Number(pso.id));
    if (lines.length === 0) throw new AppError('DOCUMENT_NO_LINES');
    if ((await repo.orderNosTaken(trx, p.projectId, [pso.pso_no])).size) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'pso_no', code: 'FIELD_NOT_UNIQUE' }]);
    const soId = await repo.insertOrder(trx, {
      project_id: p.projectId,
      warehouse_id: p.warehouseId,
      order_no: pso.pso_no,
      owner_id: Number(pso.owner_id),
      consignee_id: pso.consignee_id,
      customer_order_no: pso.customer_order_no,
      ship_to_name: pso.ship_to_name,
      ship_to_address_en: pso.ship_to_address_en,
      ship_to_address_cn: pso.ship_to_address_cn,
      carrier_code: pso.carrier_code,
      required_ship_date: pso.required_ship_date,
      remark: pso.remark,
      created_by: login,
      updated_by: login,
    });
    for (const line of lines) {
      await repo.insertLine(trx, {
        project_id: p.projectId,
        warehouse_id: p.warehouseId,
        so_id: soId,
        line_no: line.line_no,
        sku_id: Number(line.sku_id),
        qty: line.qty,
        uom: line.uom,
        lot_no: line.lot_no,
        expiry_from: null,
        expiry_to: null,
        required_date: line.required_date,
        created_by: login,
        updated_by: login,
      });
    }
    await repo.markPsoConfirmed(trx, Number(pso.id), soId, login);
    orderNos.push(pso.pso_no);
  }
  return orderNos;
}

/** Confirm (behind confirmation): each selected new pre-sales order becomes a sales order. */
export const confirmPsoBehaviour = defineSelectionBehaviour({
  name: 'outbound.pso.confirm',
  right: 'outbound.pso:confirm',
  async run(trx, scope, psoIds) {
    const orderNos = await confirmPsos(trx, scope, psoIds, scope.operator);
    return { result: { orderNos }, messageCode: 'outbound.pso.confirmedDone', messageParams: { count: orderNos.length } };
  },
});

/** Cancel a new pre-sales order (behind confirmation; cannot be undone). */
export const cancelPsoBehaviour = defineSelectionBehaviour({
  name: 'outbound.pso.cancel',
  right: 'outbound.pso:confirm',
  async run(trx, scope, psoIds) {
    const psos = await repo.lockPsos(trx, scope.projectId, psoIds);
    if (psos.length !== new Set(psoIds).size) throw new AppError('NO_RECORD');
    for (const pso of psos) if (pso.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { orderNo: pso.pso_no, status: pso.status });
    for (const pso of psos) await repo.setPsoStatus(trx, Number(pso.id), 'cancelled', scope.operator);
    return { result: { count: psos.length }, messageCode: 'outbound.pso.cancelledDone', messageParams: { count: psos.length } };
  },
});

/** Shipment orders: a new one is open in the session's warehouse; a closed one refuses changes. */
export const shipmentOrderWriter = defineWriter({
  name: 'outbound.shipmentOrder',
  async beforeSave({ old, values, merged, session }) {
    keepPlace(values, old, session);
    if (old === null) {
      if (values.status === undefined || values.status === null || values.status === '') values.status = 'open';
    } else if (old.status === 'closed') {
      throw new AppError('ORDER_STATUS_ERROR', { orderNo: String(old.shipment_no), status: String(old.status) });
    }
    assertShipmentComplete(merged);
  },
  async beforeDelete({ trx, old }) {
    if ((await repo.ordersOfShipment(trx, Number(old._key))).length > 0) throw new AppError('DELETE_CANCEL_NOT_ALLOWED', { orderNo: String(old.shipment_no) });
  },
});

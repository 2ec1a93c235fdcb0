import type { Transaction } from 'kysely';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import type { RowFilter } from '../../../../engine/server/index.js';
import type { DB } from '../../db/schema.js';
import { lockInScope } from '../../db/scoped-rows.js';
import { defineBehaviour, defineWriter } from '../area.js';
import { defineAddOrdersBehaviour, keys, scopeOf } from './selection-behaviour.js';
import { TERMINAL_STATUSES, type SoStatus } from './so-status.js';
import './consignment.tables.js';

/**
 * Consignments (/consignment): the orders of one consignee grouped for one delivery. An order is on
 * one consignment at a time, ships to the consignment's consignee (its ship-to name, compared
 * without case and surrounding spaces), and is not cancelled, deleted or closed; a closed
 * consignment keeps its orders. The delivery order summary (/deliveryOrderSum) is a read-only view.
 */

type Place = { projectId: number; warehouseId: number; operator: string };

const sameName = (a: string | null, b: string | null) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

async function openConsignment(trx: Transaction<DB>, place: Place, id: number) {
  const consignment = await lockInScope(trx, 'consignment', place, id);
  if (!consignment) throw new AppError('NO_RECORD');
  if (consignment.status !== 'open') throw new AppError('ORDER_STATUS_ERROR', { orderNo: consignment.consignment_no, status: consignment.status });
  return consignment;
}

/** Puts orders named by number on an open consignment, all or none. */
export async function addOrdersToConsignment(trx: Transaction<DB>, place: Place, consignmentId: number, orderNos: string[]): Promise<number> {
  if (!orderNos.length) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'orderNos', code: 'FIELD_REQUIRED' }]);
  if (orderNos.length > 100) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'orderNos', code: 'SELECTION_CAP', params: { max: 100 } }]);
  const consignment = await openConsignment(trx, place, consignmentId);
  const orders = await trx
    .selectFrom('so_header')
    .select(['id', 'order_no', 'status', 'ship_to_name', 'consignment_id'])
    .where('project_id', '=', place.projectId)
    .where('warehouse_id', '=', place.warehouseId)
    .where('order_no', 'in', orderNos)
    .orderBy('id')
    .forUpdate()
    .execute();
  const missing = orderNos.filter((no) => !orders.some((o) => o.order_no === no));
  if (missing.length) throw new AppError('VALIDATION_FAILED', {}, missing.map((no) => ({ field: 'orderNos', code: 'FIELD_FOREIGN', params: { field: no } })));
  for (const order of orders) {
    if (TERMINAL_STATUSES.includes(order.status as SoStatus)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: order.order_no, status: order.status });
    if (order.consignment_id !== null && Number(order.consignment_id) !== consignmentId) throw new AppError('ORDER_STATUS_ERROR', { orderNo: order.order_no, status: order.status });
    if (!sameName(order.ship_to_name, consignment.consignee_name)) throw new AppError('CONSIGNEE_MISMATCH', { orderNo: order.order_no, consignee: consignment.consignee_name });
  }
  await trx.updateTable('so_header').set({ consignment_id: consignmentId, updated_by: place.operator, updated_at: new Date() }).where('id', 'in', orders.map((o) => Number(o.id))).execute();
  return orders.length;
}

/** Takes orders off their open consignment. */
export async function removeOrdersFromConsignment(trx: Transaction<DB>, place: Place, soIds: number[]): Promise<number> {
  const orders = await trx
    .selectFrom('so_header')
    .select(['id', 'consignment_id'])
    .where('project_id', '=', place.projectId)
    .where('warehouse_id', '=', place.warehouseId)
    .where('id', 'in', soIds)
    .forUpdate()
    .execute();
  if (orders.length !== new Set(soIds).size || orders.some((o) => o.consignment_id === null)) throw new AppError('NO_RECORD');
  for (const consignmentId of [...new Set(orders.map((o) => Number(o.consignment_id)))].sort((a, b) => a - b)) await openConsignment(trx, place, consignmentId);
  await trx.updateTable('so_header').set({ consignment_id: null, updated_by: place.operator, updated_at: new Date() }).where('id', 'in', soIds).execute();
  return orders.length;
}

export const addOrdersToConsignmentBehaviour = defineAddOrdersBehaviour({
  name: 'outbound.consignment.addOrders',
  right: 'outbound.consignment:edit',
  messageCode: 'outbound.consignment.ordersAdded',
  add: addOrdersToConsignment,
});

export const removeOrdersFromConsignmentBehaviour = defineBehaviour({
  name: 'outbound.consignment.removeOrders',
  right: 'outbound.consignment:edit',
  inputs: Type.Object({}),
  async run({ trx, session, rows }) {
    const removed = await removeOrdersFromConsignment(trx, scopeOf(session), keys(rows));
    return { result: { removed }, messageCode: 'outbound.consignment.ordersRemoved', messageParams: { count: removed } };
  },
});

/** A new consignment is open in the session's warehouse; a closed one refuses changes; one with orders is not deleted. */
export const consignmentWriter = defineWriter({
  name: 'outbound.consignment',
  async beforeSave({ old, values, session }) {
    delete values.project_id;
    delete values.warehouse_id;
    if (old === null) {
      const place = scopeOf(session);
      values.project_id = place.projectId;
      values.warehouse_id = place.warehouseId;
      values.status = 'open';
    } else if (old.status === 'closed' && values.status !== 'open') {
      throw new AppError('ORDER_STATUS_ERROR', { orderNo: String(old.consignment_no), status: String(old.status) });
    }
  },
  async beforeDelete({ trx, old }) {
    const order = await trx.selectFrom('so_header').select('id').where('consignment_id', '=', Number(old._key)).executeTakeFirst();
    if (order) throw new AppError('DELETE_CANCEL_NOT_ALLOWED', { orderNo: String(old.consignment_no) });
  },
});

/** Rows of a warehouse-scoped page of these tables: only those of the session's project too. */
const ofSessionProject =
  (table: 'consignment' | 'delivery_order_sum'): RowFilter =>
  (session, key) =>
    session.projectId === null ? sql`false` : sql`${key} in (select x.id from ${sql.table(table)} x where x.project_id = ${session.projectId})`;

export const CONSIGNMENT_ROW_FILTERS: ReadonlyMap<string, RowFilter> = new Map([
  ['outbound.sessionProjectConsignments', ofSessionProject('consignment')],
  ['outbound.sessionProjectOrderSums', ofSessionProject('delivery_order_sum')],
]);


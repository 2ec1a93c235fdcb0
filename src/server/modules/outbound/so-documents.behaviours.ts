import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { defineBehaviour } from '../area.js';
import { defineAddOrdersBehaviour, defineSelectionBehaviour, scopeOf } from './selection-behaviour.js';
import { addMaintenanceList, addOrdersToShipmentByNo, deleteMaintenanceList, removeOrdersFromShipment, type Actor } from './so-documents.service.js';
import type { StockScope } from '../inventory/index.js';

const OptText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

function actorOf(scope: StockScope): Actor {
  return { projectId: scope.projectId, warehouseId: scope.warehouseId, login: scope.operator };
}

/**
 * Add orders (the /shipmentOrder page): the order numbers typed in the dialog go on the selected
 * open shipment order, all or none.
 */
export const addOrdersToShipmentBehaviour = defineAddOrdersBehaviour({
  name: 'outbound.shipmentOrder.addOrders',
  right: 'outbound.shipmentOrder:edit',
  messageCode: 'outbound.shipmentOrder.ordersAdded',
  add: (trx, scope, shipmentId, orderNos) => addOrdersToShipmentByNo(trx, actorOf(scope), shipmentId, orderNos, 'orderNos'),
});

/**
 * Remove from shipment (the orders tab of /shipmentOrder): the selected orders leave their open
 * shipment order; the orders themselves are not changed otherwise.
 */
export const removeOrdersFromShipmentBehaviour = defineBehaviour({
  name: 'outbound.shipmentOrder.removeOrders',
  right: 'outbound.shipmentOrder:edit',
  inputs: Type.Object({}),
  async run({ trx, session, rows }) {
    const actor = actorOf(scopeOf(session));
    const byShipment = new Map<number, number[]>();
    for (const row of rows) {
      const shipmentId = Number(row.shipment_order_id);
      if (!Number.isSafeInteger(shipmentId) || shipmentId <= 0) throw new AppError('NO_RECORD');
      byShipment.set(shipmentId, [...(byShipment.get(shipmentId) ?? []), Number(row._key)]);
    }
    let removed = 0;
    for (const [shipmentId, soIds] of [...byShipment].sort(([a], [b]) => a - b)) removed += await removeOrdersFromShipment(trx, actor, shipmentId, soIds);
    return { result: { removed }, messageCode: 'outbound.shipmentOrder.ordersRemoved', messageParams: { count: removed } };
  },
});

/** Add (the maintenance list page): one order or one SKU (exactly one of the two) goes on the warehouse's maintenance list, with a reason. */
export const addMaintenanceBehaviour = defineBehaviour({
  name: 'outbound.maintenance.add',
  right: 'outbound.so:edit',
  inputs: Type.Object({ orderNo: OptText(100), skuCode: OptText(100), reason: OptText(200) }),
  async run({ trx, session, inputs }) {
    const actor = actorOf(scopeOf(session));
    const entry = { orderNo: inputs.orderNo?.trim() || null, skuCode: inputs.skuCode?.trim() || null, reason: inputs.reason ?? null };
    try {
      const added = await addMaintenanceList(trx, actor, [entry]);
      return { result: { added }, messageCode: 'outbound.maintenance.added', messageParams: { count: added } };
    } catch (error) {
      // The list call names the entry's fields by position; the dialog has one entry.
      if (error instanceof AppError && error.details) throw new AppError(error.code, error.params, error.details.map((d) => ({ ...d, field: d.field.replace(/^entries\[0\]\.?/, '') || 'orderNo' })));
      throw error;
    }
  },
});

/** Delete (the maintenance list page, after confirmation): the selected entries leave the list. */
export const deleteMaintenanceBehaviour = defineSelectionBehaviour({
  name: 'outbound.maintenance.delete',
  right: 'outbound.so:edit',
  async run(trx, scope, ids) {
    const deleted = await deleteMaintenanceList(trx, actorOf(scope), ids);
    return { result: { deleted }, messageCode: 'outbound.maintenance.deleted', messageParams: { count: deleted } };
  },
});

export const soDocumentBehaviours = [addOrdersToShipmentBehaviour, removeOrdersFromShipmentBehaviour, addMaintenanceBehaviour, deleteMaintenanceBehaviour];

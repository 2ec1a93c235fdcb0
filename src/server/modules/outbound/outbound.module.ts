import { defineModule } from '../area.js';
import { outboundDemo } from './outbound.demo.js';
import * as m0120 from './migrations/0120_outbound.js';
import * as m0121 from './migrations/0121_wave_pick.js';
import * as m0122 from './migrations/0122_outbound_documents.js';
import * as m0123 from './migrations/0123_allocation_indexes.js';
import * as m0124 from './migrations/0124_line_lot_attributes.js';
import * as m0200 from './migrations/0200_end_stale_pick_tasks.js';
import * as m0250 from './migrations/0250_allocation_view.js';
import * as m0256 from './migrations/0256_pick_task_hold.js';
import * as m0260 from './migrations/0260_allocation_rule_menu.js';
import * as m0265 from './migrations/0265_shipment_order_fields.js';
import * as m0266 from './migrations/0266_maintenance_list_menu.js';
import * as m0352 from './migrations/0352_consignment_order_sum.js';
import { addOrdersToConsignmentBehaviour, CONSIGNMENT_ROW_FILTERS, consignmentWriter, removeOrdersFromConsignmentBehaviour } from './consignment.js';
import { outboundErrors } from './outbound.errors.js';
import {
  allocateLinesBehaviour,
  allocateOrdersBehaviour,
  cancelOrdersBehaviour,
  closeOrdersBehaviour,
  deleteOrdersBehaviour,
  splitLineBehaviour,
  unallocateLinesBehaviour,
  unallocateOrdersBehaviour,
} from './outbound.behaviours.js';
import { soHeaderWriter, soLineWriter } from './outbound.writer.js';
import { cancelPsoBehaviour, confirmPsoBehaviour, psoHeaderWriter, psoLineWriter, shipmentOrderWriter } from './pso.behaviours.js';
import { soDocumentBehaviours } from './so-documents.behaviours.js';
import { soDocumentRoutes } from './so-documents.routes.js';
import './so-documents.tables.js';
import './outbound.tables.js';
import { waveBehaviours } from './wave.behaviours.js';
import { waveRoutes } from './wave.routes.js';
import './wave.tables.js';

/**
 * Outbound: sales orders with their status table, allocation rules
 * and allocation through the inventory service. Its screens are the shipped definitions under
 * definitions/outbound, run by the engine.
 */
const OUTBOUND = { definitionOf: 'outbound' } as const;

export const outboundModule = defineModule({
  name: 'outbound',
  migrations: { '0120_outbound': m0120, '0121_wave_pick': m0121, '0122_outbound_documents': m0122, '0123_allocation_indexes': m0123, '0124_line_lot_attributes': m0124, '0200_end_stale_pick_tasks': m0200, '0250_allocation_view': m0250, '0256_pick_task_hold': m0256, '0260_allocation_rule_menu': m0260, '0265_shipment_order_fields': m0265, '0266_maintenance_list_menu': m0266, '0352_consignment_order_sum': m0352 },
  errors: outboundErrors,
  rowFilters: CONSIGNMENT_ROW_FILTERS,
  async routes(app) {
    await app.register(soDocumentRoutes);
    await app.register(waveRoutes);
  },
  behaviours: [
    allocateOrdersBehaviour,
    unallocateOrdersBehaviour,
    allocateLinesBehaviour,
    unallocateLinesBehaviour,
    cancelOrdersBehaviour,
    closeOrdersBehaviour,
    deleteOrdersBehaviour,
    splitLineBehaviour,
    confirmPsoBehaviour,
    cancelPsoBehaviour,
    ...waveBehaviours,
    ...soDocumentBehaviours,
    addOrdersToConsignmentBehaviour,
    removeOrdersFromConsignmentBehaviour,
  ],
  writers: [soHeaderWriter, soLineWriter, psoHeaderWriter, psoLineWriter, shipmentOrderWriter, consignmentWriter],
  rights: [
    { right: 'outbound.so:allocate', labelCode: 'outbound.verb.allocate' },
    { right: 'outbound.so:cancel', labelCode: 'outbound.verb.cancel' },
    { right: 'outbound.so:close', labelCode: 'outbound.verb.close' },
    { right: 'outbound.pso:confirm', labelCode: 'outbound.verb.confirmPso' },
    { right: 'outbound.wave:release', labelCode: 'outbound.verb.release' },
    { right: 'outbound.pick:confirm', labelCode: 'outbound.verb.pick' },
  ],
  serviceOnlyTables: ['so_allocation', 'wave', 'pick_task'],
  demoData: outboundDemo,
  pages: [
    { route: 'proj_ge', group: 'masterData', opens: OUTBOUND, after: 'project' },
    { route: 'so', group: 'outbound', opens: OUTBOUND },
    { route: 'pso', group: 'outbound', opens: OUTBOUND },
    { route: 'shipmentOrder', group: 'outbound', opens: OUTBOUND },
    { route: 'wave', group: 'outbound', opens: OUTBOUND },
    // Pick tasks and the pick list; handheld picking.
    { route: 'pick', group: 'outbound', opens: 'screen' },
    // Scan and pack of picked orders (the packing area's screen and right).
    { route: 'pack', group: 'outbound', opens: 'screen', right: 'packing.pack' },
    { route: 'consignment', group: 'outbound', opens: OUTBOUND },
    // Parcel shipments booked with a carrier: the carrier area's page, listed where the menu always had it.
    { route: 'shipment', group: 'outbound', opens: { definitionOf: 'carrier' } },
    { route: 'deliveryOrderSum', group: 'outbound', opens: OUTBOUND },
    // Last of the group (migration 0260 adds its menu entry there): the allocation rules (FIFO, FEFO, shelf life per owner and SKU), also opened from the order list.
    { route: 'soRule', group: 'outbound', opens: OUTBOUND, titleKey: 'outbound.page.soRule' },
    // After it (migration 0266 adds its menu entry there): the maintenance list, orders and SKUs whose order lines may not change while they are looked into.
    { route: 'soMaintenance', group: 'outbound', opens: OUTBOUND },
  ],
  homeItems: [
    { kind: 'order', tables: ['so_header', 'sales_order'], terminal: ['shipped', 'delivered', 'billed', 'cancelled', 'deleted', 'closed'], position: 20, statusTexts: 'outbound.status', listRoute: 'so' },
    // Waves in progress and pick tasks still to pick.
    { kind: 'wave', tables: ['wave'], terminal: ['picked', 'cancelled'], position: 60, statusTexts: 'outbound.wave.status', listRoute: 'wave' },
    { kind: 'pick', tables: ['pick_task'], terminal: ['picked', 'short', 'cancelled'], position: 70, statusTexts: 'outbound.pick.status', listRoute: 'pick' },
  ],
  readModels: [
    {
      name: 'outbound.allocationCandidates',
      files: ['outbound.repository.ts', 'pack-order.repository.ts', 'so-documents.repository.ts', 'wave.repository.ts'],
      reads: ['inventory_balance', 'location', 'lot', 'owner', 'partner', 'sku', 'sku_upc'],
      purpose: 'the stock an order line may be allocated from, the pick lists and order lines shown with SKU, lot and location codes, and the owners and carriers a wave is made for',
    },
    {
      name: 'outbound.demoWarehouse',
      files: ['outbound.demo.ts'],
      reads: ['warehouse'],
      purpose: 'the warehouse the demonstration orders are made in',
    },
  ],
});

import { defineModule } from '../area.js';
import { outboundDemo } from './outbound.demo.js';
import * as m0120 from './migrations/0120_outbound.js';
import * as m0121 from './migrations/0121_wave_pick.js';
import * as m0122 from './migrations/0122_outbound_documents.js';
import * as m0123 from './migrations/0123_allocation_indexes.js';
import * as m0124 from './migrations/0124_line_lot_attributes.js';
import * as m0200 from './migrations/0200_end_stale_pick_tasks.js';
import {
  allocateLinesBehaviour,
  allocateOrdersBehaviour,
  cancelOrdersBehaviour,
  closeOrdersBehaviour,
  deleteOrdersBehaviour,
  unallocateLinesBehaviour,
  unallocateOrdersBehaviour,
} from './outbound.behaviours.js';
import { soHeaderWriter, soLineWriter } from './outbound.writer.js';
import { cancelPsoBehaviour, confirmPsoBehaviour, psoHeaderWriter, psoLineWriter, shipmentOrderWriter } from './pso.behaviours.js';
import { soDocumentRoutes } from './so-documents.routes.js';
import './so-documents.tables.js';
import './outbound.tables.js';
import { waveBehaviours } from './wave.behaviours.js';
import { waveRoutes } from './wave.routes.js';
import './wave.tables.js';

/**
 * Outbound (spec sections 1, 4, 5 and 7): sales orders with their status table, allocation rules
 * and allocation through the inventory service. Its screens are the shipped definitions under
 * definitions/outbound, run by the engine.
 */
export const outboundModule = defineModule({
  name: 'outbound',
  migrations: { '0120_outbound': m0120, '0121_wave_pick': m0121, '0122_outbound_documents': m0122, '0123_allocation_indexes': m0123, '0124_line_lot_attributes': m0124, '0200_end_stale_pick_tasks': m0200 },
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
    confirmPsoBehaviour,
    cancelPsoBehaviour,
    ...waveBehaviours,
  ],
  writers: [soHeaderWriter, soLineWriter, psoHeaderWriter, psoLineWriter, shipmentOrderWriter],
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
});

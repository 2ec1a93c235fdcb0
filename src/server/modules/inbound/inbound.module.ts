import { defineModule } from '../area.js';
import { inboundDemo } from './inbound.demo.js';
import * as m0110 from './migrations/0110_inbound.js';
import { inboundBehaviours } from './inbound.behaviours.js';
import { reopenClosedAsn } from './inbound.repository.js';
import { inboundRoutes } from './inbound.routes.js';
import { inboundWriters } from './inbound.writers.js';
import './inbound.tables.js';

/**
 * Inbound (spec sections 1 to 5): purchase orders, ASNs and their statuses, receiving (batch,
 * scan-in, handheld), split and putaway. Stock changes go through the inventory service.
 */
export const inboundModule = defineModule({
  name: 'inbound',
  migrations: { '0110_inbound': m0110 },
  routes: inboundRoutes,
  behaviours: inboundBehaviours,
  writers: inboundWriters,
  rights: [
    { right: 'inbound.asn:receive', labelCode: 'inb.verb.receive' },
    { right: 'inbound.asn:cancel', labelCode: 'inb.verb.cancel' },
    { right: 'inbound.asn:close', labelCode: 'inb.verb.close' },
    { right: 'inbound.putaway:confirm', labelCode: 'inb.verb.confirmPutaway' },
  ],
  // Receipts and putaway tasks are written with the stock they describe, by the service only.
  serviceOnlyTables: ['receipt', 'receipt_line', 'putaway_task', 'asn_carton'],
  // A support ticket's approved request reopens a closed ASN (spec section 7 sendSupportA01ReopenASN).
  demoData: inboundDemo,
  supportReopeners: [{ kind: 'asn', reopen: (trx, request) => reopenClosedAsn(trx, request.projectId, request.number, request.by) }],
});

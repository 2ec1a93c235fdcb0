import { defineModule } from '../area.js';
import { inboundDemo } from './inbound.demo.js';
import * as m0110 from './migrations/0110_inbound.js';
import * as m0270 from './migrations/0270_scan_in_checks.js';
import { inboundBehaviours } from './inbound.behaviours.js';
import { asnRoutes } from './asn.routes.js';
import { reopenClosedAsn } from './asn.service.js';
import { putawayRoutes } from './putaway.routes.js';
import { receivingRoutes } from './receiving.routes.js';
import { scanInRoutes } from './scan-in.routes.js';
import { inboundErrors } from './inbound.errors.js';
import { inboundWriters } from './inbound.writers.js';
import './inbound.tables.js';

/**
 * Inbound: purchase orders, ASNs and their statuses, receiving (batch, scan-in, handheld), split
 * and putaway, one set of repository, service and routes files per sub-domain (po, asn, carton and
 * scan-in, receiving and split, putaway). Stock changes go through the inventory service.
 */
export const inboundModule = defineModule({
  name: 'inbound',
  migrations: { '0110_inbound': m0110, '0270_scan_in_checks': m0270 },
  async routes(app) {
    await app.register(asnRoutes);
    await app.register(receivingRoutes);
    await app.register(scanInRoutes);
    await app.register(putawayRoutes);
  },
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
  demoData: inboundDemo,
  readModels: [
    { name: 'inbound.demoWarehouse', files: ['inbound.demo.ts'], reads: ['warehouse'], purpose: 'the warehouse the demonstration documents are made in' },
    {
      name: 'inbound.documentLookups',
      files: ['lookups.repository.ts', 'asn.repository.ts', 'carton.repository.ts', 'receiving.repository.ts'],
      reads: ['sku', 'owner', 'location'],
      purpose: 'codes and names of the SKUs, owners and locations that documents and receipts name, and their checks',
    },
    {
      name: 'inbound.receivers',
      files: ['lookups.repository.ts'],
      reads: ['app_user', 'user_project', 'user_warehouse'],
      purpose: 'the users of the warehouse a receipt or putaway may name',
    },
    {
      name: 'inbound.putawayStock',
      files: ['putaway.repository.ts', 'receiving.repository.ts'],
      reads: ['inventory_balance', 'lot', 'location', 'sku'],
      purpose: 'where stock of a SKU already lies (putaway suggestions) and the lots of a receipt',
    },
  ],
  // A support ticket's approved request to reopen a closed ASN (type A01).
  supportReopeners: [{ kind: 'asn', reopen: (trx, request) => reopenClosedAsn(trx, request.projectId, request.number, request.by) }],
  errors: inboundErrors,
  pages: [
    { route: 'po', group: 'inbound', opens: { definitionOf: 'inbound' } },
    { route: 'asn', group: 'inbound', opens: { definitionOf: 'inbound' } },
    { route: 'asnStatic', group: 'inbound', opens: { definitionOf: 'inbound' } },
    { route: 'inbGr', group: 'inbound', opens: { definitionOf: 'inbound' } },
    // Batch receive, scan-in and the handheld receiving flow; the handheld's putaway, move and count.
    { route: 'receive', group: 'inbound', opens: 'screen' },
    { route: 'putaway', group: 'inbound', opens: 'screen' },
  ],
  homeItems: [
    { kind: 'asn', tables: ['asn_header', 'asn'], terminal: ['putaway', 'cancelled', 'deleted', 'closed'], position: 10, statusTexts: 'inb.status', listRoute: 'asn' },
    // Receipt lines waiting for putaway: open until put away.
    { kind: 'putaway', tables: ['receipt_line'], terminal: ['putaway'], position: 50, statusTexts: 'inb.receiptStatus', listRoute: 'putaway' },
  ],
});

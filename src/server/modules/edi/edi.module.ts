import { defineModule } from '../area.js';
import * as m0320 from './migrations/0320_edi.js';
import * as m0350 from './migrations/0350_edi_send_on.js';
import { resendBehaviour } from './edi.behaviours.js';
import { ediErrors } from './edi.errors.js';
import { sendQueuedEdiJob } from './edi.jobs.js';
import { sessionProjectMessages } from './edi.repository.js';
import { ediRoutes } from './edi.routes.js';
import './edi.tables.js';

/**
 * EDI ship notices: the EDI setting of each owner (EDIFACT DESADV or X12 856, when, where to), the
 * ship notices queued by `queueShipNotice` (index.ts) in the caller's transaction and sent to the
 * owner's endpoint, the job `edi.sendQueued` that sends what is still queued, and the EDI log
 * (/ediLogSummary) with each message's raw content, its download and resend.
 */
export const ediModule = defineModule({
  name: 'edi',
  migrations: { '0320_edi': m0320, '0350_edi_send_on': m0350 },
  routes: ediRoutes,
  jobs: [sendQueuedEdiJob],
  behaviours: [resendBehaviour],
  rights: [{ right: 'edi.ediLogSummary:resend', labelCode: 'edi.verb.resend' }],
  errors: ediErrors,
  rowFilters: new Map([['edi.sessionProjectMessages', sessionProjectMessages]]),
  readModels: [
    {
      name: 'edi.orderNotice',
      files: ['order-notice.repository.ts'],
      reads: ['so_header', 'warehouse', 'carton', 'carton_line', 'pallet', 'sku', 'lot'],
      purpose: 'the ship notice of an order: its ship-to, the warehouse it ships from, its closed cartons with their SSCC and pallet, and what each holds per SKU and lot',
    },
  ],
  pages: [
    { route: 'ediLogSummary', group: 'outbound', opens: { definitionOf: 'edi' }, after: 'cmg' },
    // The EDI setting of each owner (standard, when notices are sent, where to).
    { route: 'ediPartner', group: 'outbound', opens: { definitionOf: 'edi' } },
  ],
  defaultGrants: [
    { role: 'Administrator', rights: ['edi.ediLogSummary:view', 'edi.ediLogSummary:resend', 'edi.ediPartner:view', 'edi.ediPartner:add', 'edi.ediPartner:edit', 'edi.ediPartner:delete'] },
    { role: 'Supervisor', rights: ['edi.ediLogSummary:view', 'edi.ediLogSummary:resend', 'edi.ediPartner:view'] },
  ],
});

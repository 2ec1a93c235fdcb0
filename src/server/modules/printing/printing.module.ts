import { defineModule } from '../area.js';
import * as m0310 from './migrations/0310_printing.js';
import * as m0311 from './migrations/0311_print_labels.js';
import { testLabelBehaviour } from './printing.behaviours.js';
import { printingErrors } from './printing.errors.js';
import { sendQueuedPrintJobsJob } from './printing.jobs.js';
import { printingRoutes } from './printing.routes.js';
import './printing.tables.js';

/**
 * Printers of a warehouse (/printer), the print queue (`/print/job`) and what other areas print
 * with (index.ts): SSCCs made of the GS1 company prefix parameter, GS1-128 carton labels in ZPL, and
 * `enqueuePrint`, which queues a document in the caller's transaction for a sender that sends it
 * to the printer's raw port; the job `printing.sendQueued` sends what is still queued.
 */
export const printingModule = defineModule({
  name: 'printing',
  migrations: { '0310_printing': m0310, '0311_print_labels': m0311 },
  routes: printingRoutes,
  jobs: [sendQueuedPrintJobsJob],
  behaviours: [testLabelBehaviour],
  rights: [
    { right: 'printing.printer:print', labelCode: 'printing.verb.print' },
    { right: 'printing.printJob:print', labelCode: 'printing.verb.printJob' },
  ],
  errors: printingErrors,
  pages: [
    { route: 'printer', group: 'setup', opens: { definitionOf: 'printing' } },
    { route: 'printJob', group: 'setup', opens: 'screen', right: 'printing.printJob' },
  ],
  readModels: [
    { name: 'printing.companyPrefix', files: ['sscc.ts'], reads: ['sys_param', 'warehouse'], purpose: 'the GS1 company prefix of the organization a warehouse belongs to' },
  ],
});

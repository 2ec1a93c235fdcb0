import { defineModule } from '../area.js';
import * as m0374 from './migrations/0374_auto_print.js';
import * as m0375 from './migrations/0375_auto_print_menu.js';
import * as m0378 from './migrations/0378_auto_print_schedule.js';
import { autoPrintErrors } from './autoprint.errors.js';
import { printScheduledJob } from './autoprint.jobs.js';
import { autoPrintRoutes } from './autoprint.routes.js';
import './autoprint.tables.js';

/**
 * Auto print (docs/printing.md "Auto print"): rules per project and warehouse that print a
 * document from a template on a printer when an event happens (the pack list when an order is
 * checked complete, a delivery note when a load ships, a report of the project at the times of a
 * cron expression), through the template area's rendering and the printing area's queue; the
 * rules' screen /autoPrint.
 */
export const autoPrintModule = defineModule({
  name: 'autoprint',
  migrations: { '0374_auto_print': m0374, '0375_auto_print_menu': m0375, '0378_auto_print_schedule': m0378 },
  routes: autoPrintRoutes,
  jobs: [printScheduledJob],
  readModels: [
    { name: 'autoprint.scheduleScope', files: ['autoprint.repository.ts'], reads: ['project', 'warehouse'], purpose: 'the project and warehouse codes a scheduled report runs with' },
  ],
  errors: autoPrintErrors,
  rights: [{ right: 'autoprint.rule:print', labelCode: 'autoprint.verb.print' }],
  pages: [{ route: 'autoPrint', group: 'reports', opens: 'screen', right: 'autoprint.rule' }],
  defaultGrants: [
    { role: 'Administrator', rights: ['autoprint.rule:view', 'autoprint.rule:add', 'autoprint.rule:edit', 'autoprint.rule:delete', 'autoprint.rule:print'] },
    { role: 'Configurator', rights: ['autoprint.rule:view', 'autoprint.rule:add', 'autoprint.rule:edit', 'autoprint.rule:delete', 'autoprint.rule:print'] },
    { role: 'Supervisor', rights: ['autoprint.rule:view', 'autoprint.rule:print'] },
  ],
});

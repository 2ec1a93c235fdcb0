import { defineModule } from '../area.js';
import { reportErrors } from './report.errors.js';
import { reportRoutes } from './report.routes.js';
import * as m0370 from './migrations/0370_report.js';
import * as m0371 from './migrations/0371_report_menu.js';
import './report.tables.js';

/**
 * Configured reports and dashboards (docs/reports.md): the configurator's report settings
 * (/userReport), the operator's report runner (/userGeneric) and each project's start page of
 * report widgets (/blankHome). Report SQL runs in the configurator SQL sandbox, on the report
 * database (REPORT_DATABASE_URL) when one is set.
 */
export const reportModule = defineModule({
  name: 'report',
  migrations: { '0370_report': m0370, '0371_report_menu': m0371 },
  routes: reportRoutes,
  errors: reportErrors,
  rights: [{ right: 'report.config:publish', labelCode: 'report.verb.publish' }],
  readModels: [{ name: 'report.assignedProjects', files: ['report.repository.ts'], reads: ['user_project'], purpose: 'which of the projects a report is assigned to the caller holds' }],
  pages: [
    { route: 'blankHome', group: 'homeGroup', opens: 'screen', right: 'report.dashboard', after: 'home' },
    { route: 'userReport', group: 'reports', opens: 'screen', right: 'report.config' },
    { route: 'userGeneric', group: 'reports', opens: 'screen', right: 'report.generic' },
  ],
  defaultGrants: [
    { role: 'Administrator', rights: ['report.generic:view', 'report.dashboard:view', 'report.config:view', 'report.config:edit', 'report.config:publish'] },
    { role: 'Configurator', rights: ['report.generic:view', 'report.dashboard:view', 'report.config:view', 'report.config:edit', 'report.config:publish'] },
    { role: 'Supervisor', rights: ['report.generic:view', 'report.dashboard:view'] },
    { role: 'Operator', rights: ['report.generic:view', 'report.dashboard:view'] },
    { role: 'Read-only', rights: ['report.generic:view', 'report.dashboard:view'] },
  ],
});

import { defineModule } from '../area.js';
import * as m0372 from './migrations/0372_template.js';
import * as m0373 from './migrations/0373_template_menu.js';
import * as m0376 from './migrations/0376_template_report.js';
import { templateErrors } from './template.errors.js';
import { templateRoutes } from './template.routes.js';
import './template.tables.js';

/**
 * Document templates (docs/templates.md): pdfme templates per project, drafted in the designer
 * (/templateDesigner) and published as numbered versions that printing uses (the pick list of the
 * outbound area prints through `printDocuments`); the print preview; and the .jrxml files of other
 * systems, stored per project (/printViewFile).
 */
export const templateModule = defineModule({
  name: 'template',
  migrations: { '0372_template': m0372, '0373_template_menu': m0373, '0376_template_report': m0376 },
  routes: templateRoutes,
  errors: templateErrors,
  rights: [{ right: 'template.design:publish', labelCode: 'template.verb.publish' }],
  readModels: [
    { name: 'template.heldProjects', files: ['template.service.ts'], reads: ['user_project', 'project'], purpose: 'which projects a template may be copied to' },
    { name: 'template.reportOfProject', files: ['template.repository.ts'], reads: ['report_definition'], purpose: 'whether the report a template prints is one of its project' },
  ],
  pages: [
    { route: 'templateDesigner', group: 'reports', opens: 'screen', right: 'template.design' },
    { route: 'printViewFile', group: 'reports', opens: 'screen', right: 'template.jrxml' },
  ],
  defaultGrants: [
    { role: 'Administrator', rights: ['template.design:view', 'template.design:add', 'template.design:edit', 'template.design:publish', 'template.jrxml:view', 'template.jrxml:add', 'template.jrxml:delete'] },
    { role: 'Configurator', rights: ['template.design:view', 'template.design:add', 'template.design:edit', 'template.design:publish', 'template.jrxml:view', 'template.jrxml:add', 'template.jrxml:delete'] },
    { role: 'Supervisor', rights: ['template.design:view', 'template.jrxml:view'] },
  ],
});

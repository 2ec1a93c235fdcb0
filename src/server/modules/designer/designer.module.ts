import { defineModule } from '../area.js';
import { designerRoutes } from './designer.routes.js';
import * as m0040 from './migrations/0040_designer.js';
import './designer.tables.js';

/** The visual designer's API: drafts, publish, versions, copy, import and export. */
export const designerModule = defineModule({
  name: 'designer',
  migrations: { '0040_designer': m0040 },
  routes: designerRoutes,
  readModels: [
    { name: 'designer.menuEntries', files: ['menu.repository.ts'], reads: ['sys_module'], purpose: 'the menu entries that published pages are listed under' },
    { name: 'designer.projectCopy', files: ['project-copy.repository.ts'], reads: ['project'], purpose: 'the projects a copy of definitions goes between' },
  ],
});

import { defineModule } from '../area.js';
import { genericRoutes } from './generic.routes.js';
import * as m0010 from './migrations/0010_page_definition.js';
import * as m0050 from './migrations/0050_configurator_sql_roles.js';
import * as m0215 from './migrations/0215_configurator_write_scope.js';
import * as m0225 from './migrations/0225_configurator_project_warehouses.js';

/** The engine's API over every page definition. */
export const genericModule = defineModule({
  name: 'generic',
  migrations: { '0010_page_definition': m0010, '0050_configurator_sql_roles': m0050, '0215_configurator_write_scope': m0215, '0225_configurator_project_warehouses': m0225 },
  routes: genericRoutes,
  // The units of measure of a SKU: the unit dropdown of order and ASN lines.
  choiceRoutes: ['POST /generic/uom'],
  readModels: [
    { name: 'generic.choiceLabels', files: ['code-master.repository.ts'], reads: ['code_master', 'sku', 'sku_upc'], purpose: 'the labels of coded values and the SKU choices of dropdowns' },
  ],
});

import { defineModule } from '../area.js';
import { genericRoutes } from './generic.routes.js';
import * as m0010 from './migrations/0010_page_definition.js';
import * as m0050 from './migrations/0050_configurator_sql_roles.js';

/** The engine's API over every page definition (spec section 7 "Generic"). */
export const genericModule = defineModule({
  name: 'generic',
  migrations: { '0010_page_definition': m0010, '0050_configurator_sql_roles': m0050 },
  routes: genericRoutes,
});

import { defineModule } from '../area.js';
import { accessRoutes } from './access.routes.js';
import { rightChecker } from './rights.js';
import { ROW_FILTERS } from './row-filters.js';
import * as m0001 from './migrations/0001_foundation.js';
import * as m0002 from './migrations/0002_access.js';
import * as m0003 from './migrations/0003_sys_module.js';
import * as m0062 from './migrations/0062_user_grant_ids.js';
import './access.tables.js';

/** Organizations, projects, warehouses, the user's scope, the menu and the audit log (spec section 6). */
export const accessModule = defineModule({
  name: 'access',
  migrations: { '0001_foundation': m0001, '0002_access': m0002, '0003_sys_module': m0003, '0062_user_grant_ids': m0062 },
  routes: accessRoutes,
  rightChecker,
  rowFilters: ROW_FILTERS,
});

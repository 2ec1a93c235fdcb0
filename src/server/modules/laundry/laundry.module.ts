import { defineModule } from '../area.js';
import { laundryErrors } from './laundry.errors.js';
import { laundryRoutes } from './laundry.routes.js';
import * as m0402 from './migrations/0402_laundry.js';
import * as m0403 from './migrations/0403_laundry_menu.js';
import './laundry.tables.js';

/**
 * The laundry run beside the warehouse (docs/laundry.md): customers hand in garments by tag, they
 * are washed in batches and handed back. Its phone screens (/moose/...) are public and work with a
 * device key; the administration issues devices and customers.
 */
export const laundryModule = defineModule({
  name: 'laundry',
  migrations: { '0402_laundry': m0402, '0403_laundry_menu': m0403 },
  routes: laundryRoutes,
  errors: laundryErrors,
  pages: [{ route: 'laundry', group: 'setup', opens: 'screen', right: 'laundry.admin' }],
  defaultGrants: [{ role: 'Administrator', rights: ['laundry.admin:view', 'laundry.admin:edit'] }],
});

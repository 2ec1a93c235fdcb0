import { defineModule } from '../area.js';
import { handheldErrors } from './handheld.errors.js';
import { handheldRoutes } from './handheld.routes.js';
import * as m0381 from './migrations/0381_handheld.js';
import * as m0382 from './migrations/0382_handheld_menu.js';
import * as m0383 from './migrations/0383_handheld_scan_value.js';
import * as m0386 from './migrations/0386_handheld_session_end.js';
import * as m0387 from './migrations/0387_handheld_scan_dimension.js';
import * as m0412 from './migrations/0412_handheld_receive_right.js';
import * as m0413 from './migrations/0413_handheld_putaway_right.js';
import './handheld.tables.js';

const CONFIG_RIGHTS = ['view', 'add', 'edit'].map((a) => `handheld.handheldConfig:${a}` as const);

/**
 * Handheld flows a configurator changes without code (docs/handheld.md, "Configured flows"): the
 * configurations (/handheldConfig: scanning steps, dialogs, location logic; draft, publish, copy),
 * the one runtime that runs a published configuration (/rfFlow), and the device sessions
 * (/api/rfUser/*, listed on /rfDevices, where a supervisor ends one). Screens: src/screens/handheld.
 */
export const handheldModule = defineModule({
  name: 'handheld',
  migrations: { '0381_handheld': m0381, '0382_handheld_menu': m0382, '0383_handheld_scan_value': m0383, '0386_handheld_session_end': m0386, '0387_handheld_scan_dimension': m0387, '0412_handheld_receive_right': m0412, '0413_handheld_putaway_right': m0413 },
  routes: handheldRoutes,
  errors: handheldErrors,
  pages: [
    { route: 'handheldConfig', group: 'inbound', opens: 'screen', right: 'handheld.handheldConfig' },
    { route: 'rfFlow', group: 'inbound', opens: 'screen', right: 'handheld.rfFlow' },
    { route: 'rfDevices', group: 'inbound', opens: 'screen', right: 'handheld.rfDevices' },
  ],
  defaultGrants: [
    { role: 'Administrator', rights: [...CONFIG_RIGHTS, 'handheld.rfFlow:view', 'handheld.rfDevices:view', 'handheld.rfDevices:edit'] },
    { role: 'Supervisor', rights: [...CONFIG_RIGHTS, 'handheld.rfFlow:view', 'handheld.rfDevices:view', 'handheld.rfDevices:edit'] },
    { role: 'Operator', rights: ['handheld.rfFlow:view'] },
    { role: 'Read-only', rights: ['handheld.handheldConfig:view', 'handheld.rfDevices:view'] },
  ],
  readModels: [
    {
      name: 'handheld.locations',
      files: ['handheld.repository.ts'],
      reads: ['inventory_balance', 'sku', 'location', 'app_user', 'project', 'warehouse'],
      purpose:
        "the location logic's look-ups (a location holding the same SKU, the next empty storage location, the zone of the SKU's group, the codes naming the project's and warehouse's location parameters) and the user names of the device sessions",
    },
  ],
});

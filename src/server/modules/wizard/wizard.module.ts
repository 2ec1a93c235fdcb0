import { defineModule } from '../area.js';
import * as m0282 from './migrations/0282_order_wizard.js';
import * as m0400 from './migrations/0400_order_wizard_menu.js';
import { wizardRoutes } from './wizard.routes.js';
import './wizard.tables.js';

const ALL = ['view', 'add'] as const;
const rights = (...pages: string[]) => pages.flatMap((page) => ALL.map((action) => `wizard.${page}:${action}` as const));

/**
 * The two five-step order wizards (wine sales and non-merchandise sales): a temporary order kept on
 * the server at every step, resumed where the user left it, submitted as a sales order through the
 * outbound area. Screens: src/screens/wizard.
 */
export const wizardModule = defineModule({
  name: 'wizard',
  migrations: { '0282_order_wizard': m0282, '0400_order_wizard_menu': m0400 },
  routes: wizardRoutes,
  pages: [
    // At the end of the outbound menu group.
    { route: 'wineOrder', group: 'outbound', opens: 'screen', right: 'wizard.wineOrder' },
    { route: 'nonMerOrder', group: 'outbound', opens: 'screen', right: 'wizard.nonMerOrder' },
  ],
  defaultGrants: [
    { role: 'Administrator', rights: rights('wineOrder', 'nonMerOrder') },
    { role: 'Supervisor', rights: rights('wineOrder', 'nonMerOrder') },
    { role: 'Operator', rights: rights('wineOrder', 'nonMerOrder') },
    { role: 'Read-only', rights: ['wizard.wineOrder:view', 'wizard.nonMerOrder:view'] },
  ],
  readModels: [
    {
      name: 'wizard.orderMasters',
      files: ['wizard.repository.ts'],
      reads: ['owner', 'partner', 'code_master', 'sku', 'inventory_balance', 'location'],
      purpose: "the wizards' dropdowns (owners, consignees, couriers, VAS instructions) and the items with their available stock",
    },
  ],
});

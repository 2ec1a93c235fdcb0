import { defineModule } from '../area.js';
import * as m0100 from './migrations/0100_inventory.js';
import './inventory.tables.js';

/**
 * Inventory (spec sections 1 and 2; DESIGN.md section 5): lots, the balance and the append-only
 * ledger, changed only through `inventory.service.ts`, which inbound, outbound and the inventory
 * operations call inside their transactions.
 */
export const inventoryModule = defineModule({
  name: 'inventory',
  migrations: { '0100_inventory': m0100 },
  rights: [{ right: 'inventory.adjust:approve', labelCode: 'inv.verb.approveAdjust' }],
  serviceOnlyTables: ['lot', 'inventory_balance', 'inventory_transaction'],
});

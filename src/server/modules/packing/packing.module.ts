import { defineModule } from '../area.js';
import * as m0281 from './migrations/0281_pack_menu_right.js';
import * as m0300 from './migrations/0300_packing.js';
import { packingErrors } from './packing.errors.js';
import { packingRoutes } from './packing.routes.js';
import './packing.tables.js';

/**
 * Packing: scan and pack of picked orders into cartons, carton close with weights and dimensions,
 * and check-complete of the order. Packed stock moves onto the carton through the inventory
 * service; the order's status changes through the outbound area.
 */
export const packingModule = defineModule({
  name: 'packing',
  migrations: { '0281_pack_menu_right': m0281, '0300_packing': m0300 },
  routes: packingRoutes,
  errors: packingErrors,
  // The scan-pack screen (/pack, declared with the outbound menu) checks packing.pack: the floor
  // roles pack, the read-only role looks.
  defaultGrants: [
    { role: 'Administrator', rights: ['packing.pack:view', 'packing.pack:edit'] },
    { role: 'Supervisor', rights: ['packing.pack:view', 'packing.pack:edit'] },
    { role: 'Operator', rights: ['packing.pack:view', 'packing.pack:edit'] },
    { role: 'Configurator', rights: ['packing.pack:view'] },
    { role: 'Read-only', rights: ['packing.pack:view'] },
  ],
  readModels: [
    {
      name: 'packing.scan',
      files: ['packing.repository.ts'],
      reads: ['code_master', 'lot', 'sku', 'sku_upc'],
      purpose: 'the carton types and weight units offered, and the SKU, package quantity and lots a scanned code or GS1 label names',
    },
  ],
});

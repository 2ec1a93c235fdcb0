import { defineModule } from '../area.js';
import * as m0286 from './migrations/0286_pack_split_menu.js';
import * as m0300 from './migrations/0300_packing.js';
import { packingErrors } from './packing.errors.js';
import { packingRoutes } from './packing.routes.js';
import { splitErrors } from './split.errors.js';
import { splitRoutes } from './split.routes.js';
import './packing.tables.js';

/**
 * Packing: scan and pack of picked orders into cartons, carton close with weights and dimensions,
 * and check-complete of the order. Packed stock moves onto the carton through the inventory
 * service; the order's status changes through the outbound area.
 */
export const packingModule = defineModule({
  name: 'packing',
  migrations: { '0286_pack_split_menu': m0286, '0300_packing': m0300 },
  async routes(app, options) {
    await packingRoutes(app, options);
    await splitRoutes(app, options);
  },
  errors: { ...packingErrors, ...splitErrors },
  pages: [{ route: 'packSplit', group: 'outbound', opens: 'screen' }],
  // No seeded role holds the pack rights yet: the role screen offers the rights of menu entries and
  // page definitions, and packing has neither until its scan-pack screen exists, so a project's
  // administrator could not hold them and would lose the Operator role from his reach. Until then,
  // administrators pack.
  readModels: [
    {
      name: 'packing.scan',
      files: ['packing.repository.ts', 'split.repository.ts'],
      reads: ['code_master', 'lot', 'sku'],
      purpose: 'the carton types and weight units offered, the codes of packed SKUs, and the lots a GS1 label or a carton line names',
    },
  ],
});

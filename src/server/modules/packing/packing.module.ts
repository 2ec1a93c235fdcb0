import { defineModule, workPageGrants } from '../area.js';
import * as m0281 from './migrations/0281_pack_menu_right.js';
import * as m0286 from './migrations/0286_pack_split_menu.js';
import * as m0291 from './migrations/0291_pallet_scan_menu.js';
import * as m0300 from './migrations/0300_packing.js';
import * as m0301 from './migrations/0301_sscc_pallet.js';
import * as m0302 from './migrations/0302_pallet_tare.js';
import * as m0330 from './migrations/0330_scan_to_print_menu.js';
import * as m0331 from './migrations/0331_pack_scan_checks.js';
import * as m0404 from './migrations/0404_carton_line_carton_idx.js';
import { packingBehaviours } from './packing.behaviours.js';
import { packingErrors } from './packing.errors.js';
import { PACKING_ROW_FILTERS } from './packing.row-filters.js';
import { packingRoutes } from './packing.routes.js';
import { splitErrors } from './split.errors.js';
import { splitRoutes } from './split.routes.js';
import './packing.events.js';
import './packing.tables.js';

/**
 * Packing: scan and pack of picked orders into cartons, carton close with weights, dimensions and
 * SSCC, check-complete of the order and its cancelling, and pallets of closed cartons. Packed stock moves onto the carton through the inventory
 * service; the order's status changes through the outbound area.
 */
const PACKING = { definitionOf: 'packing' } as const;

export const packingModule = defineModule({
  name: 'packing',
  migrations: { '0281_pack_menu_right': m0281, '0286_pack_split_menu': m0286, '0291_pallet_scan_menu': m0291, '0300_packing': m0300, '0301_sscc_pallet': m0301, '0302_pallet_tare': m0302, '0330_scan_to_print_menu': m0330, '0331_pack_scan_checks': m0331, '0404_carton_line_carton_idx': m0404 },
  async routes(app, options) {
    await packingRoutes(app, options);
    await splitRoutes(app, options);
  },
  errors: { ...packingErrors, ...splitErrors },
  behaviours: packingBehaviours,
  rowFilters: PACKING_ROW_FILTERS,
  // Carton management and pallets are engine pages of this area, in the outbound menu group where
  // the menu always had them.
  pages: [
    { route: 'cmg', group: 'outbound', opens: PACKING, after: 'pack' },
    { route: 'pallet', group: 'outbound', opens: PACKING, after: 'consignment' },
    // Split scan: items of a packed carton into a new carton of the same order (hand-written).
    { route: 'packSplit', group: 'outbound', opens: 'screen', right: 'packing.pack' },
    // Pallets on a handheld: scan a pallet or make one, scan cartons on and off, close it (hand-written).
    // Scan to print: a closed carton's label again, on a chosen printer (hand-written).
    { route: 'scanToPrintWindow', group: 'outbound', opens: 'screen', right: 'packing.pack', after: 'deliveryOrderSum' },
    { route: 'palletScan', group: 'outbound', opens: 'screen', right: 'packing.pallet' },
  ],
  // The scan-pack screen (/pack, declared with the outbound menu) checks packing.pack: the floor
  // roles pack, the read-only role looks. The carton and pallet pages' rights are granted by
  // migration 0301.
  defaultGrants: workPageGrants('packing.pack'),
  readModels: [
    {
      name: 'packing.scan',
      files: ['packing.repository.ts', 'split.repository.ts'],
      reads: ['location', 'lot', 'sku', 'sku_upc'],
      purpose: 'the SKU, package quantity and lots a scanned code or GS1 label names, the location a pallet stands at, the GTIN, lot and expiry on a carton label, the codes of packed SKUs and the lots a carton line names',
    },
    {
      name: 'packing.packList',
      files: ['pack-list.repository.ts'],
      reads: ['so_header', 'so_line', 'sku', 'lot'],
      purpose: 'the pack list and delivery note of an order: its number, customer order and ship-to, and per closed carton the order line, SKU code and description, lot and expiry of what it holds',
    },
  ],
});

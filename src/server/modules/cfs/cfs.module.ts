import { defineModule, workPageGrants } from '../area.js';
import { cfsErrors } from './cfs.errors.js';
import { cfsRoutes } from './cfs.routes.js';
import * as m0312 from './migrations/0312_cfs.js';
import * as m0313 from './migrations/0313_cfs_menu.js';
import './cfs.tables.js';

/**
 * The container freight station (docs/cfs.md): shippers' cartons scanned in against outbound
 * orders, consolidated onto CFS pallets with their own SSCC, and scanned onto containers (loads of
 * the loading area); orders put on shipment orders, their CFS fields updated in batches, cancelled
 * with a reason of the code master. Orders are cancelled and put on shipments through the
 * outbound area.
 */
export const cfsModule = defineModule({
  name: 'cfs',
  migrations: { '0312_cfs': m0312, '0313_cfs_menu': m0313 },
  routes: cfsRoutes,
  errors: cfsErrors,
  // The CFS screen (hand-written): scan-in, scan-pack, scan-load and the order tools as tabs; in the
  // outbound group after the pallet scan, where its menu migration (0313) puts it.
  pages: [{ route: 'cfs', group: 'outbound', opens: 'screen', right: 'cfs.cfs', after: 'palletScan' }],
  defaultGrants: workPageGrants('cfs.cfs'),
  readModels: [
    {
      name: 'cfs.read',
      files: ['cfs.repository.ts'],
      reads: ['so_header', 'shipment_order', 'load_header'],
      purpose: 'the orders cartons are scanned in against (number and status, locked while scanned or cancelled), the shipment order orders go on, and the load (container) cartons and pallets are scanned onto and whether it is open',
    },
  ],
});

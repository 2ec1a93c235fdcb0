import { defineModule, workPageGrants } from '../area.js';
import { loadingErrors } from './loading.errors.js';
import { loadingRoutes } from './loading.routes.js';
import * as m0340 from './migrations/0340_loading.js';
import * as m0341 from './migrations/0341_loading_menu.js';
import './loading.tables.js';

/**
 * Loading and shipping: loads with their container and voyage, closed cartons and pallets scanned
 * onto them, ship confirm (the stock leaves the warehouse through the inventory service, orders
 * become shipped through the outbound area) and delivery with its proof. Cartons and pallets are
 * read through the packing area.
 */
export const loadingModule = defineModule({
  name: 'loading',
  migrations: { '0340_loading': m0340, '0341_loading_menu': m0341 },
  routes: loadingRoutes,
  errors: loadingErrors,
  // The loading screen (hand-written), at the end of the outbound menu group.
  pages: [{ route: 'loading', group: 'outbound', opens: 'screen', right: 'loading.load' }],
  defaultGrants: workPageGrants('loading.load'),
  homeItems: [
    { kind: 'load', tables: ['load_header'], terminal: ['shipped'], position: 75, listRoute: 'loading' },
    // Orders packed and waiting to be loaded or shipped.
    {
      kind: 'toShip',
      tables: ['so_header'],
      terminal: ['new', 'partial_allocated', 'allocated', 'partial_picked', 'picked', 'partial_packed', 'shipped', 'delivered', 'billed', 'cancelled', 'deleted', 'closed'],
      position: 76,
      statusTexts: 'outbound.status',
      listRoute: 'loading',
    },
  ],
});

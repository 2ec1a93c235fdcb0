import type { RouteTable } from '../../src/common/page-routes.js';
import { AreaRegistry } from '../../src/server/modules/area-registry.js';
import { MODULES } from '../../src/server/modules/index.js';

/** The route table the server builds from the product's module list (what `GET /api/home/routes` answers). */
export const ROUTE_TABLE: RouteTable = new AreaRegistry(MODULES).routeTable;

import { sql } from 'kysely';
import type { RowFilter } from '../../../../engine/server/index.js';
import { defineModule } from '../area.js';
import * as m0390 from './migrations/0390_transport.js';
import * as m0391 from './migrations/0391_transport_menu.js';
import { transportErrors } from './transport.errors.js';
import { transportRoutes } from './transport.routes.js';
import { deliveryOrderWriter } from './transport.writers.js';
import './transport.tables.js';

/**
 * Transport: vehicles and drivers (master data pages), delivery orders (/tmsOrder, imported or made
 * from shipped sales orders) and the route planner (/doOrders): routes of a vehicle and driver with
 * their ordered stops, capacity warnings, split, merge, confirm, and a map that works offline
 * (docs/transport.md). Vehicles, drivers, shipped orders and the map's system parameters are read in
 * the read model `transport.sources`.
 */
const TRANSPORT = { definitionOf: 'transport' } as const;

/** Rows of the warehouse-scoped delivery order page: only those of the session's project too. */
const ofSessionProject: RowFilter = (session, key) =>
  session.projectId === null ? sql`false` : sql`${key} in (select x.id from tms_do_header x where x.project_id = ${session.projectId})`;

const DO_RIGHTS = ['view', 'add', 'edit', 'delete'].map((a) => `transport.tmsOrder:${a}` as const);
const PLAN_RIGHTS = ['transport.doOrders:view', 'transport.doOrders:edit'] as const;

export const transportModule = defineModule({
  name: 'transport',
  migrations: { '0390_transport': m0390, '0391_transport_menu': m0391 },
  routes: transportRoutes,
  writers: [deliveryOrderWriter],
  errors: transportErrors,
  serviceOnlyTables: ['tms_route', 'tms_route_way'],
  rowFilters: new Map([['transport.sessionProjectOrders', ofSessionProject]]),
  pages: [
    { route: 'vehicle', group: 'transport', opens: TRANSPORT },
    { route: 'driver', group: 'transport', opens: TRANSPORT },
    { route: 'tmsOrder', group: 'transport', opens: TRANSPORT },
    // The route planner (hand-written): delivery orders onto routes, stops in order, the map.
    { route: 'doOrders', group: 'transport', opens: 'screen', right: 'transport.doOrders' },
  ],
  defaultGrants: [
    { role: 'Administrator', rights: [...DO_RIGHTS, ...PLAN_RIGHTS] },
    { role: 'Supervisor', rights: [...DO_RIGHTS, ...PLAN_RIGHTS] },
    { role: 'Operator', rights: ['transport.tmsOrder:view', 'transport.doOrders:view'] },
    { role: 'Read-only', rights: ['transport.tmsOrder:view', 'transport.doOrders:view'] },
  ],
  homeItems: [{ kind: 'tmsOrder', tables: ['tms_do_header'], terminal: ['confirmed', 'delivered'], position: 80, listRoute: 'doOrders', statusTexts: 'tms.status' }],
  readModels: [
    {
      name: 'transport.sources',
      files: ['transport.repository.ts'],
      reads: ['vehicle', 'driver', 'so_header', 'carton'],
      purpose: "the vehicles (with their capacity) and drivers of a route, the shipped sales orders delivery orders are made from (with their cartons' weight and pallets)",
    },
  ],
});

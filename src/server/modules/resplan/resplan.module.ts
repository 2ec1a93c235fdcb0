import { defineModule } from '../area.js';
import * as m0410 from './migrations/0410_resplan.js';
import * as m0411 from './migrations/0411_resplan_menu.js';
import { resplanErrors } from './resplan.errors.js';
import { resplanRoutes } from './resplan.routes.js';
import './resplan.tables.js';

/**
 * Resource planning (docs/resplan.md): labour and equipment per warehouse, shift and activity
 * (receiving, putaway, picking, packing, loading), computed from the warehouse's open work and its
 * rates, against what each shift has. Shifts, rates and plans are kept per warehouse; the open work
 * is read in the read model `resplan.openWork`.
 */
const RIGHTS = (['view', 'add', 'edit', 'delete'] as const).map((action) => `resplan.resPlan:${action}` as const);

export const resplanModule = defineModule({
  name: 'resplan',
  migrations: { '0410_resplan': m0410, '0411_resplan_menu': m0411 },
  routes: resplanRoutes,
  errors: resplanErrors,
  // The resource planning screen (hand-written): plans with their chart, shifts and rates as tabs;
  // in a menu group of its own, where its menu migration (0411) puts it.
  pages: [{ route: 'resPlan', group: 'resPlanning', opens: 'screen', right: 'resplan.resPlan' }],
  // Administrators and supervisors plan the warehouse's resources.
  defaultGrants: [
    { role: 'Administrator', rights: [...RIGHTS] },
    { role: 'Supervisor', rights: [...RIGHTS] },
  ],
  readModels: [
    {
      name: 'resplan.openWork',
      files: ['resplan-work.repository.ts'],
      reads: ['asn', 'asn_line', 'receipt_line', 'so_header', 'so_line', 'so_allocation', 'carton', 'carton_line', 'load_carton'],
      purpose:
        'the open work of a warehouse a resource plan counts: ASN lines still to receive, receipt lines waiting for putaway, allocations still to pick, picked order lines not yet in cartons, closed cartons on no load',
    },
  ],
});

import { sql } from 'kysely';
import type { RowFilter } from '../../../../engine/server/index.js';
import { defineModule } from '../area.js';
import * as m0351 from './migrations/0351_carrier.js';
import { carrierErrors } from './carrier.errors.js';
import { carrierRoutes } from './carrier.routes.js';
import { carrierAccountWriter, carrierShipmentWriter } from './carrier.writers.js';
import './carrier.tables.js';

/**
 * Parcel carriers: the carrier accounts of a project (its HTTP JSON API, docs/carriers.md), the
 * parcel shipments booked with a carrier (/shipment) and their parcels (closed cartons of orders),
 * the label of a shipment, and the courier check screen (an order and its parcels at the dock). The
 * /shipment menu entry stays where the outbound menu always had it (declared by the outbound area).
 */
const CARRIER = { definitionOf: 'carrier' } as const;

/** Rows of a warehouse-scoped page of the carrier area: only those of the session's project too. */
const ofSessionProject =
  (table: 'carrier_shipment' | 'carrier_parcel'): RowFilter =>
  (session, key) =>
    session.projectId === null ? sql`false` : sql`${key} in (select x.id from ${sql.table(table)} x where x.project_id = ${session.projectId})`;

export const carrierModule = defineModule({
  name: 'carrier',
  migrations: { '0351_carrier': m0351 },
  routes: carrierRoutes,
  writers: [carrierShipmentWriter, carrierAccountWriter],
  errors: carrierErrors,
  serviceOnlyTables: ['carrier_parcel'],
  rowFilters: new Map([
    ['carrier.sessionProjectShipments', ofSessionProject('carrier_shipment')],
    ['carrier.sessionProjectParcels', ofSessionProject('carrier_parcel')],
  ]),
  pages: [
    // Scan an order or a parcel: carrier shipment, tracking, label, and whether the parcel is the order's (hand-written).
    { route: 'courierCheck', group: 'outbound', opens: 'screen', right: 'carrier.courierCheck' },
    { route: 'carrierAccount', group: 'masterData', opens: CARRIER },
  ],
  // Whoever sees the shipments sees their parcels: the parcels tab is a page of its own right.
  defaultGrants: [
    { role: 'Administrator', rights: ['carrier.shipment:view', 'carrier.shipment:edit', 'carrier.shipmentParcel:view', 'carrier.courierCheck:view', 'carrier.courierCheck:edit', 'carrier.carrierAccount:view', 'carrier.carrierAccount:edit'] },
    { role: 'Supervisor', rights: ['carrier.shipment:view', 'carrier.shipment:edit', 'carrier.shipmentParcel:view', 'carrier.courierCheck:view', 'carrier.courierCheck:edit', 'carrier.carrierAccount:view'] },
    { role: 'Operator', rights: ['carrier.shipment:view', 'carrier.shipmentParcel:view', 'carrier.courierCheck:view', 'carrier.courierCheck:edit'] },
    { role: 'Read-only', rights: ['carrier.shipment:view', 'carrier.shipmentParcel:view', 'carrier.courierCheck:view'] },
  ],
  readModels: [
    {
      name: 'carrier.parcels',
      files: ['carrier.repository.ts'],
      reads: ['so_header', 'carton'],
      purpose: 'the orders a carrier shipment is for and their closed cartons sent as parcels, and the order or carton a scanned code names at the courier check',
    },
  ],
});

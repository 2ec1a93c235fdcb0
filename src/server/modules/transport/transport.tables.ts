import type { ColumnType, Generated } from 'kysely';
import type { Audit, DefaultedNumeric, Id, NullableNumeric, NullableTimestamp } from '../../db/schema.js';

/** Delivery orders, routes and the stops of each route. */
declare module '../../db/schema.js' {
  interface DB {
    tms_do_header: TmsDoHeaderTable;
    tms_route: TmsRouteTable;
    tms_route_way: TmsRouteWayTable;
  }
}

/** Unplanned: on no route; planned: on an open route; confirmed: on a confirmed route; delivered. */
export type DoStatus = 'unplanned' | 'planned' | 'confirmed' | 'delivered';
/** Open: stops may be added, moved and sorted; confirmed: read-only until unconfirmed. */
export type RouteStatus = 'open' | 'confirmed';

export interface TmsDoHeaderTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  /** Unique in the warehouse; from the TMSDO numbering rule when left empty. */
  do_no: string;
  customer_name: string;
  consignee_name: string | null;
  address: string | null;
  city: string | null;
  latitude: NullableNumeric;
  longitude: NullableNumeric;
  window_from: NullableTimestamp;
  window_to: NullableTimestamp;
  weight_kg: DefaultedNumeric;
  volume_m3: DefaultedNumeric;
  pallet_count: Generated<number>;
  status: Generated<DoStatus>;
  /** The sales order it was made from, if any. */
  so_id: number | null;
  so_no: string | null;
  remarks: string | null;
}

export interface TmsRouteTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  /** From the ROUTE numbering rule; unique in the warehouse. */
  route_no: string;
  /** The day, YYYY-MM-DD. */
  route_date: ColumnType<string, string, string>;
  vehicle_id: number | null;
  driver_id: number | null;
  status: Generated<RouteStatus>;
  remarks: string | null;
}

/** A stop of a route: one delivery order, in the order `seq` (1, 2, ...). */
export interface TmsRouteWayTable extends Audit {
  id: Id;
  route_id: number;
  do_id: number;
  seq: number;
}

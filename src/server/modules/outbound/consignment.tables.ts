import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id, NullableDate, Numeric } from '../../db/schema.js';
import './outbound.tables.js';

/** Consignments and the delivery order summary (migration 0352). */
declare module '../../db/schema.js' {
  interface DB {
    consignment: ConsignmentTable;
    delivery_order_sum: DeliveryOrderSumView;
  }
}

declare module './outbound.tables.js' {
  interface SoHeaderTable {
    consignment_id: ColumnType<number | null, number | null | undefined, number | null>;
  }
}

/** Orders of one consignee (ship-to) grouped for one delivery. */
export interface ConsignmentTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  consignment_no: string;
  consignee_name: string;
  ship_to_address: string | null;
  delivery_date: NullableDate;
  status: Generated<string>;
  remark: string | null;
}

/** Read only: per order, ordered, picked, packed, loaded, shipped and delivered quantity. */
export interface DeliveryOrderSumView {
  id: number;
  project_id: number;
  warehouse_id: number;
  order_no: string;
  owner_id: number;
  customer_order_no: string | null;
  status: string;
  required_ship_date: NullableDate;
  order_date: string;
  ordered_qty: Numeric;
  picked_qty: Numeric;
  packed_qty: Numeric;
  loaded_qty: Numeric;
  shipped_qty: Numeric;
  delivered_qty: Numeric;
}

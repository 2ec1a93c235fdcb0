import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id, NullableDate, NullableTimestamp, Numeric } from '../../db/schema.js';
import type { ShipToColumns } from './outbound.tables.js';
import './outbound.tables.js';

/** Pre-sales orders, shipment orders and the maintenance list (migration 0122). */
declare module '../../db/schema.js' {
  interface DB {
    pso_header: PsoHeaderTable;
    pso_line: PsoLineTable;
    shipment_order: ShipmentOrderTable;
    so_maintenance: SoMaintenanceTable;
  }
}

declare module './outbound.tables.js' {
  interface SoHeaderTable {
    shipment_order_id: ColumnType<number | null, number | null | undefined, number | null>;
    store_arrival_at: NullableTimestamp;
  }
}

export interface PsoHeaderTable extends Audit, ShipToColumns {
  id: Id;
  project_id: number;
  warehouse_id: number;
  pso_no: string;
  status: Generated<string>;
  so_id: number | null;
  remark: string | null;
}

export interface PsoLineTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  pso_id: number;
  line_no: number;
  sku_id: number;
  qty: Numeric;
  uom: Generated<string>;
  lot_no: string | null;
  required_date: NullableDate;
}

export interface ShipmentOrderTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  shipment_no: string;
  carrier_code: string | null;
  ship_date: NullableDate;
  status: Generated<string>;
  remark: string | null;
  /** Required on every save (with the next five): migration 0265. */
  shipment_reference: string | null;
  expected_delivery_date: NullableDate;
  gateway: string | null;
  service: string | null;
  service_provider: string | null;
  /** Battery content of the goods: none, lithium ion or lithium metal. */
  battery: string | null;
}

export interface SoMaintenanceTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  so_id: number | null;
  sku_id: number | null;
  reason: string | null;
}

import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id, Numeric } from '../../db/schema.js';
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
    store_arrival_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  }
}

type DateOnly = ColumnType<string | null, string | null | undefined, string | null>;

export interface PsoHeaderTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  pso_no: string;
  owner_id: number;
  consignee_id: number | null;
  customer_order_no: string | null;
  ship_to_name: string | null;
  ship_to_address_en: string | null;
  ship_to_address_cn: string | null;
  carrier_code: string | null;
  required_ship_date: DateOnly;
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
  required_date: DateOnly;
}

export interface ShipmentOrderTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  shipment_no: string;
  carrier_code: string | null;
  ship_date: DateOnly;
  status: Generated<string>;
  remark: string | null;
}

export interface SoMaintenanceTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  so_id: number | null;
  sku_id: number | null;
  reason: string | null;
}

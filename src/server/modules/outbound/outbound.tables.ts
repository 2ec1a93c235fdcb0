import type { Generated } from 'kysely';
import type { Audit, DefaultedNumeric, Id, NullableDate, Numeric } from '../../db/schema.js';

/** Sales orders, their lines, allocation rules and the balance rows lines hold. */
declare module '../../db/schema.js' {
  interface DB {
    so_header: SoHeaderTable;
    so_line: SoLineTable;
    so_rule: SoRuleTable;
    so_allocation: SoAllocationTable;
  }
}

/** Whose goods an order ships, to whom and how: the same columns on sales and pre-sales orders. */
export interface ShipToColumns {
  owner_id: number;
  consignee_id: number | null;
  customer_order_no: string | null;
  ship_to_name: string | null;
  ship_to_address_en: string | null;
  ship_to_address_cn: string | null;
  carrier_code: string | null;
  required_ship_date: NullableDate;
}

export interface SoHeaderTable extends Audit, ShipToColumns {
  id: Id;
  project_id: number;
  warehouse_id: number;
  order_no: string;
  wave_id: string | null;
  status: Generated<string>;
  remark: string | null;
}

export interface SoLineTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  so_id: number;
  line_no: number;
  sku_id: number;
  qty: Numeric;
  uom: Generated<string>;
  lot_no: string | null;
  expiry_from: NullableDate;
  expiry_to: NullableDate;
  udf1: string | null;
  udf2: string | null;
  udf3: string | null;
  required_date: NullableDate;
  allocated_qty: DefaultedNumeric;
  picked_qty: DefaultedNumeric;
}

export type AllocationStrategy = 'fifo' | 'fefo' | 'lifo' | 'location';

export interface SoRuleTable extends Audit {
  id: Id;
  project_id: number;
  owner_id: number;
  sku_id: number | null;
  strategy: Generated<AllocationStrategy>;
  min_shelf_life_days: Generated<number>;
  pick_face_first: Generated<boolean>;
  full_pallet_first: Generated<boolean>;
  active: Generated<boolean>;
}

/** Written only by the outbound service: which balance rows a line holds, and how much of each. */
export interface SoAllocationTable {
  id: Id;
  project_id: number;
  warehouse_id: number;
  so_id: number;
  so_line_id: number;
  balance_id: number;
  qty: Numeric;
  created_at: Generated<Date>;
}

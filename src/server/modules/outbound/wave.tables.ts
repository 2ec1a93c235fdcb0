import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id } from '../../db/schema.js';

/** Waves and pick tasks (migration 0121). */
declare module '../../db/schema.js' {
  interface DB {
    wave: WaveTable;
    pick_task: PickTaskTable;
  }
}

type Qty = ColumnType<string, string | number | undefined, string | number>;
type DateOnly = ColumnType<string | null, string | null | undefined, string | null>;

export type WaveStatus = 'new' | 'released' | 'partial_picked' | 'picked' | 'cancelled';
export type PickTaskStatus = 'open' | 'picked' | 'short' | 'cancelled';

export interface WaveTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  wave_no: string;
  status: Generated<WaveStatus>;
  carrier_code: string | null;
  ship_date_from: DateOnly;
  ship_date_to: DateOnly;
  owner_id: number | null;
  zone: string | null;
  reference: string | null;
  order_count: Generated<number>;
  line_count: Generated<number>;
  qty: Qty;
  allocated_qty: Qty;
  picked_qty: Qty;
  released_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface PickTaskTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  wave_id: number | null;
  so_id: number;
  so_line_id: number;
  balance_id: number;
  owner_id: number;
  sku_id: number;
  lot_id: number;
  location_id: number;
  lpn: Generated<string>;
  zone: string | null;
  pick_seq: number | null;
  qty: ColumnType<string, string | number, string | number>;
  picked_qty: Qty;
  status: Generated<PickTaskStatus>;
  to_location_id: number | null;
  to_lpn: string | null;
  reason: string | null;
  picked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

import type { ColumnType, Generated } from 'kysely';
import type { PickTaskStatus, WaveStatus } from '../../../common/outbound-api.js';
import type { Audit, DefaultedNumeric, Id, NullableDate, NullableTimestamp } from '../../db/schema.js';

/** Waves and pick tasks (migration 0121). */
declare module '../../db/schema.js' {
  interface DB {
    wave: WaveTable;
    pick_task: PickTaskTable;
  }
}

export type { PickTaskStatus, WaveStatus };

export interface WaveTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  wave_no: string;
  status: Generated<WaveStatus>;
  carrier_code: string | null;
  ship_date_from: NullableDate;
  ship_date_to: NullableDate;
  owner_id: number | null;
  zone: string | null;
  reference: string | null;
  order_count: Generated<number>;
  line_count: Generated<number>;
  qty: DefaultedNumeric;
  allocated_qty: DefaultedNumeric;
  picked_qty: DefaultedNumeric;
  released_at: NullableTimestamp;
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
  picked_qty: DefaultedNumeric;
  status: Generated<PickTaskStatus>;
  to_location_id: number | null;
  to_lpn: string | null;
  reason: string | null;
  picked_at: NullableTimestamp;
  /** Held at the task's location by a short pick that looked for the rest elsewhere (0 when nothing was). */
  held_qty: DefaultedNumeric;
  /** The count ticket that settles that hold. */
  count_ticket_no: string | null;
}

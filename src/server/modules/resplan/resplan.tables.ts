import type { ColumnType, Generated } from 'kysely';
import type { ResPlanActivity, ResPlanEquipmentKind, ResPlanStatus } from '../../../common/resplan-api.js';
import type { Audit, Id, NullableNumeric, NullableTimestamp, Numeric } from '../../db/schema.js';

/**
 * Resource planning (migration 0410, docs/resplan.md): the shifts of a warehouse with the labour and
 * equipment each has per activity, the rates of each activity, and the plans of a date and shift
 * with one line per activity. All of them belong to a warehouse, whatever project works in it.
 */
declare module '../../db/schema.js' {
  interface DB {
    resplan_shift: ResPlanShiftTable;
    resplan_shift_resource: ResPlanShiftResourceTable;
    resplan_rate: ResPlanRateTable;
    resplan_header: ResPlanHeaderTable;
    resplan_line: ResPlanLineTable;
  }
}

type DateOnly = ColumnType<string, string, string>;

export interface ResPlanShiftTable extends Audit {
  id: Id;
  warehouse_id: number;
  code: string;
  name: string;
  /** HH:MM. */
  start_time: string;
  end_time: string;
  /** The ISO days of the week it runs, as digits ascending: '12345' is Monday to Friday. */
  days_of_week: string;
  active: Generated<boolean>;
}

export interface ResPlanShiftResourceTable extends Audit {
  id: Id;
  shift_id: number;
  activity: ResPlanActivity;
  headcount: number;
  hours_per_head: Numeric;
  equipment_count: number;
}

export interface ResPlanRateTable extends Audit {
  id: Id;
  warehouse_id: number;
  activity: ResPlanActivity;
  units_per_labour_hour: Numeric;
  equipment_kind: ResPlanEquipmentKind | null;
  units_per_equipment_hour: NullableNumeric;
}

export interface ResPlanHeaderTable extends Audit {
  id: Id;
  warehouse_id: number;
  plan_no: string;
  plan_date: DateOnly;
  shift_id: number;
  status: Generated<ResPlanStatus>;
  remark: string | null;
  required_labour_hours: NullableNumeric;
  available_labour_hours: NullableNumeric;
  over_capacity: Generated<boolean>;
  calculated_at: NullableTimestamp;
  calculated_by: string | null;
  confirmed_at: NullableTimestamp;
  confirmed_by: string | null;
}

export interface ResPlanLineTable extends Audit {
  id: Id;
  plan_id: number;
  line_no: number;
  activity: ResPlanActivity;
  open_qty: Numeric;
  /** Null when the warehouse has no rate of the activity (then it has no open work either). */
  units_per_labour_hour: NullableNumeric;
  labour_hours: Numeric;
  equipment_kind: ResPlanEquipmentKind | null;
  units_per_equipment_hour: NullableNumeric;
  equipment_hours: Numeric;
  headcount: number;
  hours_per_head: Numeric;
  equipment_count: number;
  available_labour_hours: Numeric;
  available_equipment_hours: Numeric;
  labour_gap: Numeric;
  equipment_gap: Numeric;
  over_capacity: boolean;
}

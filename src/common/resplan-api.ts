/** What the resource planning calls answer (docs/resplan.md), shared by the server and the /resPlan screen. */

/** The activities a plan counts open work and hours for, in the order of the warehouse flow. */
export const RESPLAN_ACTIVITIES = ['receiving', 'putaway', 'picking', 'packing', 'loading'] as const;
export type ResPlanActivity = (typeof RESPLAN_ACTIVITIES)[number];

/** The equipment an activity may need besides its labour. */
export const RESPLAN_EQUIPMENT_KINDS = ['forklift', 'reachTruck', 'palletJack', 'rfGun'] as const;
export type ResPlanEquipmentKind = (typeof RESPLAN_EQUIPMENT_KINDS)[number];

export const RESPLAN_STATUSES = ['draft', 'confirmed'] as const;
export type ResPlanStatus = (typeof RESPLAN_STATUSES)[number];

/** What an activity's open work is counted in (its rate is these units per hour). */
export const RESPLAN_UNITS: Readonly<Record<ResPlanActivity, string>> = {
  receiving: 'asnLine',
  putaway: 'pallet',
  picking: 'pickLine',
  packing: 'orderLine',
  loading: 'carton',
};

/** The labour and equipment a shift has for one activity. */
export interface ResPlanShiftResource {
  activity: ResPlanActivity;
  headcount: number;
  /** Decimal text: the hours each head (and each unit of equipment) works in the shift. */
  hoursPerHead: string;
  equipmentCount: number;
}

/** What names a shift and when it runs: as shown, as edited on the setup tab and as saved. */
export interface ResPlanShiftFields {
  code: string;
  name: string;
  /** HH:MM, the warehouse's local time. */
  startTime: string;
  endTime: string;
  /** ISO days of the week the shift runs (1 Monday .. 7 Sunday), ascending. */
  daysOfWeek: number[];
}

export interface ResPlanShift extends ResPlanShiftFields {
  id: number;
  active: boolean;
  /** The shift's length in hours (decimal text), through midnight when it ends before it starts. */
  hours: string;
  resources: ResPlanShiftResource[];
}

export interface ResPlanRate {
  id: number;
  activity: ResPlanActivity;
  /** Decimal texts: units of the activity's work per labour hour and per equipment hour. */
  unitsPerLabourHour: string;
  equipmentKind: ResPlanEquipmentKind | null;
  unitsPerEquipmentHour: string | null;
}

/** One activity of a plan: its open work, the hours it needs and the hours the shift has for it. Hours are decimal texts. */
export interface ResPlanLine {
  activity: ResPlanActivity;
  openQty: string;
  /** Null when the warehouse has no rate of the activity (allowed only while it has no open work). */
  unitsPerLabourHour: string | null;
  labourHours: string;
  equipmentKind: ResPlanEquipmentKind | null;
  unitsPerEquipmentHour: string | null;
  equipmentHours: string;
  headcount: number;
  hoursPerHead: string;
  equipmentCount: number;
  availableLabourHours: string;
  availableEquipmentHours: string;
  /** Available less required: negative when the activity is short of hours. */
  labourGap: string;
  equipmentGap: string;
  overCapacity: boolean;
}

export interface ResPlanHeader {
  id: number;
  planNo: string;
  planDate: string;
  shiftId: number;
  shiftCode: string;
  shiftName: string;
  status: ResPlanStatus;
  remark: string | null;
  /** Totals of the lines once calculated (null before). */
  requiredLabourHours: string | null;
  availableLabourHours: string | null;
  overCapacity: boolean;
  calculatedAt: string | null;
  confirmedAt: string | null;
  confirmedBy: string | null;
  createdBy: string;
  createdAt: string;
}

export interface ResPlanWithLines extends ResPlanHeader {
  lines: ResPlanLine[];
}

export interface ResPlanListAnswer {
  rows: ResPlanHeader[];
  total: number;
  page: number;
  pageSize: number;
}

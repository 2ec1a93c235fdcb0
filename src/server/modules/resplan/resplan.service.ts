import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import {
  RESPLAN_ACTIVITIES,
  type ResPlanActivity,
  type ResPlanEquipmentKind,
  type ResPlanHeader,
  type ResPlanLine,
  type ResPlanListAnswer,
  type ResPlanRate,
  type ResPlanShift,
  type ResPlanShiftFields,
  type ResPlanShiftResource,
  type ResPlanStatus,
  type ResPlanWithLines,
} from '../../../common/resplan-api.js';
import type { DB } from '../../db/schema.js';
import { nextDocumentNumber } from '../masterdata/index.js';
import * as repo from './resplan.repository.js';
import type { LineRow, LineValues, PlanListRow, PlanRow, RateRow, ShiftResourceRow, ShiftRow } from './resplan.repository.js';
import { openWorkOfWarehouse } from './resplan-work.repository.js';

/**
 * Resource planning (docs/resplan.md). A warehouse keeps its shifts (with the people and equipment
 * each has per activity) and a rate per activity (units of work per labour hour, and the equipment
 * it needs with units per equipment hour). A plan of a date and shift counts the warehouse's open
 * work per activity, turns it into the labour and equipment hours it needs, and sets them against
 * the hours the shift has: a draft is calculated again as often as wanted; confirming freezes it.
 * Everything is of the session's warehouse: another warehouse's shift, rate or plan is not found.
 */

export interface ResPlanScope {
  projectId: number;
  warehouseId: number;
  operator: string;
}

type Reader = Kysely<DB> | Transaction<DB>;

/** Hours are kept to two decimals, rounded half up. */
const HOURS_DP = 2;
const hours = (value: Decimal.Value): string => new Decimal(value).toDecimalPlaces(HOURS_DP, Decimal.ROUND_HALF_UP).toFixed(HOURS_DP);
const decimalText = (value: Decimal.Value): string => new Decimal(value).toString();
const timestampText = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

function invalid(field: string, code: string, params?: Record<string, string | number>): never {
  throw new AppError('VALIDATION_FAILED', {}, [{ field, code, ...(params ? { params } : {}) }]);
}

// ---------------------------------------------------------------- shifts

/** The length of a shift in hours; one that ends at or before its start runs through midnight. */
export function shiftLength(start: string, end: string): Decimal {
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  let length = minutes(end) - minutes(start);
  if (length <= 0) length += 24 * 60;
  return new Decimal(length).dividedBy(60);
}

/** The ISO day of the week (1 Monday .. 7 Sunday) of a date YYYY-MM-DD. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

function resourceAnswer(row: ShiftResourceRow): ResPlanShiftResource {
  return { activity: row.activity, headcount: row.headcount, hoursPerHead: decimalText(row.hours_per_head), equipmentCount: row.equipment_count };
}

function shiftAnswer(row: ShiftRow, resources: readonly ShiftResourceRow[]): ResPlanShift {
  const own = resources.filter((r) => Number(r.shift_id) === Number(row.id));
  return {
    id: Number(row.id),
    code: row.code,
    name: row.name,
    startTime: row.start_time,
    endTime: row.end_time,
    daysOfWeek: row.days_of_week.split('').map(Number),
    active: row.active,
    hours: hours(shiftLength(row.start_time, row.end_time)),
    resources: RESPLAN_ACTIVITIES.flatMap((activity) => own.filter((r) => r.activity === activity).map(resourceAnswer)),
  };
}

/** `/getResPlanShiftList`: the warehouse's shifts with their resources, by start time. */
export async function listShiftAnswers(db: Reader, scope: ResPlanScope): Promise<{ rows: ResPlanShift[] }> {
  const shifts = await repo.listShifts(db, scope.warehouseId);
  const resources = await repo.resourcesOfShifts(db, shifts.map((s) => Number(s.id)));
  return { rows: shifts.map((s) => shiftAnswer(s, resources)) };
}

export interface ShiftInput extends ResPlanShiftFields {
  id?: number;
  active?: boolean;
  resources?: Array<{ activity: ResPlanActivity; headcount: number; hoursPerHead?: string | null; equipmentCount?: number }>;
}

/**
 * `/saveResPlanShift`: adds a shift (without id) or changes one of the warehouse; its resources
 * become those given, one per activity at most, each head working the shift's length unless its
 * hours are given (at most 24). A code once per warehouse (DUPLICATE_VALUE otherwise).
 */
export async function saveShift(trx: Transaction<DB>, scope: ResPlanScope, input: ShiftInput): Promise<ResPlanShift> {
  const code = input.code.trim();
  const name = input.name.trim();
  if (!code) invalid('code', 'FIELD_REQUIRED', { field: 'code' });
  if (!name) invalid('name', 'FIELD_REQUIRED', { field: 'name' });
  if (input.startTime === input.endTime) throw new AppError('RESPLAN_SHIFT_TIMES', { start: input.startTime, end: input.endTime });
  const length = shiftLength(input.startTime, input.endTime);
  const problems: FieldError[] = [];
  const seen = new Set<ResPlanActivity>();
  const resources = (input.resources ?? []).map((r, i) => {
    if (seen.has(r.activity)) problems.push({ field: `resources[${i}].activity`, code: 'FIELD_NOT_UNIQUE', params: { field: r.activity } });
    seen.add(r.activity);
    const perHead = r.hoursPerHead === undefined || r.hoursPerHead === null ? length : new Decimal(r.hoursPerHead);
    if (perHead.greaterThan(24)) problems.push({ field: `resources[${i}].hoursPerHead`, code: 'FIELD_RANGE', params: { field: 'hoursPerHead', min: 0, max: 24 } });
    return { activity: r.activity, headcount: r.headcount, hours_per_head: decimalText(perHead.toDecimalPlaces(HOURS_DP, Decimal.ROUND_HALF_UP)), equipment_count: r.equipmentCount ?? 0 };
  });
  if (problems.length) throw new AppError('VALIDATION_FAILED', {}, problems);
  const values: repo.ShiftValues = {
    code,
    name,
    start_time: input.startTime,
    end_time: input.endTime,
    days_of_week: [...new Set(input.daysOfWeek)].sort((a, b) => a - b).join(''),
    active: input.active ?? true,
  };
  let id: number;
  if (input.id === undefined) {
    id = Number((await repo.insertShift(trx, scope.warehouseId, values, scope.operator)).id);
  } else {
    const shift = await repo.shiftById(trx, scope.warehouseId, input.id, 'update');
    if (!shift) throw new AppError('RESPLAN_SHIFT_UNKNOWN', { id: input.id });
    id = Number(shift.id);
    await repo.updateShift(trx, id, values, scope.operator);
  }
  await repo.replaceShiftResources(trx, id, resources, scope.operator);
  const row = (await repo.shiftById(trx, scope.warehouseId, id))!;
  return shiftAnswer(row, await repo.resourcesOfShifts(trx, [id]));
}

/** `/deleteResPlanShift`: removes a shift of the warehouse that no plan names (RECORD_IN_USE otherwise: make it inactive instead). */
export async function deleteShiftOf(trx: Transaction<DB>, scope: ResPlanScope, id: number): Promise<{ deleted: number }> {
  const shift = await repo.shiftById(trx, scope.warehouseId, id, 'update');
  if (!shift) throw new AppError('RESPLAN_SHIFT_UNKNOWN', { id });
  if ((await repo.plansOfShift(trx, id)) > 0) throw new AppError('RECORD_IN_USE');
  await repo.deleteShift(trx, id);
  return { deleted: id };
}

// ---------------------------------------------------------------- rates

function rateAnswer(row: RateRow): ResPlanRate {
  return {
    id: Number(row.id),
    activity: row.activity,
    unitsPerLabourHour: decimalText(row.units_per_labour_hour),
    equipmentKind: row.equipment_kind,
    unitsPerEquipmentHour: row.units_per_equipment_hour === null ? null : decimalText(row.units_per_equipment_hour),
  };
}

/** `/getResPlanRateList`: the warehouse's rates, in the order of the activities. */
export async function listRateAnswers(db: Reader, scope: ResPlanScope): Promise<{ rows: ResPlanRate[] }> {
  const rows = await repo.listRates(db, scope.warehouseId);
  return { rows: RESPLAN_ACTIVITIES.flatMap((activity) => rows.filter((r) => r.activity === activity).map(rateAnswer)) };
}

export interface RateInput {
  id?: number;
  activity: ResPlanActivity;
  unitsPerLabourHour: string;
  equipmentKind?: ResPlanEquipmentKind | null;
  unitsPerEquipmentHour?: string | null;
}

/**
 * `/saveResPlanRate`: the warehouse's rate of an activity (one per activity: without id, the
 * activity's rate is made or replaced). An equipment kind needs its units per equipment hour, and
 * units per equipment hour need a kind.
 */
export async function saveRate(trx: Transaction<DB>, scope: ResPlanScope, input: RateInput): Promise<ResPlanRate> {
  const kind = input.equipmentKind ?? null;
  const perEquipment = input.unitsPerEquipmentHour ?? null;
  if (kind !== null && perEquipment === null) invalid('unitsPerEquipmentHour', 'FIELD_REQUIRED', { field: 'unitsPerEquipmentHour' });
  if (kind === null && perEquipment !== null) invalid('equipmentKind', 'FIELD_REQUIRED', { field: 'equipmentKind' });
  const values: repo.RateValues = { activity: input.activity, units_per_labour_hour: input.unitsPerLabourHour, equipment_kind: kind, units_per_equipment_hour: perEquipment };
  if (input.id === undefined) return rateAnswer(await repo.upsertRate(trx, scope.warehouseId, values, scope.operator));
  const rate = await repo.rateById(trx, scope.warehouseId, input.id, true);
  if (!rate) throw new AppError('RESPLAN_RATE_UNKNOWN', { id: input.id });
  return rateAnswer(await repo.updateRate(trx, Number(rate.id), values, scope.operator));
}

/** `/deleteResPlanRate`: removes a rate of the warehouse (plans already calculated keep the rate they used). */
export async function deleteRateOf(trx: Transaction<DB>, scope: ResPlanScope, id: number): Promise<{ deleted: number }> {
  const rate = await repo.rateById(trx, scope.warehouseId, id, true);
  if (!rate) throw new AppError('RESPLAN_RATE_UNKNOWN', { id });
  await repo.deleteRate(trx, id);
  return { deleted: id };
}

// ---------------------------------------------------------------- plans

function headerAnswer(row: PlanRow, shift: { code: string; name: string }): ResPlanHeader {
  return {
    id: Number(row.id),
    planNo: row.plan_no,
    planDate: row.plan_date,
    shiftId: Number(row.shift_id),
    shiftCode: shift.code,
    shiftName: shift.name,
    status: row.status,
    remark: row.remark,
    requiredLabourHours: row.required_labour_hours === null ? null : hours(row.required_labour_hours),
    availableLabourHours: row.available_labour_hours === null ? null : hours(row.available_labour_hours),
    overCapacity: row.over_capacity,
    calculatedAt: timestampText(row.calculated_at),
    confirmedAt: timestampText(row.confirmed_at),
    confirmedBy: row.confirmed_by,
    createdBy: row.created_by ?? '',
    createdAt: timestampText(row.created_at) ?? '',
  };
}

function lineAnswer(row: LineRow): ResPlanLine {
  return {
    activity: row.activity,
    openQty: decimalText(row.open_qty),
    unitsPerLabourHour: row.units_per_labour_hour === null ? null : decimalText(row.units_per_labour_hour),
    labourHours: hours(row.labour_hours),
    equipmentKind: row.equipment_kind,
    unitsPerEquipmentHour: row.units_per_equipment_hour === null ? null : decimalText(row.units_per_equipment_hour),
    equipmentHours: hours(row.equipment_hours),
    headcount: row.headcount,
    hoursPerHead: decimalText(row.hours_per_head),
    equipmentCount: row.equipment_count,
    availableLabourHours: hours(row.available_labour_hours),
    availableEquipmentHours: hours(row.available_equipment_hours),
    labourGap: hours(row.labour_gap),
    equipmentGap: hours(row.equipment_gap),
    overCapacity: row.over_capacity,
  };
}

export interface PlanListInput {
  page?: number;
  pageSize?: number;
  status?: ResPlanStatus;
  planNo?: string;
  dateFrom?: string;
  dateTo?: string;
  shiftId?: number;
}

/** `/getResPlanHeaderList`: one page of the warehouse's plans matching the filters, newest date first. */
export async function listPlanAnswers(db: Reader, scope: ResPlanScope, input: PlanListInput): Promise<ResPlanListAnswer> {
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? 20;
  const filter: repo.PlanFilter = { status: input.status, planNo: input.planNo?.trim() || undefined, dateFrom: input.dateFrom, dateTo: input.dateTo, shiftId: input.shiftId };
  const { rows, total } = await repo.listPlans(db, scope.warehouseId, filter, { offset: (page - 1) * pageSize, limit: pageSize });
  return { rows: rows.map((r: PlanListRow) => headerAnswer(r, { code: r.shift_code, name: r.shift_name })), total, page, pageSize };
}

async function planOrRefuse(db: Reader, scope: ResPlanScope, id: number, lock = false): Promise<PlanRow> {
  const plan = await repo.planById(db, scope.warehouseId, id, lock);
  if (!plan) throw new AppError('RESPLAN_PLAN_UNKNOWN', { id });
  return plan;
}

function assertDraft(plan: PlanRow): void {
  if (plan.status !== 'draft') throw new AppError('RESPLAN_PLAN_CONFIRMED', { planNo: plan.plan_no });
}

/** The shift of the warehouse a plan may be made for on the date: active and running that day of the week. */
async function usableShift(db: Reader, scope: ResPlanScope, shiftId: number, date: string, lock: 'share' | false = false): Promise<ShiftRow> {
  const shift = await repo.shiftById(db, scope.warehouseId, shiftId, lock);
  if (!shift) throw new AppError('RESPLAN_SHIFT_UNKNOWN', { id: shiftId });
  if (!shift.active) throw new AppError('RESPLAN_SHIFT_INACTIVE', { shift: shift.code });
  if (!shift.days_of_week.includes(String(isoWeekday(date)))) throw new AppError('RESPLAN_SHIFT_NOT_ON_DAY', { shift: shift.code, date });
  return shift;
}

async function planAnswer(db: Reader, scope: ResPlanScope, plan: PlanRow): Promise<ResPlanWithLines> {
  const shift = await repo.shiftById(db, scope.warehouseId, Number(plan.shift_id));
  const lines = await repo.linesOfPlan(db, Number(plan.id));
  return { ...headerAnswer(plan, shift ?? { code: '', name: '' }), lines: lines.map(lineAnswer) };
}

/** `/getResPlanHeader`: one plan of the warehouse with its lines. */
export async function planWithLines(db: Reader, scope: ResPlanScope, id: number): Promise<ResPlanWithLines> {
  return planAnswer(db, scope, await planOrRefuse(db, scope, id));
}

export interface PlanInput {
  id?: number;
  planDate: string;
  shiftId: number;
  remark?: string | null;
}

/**
 * `/saveResPlanHeader`: a new draft plan (without id; numbered by the RES_PLAN rule) or a change of
 * a draft's date, shift or remark. The shift must be the warehouse's, active and running on the
 * date. A changed date or shift clears the lines: the plan is to be calculated again.
 */
export async function savePlan(trx: Transaction<DB>, scope: ResPlanScope, input: PlanInput): Promise<ResPlanWithLines> {
  const remark = input.remark?.trim() || null;
  if (input.id === undefined) {
    await usableShift(trx, scope, input.shiftId, input.planDate);
    const planNo = await nextDocumentNumber(trx, 'RES_PLAN', { warehouseId: scope.warehouseId, projectId: scope.projectId });
    const plan = await repo.insertPlan(trx, scope.warehouseId, { plan_no: planNo, plan_date: input.planDate, shift_id: input.shiftId, remark }, scope.operator);
    return planAnswer(trx, scope, plan);
  }
  const plan = await planOrRefuse(trx, scope, input.id, true);
  assertDraft(plan);
  const moved = plan.plan_date !== input.planDate || Number(plan.shift_id) !== input.shiftId;
  if (moved) {
    await usableShift(trx, scope, input.shiftId, input.planDate);
    await repo.replaceLines(trx, Number(plan.id), [], scope.operator);
  }
  const change: repo.PlanChange = { plan_date: input.planDate, shift_id: input.shiftId, remark };
  if (moved) Object.assign(change, { calculated: false, required_labour_hours: null, available_labour_hours: null, over_capacity: false });
  await repo.updatePlan(trx, Number(plan.id), change, scope.operator);
  return planAnswer(trx, scope, (await repo.planById(trx, scope.warehouseId, Number(plan.id)))!);
}

/** `/deleteResPlanHeader`: removes a draft plan of the warehouse with its lines; a confirmed one stays. */
export async function deletePlanOf(trx: Transaction<DB>, scope: ResPlanScope, id: number): Promise<{ deleted: number; planNo: string }> {
  const plan = await planOrRefuse(trx, scope, id, true);
  assertDraft(plan);
  await repo.deletePlan(trx, Number(plan.id));
  return { deleted: Number(plan.id), planNo: plan.plan_no };
}

/**
 * The line of one activity: its open work over its rate gives the labour hours (and, when the rate
 * names equipment, over its units per equipment hour the equipment hours); the shift's headcount
 * and equipment for the activity times the hours per head give what is available. Over capacity
 * when either need is above what is available.
 */
export function lineOf(
  activity: ResPlanActivity,
  lineNo: number,
  openQty: number,
  rate: Pick<RateRow, 'units_per_labour_hour' | 'equipment_kind' | 'units_per_equipment_hour'> | undefined,
  resource: Pick<ShiftResourceRow, 'headcount' | 'hours_per_head' | 'equipment_count'> | undefined,
  shiftHours: Decimal,
): LineValues {
  const open = new Decimal(openQty);
  const labour = rate ? open.dividedBy(rate.units_per_labour_hour) : new Decimal(0);
  const needsEquipment = rate?.equipment_kind != null && rate.units_per_equipment_hour !== null;
  const equipment = needsEquipment ? open.dividedBy(rate.units_per_equipment_hour!) : new Decimal(0);
  const headcount = resource?.headcount ?? 0;
  const perHead = new Decimal(resource?.hours_per_head ?? shiftHours);
  const equipmentCount = resource?.equipment_count ?? 0;
  const labourHours = new Decimal(hours(labour));
  const equipmentHours = new Decimal(hours(equipment));
  const availableLabour = new Decimal(hours(perHead.times(headcount)));
  const availableEquipment = new Decimal(hours(perHead.times(equipmentCount)));
  return {
    line_no: lineNo,
    activity,
    open_qty: open.toString(),
    units_per_labour_hour: rate ? decimalText(rate.units_per_labour_hour) : null,
    labour_hours: labourHours.toFixed(HOURS_DP),
    equipment_kind: needsEquipment ? rate.equipment_kind : null,
    units_per_equipment_hour: needsEquipment ? decimalText(rate.units_per_equipment_hour!) : null,
    equipment_hours: equipmentHours.toFixed(HOURS_DP),
    headcount,
    hours_per_head: decimalText(perHead),
    equipment_count: equipmentCount,
    available_labour_hours: availableLabour.toFixed(HOURS_DP),
    available_equipment_hours: availableEquipment.toFixed(HOURS_DP),
    labour_gap: availableLabour.minus(labourHours).toFixed(HOURS_DP),
    equipment_gap: availableEquipment.minus(equipmentHours).toFixed(HOURS_DP),
    over_capacity: labourHours.greaterThan(availableLabour) || (needsEquipment && equipmentHours.greaterThan(availableEquipment)),
  };
}

/**
 * `/calculateResPlan`: counts the warehouse's open work now and writes the draft's lines, one per
 * activity, and its totals. Refused: a confirmed plan, a shift no longer usable on the plan's date,
 * and open work of an activity the warehouse has no rate of (RESPLAN_RATE_MISSING, naming them).
 */
export async function calculatePlan(trx: Transaction<DB>, scope: ResPlanScope, id: number): Promise<ResPlanWithLines> {
  const plan = await planOrRefuse(trx, scope, id, true);
  assertDraft(plan);
  const shift = await usableShift(trx, scope, Number(plan.shift_id), plan.plan_date, 'share');
  const resources = await repo.resourcesOfShifts(trx, [Number(shift.id)]);
  const rates = await repo.listRates(trx, scope.warehouseId);
  const work = await openWorkOfWarehouse(trx, scope.warehouseId);
  const missing = RESPLAN_ACTIVITIES.filter((activity) => work[activity] > 0 && !rates.some((r) => r.activity === activity));
  if (missing.length) throw new AppError('RESPLAN_RATE_MISSING', { activities: missing.join(', ') });
  const length = shiftLength(shift.start_time, shift.end_time);
  const lines = RESPLAN_ACTIVITIES.map((activity, i) =>
    lineOf(
      activity,
      i + 1,
      work[activity],
      rates.find((r) => r.activity === activity),
      resources.find((r) => r.activity === activity),
      length,
    ),
  );
  await repo.replaceLines(trx, Number(plan.id), lines, scope.operator);
  const sum = (pick: (line: LineValues) => Decimal.Value) => lines.reduce((total, line) => total.plus(pick(line)), new Decimal(0));
  await repo.updatePlan(
    trx,
    Number(plan.id),
    {
      required_labour_hours: hours(sum((l) => l.labour_hours)),
      available_labour_hours: hours(sum((l) => l.available_labour_hours)),
      over_capacity: lines.some((l) => l.over_capacity),
      calculated: true,
    },
    scope.operator,
  );
  return planAnswer(trx, scope, (await repo.planById(trx, scope.warehouseId, Number(plan.id)))!);
}

/** `/confirmResPlan`: freezes a calculated draft; it is no longer calculated, changed or deleted. */
export async function confirmPlan(trx: Transaction<DB>, scope: ResPlanScope, id: number): Promise<ResPlanWithLines> {
  const plan = await planOrRefuse(trx, scope, id, true);
  assertDraft(plan);
  if (plan.calculated_at === null) throw new AppError('RESPLAN_NOT_CALCULATED', { planNo: plan.plan_no });
  await repo.updatePlan(trx, Number(plan.id), { status: 'confirmed', confirmed: true }, scope.operator);
  return planAnswer(trx, scope, (await repo.planById(trx, scope.warehouseId, Number(plan.id)))!);
}

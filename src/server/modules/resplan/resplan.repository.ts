import { sql, type Insertable, type Selectable, type Transaction } from 'kysely';
import type { ResPlanActivity, ResPlanEquipmentKind, ResPlanStatus } from '../../../common/resplan-api.js';
import { updateRowById, updateRowByIdReturning } from '../../db/row-writes.js';
import type { DB, Db } from '../../db/schema.js';
import type { ResPlanHeaderTable, ResPlanLineTable, ResPlanRateTable, ResPlanShiftResourceTable, ResPlanShiftTable } from './resplan.tables.js';
import './resplan.tables.js';

/**
 * The resource planning area's SQL for its own tables: shifts with their resources, rates, plans and
 * their lines, each kept to one warehouse. The open work it plans for is read in
 * `resplan-work.repository.ts` (the read model `resplan.openWork`).
 */

export type ShiftRow = Selectable<ResPlanShiftTable>;
export type ShiftResourceRow = Selectable<ResPlanShiftResourceTable>;
export type RateRow = Selectable<ResPlanRateTable>;
export type PlanRow = Selectable<ResPlanHeaderTable>;
export type LineRow = Selectable<ResPlanLineTable>;
export type PlanListRow = PlanRow & { shift_code: string; shift_name: string };

// ---------------------------------------------------------------- shifts

export async function listShifts(db: Db, warehouseId: number): Promise<ShiftRow[]> {
  return db.selectFrom('resplan_shift').selectAll().where('warehouse_id', '=', warehouseId).orderBy('start_time').orderBy('code').execute();
}

/** The shift of the warehouse with this id, locked `FOR SHARE` when asked (a plan being calculated keeps it from changing meanwhile). */
export async function shiftById(db: Db, warehouseId: number, id: number, lock: 'update' | 'share' | false = false): Promise<ShiftRow | undefined> {
  let query = db.selectFrom('resplan_shift').selectAll().where('warehouse_id', '=', warehouseId).where('id', '=', id);
  if (lock === 'update') query = query.forUpdate();
  if (lock === 'share') query = query.forShare();
  return query.executeTakeFirst();
}

export async function resourcesOfShifts(db: Db, shiftIds: readonly number[]): Promise<ShiftResourceRow[]> {
  if (shiftIds.length === 0) return [];
  return db.selectFrom('resplan_shift_resource').selectAll().where('shift_id', 'in', [...shiftIds]).orderBy('id').execute();
}

export interface ShiftValues {
  code: string;
  name: string;
  start_time: string;
  end_time: string;
  days_of_week: string;
  active: boolean;
}

export async function insertShift(trx: Transaction<DB>, warehouseId: number, values: ShiftValues, by: string): Promise<ShiftRow> {
  return trx
    .insertInto('resplan_shift')
    .values({ warehouse_id: warehouseId, ...values, created_by: by, updated_by: by })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateShift(trx: Transaction<DB>, id: number, values: ShiftValues, by: string): Promise<void> {
  await updateRowById(trx, 'resplan_shift', id, values, by);
}

export interface ResourceValues {
  activity: ResPlanActivity;
  headcount: number;
  hours_per_head: string;
  equipment_count: number;
}

/** The shift's resources become exactly these. */
export async function replaceShiftResources(trx: Transaction<DB>, shiftId: number, rows: readonly ResourceValues[], by: string): Promise<void> {
  await trx.deleteFrom('resplan_shift_resource').where('shift_id', '=', shiftId).execute();
  if (rows.length === 0) return;
  const values: Array<Insertable<ResPlanShiftResourceTable>> = rows.map((r) => ({ shift_id: shiftId, ...r, created_by: by, updated_by: by }));
  await trx.insertInto('resplan_shift_resource').values(values).execute();
}

export async function deleteShift(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.deleteFrom('resplan_shift').where('id', '=', id).execute();
}

/** How many plans name the shift. */
export async function plansOfShift(db: Db, shiftId: number): Promise<number> {
  const row = await db
    .selectFrom('resplan_header')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('shift_id', '=', shiftId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---------------------------------------------------------------- rates

export async function listRates(db: Db, warehouseId: number): Promise<RateRow[]> {
  return db.selectFrom('resplan_rate').selectAll().where('warehouse_id', '=', warehouseId).orderBy('id').execute();
}

export async function rateById(db: Db, warehouseId: number, id: number, lock = false): Promise<RateRow | undefined> {
  let query = db.selectFrom('resplan_rate').selectAll().where('warehouse_id', '=', warehouseId).where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export interface RateValues {
  activity: ResPlanActivity;
  units_per_labour_hour: string;
  equipment_kind: ResPlanEquipmentKind | null;
  units_per_equipment_hour: string | null;
}

/** The warehouse's rate of the activity becomes these values (one rate per activity). */
export async function upsertRate(trx: Transaction<DB>, warehouseId: number, values: RateValues, by: string): Promise<RateRow> {
  const { activity, ...rest } = values;
  return trx
    .insertInto('resplan_rate')
    .values({ warehouse_id: warehouseId, activity, ...rest, created_by: by, updated_by: by })
    .onConflict((oc) => oc.columns(['warehouse_id', 'activity']).doUpdateSet({ ...rest, updated_at: sql`now()`, updated_by: by }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes the rate with this id (its activity too); the unique key refuses a second rate of one activity. */
export async function updateRate(trx: Transaction<DB>, id: number, values: RateValues, by: string): Promise<RateRow> {
  return updateRowByIdReturning(trx, 'resplan_rate', id, values, by);
}

export async function deleteRate(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.deleteFrom('resplan_rate').where('id', '=', id).execute();
}

// ---------------------------------------------------------------- plans

export interface PlanFilter {
  status?: ResPlanStatus;
  planNo?: string;
  dateFrom?: string;
  dateTo?: string;
  shiftId?: number;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One page of the warehouse's plans matching the filter, newest date first, and how many match in all. */
export async function listPlans(db: Db, warehouseId: number, filter: PlanFilter, page: { offset: number; limit: number }): Promise<{ rows: PlanListRow[]; total: number }> {
  let query = db
    .selectFrom('resplan_header as p')
    .innerJoin('resplan_shift as s', 's.id', 'p.shift_id')
    .where('p.warehouse_id', '=', warehouseId);
  if (filter.status) query = query.where('p.status', '=', filter.status);
  if (filter.planNo) query = query.where('p.plan_no', 'ilike', `%${escapeLike(filter.planNo)}%`);
  if (filter.dateFrom) query = query.where('p.plan_date', '>=', filter.dateFrom);
  if (filter.dateTo) query = query.where('p.plan_date', '<=', filter.dateTo);
  if (filter.shiftId) query = query.where('p.shift_id', '=', filter.shiftId);
  const counted = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll('p')
    .select(['s.code as shift_code', 's.name as shift_name'])
    .orderBy('p.plan_date', 'desc')
    .orderBy('p.id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return { rows, total: Number(counted.n) };
}

/** The plan of the warehouse with this id, locked when asked (calculate, confirm, change and delete queue on it). */
export async function planById(db: Db, warehouseId: number, id: number, lock = false): Promise<PlanRow | undefined> {
  let query = db.selectFrom('resplan_header').selectAll().where('warehouse_id', '=', warehouseId).where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function insertPlan(trx: Transaction<DB>, warehouseId: number, values: { plan_no: string; plan_date: string; shift_id: number; remark: string | null }, by: string): Promise<PlanRow> {
  return trx
    .insertInto('resplan_header')
    .values({ warehouse_id: warehouseId, ...values, created_by: by, updated_by: by })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface PlanChange {
  plan_date?: string;
  shift_id?: number;
  remark?: string | null;
  status?: ResPlanStatus;
  required_labour_hours?: string | null;
  available_labour_hours?: string | null;
  over_capacity?: boolean;
  /** Stamps the calculation (true) or clears it (false: the lines are gone). */
  calculated?: boolean;
  confirmed?: boolean;
}

export async function updatePlan(trx: Transaction<DB>, id: number, change: PlanChange, by: string): Promise<void> {
  const { calculated, confirmed, ...values } = change;
  const stamps = {
    ...(calculated === true ? { calculated_at: sql<Date>`now()`, calculated_by: by } : {}),
    ...(calculated === false ? { calculated_at: null, calculated_by: null } : {}),
    ...(confirmed ? { confirmed_at: sql<Date>`now()`, confirmed_by: by } : {}),
  };
  await trx
    .updateTable('resplan_header')
    .set({ ...values, ...stamps, updated_at: sql`now()`, updated_by: by })
    .where('id', '=', id)
    .execute();
}

export async function deletePlan(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.deleteFrom('resplan_header').where('id', '=', id).execute();
}

export async function linesOfPlan(db: Db, planId: number): Promise<LineRow[]> {
  return db.selectFrom('resplan_line').selectAll().where('plan_id', '=', planId).orderBy('line_no').execute();
}

export type LineValues = Omit<Insertable<ResPlanLineTable>, 'id' | 'plan_id' | 'created_at' | 'created_by' | 'updated_at' | 'updated_by'>;

/** The plan's lines become exactly these. */
export async function replaceLines(trx: Transaction<DB>, planId: number, lines: readonly LineValues[], by: string): Promise<void> {
  await trx.deleteFrom('resplan_line').where('plan_id', '=', planId).execute();
  if (lines.length === 0) return;
  await trx
    .insertInto('resplan_line')
    .values(lines.map((line) => ({ ...line, plan_id: planId, created_by: by, updated_by: by })))
    .execute();
}

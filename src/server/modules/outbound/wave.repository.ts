import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { PickTaskView, WaveCandidate, WaveFilterOptions, WaveSummary } from '../../../common/outbound-api.js';
import { joinSkuLotLocation, skuLotLocationJoins } from '../../db/item-joins.js';
import type { DB } from '../../db/schema.js';
import { whereInScope } from '../../db/scoped-rows.js';
import type { PickTaskTable, WaveTable } from './wave.tables.js';
import './wave.tables.js';
import './outbound.tables.js';

/** The SQL of waves and pick tasks. */

export type WaveRow = Selectable<WaveTable>;
export type PickTaskRow = Selectable<PickTaskTable>;
export type { PickTaskView };
type Db = Kysely<DB> | Transaction<DB>;

/** At most this many orders are chosen for a wave at once (a selection is limited to 100 rows). */
export const SELECTION_CAP = 100;

export interface OrderFilters {
  carrierCode?: string | null;
  shipDateFrom?: string | null;
  shipDateTo?: string | null;
  ownerId?: number | null;
  zone?: string | null;
}

export type CandidateOrder = WaveCandidate;

/** Orders of the warehouse without a wave that a wave may take, by the filters; one more than the cap to tell that there are more. */
export async function findCandidateOrders(db: Db, projectId: number, warehouseId: number, f: OrderFilters): Promise<CandidateOrder[]> {
  const zone = f.zone?.trim() ? f.zone.trim() : null;
  const result = await sql<CandidateOrder>`
    select h.id, h.order_no, h.status, o.code as owner_code, coalesce(c.name, h.ship_to_name) as consignee, h.carrier_code, h.required_ship_date::text as required_ship_date,
           (select count(*) from so_line l where l.so_id = h.id)::int as line_count,
           (select coalesce(sum(l.qty), 0) from so_line l where l.so_id = h.id)::text as qty
      from so_header h
      join owner o on o.id = h.owner_id
      left join partner c on c.id = h.consignee_id
     where h.project_id = ${projectId} and h.warehouse_id = ${warehouseId}
       and h.wave_id is null and h.status in ('new', 'partial_allocated', 'allocated')
       and (${f.carrierCode ?? null}::text is null or h.carrier_code = ${f.carrierCode ?? null})
       and (${f.shipDateFrom ?? null}::date is null or h.required_ship_date >= ${f.shipDateFrom ?? null}::date)
       and (${f.shipDateTo ?? null}::date is null or h.required_ship_date <= ${f.shipDateTo ?? null}::date)
       and (${f.ownerId ?? null}::bigint is null or h.owner_id = ${f.ownerId ?? null})
       and (${zone}::text is null or exists (
             select 1 from so_line l
               join inventory_balance b on b.sku_id = l.sku_id and b.owner_id = h.owner_id and b.warehouse_id = h.warehouse_id
               join location loc on loc.id = b.location_id
              where l.so_id = h.id and loc.zone = ${zone} and b.on_hand_qty > b.allocated_qty + b.picked_qty + b.held_qty))
     order by h.required_ship_date nulls last, h.id
     limit ${SELECTION_CAP + 1}`.execute(db);
  return result.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * What the create wave filters offer: the project's active owners, and its carriers (partners of
 * type carrier) together with any other carrier code an order without a wave carries.
 */
export async function waveFilterOptions(db: Db, projectId: number, warehouseId: number): Promise<WaveFilterOptions> {
  const owners = await db.selectFrom('owner').select(['id', 'code', 'name']).where('project_id', '=', projectId).where('active', '=', true).orderBy('code').execute();
  const partners = await db.selectFrom('partner').select(['code', 'name']).where('project_id', '=', projectId).where('partner_type', '=', 'carrier').where('active', '=', true).orderBy('code').execute();
  const onOrders = await db
    .selectFrom('so_header')
    .select('carrier_code')
    .distinct()
    .$call((q) => whereInScope(q, 'so_header', { projectId, warehouseId }))
    .where('wave_id', 'is', null)
    .where('carrier_code', 'is not', null)
    .orderBy('carrier_code')
    .limit(500)
    .execute();
  const known = new Set(partners.map((p) => p.code));
  const extra = onOrders.flatMap((o) => (o.carrier_code && !known.has(o.carrier_code) ? [{ code: o.carrier_code, name: null }] : []));
  return {
    owners: owners.map((o) => ({ id: Number(o.id), code: o.code, name: o.name })),
    carriers: [...partners.map((p) => ({ code: p.code, name: p.name })), ...extra].sort((a, b) => a.code.localeCompare(b.code)),
  };
}

export async function insertWave(trx: Transaction<DB>, values: { project_id: number; warehouse_id: number; wave_no: string; carrier_code: string | null; ship_date_from: string | null; ship_date_to: string | null; owner_id: number | null; zone: string | null; by: string }): Promise<WaveRow> {
  const { by, ...rest } = values;
  return trx.insertInto('wave').values({ ...rest, created_by: by, updated_by: by }).returningAll().executeTakeFirstOrThrow();
}

/**
 * Serialises the numbering of new waves of a project until the transaction ends: wave numbers are
 * unique in the project while the WAVE rule may count per warehouse.
 */
export async function lockWaveNumbering(trx: Transaction<DB>, projectId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('wave.number'), ${projectId}::int)`.execute(trx);
}

export async function waveNoTaken(trx: Transaction<DB>, projectId: number, waveNo: string): Promise<boolean> {
  return (await trx.selectFrom('wave').select('id').where('project_id', '=', projectId).where('wave_no', '=', waveNo).executeTakeFirst()) !== undefined;
}

/** Whether the owner is of the project (a wave's owner filter). */
export async function ownerOfProject(db: Db, projectId: number, ownerId: number): Promise<boolean> {
  return (await db.selectFrom('owner').select('id').where('project_id', '=', projectId).where('id', '=', ownerId).executeTakeFirst()) !== undefined;
}

export async function lockWaves(trx: Transaction<DB>, projectId: number, ids: readonly number[]): Promise<WaveRow[]> {
  if (ids.length === 0) return [];
  return trx.selectFrom('wave').selectAll().where('project_id', '=', projectId).where('id', 'in', [...ids]).orderBy('id').forUpdate().execute();
}

export async function ordersOfWave(db: Db, projectId: number, waveNo: string): Promise<Array<{ id: number; order_no: string; status: string }>> {
  const rows = await db.selectFrom('so_header').select(['id', 'order_no', 'status']).where('project_id', '=', projectId).where('wave_id', '=', waveNo).orderBy('id').execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function setOrdersWave(trx: Transaction<DB>, ids: readonly number[], waveNo: string | null, by: string): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('so_header').set({ wave_id: waveNo, updated_by: by, updated_at: sql`now()` }).where('id', 'in', [...ids]).execute();
}

export async function setWaveStatus(trx: Transaction<DB>, id: number, status: WaveRow['status'], by: string, released = false): Promise<void> {
  await trx
    .updateTable('wave')
    .set({ status, updated_by: by, updated_at: sql`now()`, ...(released ? { released_at: sql`coalesce(released_at, now())` } : {}) })
    .where('id', '=', id)
    .execute();
}

export async function setWavesReference(trx: Transaction<DB>, ids: readonly number[], reference: string | null, by: string): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('wave').set({ reference, updated_by: by, updated_at: sql`now()` }).where('id', 'in', [...ids]).execute();
}

/** Recomputes the wave's progress columns from its orders' lines. */
export async function refreshWaveProgress(trx: Transaction<DB>, wave: Pick<WaveRow, 'id' | 'project_id' | 'wave_no'>): Promise<void> {
  await sql`
    update wave w set
      order_count = p.orders, line_count = p.lines, qty = p.qty, allocated_qty = p.allocated, picked_qty = p.picked
      from (select count(distinct h.id)::int as orders, count(l.id)::int as lines,
                   coalesce(sum(l.qty), 0) as qty, coalesce(sum(l.allocated_qty), 0) as allocated, coalesce(sum(l.picked_qty), 0) as picked
              from so_header h left join so_line l on l.so_id = h.id
             where h.project_id = ${wave.project_id} and h.wave_id = ${wave.wave_no}) p
     where w.id = ${wave.id}`.execute(trx);
}

/** A wave with its open tasks: every column of the wave, so more than the screens' `WaveSummary`. */
export interface WaveListRow extends WaveRow, WaveSummary {
  open_tasks: number;
}

export async function listWaves(db: Db, projectId: number, warehouseId: number, status: string | null): Promise<WaveListRow[]> {
  let query = db
    .selectFrom('wave as w')
    .selectAll('w')
    .select((eb) => eb.selectFrom('pick_task as t').select(sql<number>`count(*)::int`.as('n')).whereRef('t.wave_id', '=', 'w.id').where('t.status', '=', 'open').as('open_tasks'))
    .where('w.project_id', '=', projectId)
    .where('w.warehouse_id', '=', warehouseId);
  if (status) query = query.where('w.status', '=', status as WaveRow['status']);
  const rows = await query.orderBy('w.id', 'desc').limit(200).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), open_tasks: Number(r.open_tasks ?? 0) }));
}

// ------------------------------------------------------------------ pick tasks

/** The allocation rows of the orders with what a task needs, and how much open or picked tasks already cover. */
export type UncoveredAllocation = Pick<Selectable<PickTaskTable>, 'so_id' | 'so_line_id' | 'balance_id' | 'owner_id' | 'sku_id' | 'lot_id' | 'location_id' | 'lpn' | 'zone' | 'pick_seq'> & {
  uncovered: string;
};

export async function uncoveredAllocations(trx: Transaction<DB>, soIds: readonly number[]): Promise<UncoveredAllocation[]> {
  if (soIds.length === 0) return [];
  const result = await sql<UncoveredAllocation>`
    select a.so_id, a.so_line_id, a.balance_id, b.owner_id, b.sku_id, b.lot_id, b.location_id, b.lpn, loc.zone, loc.pick_seq,
           (a.qty - coalesce((select sum(t.qty - t.picked_qty) from pick_task t
                               where t.so_line_id = a.so_line_id and t.balance_id = a.balance_id and t.status = 'open'), 0))::text as uncovered
      from so_allocation a
      join inventory_balance b on b.id = a.balance_id
      join location loc on loc.id = b.location_id
     where a.so_id in (${sql.join(soIds.map((id) => sql`${id}::bigint`))})
     order by a.id`.execute(trx);
  return result.rows.map((r) => ({
    ...r,
    so_id: Number(r.so_id),
    so_line_id: Number(r.so_line_id),
    balance_id: Number(r.balance_id),
    owner_id: Number(r.owner_id),
    sku_id: Number(r.sku_id),
    lot_id: Number(r.lot_id),
    location_id: Number(r.location_id),
    pick_seq: r.pick_seq === null ? null : Number(r.pick_seq),
  }));
}

export async function insertPickTasks(trx: Transaction<DB>, rows: ReadonlyArray<Insertable<PickTaskTable>>): Promise<number> {
  if (rows.length === 0) return 0;
  await trx.insertInto('pick_task').values([...rows]).execute();
  return rows.length;
}

/**
 * Ends the open pick tasks of these order lines once their allocation has been given back: a task
 * with nothing picked is cancelled, a partly picked one is shorted (what it picked stays picked, the
 * rest is no longer held for it). Answers the waves of the tasks it ended.
 */
export async function endOpenTasksOfLines(trx: Transaction<DB>, lineIds: readonly number[], by: string): Promise<number[]> {
  if (lineIds.length === 0) return [];
  const rows = await trx
    .updateTable('pick_task')
    .set({ status: sql<PickTaskRow['status']>`case when picked_qty > 0 then 'short' else 'cancelled' end`, updated_by: by, updated_at: sql`now()` })
    .where('so_line_id', 'in', [...lineIds])
    .where('status', '=', 'open')
    .returning('wave_id')
    .execute();
  return [...new Set(rows.flatMap((r) => (r.wave_id === null ? [] : [Number(r.wave_id)])))].sort((a, b) => a - b);
}

/** Locks the line's allocation record of one balance row and answers what it holds (undefined: none). */
export async function lockAllocationRecord(trx: Transaction<DB>, lineId: number, balanceId: number): Promise<string | undefined> {
  const row = await trx.selectFrom('so_allocation').select('qty').where('so_line_id', '=', lineId).where('balance_id', '=', balanceId).forUpdate().executeTakeFirst();
  return row?.qty;
}

export async function cancelOpenTasks(trx: Transaction<DB>, soIds: readonly number[], by: string): Promise<void> {
  if (soIds.length === 0) return;
  await trx.updateTable('pick_task').set({ status: 'cancelled', updated_by: by, updated_at: sql`now()` }).where('so_id', 'in', [...soIds]).where('status', '=', 'open').execute();
}

/** Tasks of a wave or an order (or every open task of the warehouse), by zone and location sequence. */
export async function listPickTasks(db: Db, projectId: number, warehouseId: number, by: { waveId?: number | null; soId?: number | null; openOnly?: boolean }): Promise<PickTaskView[]> {
  const result = await sql<PickTaskView>`
    select t.id, t.wave_id, w.wave_no, t.so_id, h.order_no, sl.line_no, t.sku_id, s.code as sku_code, s.description as sku_description,
           l.lot_no, l.expiry_date::text as expiry_date, t.location_id, loc.code as location_code, t.zone, t.pick_seq, t.lpn,
           t.qty::text as qty, t.picked_qty::text as picked_qty, t.status, t.to_lpn, t.reason,
           t.held_qty::text as held_qty, t.count_ticket_no,
           (select coalesce(sum(b.on_hand_qty - b.allocated_qty - b.picked_qty - b.held_qty), 0)
              from inventory_balance b join location bl on bl.id = b.location_id
             where b.warehouse_id = t.warehouse_id and b.owner_id = t.owner_id and b.sku_id = t.sku_id and b.id <> t.balance_id
               and bl.status = 'active' and bl.location_type in ('storage', 'pick')
               and b.on_hand_qty - b.allocated_qty - b.picked_qty - b.held_qty > 0)::text as other_available
      from pick_task t
      join so_header h on h.id = t.so_id
      join so_line sl on sl.id = t.so_line_id
      ${skuLotLocationJoins('t')}
      left join wave w on w.id = t.wave_id
     where t.project_id = ${projectId} and t.warehouse_id = ${warehouseId}
       and (${by.waveId ?? null}::bigint is null or t.wave_id = ${by.waveId ?? null})
       and (${by.soId ?? null}::bigint is null or t.so_id = ${by.soId ?? null})
       and (${by.openOnly ? 'open' : null}::text is null or t.status = 'open')
       and t.status <> 'cancelled'
     order by coalesce(t.zone, ''), t.pick_seq nulls last, loc.code, t.id
     limit 2000`.execute(db);
  return result.rows.map((r) => ({ ...r, id: Number(r.id), wave_id: r.wave_id === null ? null : Number(r.wave_id), so_id: Number(r.so_id), sku_id: Number(r.sku_id), location_id: Number(r.location_id), pick_seq: r.pick_seq === null ? null : Number(r.pick_seq) }));
}

/** The ids of the order's open pick tasks. */
export async function openTaskIds(db: Db, soId: number): Promise<number[]> {
  const rows = await db.selectFrom('pick_task').select('id').where('so_id', '=', soId).where('status', '=', 'open').orderBy('id').execute();
  return rows.map((r) => Number(r.id));
}

export async function lockTask(trx: Transaction<DB>, id: number): Promise<PickTaskRow | undefined> {
  return trx.selectFrom('pick_task').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateTask(
  trx: Transaction<DB>,
  id: number,
  values: Partial<{
    qty: string;
    picked_qty: string;
    status: PickTaskRow['status'];
    to_location_id: number | null;
    to_lpn: string | null;
    reason: string | null;
    picked_at: Date | null;
    held_qty: string;
    count_ticket_no: string | null;
  }>,
  by: string,
): Promise<void> {
  await trx.updateTable('pick_task').set({ ...values, updated_by: by, updated_at: sql`now()` }).where('id', '=', id).execute();
}

export async function tasksOfWave(trx: Transaction<DB>, waveId: number): Promise<Array<{ status: string; picked_qty: string }>> {
  return trx.selectFrom('pick_task').select(['status', 'picked_qty']).where('wave_id', '=', waveId).where('status', '<>', 'cancelled').execute();
}

/** Adds `delta` to the line's allocation of one balance row (removing the row when nothing is left). */
export async function changeAllocation(trx: Transaction<DB>, row: { project_id: number; warehouse_id: number; so_id: number; so_line_id: number; balance_id: number }, delta: string): Promise<void> {
  if (delta.startsWith('-')) {
    const taken = delta.slice(1);
    await trx.deleteFrom('so_allocation').where('so_line_id', '=', row.so_line_id).where('balance_id', '=', row.balance_id).where('qty', '<=', taken).execute();
    await trx
      .updateTable('so_allocation')
      .set({ qty: sql`qty - ${taken}::numeric` })
      .where('so_line_id', '=', row.so_line_id)
      .where('balance_id', '=', row.balance_id)
      .execute();
    return;
  }
  await sql`
    insert into so_allocation (project_id, warehouse_id, so_id, so_line_id, balance_id, qty)
    values (${row.project_id}, ${row.warehouse_id}, ${row.so_id}, ${row.so_line_id}, ${row.balance_id}, ${delta}::numeric)
    on conflict (so_line_id, balance_id) do update set qty = so_allocation.qty + excluded.qty`.execute(trx);
}

export async function changeLineQuantities(trx: Transaction<DB>, lineId: number, allocatedDelta: string, pickedDelta: string, by: string): Promise<void> {
  await trx
    .updateTable('so_line')
    .set({ allocated_qty: sql`allocated_qty + ${allocatedDelta}::numeric`, picked_qty: sql`picked_qty + ${pickedDelta}::numeric`, updated_by: by, updated_at: sql`now()` })
    .where('id', '=', lineId)
    .execute();
}

export async function findLocationByCode(db: Db, warehouseId: number, code: string): Promise<{ id: number; code: string; location_type: string } | undefined> {
  const row = await db.selectFrom('location').select(['id', 'code', 'location_type']).where('warehouse_id', '=', warehouseId).where('code', '=', code).where('status', '=', 'active').executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/** The warehouse's pick destination: its first active staging location. */
export async function firstStageLocation(db: Db, warehouseId: number): Promise<{ id: number; code: string } | undefined> {
  const row = await db.selectFrom('location').select(['id', 'code']).where('warehouse_id', '=', warehouseId).where('location_type', '=', 'stage').where('status', '=', 'active').orderBy('code').executeTakeFirst();
  return row ? { id: Number(row.id), code: row.code } : undefined;
}

export async function locationCode(db: Db, id: number): Promise<string> {
  const row = await db.selectFrom('location').select('code').where('id', '=', id).executeTakeFirstOrThrow();
  return row.code;
}

/** What a picker and a supervisor read of a task: its SKU, lot, location and wave, by code. */
export async function taskLabels(db: Db, taskId: number) {
  return db
    .selectFrom('pick_task as t')
    .$call((q) => joinSkuLotLocation(q, 't'))
    .leftJoin('wave as w', 'w.id', 't.wave_id')
    .select(['s.code as sku_code', 's.description as sku_description', 'l.lot_no', sql<string | null>`l.expiry_date::text`.as('expiry_date'), 'loc.code as location_code', 'w.wave_no'])
    .where('t.id', '=', taskId)
    .executeTakeFirstOrThrow();
}

/** Whether the scanned code names this SKU: its code or one of its UPC/EAN/GTIN barcodes. */
export async function skuMatches(db: Db, skuId: number, codes: readonly string[]): Promise<boolean> {
  if (codes.length === 0) return false;
  const row = await db
    .selectFrom('sku')
    .select('id')
    .where('id', '=', skuId)
    .where((eb) => eb.or([eb('code', 'in', [...codes]), eb.exists(eb.selectFrom('sku_upc').select('sku_upc.id').whereRef('sku_upc.sku_id', '=', 'sku.id').where('sku_upc.upc', 'in', [...codes]))]))
    .executeTakeFirst();
  return row !== undefined;
}

export interface PickListRow {
  order_no: string;
  line_no: number;
  wave_no: string | null;
  zone: string | null;
  pick_seq: number | null;
  location_code: string;
  lpn: string;
  sku_code: string;
  sku_description: string;
  lot_no: string;
  expiry_date: string | null;
  qty: string;
  uom: string;
}

/** What is allocated to the orders, to pick: by zone, location sequence and location. */
export async function pickListRows(db: Db, soIds: readonly number[]): Promise<PickListRow[]> {
  if (soIds.length === 0) return [];
  const result = await sql<PickListRow>`
    select h.order_no, sl.line_no, h.wave_id as wave_no, loc.zone, loc.pick_seq, loc.code as location_code, b.lpn,
           s.code as sku_code, s.description as sku_description, l.lot_no, l.expiry_date::text as expiry_date, a.qty::text as qty, sl.uom
      from so_allocation a
      join so_header h on h.id = a.so_id
      join so_line sl on sl.id = a.so_line_id
      join inventory_balance b on b.id = a.balance_id
      ${skuLotLocationJoins('b')}
     where a.so_id in (${sql.join(soIds.map((id) => sql`${id}::bigint`))})
     order by coalesce(loc.zone, ''), loc.pick_seq nulls last, loc.code, h.order_no, sl.line_no`.execute(db);
  return result.rows;
}


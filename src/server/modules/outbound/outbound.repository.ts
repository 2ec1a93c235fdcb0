import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { SoAllocationTable, SoHeaderTable, SoLineTable, SoRuleTable } from './outbound.tables.js';
import type { WantedLot } from './lot-match.js';
import './outbound.tables.js';

/** The outbound area's SQL: nothing else of the area writes queries. */

export type SoHeaderRow = Selectable<SoHeaderTable>;
export type SoLineRow = Selectable<SoLineTable>;
export type SoRuleRow = Selectable<SoRuleTable>;
export type SoAllocationRow = Selectable<SoAllocationTable>;

/** Locks the order headers (in id order) so that one order is allocated by one transaction at a time. */
export async function lockOrders(trx: Transaction<DB>, projectId: number, ids: readonly number[]): Promise<SoHeaderRow[]> {
  if (ids.length === 0) return [];
  return trx.selectFrom('so_header').selectAll().where('project_id', '=', projectId).where('id', 'in', [...ids]).orderBy('id').forUpdate().execute();
}

export async function findOrder(db: Kysely<DB> | Transaction<DB>, id: number): Promise<SoHeaderRow | undefined> {
  return db.selectFrom('so_header').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function linesOfOrders(trx: Transaction<DB>, soIds: readonly number[]): Promise<SoLineRow[]> {
  if (soIds.length === 0) return [];
  return trx.selectFrom('so_line').selectAll().where('so_id', 'in', [...soIds]).orderBy('so_id').orderBy('line_no').execute();
}

export async function findLines(trx: Transaction<DB>, projectId: number, ids: readonly number[]): Promise<SoLineRow[]> {
  if (ids.length === 0) return [];
  return trx.selectFrom('so_line').selectAll().where('project_id', '=', projectId).where('id', 'in', [...ids]).execute();
}

export async function setOrderStatus(trx: Transaction<DB>, id: number, status: string, by: string): Promise<void> {
  await trx.updateTable('so_header').set({ status, updated_by: by, updated_at: sql`now()` }).where('id', '=', id).execute();
}

export async function addLineAllocated(trx: Transaction<DB>, lineId: number, delta: string, by: string): Promise<void> {
  await trx
    .updateTable('so_line')
    .set({ allocated_qty: sql`allocated_qty + ${delta}::numeric`, updated_by: by, updated_at: sql`now()` })
    .where('id', '=', lineId)
    .execute();
}

export async function nextLineNo(trx: Transaction<DB>, soId: number): Promise<number> {
  const row = await trx.selectFrom('so_line').select(sql<number>`coalesce(max(line_no), 0) + 1`.as('next')).where('so_id', '=', soId).executeTakeFirstOrThrow();
  return Number(row.next);
}

export interface HeldAllocation extends SoAllocationRow {
  owner_id: number;
  sku_id: number;
  lot_id: number;
  location_id: number;
  lpn: string;
  line_no: number;
}

/** The balance rows the lines hold, with their keys. */
export async function allocationsOfLines(trx: Transaction<DB>, lineIds: readonly number[]): Promise<HeldAllocation[]> {
  if (lineIds.length === 0) return [];
  const rows = await trx
    .selectFrom('so_allocation as a')
    .innerJoin('inventory_balance as b', 'b.id', 'a.balance_id')
    .innerJoin('so_line as sl', 'sl.id', 'a.so_line_id')
    .selectAll('a')
    .select(['b.owner_id', 'b.sku_id', 'b.lot_id', 'b.location_id', 'b.lpn', 'sl.line_no'])
    .where('a.so_line_id', 'in', [...lineIds])
    .orderBy('a.id')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), so_id: Number(r.so_id), so_line_id: Number(r.so_line_id), balance_id: Number(r.balance_id), warehouse_id: Number(r.warehouse_id), owner_id: Number(r.owner_id), sku_id: Number(r.sku_id), lot_id: Number(r.lot_id), location_id: Number(r.location_id) }));
}

export async function deleteAllocations(trx: Transaction<DB>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await trx.deleteFrom('so_allocation').where('id', 'in', [...ids]).execute();
}

export async function setLineAllocated(trx: Transaction<DB>, lineId: number, qty: string, by: string): Promise<void> {
  await trx.updateTable('so_line').set({ allocated_qty: qty, updated_by: by, updated_at: sql`now()` }).where('id', '=', lineId).execute();
}

export async function findSkuOwner(trx: Transaction<DB>, skuId: number): Promise<{ owner_id: number; base_uom: string } | undefined> {
  const row = await trx.selectFrom('sku').select(['owner_id', 'base_uom']).where('id', '=', skuId).executeTakeFirst();
  return row ? { owner_id: Number(row.owner_id), base_uom: row.base_uom } : undefined;
}

export async function countLines(trx: Transaction<DB>, soId: number): Promise<number> {
  const row = await trx.selectFrom('so_line').select(sql<string>`count(*)`.as('n')).where('so_id', '=', soId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function recordAllocations(trx: Transaction<DB>, rows: ReadonlyArray<{ project_id: number; warehouse_id: number; so_id: number; so_line_id: number; balance_id: number; qty: string }>): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('so_allocation')
    .values([...rows])
    .onConflict((oc) => oc.columns(['so_line_id', 'balance_id']).doUpdateSet({ qty: sql`so_allocation.qty + excluded.qty` }))
    .execute();
}

/** Adds to the allocated qty of many lines in one statement. */
export async function addLinesAllocated(trx: Transaction<DB>, deltas: ReadonlyArray<{ lineId: number; delta: string }>, by: string): Promise<void> {
  if (deltas.length === 0) return;
  const list = sql.join(deltas.map((d) => sql`(${d.lineId}::bigint, ${d.delta}::numeric)`));
  await sql`
    update so_line l set allocated_qty = l.allocated_qty + v.delta, updated_by = ${by}, updated_at = now()
      from (values ${list}) as v(id, delta)
     where l.id = v.id`.execute(trx);
}

/** An order line as allocation sees it: its quantities, the owner, and the rule that applies. */
export interface AllocationLine extends WantedLot {
  id: number;
  so_id: number;
  line_no: number;
  sku_id: number;
  owner_id: number;
  qty: string;
  allocated_qty: string;
  picked_qty: string;
  uom: string;
  /** The SKU's rule, else the owner's rule for every SKU; null fields when neither exists. */
  strategy: SoRuleRow['strategy'] | null;
  min_shelf_life_days: number | null;
  pick_face_first: boolean | null;
  full_pallet_first: boolean | null;
  /** Whether the line still wants stock in this allocation. */
  wanted: boolean;
}

/**
 * Every line of the locked orders with the rule of its owner and SKU, in one statement; `wanted`
 * tells the lines that still want stock (`lineIds`, null: every line, limits which may).
 */
export async function allocationLines(trx: Transaction<DB>, soIds: readonly number[], lineIds: readonly number[] | null): Promise<AllocationLine[]> {
  if (soIds.length === 0) return [];
  const result = await sql<{ lines: AllocationLine[] | null }>`
    with lines as (
      select sl.id, sl.so_id, sl.line_no, sl.sku_id, h.owner_id, sl.qty::text as qty, sl.allocated_qty::text as allocated_qty,
             sl.picked_qty::text as picked_qty, sl.uom, sl.lot_no, sl.expiry_from::text as expiry_from, sl.expiry_to::text as expiry_to,
             sl.udf1, sl.udf2, sl.udf3,
             r.strategy, r.min_shelf_life_days, r.pick_face_first, r.full_pallet_first,
             (sl.qty - sl.allocated_qty - sl.picked_qty > 0 and (${lineIds === null}::boolean or sl.id = any(${lineIds ?? []}::bigint[]))) as wanted
        from so_line sl
        join so_header h on h.id = sl.so_id
        left join lateral (
          select sr.strategy, sr.min_shelf_life_days, sr.pick_face_first, sr.full_pallet_first
            from so_rule sr
           where sr.owner_id = h.owner_id and sr.active and (sr.sku_id = sl.sku_id or sr.sku_id is null)
           order by sr.sku_id nulls last
           limit 1) r on true
       where sl.so_id = any(${[...soIds]}::bigint[]) and h.id = any(${[...soIds]}::bigint[])
    )
    select (select json_agg(x order by x.so_id, x.line_no) from lines x) as lines`.execute(trx);
  return result.rows[0]?.lines ?? [];
}

/**
 * Writes what one allocation decided, in one statement: the balance rows each line now holds
 * (added to what it held), the lines' allocated quantities, and the orders whose status changes.
 */
export async function writeAllocation(
  trx: Transaction<DB>,
  by: string,
  held: ReadonlyArray<{ project_id: number; warehouse_id: number; so_id: number; so_line_id: number; balance_id: number; qty: string }>,
  lines: ReadonlyArray<{ lineId: number; delta: string }>,
  statuses: ReadonlyArray<{ soId: number; status: string }>,
): Promise<void> {
  if (held.length === 0 && lines.length === 0 && statuses.length === 0) return;
  await sql`
    with held as (
      insert into so_allocation (project_id, warehouse_id, so_id, so_line_id, balance_id, qty)
      select * from unnest(${held.map((h) => h.project_id)}::bigint[], ${held.map((h) => h.warehouse_id)}::bigint[], ${held.map((h) => h.so_id)}::bigint[],
                           ${held.map((h) => h.so_line_id)}::bigint[], ${held.map((h) => h.balance_id)}::bigint[], ${held.map((h) => h.qty)}::numeric[])
      on conflict on constraint so_allocation_line_balance_key do update set qty = so_allocation.qty + excluded.qty
      returning 1
    ), lines as (
      update so_line sl set allocated_qty = sl.allocated_qty + v.delta, updated_by = ${by}, updated_at = now()
        from unnest(${lines.map((l) => l.lineId)}::bigint[], ${lines.map((l) => l.delta)}::numeric[]) as v(id, delta)
       where sl.id = v.id
      returning 1
    ), headers as (
      update so_header h set status = v.status, updated_by = ${by}, updated_at = now()
        from unnest(${statuses.map((s) => s.soId)}::bigint[], ${statuses.map((s) => s.status)}::text[]) as v(id, status)
       where h.id = v.id
      returning 1
    )
    select (select count(*) from held) as held, (select count(*) from lines) as lines, (select count(*) from headers) as headers`.execute(trx);
}

/** The owner's orders of the project named by id or order number, locked, oldest first. */
export async function lockOrdersNamed(trx: Transaction<DB>, input: { projectId: number; ownerId: number; orderIds: readonly number[]; orderNos: readonly string[] }) {
  if (input.orderIds.length === 0 && input.orderNos.length === 0) return [];
  return trx
    .selectFrom('so_header')
    .select(['id', 'order_no', 'status'])
    .where('project_id', '=', input.projectId)
    .where('owner_id', '=', input.ownerId)
    .where((eb) => {
      const named = [];
      if (input.orderIds.length) named.push(eb('id', 'in', [...new Set(input.orderIds)]));
      if (input.orderNos.length) named.push(eb('order_no', 'in', [...new Set(input.orderNos)]));
      return eb.or(named);
    })
    .orderBy('id')
    .forUpdate()
    .execute();
}

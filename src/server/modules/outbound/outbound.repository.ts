import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AllocationStrategy, SoAllocationTable, SoHeaderTable, SoLineTable, SoRuleTable } from './outbound.tables.js';
import './outbound.tables.js';
import '../inventory/inventory.tables.js';
import '../masterdata/masterdata.tables.js';

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

/** The rule of the SKU, else the owner's rule for every SKU. */
export async function findRule(trx: Transaction<DB>, ownerId: number, skuId: number): Promise<SoRuleRow | undefined> {
  return trx
    .selectFrom('so_rule')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('active', '=', true)
    .where((eb) => eb.or([eb('sku_id', '=', skuId), eb('sku_id', 'is', null)]))
    .orderBy(sql`sku_id is null`)
    .limit(1)
    .executeTakeFirst();
}

export interface Candidate {
  balance_id: number;
  warehouse_id: number;
  owner_id: number;
  sku_id: number;
  lot_id: number;
  location_id: number;
  lpn: string;
  available: string;
}

export interface CandidateQuery {
  projectId: number;
  warehouseId: number;
  ownerId: number;
  skuId: number;
  strategy: AllocationStrategy;
  pickFaceFirst: boolean;
  minShelfLifeDays: number;
  lotNo: string | null;
  expiryFrom: string | null;
  expiryTo: string | null;
  limit: number;
}

/**
 * Balance rows a line may take, best first by the rule: available stock (on-hand less allocated,
 * picked and held) in active storage or pick locations, of a lot that is not expired (nor within
 * the rule's minimum remaining shelf life) and matches the wanted lot attributes. Read without
 * locks: the inventory service locks and checks again when allocating.
 */
export async function findCandidates(trx: Transaction<DB>, q: CandidateQuery): Promise<Candidate[]> {
  const order = {
    fifo: sql`l.received_at asc, l.id asc`,
    fefo: sql`l.expiry_date asc nulls last, l.received_at asc`,
    lifo: sql`l.received_at desc, l.id desc`,
    location: sql`loc.pick_seq asc nulls last, loc.code asc`,
  }[q.strategy];
  const pickFace = q.pickFaceFirst ? sql`case when loc.location_type = 'pick' then 0 else 1 end,` : sql``;
  const result = await sql<Candidate>`
    select b.id as balance_id, b.warehouse_id, b.owner_id, b.sku_id, b.lot_id, b.location_id, b.lpn,
           (b.on_hand_qty - b.allocated_qty - b.picked_qty - b.held_qty)::text as available
      from inventory_balance b
      join lot l on l.id = b.lot_id
      join location loc on loc.id = b.location_id
     where b.project_id = ${q.projectId} and b.warehouse_id = ${q.warehouseId}
       and b.owner_id = ${q.ownerId} and b.sku_id = ${q.skuId}
       and b.on_hand_qty - b.allocated_qty - b.picked_qty - b.held_qty > 0
       and loc.status = 'active' and loc.location_type in ('storage', 'pick')
       and (l.expiry_date is null or l.expiry_date >= current_date + ${q.minShelfLifeDays}::integer)
       ${q.lotNo ? sql`and l.lot_no = ${q.lotNo}` : sql``}
       ${q.expiryFrom ? sql`and l.expiry_date >= ${q.expiryFrom}::date` : sql``}
       ${q.expiryTo ? sql`and l.expiry_date <= ${q.expiryTo}::date` : sql``}
     order by ${pickFace} ${order}, b.id
     limit ${q.limit}`.execute(trx);
  return result.rows.map((r) => ({ ...r, balance_id: Number(r.balance_id), warehouse_id: Number(r.warehouse_id), owner_id: Number(r.owner_id), sku_id: Number(r.sku_id), lot_id: Number(r.lot_id), location_id: Number(r.location_id) }));
}

/** Available qty of balance rows now (after the caller's transaction locked them). */
export async function availableOfBalances(trx: Transaction<DB>, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await trx
    .selectFrom('inventory_balance')
    .select(['id', sql<string>`(on_hand_qty - allocated_qty - picked_qty - held_qty)::text`.as('available')])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [Number(r.id), r.available]));
}

export async function recordAllocation(trx: Transaction<DB>, row: { project_id: number; warehouse_id: number; so_id: number; so_line_id: number; balance_id: number; qty: string }): Promise<void> {
  await trx
    .insertInto('so_allocation')
    .values(row)
    .onConflict((oc) => oc.columns(['so_line_id', 'balance_id']).doUpdateSet({ qty: sql`so_allocation.qty + excluded.qty` }))
    .execute();
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

/**
 * Locks every balance row of these owner x SKU pairs in the warehouse, in the inventory service's
 * key order, before an allocation chooses among them: two allocations of the same stock then wait
 * for each other instead of deadlocking, and the candidates read afterwards are what is really left.
 */
export async function lockCandidateBalances(trx: Transaction<DB>, warehouseId: number, pairs: ReadonlyArray<{ ownerId: number; skuId: number }>): Promise<void> {
  if (pairs.length === 0) return;
  const list = sql.join(pairs.map((p) => sql`(${p.ownerId}::bigint, ${p.skuId}::bigint)`));
  await sql`
    select b.id from inventory_balance b
     where b.warehouse_id = ${warehouseId} and (b.owner_id, b.sku_id) in (${list})
     order by b.warehouse_id, b.owner_id, b.sku_id, b.lot_id, b.location_id, b.lpn
     for update of b`.execute(trx);
}

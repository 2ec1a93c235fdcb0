import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import { lockInScope, whereInScope } from '../../db/scoped-rows.js';
import type { DB } from '../../db/schema.js';
import type { PutawayTask } from '../../../common/inbound-api.js';
import type { LocationType } from '../masterdata/index.js';
import { insertRows } from './bulk-insert.js';
import type { Scope } from './inbound.common.js';
import type { PutawayTaskTable } from './inbound.tables.js';

/**
 * SQL of putaway tasks and of the location logic that suggests where received stock goes (it reads
 * the warehouse's locations and stock balances, and writes neither).
 */

export type PutawayTaskRow = Selectable<PutawayTaskTable>;

type Db = Kysely<DB>;

export async function insertPutawayTask(trx: Transaction<DB>, values: Insertable<PutawayTaskTable>): Promise<PutawayTaskRow> {
  return trx.insertInto('putaway_task').values(values).returningAll().executeTakeFirstOrThrow();
}

/** An open putaway task as receiving makes it; where it went and when are written by its confirmation. */
export type NewPutawayTask = Omit<Insertable<PutawayTaskTable>, 'id' | 'created_at' | 'updated_at' | 'to_location_id' | 'reason' | 'status' | 'confirmed_at'>;

const PUTAWAY_TASK_COLUMNS = {
  project_id: 'bigint',
  warehouse_id: 'bigint',
  receipt_line_id: 'bigint',
  asn_id: 'bigint',
  owner_id: 'bigint',
  sku_id: 'bigint',
  lot_id: 'bigint',
  from_location_id: 'bigint',
  lpn: 'text',
  qty: 'numeric',
  held_qty: 'numeric or 0',
  suggested_location_id: 'bigint',
  suggestion_rule: 'text',
  created_by: 'text',
  updated_by: 'text',
} as const;

/** Inserts open putaway tasks in one statement, answering their ids in the order given. */
export async function insertPutawayTasks(trx: Transaction<DB>, values: readonly NewPutawayTask[]): Promise<{ id: number }[]> {
  return insertRows<NewPutawayTask>(trx, 'putaway_task', PUTAWAY_TASK_COLUMNS, values);
}

export async function openPutawayTasks(db: Db, scope: Scope, limit = 200): Promise<PutawayTask[]> {
  return db
    .selectFrom('putaway_task as t')
    .innerJoin('sku as s', 's.id', 't.sku_id')
    .innerJoin('location as f', 'f.id', 't.from_location_id')
    .leftJoin('location as g', 'g.id', 't.suggested_location_id')
    .innerJoin('asn as a', 'a.id', 't.asn_id')
    .innerJoin('lot', 'lot.id', 't.lot_id')
    .select([
      't.id',
      'a.asn_no',
      's.code as sku_code',
      's.description as sku_description',
      'lot.lot_no',
      'f.code as from_location',
      'g.code as suggested_location',
      't.suggestion_rule',
      't.lpn',
      't.qty',
      't.held_qty',
      't.status',
    ])
    .$call((q) => whereInScope(q, 't', scope))
    .where('t.status', '=', 'open')
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

export async function lockPutawayTask(trx: Transaction<DB>, scope: Scope, id: number): Promise<PutawayTaskRow | undefined> {
  return lockInScope(trx, 'putaway_task', scope, id);
}

export async function updatePutawayTask(trx: Transaction<DB>, id: number, values: Updateable<PutawayTaskTable>): Promise<void> {
  await trx.updateTable('putaway_task').set(values).where('id', '=', id).execute();
}

/** Takes `qty` off the open putaway task of a receipt line (a split moved it to a new line). */
export async function shrinkOpenTask(trx: Transaction<DB>, receiptLineId: number, qty: string, by: string): Promise<void> {
  await trx
    .updateTable('putaway_task')
    .set({ qty: sql<string>`qty - ${qty}::numeric`, updated_at: new Date(), updated_by: by })
    .where('receipt_line_id', '=', receiptLineId)
    .where('status', '=', 'open')
    .execute();
}

export async function findOpenTaskByLpnOrCarton(db: Db, scope: Scope, code: string) {
  return db
    .selectFrom('putaway_task as t')
    .innerJoin('lot', 'lot.id', 't.lot_id')
    .select('t.id')
    .$call((q) => whereInScope(q, 't', scope))
    .where('t.status', '=', 'open')
    .where((eb) => eb.or([eb('t.lpn', '=', code), eb('lot.pallet_id', '=', code), eb('lot.carton_id', '=', code)]))
    .orderBy('t.id')
    .executeTakeFirst();
}

// ---------------------------------------------------------------- location logic

/** Where each SKU was last put away in the warehouse (a location of the warehouse still): SKU id to location id. */
export async function lastPutawayLocations(db: Db, scope: Scope, skuIds: readonly number[]): Promise<Map<number, number>> {
  if (skuIds.length === 0) return new Map();
  const rows = await sql<{ sku_id: number; location_id: number }>`
    select last.sku_id, last.to_location_id as location_id from (
      select distinct on (t.sku_id) t.sku_id, t.to_location_id from putaway_task t
      where t.project_id = ${scope.projectId} and t.warehouse_id = ${scope.warehouseId} and t.status = 'done'
        and t.to_location_id is not null and t.sku_id = any(${[...skuIds]}::bigint[])
      order by t.sku_id, t.confirmed_at desc
    ) last join location l on l.id = last.to_location_id and l.warehouse_id = ${scope.warehouseId}`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.sku_id), Number(r.location_id)]));
}

/** For each SKU, an active location of these types that holds it already, the fullest first: SKU id to location id. */
export async function sameSkuLocations(db: Db, scope: Scope, skuIds: readonly number[], types: readonly LocationType[]): Promise<Map<number, number>> {
  if (skuIds.length === 0) return new Map();
  const rows = await sql<{ sku_id: number; location_id: number }>`
    select distinct on (b.sku_id) b.sku_id, l.id as location_id from inventory_balance b join location l on l.id = b.location_id
    where b.project_id = ${scope.projectId} and b.warehouse_id = ${scope.warehouseId} and b.sku_id = any(${[...skuIds]}::bigint[])
      and b.on_hand_qty > 0 and l.status = 'active' and l.location_type = any(${[...types]}::text[])
    order by b.sku_id, b.on_hand_qty desc, l.id`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.sku_id), Number(r.location_id)]));
}

/** Active locations of the warehouse holding no stock and suggested by no open putaway task, in pick-path order. */
function freeLocations(db: Db, warehouseId: number) {
  return db
    .selectFrom('location as l')
    .where('l.warehouse_id', '=', warehouseId)
    .where('l.status', '=', 'active')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('inventory_balance as b').select('b.id').whereRef('b.location_id', '=', 'l.id').where('b.on_hand_qty', '>', '0'))))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('putaway_task as t').select('t.id').whereRef('t.suggested_location_id', '=', 'l.id').where('t.status', '=', 'open'))))
    .orderBy(sql`coalesce(l.pick_seq, 2147483647)`)
    .orderBy('l.code');
}

/** The first `limit` active locations of these types holding no stock and suggested by no open putaway task, in pick-path order. */
export async function nextEmptyLocations(db: Db, warehouseId: number, types: readonly LocationType[], limit: number): Promise<number[]> {
  if (limit <= 0) return [];
  const rows = await freeLocations(db, warehouseId).select('l.id').where('l.location_type', 'in', [...types]).limit(limit).execute();
  return rows.map((r) => r.id);
}

/** For each SKU with an item type (SKU group), the zones of the warehouse holding stock of the project's SKUs of that type: SKU id to zones. */
export async function itemTypeZones(db: Db, scope: Scope, skuIds: readonly number[]): Promise<Map<number, string[]>> {
  if (skuIds.length === 0) return new Map();
  const rows = await sql<{ sku_id: number; zone: string }>`
    select distinct w.id as sku_id, l.zone from sku w
      join sku o on o.project_id = w.project_id and o.sku_group = w.sku_group
      join inventory_balance b on b.sku_id = o.id and b.project_id = ${scope.projectId} and b.warehouse_id = ${scope.warehouseId} and b.on_hand_qty > 0
      join location l on l.id = b.location_id and l.zone is not null
    where w.id = any(${[...skuIds]}::bigint[]) and w.sku_group is not null
    order by w.id, l.zone`.execute(db);
  const zones = new Map<number, string[]>();
  for (const r of rows.rows) zones.set(Number(r.sku_id), [...(zones.get(Number(r.sku_id)) ?? []), r.zone]);
  return zones;
}

/** The zones of the warehouse where the project keeps stock (its part of the warehouse). */
export async function projectZones(db: Db, scope: Scope): Promise<string[]> {
  const rows = await sql<{ zone: string }>`
    select distinct l.zone from inventory_balance b join location l on l.id = b.location_id
    where b.project_id = ${scope.projectId} and b.warehouse_id = ${scope.warehouseId} and b.on_hand_qty > 0 and l.zone is not null
    order by l.zone`.execute(db);
  return rows.rows.map((r) => r.zone);
}

/** Empty active storage locations of these zones, suggested by no open task, in pick-path order, with their zone. */
export async function emptyLocationsInZones(db: Db, warehouseId: number, zones: readonly string[], limit: number): Promise<{ id: number; zone: string }[]> {
  if (zones.length === 0 || limit <= 0) return [];
  const rows = await freeLocations(db, warehouseId)
    .select(['l.id', 'l.zone'])
    .where('l.location_type', '=', 'storage')
    .where('l.zone', 'in', [...zones])
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, zone: r.zone ?? '' }));
}

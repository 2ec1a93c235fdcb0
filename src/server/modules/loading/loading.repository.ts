import { sql, type Selectable, type Transaction } from 'kysely';
import { whereInScope } from '../../db/scoped-rows.js';
import type { DB, Db } from '../../db/schema.js';
import type { Place } from '../../db/row-stamps.js';
import type { LoadCartonTable, LoadHeaderTable } from './loading.tables.js';
import './loading.tables.js';

/** The loading area's SQL: nothing else of the area writes queries. */

export type LoadRow = Selectable<LoadHeaderTable>;
export type LoadCartonRow = Selectable<LoadCartonTable>;

type Scope = Place;

/** The header fields a load is saved with (all optional texts and the two dates). */
export interface LoadFields {
  container_no?: string | null;
  seal_no?: string | null;
  container_type?: string | null;
  vessel?: string | null;
  voyage?: string | null;
  mbl?: string | null;
  hbl?: string | null;
  driver?: string | null;
  etd?: string | null;
  eta?: string | null;
  port_of_loading?: string | null;
  port_of_discharge?: string | null;
  port_of_destination?: string | null;
  load_from?: string | null;
  load_to?: string | null;
  remarks?: string | null;
}

export async function findLoad(db: Db, scope: Scope, which: { id: number } | { loadNo: string }, lock = false): Promise<LoadRow | undefined> {
  let query = db.selectFrom('load_header').selectAll().$call((q) => whereInScope(q, 'load_header', scope));
  query = 'id' in which ? query.where('id', '=', which.id) : query.where('load_no', '=', which.loadNo);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function insertLoad(trx: Transaction<DB>, scope: Scope, loadNo: string, fields: LoadFields, by: string): Promise<LoadRow> {
  return trx
    .insertInto('load_header')
    .values({ ...fields, project_id: scope.projectId, warehouse_id: scope.warehouseId, load_no: loadNo, created_by: by, updated_by: by })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateLoad(trx: Transaction<DB>, id: number, fields: LoadFields & { status?: 'open' | 'loaded' | 'shipped'; shipped?: boolean }, by: string): Promise<void> {
  const { shipped, ...values } = fields;
  await trx
    .updateTable('load_header')
    .set({ ...values, ...(shipped ? { shipped_at: sql`now()`, shipped_by: by } : {}), updated_at: sql`now()`, updated_by: by })
    .where('id', '=', id)
    .execute();
}

/** The loads of the scope, newest first, with their carton count; only those not shipped unless `all`. */
export async function listLoads(db: Db, scope: Scope, all: boolean, limit: number) {
  let query = db
    .selectFrom('load_header as h')
    .selectAll('h')
    .select(sql<string>`(select count(*) from load_carton lc where lc.load_id = h.id)`.as('carton_qty'))
    .$call((q) => whereInScope(q, 'h', scope));
  if (!all) query = query.where('h.status', '!=', 'shipped');
  return query.orderBy('h.id', 'desc').limit(limit).execute();
}

export async function cartonCountOf(db: Db, loadId: number): Promise<number> {
  const row = await db.selectFrom('load_carton').select((eb) => eb.fn.countAll<string>().as('n')).where('load_id', '=', loadId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function cartonsOfLoad(db: Db, loadId: number): Promise<LoadCartonRow[]> {
  return db.selectFrom('load_carton').selectAll().where('load_id', '=', loadId).orderBy('id').execute();
}

/** Where these cartons are loaded: carton id to its load's id and number. */
export async function loadsOfCartons(db: Db, cartonIds: readonly number[]): Promise<Map<number, { loadId: number; loadNo: string }>> {
  if (cartonIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('load_carton as lc')
    .innerJoin('load_header as h', 'h.id', 'lc.load_id')
    .select(['lc.carton_id', 'h.id', 'h.load_no'])
    .where('lc.carton_id', 'in', [...cartonIds])
    .execute();
  return new Map(rows.map((r) => [Number(r.carton_id), { loadId: Number(r.id), loadNo: r.load_no }]));
}

/** The carton ids of the order that are on a load; with `shippedOrLoad`, only those on shipped loads or on that load. */
export async function loadedCartonIdsOfOrder(db: Db, soId: number, shippedOrLoad?: number): Promise<number[]> {
  let query = db.selectFrom('load_carton as lc').innerJoin('load_header as h', 'h.id', 'lc.load_id').select('lc.carton_id').where('lc.so_id', '=', soId);
  if (shippedOrLoad !== undefined) query = query.where((eb) => eb.or([eb('h.status', '=', 'shipped'), eb('h.id', '=', shippedOrLoad)]));
  return (await query.execute()).map((r) => Number(r.carton_id));
}

export async function addLoadCartons(trx: Transaction<DB>, rows: Array<{ load_id: number; carton_id: number; so_id: number; pallet_sscc: string | null; qty: string }>, by: string): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('load_carton')
    .values(rows.map((r) => ({ ...r, created_by: by, updated_by: by })))
    .execute();
}

export async function removeOrderFromLoad(trx: Transaction<DB>, loadId: number, soId: number): Promise<number> {
  const result = await trx.deleteFrom('load_carton').where('load_id', '=', loadId).where('so_id', '=', soId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findDelivery(db: Db, soId: number) {
  return db.selectFrom('load_delivery').selectAll().where('so_id', '=', soId).executeTakeFirst();
}

export async function insertDelivery(trx: Transaction<DB>, scope: Scope, values: { so_id: number; delivered_at: string; receiver_name: string; remarks: string | null }, by: string) {
  return trx
    .insertInto('load_delivery')
    .values({ ...values, project_id: scope.projectId, warehouse_id: scope.warehouseId, created_by: by, updated_by: by })
    .returningAll()
    .executeTakeFirstOrThrow();
}

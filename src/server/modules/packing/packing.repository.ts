import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import type { CartonLineTable, CartonTable } from './packing.tables.js';
import './packing.tables.js';

/** The packing area's SQL: nothing else of the area writes queries. */

export type CartonRow = Selectable<CartonTable>;
export type CartonLineRow = Selectable<CartonLineTable>;

type Db = Kysely<DB> | Transaction<DB>;

interface Scope {
  projectId: number;
  warehouseId: number;
}

/** The active codes of a code-master type with their description in the language (English when it has none). */
export async function codesOfType(db: Db, codeType: string, language: Language): Promise<Array<{ code: string; description: string }>> {
  const rows = await db
    .selectFrom('code_master')
    .select(['code', 'desc_en', 'desc_zh', 'desc_zh_tw', 'desc_jp', 'desc_kor', 'desc_th'])
    .where('code_type', '=', codeType)
    .where('active', '=', true)
    .orderBy('sort_seq')
    .orderBy('code')
    .execute();
  return rows.map((r) => ({ code: r.code, description: r[`desc_${language}`] ?? r.desc_en ?? r.code }));
}

/** Whether the code is an active code of the type. */
export async function isActiveCode(db: Db, codeType: string, code: string): Promise<boolean> {
  const row = await db.selectFrom('code_master').select('id').where('code_type', '=', codeType).where('code', '=', code).where('active', '=', true).executeTakeFirst();
  return row !== undefined;
}

/** The codes of these SKUs by id. */
export async function skuCodes(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('sku').select(['id', 'code']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [Number(r.id), r.code]));
}

/** A carton of the scope's project and warehouse, or undefined; locked until the transaction ends with `lock`. */
export async function findCarton(db: Db, scope: Scope, id: number, lock = false): Promise<CartonRow | undefined> {
  let query = db.selectFrom('carton').selectAll().where('id', '=', id).where('project_id', '=', scope.projectId).where('warehouse_id', '=', scope.warehouseId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function cartonsOfOrder(db: Db, soId: number): Promise<CartonRow[]> {
  return db.selectFrom('carton').selectAll().where('so_id', '=', soId).orderBy('id').execute();
}

export async function insertCarton(trx: Transaction<DB>, values: { project_id: number; warehouse_id: number; so_id: number; carton_no: string; carton_type: string | null; by: string }): Promise<CartonRow> {
  const { by, ...rest } = values;
  return trx.insertInto('carton').values({ ...rest, created_by: by, updated_by: by }).returningAll().executeTakeFirstOrThrow();
}

export async function closeCarton(
  trx: Transaction<DB>,
  id: number,
  values: { carton_type: string | null; gross_weight: string; net_weight: string; weight_uom: string; length: string | null; width: string | null; height: string | null },
  by: string,
): Promise<void> {
  await trx
    .updateTable('carton')
    .set({ ...values, status: 'closed', closed_at: sql`now()`, closed_by: by, updated_at: sql`now()`, updated_by: by })
    .where('id', '=', id)
    .execute();
}

export async function linesOfCartons(db: Db, cartonIds: readonly number[]): Promise<CartonLineRow[]> {
  if (cartonIds.length === 0) return [];
  return db.selectFrom('carton_line').selectAll().where('carton_id', 'in', [...cartonIds]).orderBy('id').execute();
}

/** What is packed of each of these order lines, over all cartons. */
export async function packedOfLines(db: Db, soLineIds: readonly number[]): Promise<Map<number, string>> {
  if (soLineIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('carton_line')
    .select(['so_line_id', sql<string>`sum(qty)`.as('qty')])
    .where('so_line_id', 'in', [...soLineIds])
    .groupBy('so_line_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.so_line_id), String(r.qty)]));
}

/** What is packed of an order line from one place its picked stock stood, over all cartons. */
export async function packedFromSource(db: Db, soLineId: number, source: { lotId: number; locationId: number; lpn: string }): Promise<string> {
  const row = await db
    .selectFrom('carton_line')
    .select(sql<string>`coalesce(sum(qty), 0)`.as('qty'))
    .where('so_line_id', '=', soLineId)
    .where('lot_id', '=', source.lotId)
    .where('from_location_id', '=', source.locationId)
    .where('from_lpn', '=', source.lpn)
    .executeTakeFirstOrThrow();
  return String(row.qty);
}

/** Adds qty to the carton's line of this order line and source (made when missing). */
export async function addCartonLine(
  trx: Transaction<DB>,
  values: { carton_id: number; so_line_id: number; owner_id: number; sku_id: number; lot_id: number; from_location_id: number; from_lpn: string; qty: string },
  by: string,
): Promise<void> {
  await trx
    .insertInto('carton_line')
    .values({ ...values, created_by: by, updated_by: by })
    .onConflict((oc) =>
      oc.columns(['carton_id', 'so_line_id', 'lot_id', 'from_location_id', 'from_lpn']).doUpdateSet({ qty: sql`carton_line.qty + excluded.qty`, updated_at: sql`now()`, updated_by: by }),
    )
    .execute();
}

/** Takes qty off a carton line; the line goes when nothing is left of it. */
export async function takeFromCartonLine(trx: Transaction<DB>, id: number, left: string, by: string): Promise<void> {
  if (Number(left) === 0) await trx.deleteFrom('carton_line').where('id', '=', id).execute();
  else await trx.updateTable('carton_line').set({ qty: left, updated_at: sql`now()`, updated_by: by }).where('id', '=', id).execute();
}

export async function touchCarton(trx: Transaction<DB>, id: number, by: string): Promise<void> {
  await trx.updateTable('carton').set({ updated_at: sql`now()`, updated_by: by }).where('id', '=', id).execute();
}

/** The lots of the SKU with this lot number. */
export async function lotIdsOfNumber(db: Db, projectId: number, skuId: number, lotNo: string): Promise<number[]> {
  const rows = await db.selectFrom('lot').select('id').where('project_id', '=', projectId).where('sku_id', '=', skuId).where('lot_no', '=', lotNo).execute();
  return rows.map((r) => Number(r.id));
}

import { sql, type Selectable, type Transaction } from 'kysely';
import { DEFERRED, type Statement } from '../../db/pipeline.js';
import type { DB, Db } from '../../db/schema.js';
import type { Place } from '../../db/row-stamps.js';
import type { CartonLineTable, CartonTable, PalletTable } from './packing.tables.js';
import './packing.tables.js';
import { skuOfBarcodeRow, skusOfBarcodeSql, type SkuCodeOptions, type SkuOfBarcode, type SkuOfBarcodeRow } from '../masterdata/index.js';
import { pickedPlacesOfOrderSkuSql, pickedSourcesOfRows, type PickedPlaceRow, type PickedSource } from '../outbound/index.js';

/** The packing area's SQL: nothing else of the area writes queries. */

export type CartonRow = Selectable<CartonTable>;
export type CartonLineRow = Selectable<CartonLineTable>;
export type PalletRow = Selectable<PalletTable>;

type Scope = Place;

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

export async function insertCarton(
  trx: Transaction<DB>,
  values: { project_id: number; warehouse_id: number; so_id: number; carton_no: string; carton_type: string | null; card_id?: string | null; by: string },
): Promise<CartonRow> {
  const { by, ...rest } = values;
  return trx.insertInto('carton').values({ ...rest, created_by: by, updated_by: by }).returningAll().executeTakeFirstOrThrow();
}

export async function closeCarton(
  trx: Transaction<DB>,
  id: number,
  values: { carton_type: string | null; gross_weight: string; net_weight: string; weight_uom: string; length: string | null; width: string | null; height: string | null; sscc: string },
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

/** The cartons of the order with their lines, in one read: cartons in the order they were opened, lines in the order they were made. */
export async function cartonsWithLinesOfOrder(db: Db, soId: number): Promise<{ cartons: CartonRow[]; lines: Array<{ carton_id: number; so_line_id: number; sku_id: number; qty: string }> }> {
  const rows = await db
    .selectFrom('carton as c')
    .leftJoin('carton_line as cl', 'cl.carton_id', 'c.id')
    .selectAll('c')
    .select(['cl.id as line_id', 'cl.so_line_id as line_so_line_id', 'cl.sku_id as line_sku_id', 'cl.qty as line_qty'])
    .where('c.so_id', '=', soId)
    .orderBy('c.id')
    .orderBy('cl.id')
    .execute();
  const cartons = new Map<number, CartonRow>();
  const lines: Array<{ carton_id: number; so_line_id: number; sku_id: number; qty: string }> = [];
  for (const { line_id, line_so_line_id, line_sku_id, line_qty, ...carton } of rows) {
    if (!cartons.has(Number(carton.id))) cartons.set(Number(carton.id), carton);
    if (line_id !== null && line_so_line_id !== null && line_sku_id !== null && line_qty !== null) lines.push({ carton_id: Number(carton.id), so_line_id: Number(line_so_line_id), sku_id: Number(line_sku_id), qty: line_qty });
  }
  return { cartons: [...cartons.values()], lines };
}

/** The order a carton of the scope packs (a carton never changes order), or undefined. */
export async function orderOfCarton(db: Db, scope: Scope, id: number): Promise<number | undefined> {
  const row = await db.selectFrom('carton').select('so_id').where('id', '=', id).where('project_id', '=', scope.projectId).where('warehouse_id', '=', scope.warehouseId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.so_id);
}

/** A carton line as scan-pack works with it: where its stock came from and how much it holds. */
export interface PackedLine {
  carton_id: number;
  so_line_id: number;
  sku_id: number;
  lot_id: number;
  from_location_id: number;
  from_lpn: string;
  qty: string;
}

/** A carton as scan-pack reads it under its order's lock: what the answer shows and the scan checks. */
export type CartonView = Pick<
  CartonRow,
  'id' | 'carton_no' | 'carton_type' | 'status' | 'gross_weight' | 'net_weight' | 'weight_uom' | 'length' | 'width' | 'height' | 'sscc' | 'tracking_no' | 'card_id' | 'pallet_id'
>;

/** What a scan looks up in the same statement: the scanned code's SKU (of the order's owner) and where the order's lines of that SKU were picked to. */
export interface ScanLookup {
  projectId: number;
  soId: number;
  code: string;
  options: SkuCodeOptions;
}

/**
 * In one statement: marks the carton changed by `by` (which locks it until the transaction ends) and
 * reads every carton of its order with their lines; with `scan`, also the SKU the scanned code names
 * (the first, as `skusOfBarcode` orders them) and where the picked stock of the order's lines of
 * that SKU stands (as `pickedSourcesOfLines`). The caller holds the order's lock, so what is read is
 * as it stands (a carton's status, its lines and the order's picks change only under that lock).
 * `touched` is false when the carton is not of the order in the scope.
 */
export async function touchCartonReadingOrder(trx: Transaction<DB>, scope: Scope, id: number, soId: number, by: string, scan?: ScanLookup): Promise<TouchedCarton> {
  const statement = touchCartonReadingOrderStatement(trx, scope, id, soId, by, scan);
  return statement.answer(await trx.executeQuery(statement.query));
}

/** What `touchCartonReadingOrder` answers. */
export interface TouchedCarton {
  touched: boolean;
  cartons: CartonView[];
  lines: PackedLine[];
  sku?: SkuOfBarcode;
  places?: Map<number, PickedSource[]>;
}

/** `touchCartonReadingOrder` as a statement, for a caller that sends it right behind the order's lock (`pipelined`). */
export function touchCartonReadingOrderStatement(trx: Transaction<DB>, scope: Scope, id: number, soId: number, by: string, scan?: ScanLookup): Statement<TouchedCarton> {
  const lookup = scan
    ? sql`,
      k as (${skusOfBarcodeSql(scan.projectId, scan.code, scan.options)} limit 1),
      p as (${pickedPlacesOfOrderSkuSql(scan.soId, sql`(select k.id from k)`)})`
    : sql``;
  const found = scan
    ? sql`,
      (select row_to_json(k) from k) as sku,
      (select coalesce(json_agg(p order by p.so_line_id, p.first), '[]') from p) as places`
    : sql``;
  const query = sql<TouchedRow>`
    with t as (
      update carton set updated_at = now(), updated_by = ${by}
       where id = ${id} and so_id = ${soId} and project_id = ${scope.projectId} and warehouse_id = ${scope.warehouseId}
      returning id),
    c as (
      select id, carton_no, carton_type, status, gross_weight::text, net_weight::text, weight_uom, length::text, width::text, height::text, sscc, tracking_no, card_id, pallet_id
        from carton where so_id = ${soId})${lookup}
    select (select count(*) from t)::int as touched,
      (select coalesce(json_agg(c order by c.id), '[]') from c) as cartons,
      (select coalesce(json_agg(json_build_object('carton_id', cl.carton_id, 'so_line_id', cl.so_line_id, 'sku_id', cl.sku_id, 'lot_id', cl.lot_id,
                'from_location_id', cl.from_location_id, 'from_lpn', cl.from_lpn, 'qty', cl.qty::text) order by cl.id), '[]')
         from carton_line cl where cl.carton_id in (select c.id from c)) as lines${found}`.compile(trx);
  return {
    query,
    answer: (result) => {
      const row = result.rows[0] as TouchedRow;
      return {
        touched: Number(row.touched) > 0,
        cartons: row.cartons,
        lines: row.lines,
        ...(scan ? { sku: row.sku ? skuOfBarcodeRow(row.sku) : undefined, places: pickedSourcesOfRows(row.places ?? []) } : {}),
      };
    },
  };
}

interface TouchedRow {
  touched: number;
  cartons: CartonView[];
  lines: PackedLine[];
  sku?: SkuOfBarcodeRow | null;
  places?: PickedPlaceRow[];
}

/**
 * Adds qty to the carton's line of this order line and source (made when missing). An item with an
 * anti-counterfeit code gets a line of its own, holding the code. With `deferred` the statement is
 * sent without waiting for its answer (`DEFERRED`): the transaction's next statement or its commit
 * fails with its error.
 */
export async function addCartonLine(
  trx: Transaction<DB>,
  values: { carton_id: number; so_line_id: number; owner_id: number; sku_id: number; lot_id: number; from_location_id: number; from_lpn: string; qty: string; anti_counterfeit_code?: string | null },
  by: string,
  options: { deferred?: boolean } = {},
): Promise<void> {
  const mark = options.deferred ? DEFERRED : sql``;
  if (values.anti_counterfeit_code) {
    await trx
      .insertInto('carton_line')
      .values({ ...values, created_by: by, updated_by: by })
      .modifyEnd(mark)
      .execute();
    return;
  }
  const { anti_counterfeit_code: _none, ...merged } = values;
  await trx
    .insertInto('carton_line')
    .values({ ...merged, created_by: by, updated_by: by })
    .onConflict((oc) =>
      oc
        .columns(['carton_id', 'so_line_id', 'lot_id', 'from_location_id', 'from_lpn'])
        .where('anti_counterfeit_code', 'is', null)
        .doUpdateSet({ qty: sql`carton_line.qty + excluded.qty`, updated_at: sql`now()`, updated_by: by }),
    )
    .modifyEnd(mark)
    .execute();
}

/**
 * Serializes the transactions that use one key of the warehouse (an anti-counterfeit code, a card):
 * held until the transaction ends, so that a check that it is free and its use cannot interleave.
 */
export async function lockWarehouseKey(trx: Transaction<DB>, warehouseId: number, kind: 'anti-counterfeit' | 'card', key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`packing.${kind}:${warehouseId}:${key}`}, 0))`.execute(trx);
}

/** The carton of the warehouse an anti-counterfeit code is packed in, or undefined. */
export async function cartonOfAntiCounterfeitCode(db: Db, warehouseId: number, code: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('carton_line as cl')
    .innerJoin('carton as c', 'c.id', 'cl.carton_id')
    .select('c.carton_no')
    .where('c.warehouse_id', '=', warehouseId)
    .where('cl.anti_counterfeit_code', '=', code)
    .executeTakeFirst();
  return row?.carton_no;
}

/** The open carton of the warehouse that carries this card, or undefined. */
export async function openCartonOfCard(db: Db, warehouseId: number, cardId: string): Promise<string | undefined> {
  const row = await db.selectFrom('carton').select('carton_no').where('warehouse_id', '=', warehouseId).where('card_id', '=', cardId).where('status', '=', 'open').executeTakeFirst();
  return row?.carton_no;
}

/** A closed carton is open again: it keeps its SSCC, contents and pallet; its close time is cleared. */
export async function reopenCarton(trx: Transaction<DB>, id: number, by: string): Promise<void> {
  await trx.updateTable('carton').set({ status: 'open', closed_at: null, closed_by: null, updated_at: sql`now()`, updated_by: by }).where('id', '=', id).execute();
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

/** A carton of the scope by its carton number or its SSCC; locked until the transaction ends with `lock`. */
export async function findCartonByCode(db: Db, scope: Scope, code: string, lock = false): Promise<CartonRow | undefined> {
  let query = db
    .selectFrom('carton')
    .selectAll()
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where((eb) => eb.or([eb('carton_no', '=', code), eb('sscc', '=', code)]));
  if (lock) query = query.forUpdate();
  return query.orderBy('id').executeTakeFirst();
}

/** Takes every line out of the carton and deletes it. */
export async function deleteCarton(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.deleteFrom('carton_line').where('carton_id', '=', id).execute();
  await trx.deleteFrom('carton').where('id', '=', id).execute();
}

export async function setCartonPallet(trx: Transaction<DB>, cartonId: number, palletId: number | null, by: string): Promise<void> {
  await trx.updateTable('carton').set({ pallet_id: palletId, updated_at: sql`now()`, updated_by: by }).where('id', '=', cartonId).execute();
}

/** A pallet of the scope, or undefined; locked until the transaction ends with `lock`. */
export async function findPallet(db: Db, scope: Scope, id: number, lock = false): Promise<PalletRow | undefined> {
  let query = db.selectFrom('pallet').selectAll().where('id', '=', id).where('project_id', '=', scope.projectId).where('warehouse_id', '=', scope.warehouseId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** A pallet of the scope by its pallet number or its SSCC. */
export async function findPalletByCode(db: Db, scope: Scope, code: string): Promise<PalletRow | undefined> {
  return db
    .selectFrom('pallet')
    .selectAll()
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where((eb) => eb.or([eb('pallet_no', '=', code), eb('sscc', '=', code)]))
    .orderBy('id')
    .executeTakeFirst();
}

/** The ids of the pallets of an order, oldest first. */
export async function palletIdsOfOrder(db: Db, soId: number): Promise<number[]> {
  const rows = await db.selectFrom('pallet').select('id').where('so_id', '=', soId).orderBy('id').execute();
  return rows.map((r) => Number(r.id));
}

export async function palletNosOf(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('pallet').select(['id', 'pallet_no']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [Number(r.id), r.pallet_no]));
}

export async function insertPallet(
  trx: Transaction<DB>,
  values: { project_id: number; warehouse_id: number; pallet_no: string; sscc: string; pallet_type: string | null; location_id: number; length: string | null; width: string | null; height: string | null; gross_weight: string | null; weight_uom: string | null },
  by: string,
): Promise<PalletRow> {
  return trx.insertInto('pallet').values({ ...values, created_by: by, updated_by: by }).returningAll().executeTakeFirstOrThrow();
}

export async function updatePallet(trx: Transaction<DB>, id: number, values: { so_id?: number | null; status?: 'open' | 'closed'; gross_weight?: string | null; weight_uom?: string | null; closed_by?: string | null; closed?: boolean }, by: string): Promise<void> {
  const { closed, ...rest } = values;
  await trx
    .updateTable('pallet')
    .set({ ...rest, ...(closed === undefined ? {} : { closed_at: closed ? sql`now()` : null }), updated_at: sql`now()`, updated_by: by })
    .where('id', '=', id)
    .execute();
}

export async function cartonsOfPallet(db: Db, palletId: number): Promise<CartonRow[]> {
  return db.selectFrom('carton').selectAll().where('pallet_id', '=', palletId).orderBy('id').execute();
}


/** A location of the warehouse by its code. */
export async function locationByCode(db: Db, warehouseId: number, code: string): Promise<{ id: number; code: string } | undefined> {
  const row = await db.selectFrom('location').select(['id', 'code']).where('warehouse_id', '=', warehouseId).where('code', '=', code).executeTakeFirst();
  return row ? { id: Number(row.id), code: row.code } : undefined;
}

/** The lot number and expiry of a lot. */
export async function lotOf(db: Db, lotId: number): Promise<{ lotNo: string; expiry: string | null } | undefined> {
  const row = await db.selectFrom('lot').select(['lot_no', 'expiry_date']).where('id', '=', lotId).executeTakeFirst();
  if (!row) return undefined;
  const value = row.expiry_date as string | Date | null;
  const expiry = value === null ? null : value instanceof Date ? value.toISOString().slice(0, 10) : value.slice(0, 10);
  return { lotNo: row.lot_no, expiry };
}

/** The barcodes of a SKU, default first. */
export async function barcodesOf(db: Db, skuId: number): Promise<string[]> {
  const rows = await db.selectFrom('sku_upc').select('upc').where('sku_id', '=', skuId).orderBy('is_default', 'desc').orderBy('id').execute();
  return rows.map((r) => r.upc);
}

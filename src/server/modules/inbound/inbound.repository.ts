import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { LocationType } from '../masterdata/masterdata.tables.js';
import type { AsnCartonTable, CartonStatus, AsnLineTable, AsnTable, PoLineTable, PoStatus, PoTable, PutawayTaskTable, ReceiptLineTable } from './inbound.tables.js';

/** The inbound area's SQL, and only it. Every read is limited to the caller's project (and warehouse where the table has one). */

export type AsnRow = Selectable<AsnTable>;
export type AsnLineRow = Selectable<AsnLineTable>;
export type PoRow = Selectable<PoTable>;
export type PoLineRow = Selectable<PoLineTable>;
export type CartonRow = Selectable<AsnCartonTable>;
export type ReceiptLineRow = Selectable<ReceiptLineTable>;
export type PutawayTaskRow = Selectable<PutawayTaskTable>;

export interface Scope {
  projectId: number;
  warehouseId: number;
}

type Db = Kysely<DB>;

// ---------------------------------------------------------------- master data lookups

export async function findLocationByCode(db: Db, warehouseId: number, code: string) {
  return db
    .selectFrom('location')
    .select(['id', 'code', 'location_type', 'status'])
    .where('warehouse_id', '=', warehouseId)
    .where('code', '=', code)
    .executeTakeFirst();
}

export async function findLocationsByIds(db: Db, warehouseId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('location').select(['id', 'code', 'location_type']).where('warehouse_id', '=', warehouseId).where('id', 'in', [...ids]).execute();
}

export async function findOwnerByCode(db: Db, projectId: number, code: string) {
  return db.selectFrom('owner').select(['id', 'code']).where('project_id', '=', projectId).where('code', '=', code).executeTakeFirst();
}

export async function findOwner(db: Db, projectId: number, id: number) {
  return db.selectFrom('owner').select(['id', 'code']).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export async function findSku(db: Db, projectId: number, id: number) {
  return db.selectFrom('sku').select(['id', 'code', 'owner_id', 'base_uom', 'description']).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/** A SKU by its code or one of its barcodes (UPC, EAN, GTIN), within the owner when given. */
export async function findSkuByCodeOrBarcode(db: Db, projectId: number, code: string, ownerId?: number) {
  let query = db
    .selectFrom('sku')
    .select(['sku.id', 'sku.code', 'sku.owner_id', 'sku.base_uom', 'sku.description'])
    .where('sku.project_id', '=', projectId)
    .where((eb) => eb.or([eb('sku.code', '=', code), eb.exists(eb.selectFrom('sku_upc as u').select('u.id').whereRef('u.sku_id', '=', 'sku.id').where('u.upc', '=', code))]));
  if (ownerId !== undefined) query = query.where('sku.owner_id', '=', ownerId);
  return query.orderBy('sku.id').executeTakeFirst();
}

export async function firstSkusOfOwner(db: Db, projectId: number, ownerId: number, limit: number) {
  return db.selectFrom('sku').select(['id', 'code']).where('project_id', '=', projectId).where('owner_id', '=', ownerId).orderBy('code').limit(limit).execute();
}

// ---------------------------------------------------------------- purchase orders

export async function findPo(db: Db, projectId: number, id: number): Promise<PoRow | undefined> {
  return db.selectFrom('po').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export async function lockPo(trx: Transaction<DB>, projectId: number, id: number): Promise<PoRow | undefined> {
  return trx.selectFrom('po').selectAll().where('project_id', '=', projectId).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function poLines(db: Db, poId: number): Promise<PoLineRow[]> {
  return db.selectFrom('po_line').selectAll().where('po_id', '=', poId).orderBy('line_no').execute();
}

export async function insertPo(trx: Transaction<DB>, values: Insertable<PoTable>): Promise<PoRow> {
  return trx.insertInto('po').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertPoLines(trx: Transaction<DB>, values: Insertable<PoLineTable>[]): Promise<void> {
  if (values.length > 0) await trx.insertInto('po_line').values(values).execute();
}

export async function addPoLineAsnQty(trx: Transaction<DB>, lineId: number, qty: string, by: string): Promise<void> {
  await trx
    .updateTable('po_line')
    .set({ asn_qty: sql<string>`asn_qty + ${qty}::numeric`, updated_at: new Date(), updated_by: by })
    .where('id', '=', lineId)
    .execute();
}

export async function setPoStatus(trx: Transaction<DB>, id: number, status: PoStatus, by: string): Promise<void> {
  await trx
    .updateTable('po')
    .set({ status, updated_at: new Date(), updated_by: by })
    .where('id', '=', id)
    .execute();
}

export async function nextLineNo(trx: Transaction<DB>, table: 'asn_line' | 'po_line', parentId: number): Promise<number> {
  const row =
    table === 'asn_line'
      ? await trx.selectFrom('asn_line').select((eb) => eb.fn.max('line_no').as('n')).where('asn_id', '=', parentId).executeTakeFirst()
      : await trx.selectFrom('po_line').select((eb) => eb.fn.max('line_no').as('n')).where('po_id', '=', parentId).executeTakeFirst();
  return Number(row?.n ?? 0) + 1;
}

// ---------------------------------------------------------------- ASNs

export interface AsnListFilter {
  status?: string;
  text?: string;
  limit: number;
  offset: number;
}

export async function listAsns(db: Db, scope: Scope, filter: AsnListFilter) {
  let query = db
    .selectFrom('asn')
    .innerJoin('owner', 'owner.id', 'asn.owner_id')
    .where('asn.project_id', '=', scope.projectId)
    .where('asn.warehouse_id', '=', scope.warehouseId);
  if (filter.status) query = query.where('asn.status', '=', filter.status);
  if (filter.text) query = query.where((eb) => eb.or([eb('asn.asn_no', 'ilike', `%${filter.text}%`), eb('asn.supplier_code', 'ilike', `%${filter.text}%`)]));
  const total = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['asn.id', 'asn.asn_no', 'asn.status', 'asn.supplier_code', 'asn.expected_date', 'asn.po_id', 'asn.remark', 'asn.updated_at', 'owner.code as owner_code'])
    .orderBy('asn.id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return { total: Number(total.n), rows };
}

export async function findAsn(db: Db, scope: Scope, id: number): Promise<AsnRow | undefined> {
  return db.selectFrom('asn').selectAll().where('project_id', '=', scope.projectId).where('warehouse_id', '=', scope.warehouseId).where('id', '=', id).executeTakeFirst();
}

export async function findAsnByNo(db: Db, scope: Scope, asnNo: string): Promise<AsnRow | undefined> {
  return db.selectFrom('asn').selectAll().where('project_id', '=', scope.projectId).where('warehouse_id', '=', scope.warehouseId).where('asn_no', '=', asnNo).executeTakeFirst();
}

/** Locks the ASN header: every change of an ASN's lines or status queues behind it. */
export async function lockAsn(trx: Transaction<DB>, scope: Scope, id: number): Promise<AsnRow | undefined> {
  return trx
    .selectFrom('asn')
    .selectAll()
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** Locks an ASN by id alone (the engine's writers, which already hold the project scope). */
export async function lockAsnById(trx: Transaction<DB>, projectId: number, id: number): Promise<AsnRow | undefined> {
  return trx.selectFrom('asn').selectAll().where('project_id', '=', projectId).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function insertAsn(trx: Transaction<DB>, values: Insertable<AsnTable>): Promise<AsnRow> {
  return trx.insertInto('asn').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateAsn(trx: Transaction<DB>, id: number, values: Updateable<AsnTable>): Promise<void> {
  await trx.updateTable('asn').set(values).where('id', '=', id).execute();
}

export async function asnLines(db: Db, asnId: number) {
  return db
    .selectFrom('asn_line')
    .innerJoin('sku', 'sku.id', 'asn_line.sku_id')
    .selectAll('asn_line')
    .select(['sku.code as sku_code', 'sku.description as sku_description'])
    .where('asn_line.asn_id', '=', asnId)
    .orderBy('asn_line.line_no')
    .execute();
}

export async function lockAsnLines(trx: Transaction<DB>, asnId: number, ids: readonly number[]): Promise<AsnLineRow[]> {
  if (ids.length === 0) return [];
  return trx.selectFrom('asn_line').selectAll().where('asn_id', '=', asnId).where(sql<boolean>`id = any(${[...ids]}::bigint[])`).orderBy('id').forUpdate().execute();
}

export async function findAsnLine(db: Db, projectId: number, id: number): Promise<AsnLineRow | undefined> {
  return db.selectFrom('asn_line').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export async function insertAsnLines(trx: Transaction<DB>, values: Insertable<AsnLineTable>[]): Promise<AsnLineRow[]> {
  if (values.length === 0) return [];
  return trx.insertInto('asn_line').values(values).returningAll().execute();
}

export async function updateAsnLine(trx: Transaction<DB>, id: number, values: Updateable<AsnLineTable>): Promise<void> {
  await trx.updateTable('asn_line').set(values).where('id', '=', id).execute();
}

export async function deleteAsnLines(trx: Transaction<DB>, asnId: number, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await trx.deleteFrom('asn_line').where('asn_id', '=', asnId).where('id', 'in', [...ids]).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function addReceivedQty(trx: Transaction<DB>, lineId: number, qty: string, by: string): Promise<void> {
  await trx
    .updateTable('asn_line')
    .set({ received_qty: sql<string>`received_qty + ${qty}::numeric`, updated_at: new Date(), updated_by: by })
    .where('id', '=', lineId)
    .execute();
}

export async function addAsnLinePutawayQty(trx: Transaction<DB>, lineId: number, qty: string, by: string): Promise<void> {
  await trx
    .updateTable('asn_line')
    .set({ putaway_qty: sql<string>`putaway_qty + ${qty}::numeric`, updated_at: new Date(), updated_by: by })
    .where('id', '=', lineId)
    .execute();
}

export async function asnTotals(db: Db, asnId: number): Promise<{ expected: string; received: string; putaway: string; lines: number }> {
  const row = await db
    .selectFrom('asn_line')
    .select([
      sql<string>`coalesce(sum(expected_qty), 0)`.as('expected'),
      sql<string>`coalesce(sum(received_qty), 0)`.as('received'),
      sql<string>`coalesce(sum(putaway_qty), 0)`.as('putaway'),
      sql<string>`count(*)`.as('lines'),
    ])
    .where('asn_id', '=', asnId)
    .executeTakeFirstOrThrow();
  return { expected: row.expected, received: row.received, putaway: row.putaway, lines: Number(row.lines) };
}

/**
 * Batch receive search (spec section 5): lines of receivable ASNs of the warehouse whose ASN
 * number, SKU code or description contains the text.
 */
export async function searchReceivableLines(db: Db, scope: Scope, text: string, statuses: readonly string[], limit: number) {
  const like = `%${text}%`;
  return db
    .selectFrom('asn_line as l')
    .innerJoin('asn as a', 'a.id', 'l.asn_id')
    .innerJoin('sku as s', 's.id', 'l.sku_id')
    .select([
      'l.id',
      'l.asn_id',
      'a.asn_no',
      'a.status as asn_status',
      'l.line_no',
      's.code as sku_code',
      's.description as sku_description',
      'l.expected_qty',
      'l.received_qty',
      'l.uom',
      'l.lot_no',
      'l.manufacture_date',
      'l.expiry_date',
      'l.shelf_date',
      'l.udf1',
      'l.udf2',
      'l.udf3',
    ])
    .where('a.project_id', '=', scope.projectId)
    .where('a.warehouse_id', '=', scope.warehouseId)
    .where('a.status', 'in', [...statuses])
    .where(sql<boolean>`l.received_qty < l.expected_qty`)
    .where((eb) =>
      eb.or([
        eb('a.asn_no', 'ilike', like),
        eb('s.code', 'ilike', like),
        eb('s.description', 'ilike', like),
        // A scanned barcode (UPC, EAN, GTIN) of the SKU, exactly, or as the GTIN-14 of a GS1 label (a leading 0 before an EAN-13).
        eb.exists(
          eb
            .selectFrom('sku_upc as u')
            .select('u.id')
            .whereRef('u.sku_id', '=', 's.id')
            .where((w) => w.or([w('u.upc', '=', text), w(sql<string>`'0' || u.upc`, '=', text)])),
        ),
      ]),
    )
    .orderBy('a.id')
    .orderBy('l.line_no')
    .limit(limit)
    .execute();
}

export async function countAsnsByStatus(db: Db, scope: Scope) {
  return db
    .selectFrom('asn')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .groupBy('status')
    .execute();
}

// ---------------------------------------------------------------- scan-in cartons

export async function insertCartons(trx: Transaction<DB>, values: Insertable<AsnCartonTable>[]): Promise<void> {
  if (values.length > 0) await trx.insertInto('asn_carton').values(values).execute();
}

export async function cartonsOfContainer(db: Db, scope: Scope, containerId: string) {
  return db
    .selectFrom('asn_carton as c')
    .innerJoin('asn_line as l', 'l.id', 'c.asn_line_id')
    .innerJoin('sku as s', 's.id', 'l.sku_id')
    .innerJoin('asn as a', 'a.id', 'c.asn_id')
    .select(['c.id', 'c.asn_id', 'a.asn_no', 'c.asn_line_id', 'c.container_id', 'c.carton_id', 'c.qty', 'c.status', 's.code as sku_code', 's.description as sku_description', 'l.uom'])
    .where('c.project_id', '=', scope.projectId)
    .where('c.warehouse_id', '=', scope.warehouseId)
    .where('c.container_id', '=', containerId)
    .orderBy('c.carton_id')
    .execute();
}

export async function lockCarton(trx: Transaction<DB>, scope: Scope, cartonId: string): Promise<CartonRow | undefined> {
  return trx
    .selectFrom('asn_carton')
    .selectAll()
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where('carton_id', '=', cartonId)
    .forUpdate()
    .executeTakeFirst();
}

export async function lockCartonsOfContainer(trx: Transaction<DB>, scope: Scope, containerId: string, statuses: readonly CartonStatus[]): Promise<CartonRow[]> {
  return trx
    .selectFrom('asn_carton')
    .selectAll()
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where('container_id', '=', containerId)
    .where('status', 'in', [...statuses])
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function setCartonStatus(trx: Transaction<DB>, ids: readonly number[], status: 'open' | 'scanned' | 'received', by: string, receiptLineId?: number): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('asn_carton')
    .set({ status, updated_at: new Date(), updated_by: by, ...(receiptLineId !== undefined ? { receipt_line_id: receiptLineId } : {}) })
    .where('id', 'in', [...ids])
    .execute();
}

export async function deleteCartons(trx: Transaction<DB>, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await trx.deleteFrom('asn_carton').where('id', 'in', [...ids]).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function scannedCartonsOfAsn(db: Db, asnId: number) {
  return db.selectFrom('asn_carton').selectAll().where('asn_id', '=', asnId).where('status', '=', 'scanned').orderBy('id').execute();
}

// ---------------------------------------------------------------- receipts

export async function insertReceipt(trx: Transaction<DB>, values: { project_id: number; warehouse_id: number; asn_id: number; source: string; created_by: string; updated_by: string }) {
  return trx.insertInto('receipt').values(values).returning(['id', 'receipt_no']).executeTakeFirstOrThrow();
}

export async function insertReceiptLine(trx: Transaction<DB>, values: Insertable<ReceiptLineTable>): Promise<ReceiptLineRow> {
  return trx.insertInto('receipt_line').values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * Inserts receipt lines in one statement (column arrays through `unnest`, so thousands of lines
 * cost one round trip), answering their ids in the order given.
 */
export async function insertReceiptLines(trx: Transaction<DB>, values: readonly Insertable<ReceiptLineTable>[]): Promise<{ id: number }[]> {
  if (values.length === 0) return [];
  const col = <K extends keyof Insertable<ReceiptLineTable>>(k: K) => values.map((v) => (v[k] ?? null) as unknown);
  const result = await sql<{ id: number }>`
    insert into receipt_line (project_id, warehouse_id, receipt_id, asn_id, asn_line_id, owner_id, sku_id, lot_id, location_id, lpn, qty, damage_qty, hold_qty, uom, trace_id, created_by, updated_by)
    select v.project_id, v.warehouse_id, v.receipt_id, v.asn_id, v.asn_line_id, v.owner_id, v.sku_id, v.lot_id, v.location_id, v.lpn, v.qty,
           coalesce(v.damage_qty, 0), coalesce(v.hold_qty, 0), v.uom, v.trace_id, v.created_by, v.updated_by
    from unnest(${col('project_id')}::bigint[], ${col('warehouse_id')}::bigint[], ${col('receipt_id')}::bigint[], ${col('asn_id')}::bigint[], ${col('asn_line_id')}::bigint[],
                ${col('owner_id')}::bigint[], ${col('sku_id')}::bigint[], ${col('lot_id')}::bigint[], ${col('location_id')}::bigint[], ${col('lpn')}::text[], ${col('qty')}::numeric[],
                ${col('damage_qty')}::numeric[], ${col('hold_qty')}::numeric[], ${col('uom')}::text[], ${col('trace_id')}::text[], ${col('created_by')}::text[], ${col('updated_by')}::text[])
      with ordinality as v(project_id, warehouse_id, receipt_id, asn_id, asn_line_id, owner_id, sku_id, lot_id, location_id, lpn, qty, damage_qty, hold_qty, uom, trace_id, created_by, updated_by, n)
    order by v.n
    returning id`.execute(trx);
  return result.rows.map((r) => ({ id: Number(r.id) }));
}

/** Adds received quantities to ASN lines in one statement. */
export async function addReceivedQtys(trx: Transaction<DB>, qtyByLine: ReadonlyMap<number, string>, by: string): Promise<void> {
  if (qtyByLine.size === 0) return;
  const ids = [...qtyByLine.keys()];
  const qtys = ids.map((id) => qtyByLine.get(id)!);
  await sql`update asn_line set received_qty = received_qty + v.qty, updated_at = now(), updated_by = ${by}
    from (select unnest(${ids}::bigint[]) as id, unnest(${qtys}::numeric[]) as qty) v
    where asn_line.id = v.id`.execute(trx);
}

export async function lockReceiptLine(trx: Transaction<DB>, scope: Scope, id: number): Promise<ReceiptLineRow | undefined> {
  return trx
    .selectFrom('receipt_line')
    .selectAll()
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateReceiptLine(trx: Transaction<DB>, id: number, values: Updateable<ReceiptLineTable>): Promise<void> {
  await trx.updateTable('receipt_line').set(values).where('id', '=', id).execute();
}

export async function openReceiptLines(db: Db, scope: Scope, asnId?: number) {
  let query = db
    .selectFrom('receipt_line as r')
    .innerJoin('receipt as h', 'h.id', 'r.receipt_id')
    .innerJoin('asn as a', 'a.id', 'r.asn_id')
    .innerJoin('sku as s', 's.id', 'r.sku_id')
    .innerJoin('location as loc', 'loc.id', 'r.location_id')
    .innerJoin('lot', 'lot.id', 'r.lot_id')
    .select([
      'r.id',
      'h.receipt_no',
      'a.asn_no',
      'r.asn_line_id',
      's.code as sku_code',
      'lot.lot_no',
      'lot.udf1',
      'lot.udf2',
      'lot.udf3',
      'lot.trace_id',
      'lot.pallet_id',
      'lot.carton_id',
      'loc.code as location_code',
      'r.lpn',
      'r.qty',
      'r.hold_qty',
      'r.damage_qty',
      'r.putaway_qty',
      'r.status',
    ])
    .where('r.project_id', '=', scope.projectId)
    .where('r.warehouse_id', '=', scope.warehouseId)
    .where('r.status', '=', 'open');
  if (asnId !== undefined) query = query.where('r.asn_id', '=', asnId);
  return query.orderBy('r.id').limit(500).execute();
}

export async function countOpenReceiptLines(db: Db, scope: Scope): Promise<number> {
  const row = await db
    .selectFrom('receipt_line')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findLot(db: Db, projectId: number, lotId: number) {
  return db.selectFrom('lot').selectAll().where('project_id', '=', projectId).where('id', '=', lotId).executeTakeFirstOrThrow();
}

// ---------------------------------------------------------------- putaway tasks

export async function insertPutawayTask(trx: Transaction<DB>, values: Insertable<PutawayTaskTable>): Promise<PutawayTaskRow> {
  return trx.insertInto('putaway_task').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Inserts putaway tasks in one statement (column arrays through `unnest`), answering their ids in the order given. */
export async function insertPutawayTasks(trx: Transaction<DB>, values: readonly Insertable<PutawayTaskTable>[]): Promise<{ id: number }[]> {
  if (values.length === 0) return [];
  const col = <K extends keyof Insertable<PutawayTaskTable>>(k: K) => values.map((v) => (v[k] ?? null) as unknown);
  const result = await sql<{ id: number }>`
    insert into putaway_task (project_id, warehouse_id, receipt_line_id, asn_id, owner_id, sku_id, lot_id, from_location_id, lpn, qty, held_qty, suggested_location_id, suggestion_rule, created_by, updated_by)
    select v.project_id, v.warehouse_id, v.receipt_line_id, v.asn_id, v.owner_id, v.sku_id, v.lot_id, v.from_location_id, v.lpn, v.qty, coalesce(v.held_qty, 0),
           v.suggested_location_id, v.suggestion_rule, v.created_by, v.updated_by
    from unnest(${col('project_id')}::bigint[], ${col('warehouse_id')}::bigint[], ${col('receipt_line_id')}::bigint[], ${col('asn_id')}::bigint[], ${col('owner_id')}::bigint[],
                ${col('sku_id')}::bigint[], ${col('lot_id')}::bigint[], ${col('from_location_id')}::bigint[], ${col('lpn')}::text[], ${col('qty')}::numeric[], ${col('held_qty')}::numeric[],
                ${col('suggested_location_id')}::bigint[], ${col('suggestion_rule')}::text[], ${col('created_by')}::text[], ${col('updated_by')}::text[])
      with ordinality as v(project_id, warehouse_id, receipt_line_id, asn_id, owner_id, sku_id, lot_id, from_location_id, lpn, qty, held_qty, suggested_location_id, suggestion_rule, created_by, updated_by, n)
    order by v.n
    returning id`.execute(trx);
  return result.rows.map((r) => ({ id: Number(r.id) }));
}

export async function openPutawayTasks(db: Db, scope: Scope, limit = 200) {
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
    .where('t.project_id', '=', scope.projectId)
    .where('t.warehouse_id', '=', scope.warehouseId)
    .where('t.status', '=', 'open')
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

export async function lockPutawayTask(trx: Transaction<DB>, scope: Scope, id: number): Promise<PutawayTaskRow | undefined> {
  return trx
    .selectFrom('putaway_task')
    .selectAll()
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
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
    .where('t.project_id', '=', scope.projectId)
    .where('t.warehouse_id', '=', scope.warehouseId)
    .where('t.status', '=', 'open')
    .where((eb) => eb.or([eb('t.lpn', '=', code), eb('lot.pallet_id', '=', code), eb('lot.carton_id', '=', code)]))
    .orderBy('t.id')
    .executeTakeFirst();
}

// ---------------------------------------------------------------- putaway location logic

/** Where the operator last put this SKU away in the warehouse. */
export async function lastPutawayLocation(db: Db, scope: Scope, skuId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('putaway_task')
    .select('to_location_id')
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where('sku_id', '=', skuId)
    .where('status', '=', 'done')
    .where('to_location_id', 'is not', null)
    .orderBy('confirmed_at', 'desc')
    .executeTakeFirst();
  return row?.to_location_id ?? undefined;
}

/** `lastPutawayLocation` of many SKUs at once, limited to active locations: SKU id to location id. */
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

/** `sameSkuLocation` of many SKUs at once: SKU id to location id. */
export async function sameSkuLocations(db: Db, scope: Scope, skuIds: readonly number[], types: readonly LocationType[]): Promise<Map<number, number>> {
  if (skuIds.length === 0) return new Map();
  const rows = await sql<{ sku_id: number; location_id: number }>`
    select distinct on (b.sku_id) b.sku_id, l.id as location_id from inventory_balance b join location l on l.id = b.location_id
    where b.project_id = ${scope.projectId} and b.warehouse_id = ${scope.warehouseId} and b.sku_id = any(${[...skuIds]}::bigint[])
      and b.on_hand_qty > 0 and l.status = 'active' and l.location_type = any(${[...types]}::text[])
    order by b.sku_id, b.on_hand_qty desc, l.id`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.sku_id), Number(r.location_id)]));
}

/** The first `limit` active locations of these types holding no stock and suggested by no open putaway task, in pick-path order. */
export async function nextEmptyLocations(db: Db, warehouseId: number, types: readonly LocationType[], limit: number): Promise<number[]> {
  if (limit <= 0) return [];
  const rows = await db
    .selectFrom('location as l')
    .select('l.id')
    .where('l.warehouse_id', '=', warehouseId)
    .where('l.status', '=', 'active')
    .where('l.location_type', 'in', [...types])
    .where((eb) => eb.not(eb.exists(eb.selectFrom('inventory_balance as b').select('b.id').whereRef('b.location_id', '=', 'l.id').where('b.on_hand_qty', '>', '0'))))
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('putaway_task as t').select('t.id').whereRef('t.suggested_location_id', '=', 'l.id').where('t.status', '=', 'open')),
      ),
    )
    .orderBy(sql`coalesce(l.pick_seq, 2147483647)`)
    .orderBy('l.code')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** A storage or pick location of the warehouse that holds this SKU already, the fullest first. */
export async function sameSkuLocation(db: Db, scope: Scope, skuId: number, types: readonly LocationType[]): Promise<number | undefined> {
  const row = await db
    .selectFrom('inventory_balance as b')
    .innerJoin('location as l', 'l.id', 'b.location_id')
    .select('l.id')
    .where('b.project_id', '=', scope.projectId)
    .where('b.warehouse_id', '=', scope.warehouseId)
    .where('b.sku_id', '=', skuId)
    .where('b.on_hand_qty', '>', '0')
    .where('l.status', '=', 'active')
    .where('l.location_type', 'in', [...types])
    .orderBy('b.on_hand_qty', 'desc')
    .orderBy('l.id')
    .executeTakeFirst();
  return row?.id;
}

/** The first active location of these types holding no stock at all, in pick-path order. */
export async function nextEmptyLocation(db: Db, warehouseId: number, types: readonly LocationType[]): Promise<number | undefined> {
  return (await nextEmptyLocations(db, warehouseId, types, 1))[0];
}

/** Enabled users granted this project and this warehouse (administrators only when granted them too), by id. */
export async function warehouseUsers(db: Db, projectId: number, warehouseId: number, limit: number): Promise<{ id: number; login: string; isAdmin: boolean }[]> {
  const rows = await db
    .selectFrom('app_user as u')
    .innerJoin('user_warehouse as uw', 'uw.user_id', 'u.id')
    .innerJoin('user_project as up', 'up.user_id', 'u.id')
    .select(['u.id', 'u.login_account', 'u.is_admin'])
    .where('u.enabled', '=', true)
    .where('uw.warehouse_id', '=', warehouseId)
    .where('up.project_id', '=', projectId)
    .orderBy('u.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), login: r.login_account, isAdmin: r.is_admin }));
}

// ---------------------------------------------------------------- support: reopening a closed ASN

/** Puts a closed ASN of the project back to putaway (the only way into closed); answers whether it was closed. */
export async function reopenClosedAsn(trx: Transaction<DB>, projectId: number, asnNo: string, by: string): Promise<'reopened' | 'notFound' | 'notClosed'> {
  const asn = await trx.selectFrom('asn').select(['id', 'status']).where('project_id', '=', projectId).where('asn_no', '=', asnNo).forUpdate().executeTakeFirst();
  if (!asn) return 'notFound';
  if (asn.status !== 'closed') return 'notClosed';
  await trx.updateTable('asn').set({ status: 'putaway', updated_by: by, updated_at: new Date() }).where('id', '=', asn.id).execute();
  return 'reopened';
}

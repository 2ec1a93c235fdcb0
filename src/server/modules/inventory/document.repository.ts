import { sql, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { BalanceQuantityRow } from './inventory.repository.js';
import type { DocType, InventoryDocumentLineTable, InventoryDocumentTable } from './inventory.tables.js';

/** SQL of the inventory operation documents (adjustment, move, transfer, hold) and their lookups. */

export type DocumentRow = Selectable<InventoryDocumentTable>;
export type DocumentLineRow = Selectable<InventoryDocumentLineTable>;

export async function documentLines(trx: Transaction<DB>, documentId: number): Promise<DocumentLineRow[]> {
  return trx.selectFrom('inventory_document_line').selectAll().where('document_id', '=', documentId).orderBy('line_no').execute();
}

export async function updateDocument(trx: Transaction<DB>, documentId: number, patch: Updateable<InventoryDocumentTable>): Promise<void> {
  await trx
    .updateTable('inventory_document')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', documentId)
    .execute();
}

export async function setLineTransit(trx: Transaction<DB>, lineId: number, transitLocationId: number | null): Promise<void> {
  await trx.updateTable('inventory_document_line').set({ transit_location_id: transitLocationId }).where('id', '=', lineId).execute();
}

export async function nextLineNo(trx: Transaction<DB>, documentId: number): Promise<number> {
  const row = await trx
    .selectFrom('inventory_document_line')
    .select(sql<number>`coalesce(max(line_no), 0) + 1`.as('next'))
    .where('document_id', '=', documentId)
    .executeTakeFirstOrThrow();
  return Number(row.next);
}

export type StockRow = BalanceQuantityRow;

export interface StockFilter {
  warehouseId: number;
  ownerId?: number | null;
  skuId?: number | null;
  lotId?: number | null;
  locationId?: number | null;
  lpn?: string | null;
}

/**
 * Balance rows matching a filter, oldest lot first (FIFO), leaving out the transit locations:
 * stock in transit belongs to its transfer, never to a hold, move or adjustment.
 */
export async function matchingStock(db: Kysely<DB> | Transaction<DB>, filter: StockFilter): Promise<StockRow[]> {
  let query = db
    .selectFrom('inventory_balance as b')
    .innerJoin('lot as l', 'l.id', 'b.lot_id')
    .innerJoin('location as loc', 'loc.id', 'b.location_id')
    .select(['b.id', 'b.warehouse_id', 'b.owner_id', 'b.sku_id', 'b.lot_id', 'b.location_id', 'b.lpn', 'b.on_hand_qty', 'b.allocated_qty', 'b.picked_qty', 'b.held_qty'])
    .where('b.warehouse_id', '=', filter.warehouseId)
    .where('b.on_hand_qty', '>', '0')
    .where('loc.code', '<>', TRANSIT_CODE);
  if (filter.ownerId != null) query = query.where('b.owner_id', '=', filter.ownerId);
  if (filter.skuId != null) query = query.where('b.sku_id', '=', filter.skuId);
  if (filter.lotId != null) query = query.where('b.lot_id', '=', filter.lotId);
  if (filter.locationId != null) query = query.where('b.location_id', '=', filter.locationId);
  if (filter.lpn != null && filter.lpn !== '') query = query.where('b.lpn', '=', filter.lpn);
  const rows = await query.orderBy('l.received_at').orderBy('b.lot_id').orderBy('b.location_id').orderBy('b.lpn').limit(5000).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), warehouse_id: Number(r.warehouse_id), owner_id: Number(r.owner_id), sku_id: Number(r.sku_id), lot_id: Number(r.lot_id), location_id: Number(r.location_id) }));
}

/** The code of the location per warehouse where stock of a transfer waits while in transit. */
export const TRANSIT_CODE = 'TRANSIT';

/** What the stock of one transfer line still has in transit, by lot (the ledger is the record of it). */
export async function inTransitOfLine(trx: Transaction<DB>, projectId: number, docNo: string, lineNo: number, transitLocationId: number) {
  const rows = await trx
    .selectFrom('inventory_transaction')
    .select(['warehouse_id', 'owner_id', 'sku_id', 'lot_id', 'lpn', sql<string>`sum(qty)`.as('qty')])
    .where('project_id', '=', projectId)
    .where('reference_type', '=', 'transfer')
    .where('order_no', '=', docNo)
    .where('reference_line', '=', lineNo)
    .where('location_id', '=', transitLocationId)
    .groupBy(['warehouse_id', 'owner_id', 'sku_id', 'lot_id', 'lpn'])
    .having(sql`sum(qty)`, '>', 0)
    .execute();
  return rows.map((r) => ({ warehouseId: Number(r.warehouse_id), ownerId: Number(r.owner_id), skuId: Number(r.sku_id), lotId: Number(r.lot_id), lpn: r.lpn, qty: r.qty }));
}

/** Where the stock of a transfer line left from, by lot (the source legs in the ledger). */
export async function sourceLegsOfLine(trx: Transaction<DB>, projectId: number, docNo: string, lineNo: number, transitLocationId: number) {
  const rows = await trx
    .selectFrom('inventory_transaction')
    .select(['lot_id', 'location_id', 'lpn', sql<string>`-sum(qty)`.as('qty')])
    .where('project_id', '=', projectId)
    .where('reference_type', '=', 'transfer')
    .where('order_no', '=', docNo)
    .where('reference_line', '=', lineNo)
    .where('location_id', '<>', transitLocationId)
    .where('qty', '<', '0')
    .groupBy(['lot_id', 'location_id', 'lpn'])
    .execute();
  return rows.map((r) => ({ lotId: Number(r.lot_id), locationId: Number(r.location_id), lpn: r.lpn, qty: r.qty }));
}

export interface LocationInfo {
  id: number;
  warehouse_id: number;
  code: string;
  status: string;
}

export async function findLocations(db: Kysely<DB> | Transaction<DB>, ids: readonly number[]): Promise<LocationInfo[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('location').select(['id', 'warehouse_id', 'code', 'status']).where('id', 'in', [...ids]).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), warehouse_id: Number(r.warehouse_id) }));
}

export async function findSku(db: Kysely<DB> | Transaction<DB>, skuId: number) {
  return db.selectFrom('sku').select(['id', 'project_id', 'owner_id', 'code', 'base_uom']).where('id', '=', skuId).executeTakeFirst();
}

export async function findOwner(db: Kysely<DB> | Transaction<DB>, ownerId: number) {
  return db.selectFrom('owner').select(['id', 'project_id', 'code']).where('id', '=', ownerId).executeTakeFirst();
}

export async function findLotById(db: Kysely<DB> | Transaction<DB>, lotId: number) {
  return db.selectFrom('lot').selectAll().where('id', '=', lotId).executeTakeFirst();
}

export async function warehouseOfProject(db: Kysely<DB> | Transaction<DB>, projectId: number, warehouseId: number): Promise<boolean> {
  const row = await db.selectFrom('project_warehouse').select('warehouse_id').where('project_id', '=', projectId).where('warehouse_id', '=', warehouseId).executeTakeFirst();
  return row !== undefined;
}

/** The reason codes of a document type (/invCode) that exist, and which of them need approval. */
export async function reasonCodes(db: Kysely<DB> | Transaction<DB>, docType: DocType | 'count', codes: readonly string[]) {
  if (codes.length === 0) return [];
  return db
    .selectFrom('inv_code')
    .select(['code', 'requires_approval'])
    .where('code_type', '=', docType)
    .where('active', '=', true)
    .where('code', 'in', [...codes])
    .execute();
}

export async function reasonCodeList(db: Kysely<DB>, docType: DocType | 'count') {
  return db.selectFrom('inv_code').select(['code', 'description', 'requires_approval']).where('code_type', '=', docType).where('active', '=', true).orderBy('code').execute();
}

/** Documents of the warehouse still open, by type and status (the home page's open work). */
export async function countOpenDocuments(db: Kysely<DB>, warehouseId: number) {
  const rows = await db
    .selectFrom('inventory_document')
    .select(['doc_type', 'status', sql<string>`count(*)`.as('n')])
    .where('warehouse_id', '=', warehouseId)
    .where('status', 'in', ['new', 'requested', 'in_transit'])
    .groupBy(['doc_type', 'status'])
    .execute();
  return rows.map((r) => ({ docType: r.doc_type, status: r.status, count: Number(r.n) }));
}

import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { HandheldStockRow } from '../../../common/inventory-api.js';
import { joinSkuLotLocation } from '../../db/item-joins.js';
import type { DB } from '../../db/schema.js';
import { whereInScope } from '../../db/scoped-rows.js';
import { TRANSIT_CODE } from './document.repository.js';
import type { InventoryDocumentLineTable, InventoryDocumentTable } from './inventory.tables.js';

/** SQL of the handheld move and count flows: what a scan names, and the stock and tickets they show. */

type Db = Kysely<DB> | Transaction<DB>;

export async function findLocationByCode(db: Db, warehouseId: number, code: string) {
  return db.selectFrom('location').select(['id', 'code']).where('warehouse_id', '=', warehouseId).where('code', '=', code).executeTakeFirst();
}

export async function findLotByNo(db: Db, projectId: number, skuId: number, lotNo: string) {
  return db.selectFrom('lot').select(['id', 'lot_no']).where('project_id', '=', projectId).where('sku_id', '=', skuId).where('lot_no', '=', lotNo).orderBy('id').executeTakeFirst();
}

/** The stock at a location (of one SKU when given), by SKU, lot and LPN, with what is free to move. */
export async function stockAtLocation(db: Db, filter: { projectId: number; warehouseId: number; locationId: number; skuId?: number | null; lotId?: number | null; lpn?: string | null }): Promise<HandheldStockRow[]> {
  let query = db
    .selectFrom('inventory_balance as b')
    .$call((q) => joinSkuLotLocation(q, 'b'))
    .select([
      's.code as sku_code',
      's.description as sku_description',
      'l.lot_no',
      sql<string | null>`to_char(l.expiry_date, 'YYYY-MM-DD')`.as('expiry_date'),
      'b.lpn',
      sql<string>`b.on_hand_qty::text`.as('on_hand'),
      sql<string>`greatest(b.on_hand_qty - b.allocated_qty - b.picked_qty - b.held_qty, 0)::text`.as('available'),
    ])
    .$call((q) => whereInScope(q, 'b', filter))
    .where('b.location_id', '=', filter.locationId)
    .where('b.on_hand_qty', '>', '0')
    .where('loc.code', '<>', TRANSIT_CODE);
  if (filter.skuId != null) query = query.where('b.sku_id', '=', filter.skuId);
  if (filter.lotId != null) query = query.where('b.lot_id', '=', filter.lotId);
  if (filter.lpn != null && filter.lpn !== '') query = query.where('b.lpn', '=', filter.lpn);
  return query.orderBy('s.code').orderBy('l.id').orderBy('b.lpn').limit(100).execute();
}

export async function firstFreeReason(db: Db): Promise<string | null> {
  const row = await db.selectFrom('inv_code').select('code').where('code_type', '=', 'move').where('active', '=', true).where('requires_approval', '=', false).orderBy('code').executeTakeFirst();
  return row?.code ?? null;
}

export async function insertDocument(trx: Transaction<DB>, doc: Insertable<InventoryDocumentTable>): Promise<number> {
  return Number((await trx.insertInto('inventory_document').values(doc).returning('id').executeTakeFirstOrThrow()).id);
}

export async function insertDocumentLine(trx: Transaction<DB>, line: Insertable<InventoryDocumentLineTable>): Promise<void> {
  await trx.insertInto('inventory_document_line').values(line).execute();
}

/** Count tickets of the warehouse that still take counts, with their progress by location. */
export async function countTicketsToCount(db: Db, projectId: number, warehouseId: number) {
  return db
    .selectFrom('count_ticket as t')
    .select(['t.id', 't.ticket_no', 't.status', 't.created_at'])
    .select((eb) => [
      eb.selectFrom('count_ticket_line as l').select(sql<string>`count(distinct l.location_id)`.as('n')).whereRef('l.ticket_id', '=', 't.id').as('locations'),
      eb.selectFrom('count_ticket_line as l').select(sql<string>`count(*)`.as('n')).whereRef('l.ticket_id', '=', 't.id').where('l.status', '=', 'recount').as('recount_lines'),
    ])
    .where('t.project_id', '=', projectId)
    .where('t.warehouse_id', '=', warehouseId)
    .where('t.status', 'in', ['open', 'counted'])
    .orderBy('t.id')
    .limit(100)
    .execute();
}

/** A ticket's lines as the counter sees them: where and what, never the system qty (blind count). */
export async function blindTicketLines(db: Db, ticketId: number) {
  return db
    .selectFrom('count_ticket_line as c')
    .$call((q) => joinSkuLotLocation(q, 'c'))
    .select([
      'c.id',
      'c.line_no',
      'loc.code as location_code',
      's.code as sku_code',
      's.description as sku_description',
      'l.lot_no',
      'c.lpn',
      'c.status',
      sql<string[]>`coalesce((select array_agg(u.upc order by u.upc) from sku_upc u where u.sku_id = c.sku_id), '{}')`.as('barcodes'),
    ])
    .where('c.ticket_id', '=', ticketId)
    .orderBy('loc.code')
    .orderBy('c.line_no')
    .execute();
}

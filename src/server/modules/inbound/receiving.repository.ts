import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import { joinSkuLotLocation } from '../../db/item-joins.js';
import { findInScope, lockInScope, whereInScope } from '../../db/scoped-rows.js';
import type { DB } from '../../db/schema.js';
import type { ReceivableLine } from '../../../common/inbound-api.js';
import { skuHasBarcode } from '../masterdata/index.js';
import { insertRows } from './bulk-insert.js';
import type { Scope } from './inbound.common.js';
import type { ReceiptLineTable } from './inbound.tables.js';

/** SQL of receiving: the search of open ASN lines, receipts and their lines. */

export type ReceiptLineRow = Selectable<ReceiptLineTable>;

type Db = Kysely<DB>;

/**
 * Batch receive search: lines of receivable ASNs of the warehouse whose ASN number, SKU code or
 * description contains the text, or whose SKU has the text as a barcode (also as the GTIN-14 of a
 * GS1 label).
 */
export async function searchReceivableLines(db: Db, scope: Scope, text: string, statuses: readonly string[], limit: number): Promise<ReceivableLine[]> {
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
      sql<string | null>`to_char(a.received_at, 'YYYY-MM-DD')`.as('received_at'),
      's.base_uom',
      's.case_qty',
    ])
    .$call((q) => whereInScope(q, 'a', scope))
    .where('a.status', 'in', [...statuses])
    .where(sql<boolean>`l.received_qty < l.expected_qty`)
    .where((eb) => eb.or([eb('a.asn_no', 'ilike', like), eb('s.code', 'ilike', like), eb('s.description', 'ilike', like), skuHasBarcode('s.id', text, { gs1Label: true })]))
    .orderBy('a.id')
    .orderBy('l.line_no')
    .limit(limit)
    .execute();
}

export async function insertReceipt(trx: Transaction<DB>, values: { project_id: number; warehouse_id: number; asn_id: number; source: string; created_by: string; updated_by: string }) {
  return trx.insertInto('receipt').values(values).returning(['id', 'receipt_no']).executeTakeFirstOrThrow();
}

/** A receipt line as receiving writes it; its putaway quantity and status start at their defaults. */
export type NewReceiptLine = Omit<Insertable<ReceiptLineTable>, 'id' | 'created_at' | 'updated_at' | 'putaway_qty' | 'status'>;

const RECEIPT_LINE_COLUMNS = {
  project_id: 'bigint',
  warehouse_id: 'bigint',
  receipt_id: 'bigint',
  asn_id: 'bigint',
  asn_line_id: 'bigint',
  owner_id: 'bigint',
  sku_id: 'bigint',
  lot_id: 'bigint',
  location_id: 'bigint',
  lpn: 'text',
  qty: 'numeric',
  damage_qty: 'numeric or 0',
  hold_qty: 'numeric or 0',
  uom: 'text',
  trace_id: 'text',
  created_by: 'text',
  updated_by: 'text',
} as const;

/** Inserts receipt lines in one statement, answering their ids in the order given. */
export async function insertReceiptLines(trx: Transaction<DB>, values: readonly NewReceiptLine[]): Promise<{ id: number }[]> {
  return insertRows<NewReceiptLine>(trx, 'receipt_line', RECEIPT_LINE_COLUMNS, values);
}

export async function lockReceiptLine(trx: Transaction<DB>, scope: Scope, id: number): Promise<ReceiptLineRow | undefined> {
  return lockInScope(trx, 'receipt_line', scope, id);
}

export async function findReceiptLine(db: Db, scope: Scope, id: number): Promise<ReceiptLineRow | undefined> {
  return findInScope(db, 'receipt_line', scope, id);
}

export async function updateReceiptLine(trx: Transaction<DB>, id: number, values: Updateable<ReceiptLineTable>): Promise<void> {
  await trx.updateTable('receipt_line').set(values).where('id', '=', id).execute();
}

/** Receipt lines of the warehouse waiting for putaway (of one ASN when given), with their lots and locations. */
export async function openReceiptLines(db: Db, scope: Scope, asnId?: number) {
  let query = db
    .selectFrom('receipt_line as r')
    .innerJoin('receipt as h', 'h.id', 'r.receipt_id')
    .innerJoin('asn as a', 'a.id', 'r.asn_id')
    .$call((q) => joinSkuLotLocation(q, 'r'))
    .select([
      'r.id',
      'h.receipt_no',
      'a.asn_no',
      'r.asn_line_id',
      's.code as sku_code',
      'l.lot_no',
      'l.udf1',
      'l.udf2',
      'l.udf3',
      'l.trace_id',
      'l.pallet_id',
      'l.carton_id',
      'loc.code as location_code',
      'r.lpn',
      'r.qty',
      'r.hold_qty',
      'r.damage_qty',
      'r.putaway_qty',
      'r.status',
    ])
    .$call((q) => whereInScope(q, 'r', scope))
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

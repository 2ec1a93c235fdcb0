import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The one way a typed or scanned code names a SKU of a project: the SKU's own code, or one of its
 * barcodes (UPC, EAN, GTIN) in `sku_upc`. A scanner reading a GS1 label gives the GTIN-14 of an
 * EAN-13, a leading 0 before it; the flows that take scans (`gs1Label`) accept that form too.
 */
export interface SkuCodeOptions {
  /** Only a SKU of this owner. */
  ownerId?: number;
  /** Also a barcode read as the GTIN-14 of a GS1 label (a leading 0 before an EAN-13). */
  gs1Label?: boolean;
}

export interface SkuOfCode {
  id: number;
  code: string;
  owner_id: number;
  base_uom: string;
  description: string;
}

/**
 * The condition "the SKU whose id is in `skuIdColumn` has the barcode `code`", for a query that
 * reads SKUs under another alias (a search of document lines by barcode).
 */
export function skuHasBarcode(skuIdColumn: string, code: string, options: Pick<SkuCodeOptions, 'gs1Label'> = {}): RawBuilder<boolean> {
  const gs1 = options.gs1Label ? sql`or '0' || u.upc = ${code}` : sql``;
  return sql<boolean>`exists (select 1 from sku_upc u where u.sku_id = ${sql.ref(skuIdColumn)} and (u.upc = ${code} ${gs1}))`;
}

/** The SKU of the project that a code or barcode names (the lowest id when several do), or undefined. */
export async function findSkuByCode(db: Kysely<DB>, projectId: number, code: string, options: SkuCodeOptions = {}): Promise<SkuOfCode | undefined> {
  let query = db
    .selectFrom('sku')
    .select(['sku.id', 'sku.code', 'sku.owner_id', 'sku.base_uom', 'sku.description'])
    .where('sku.project_id', '=', projectId)
    .where((eb) => eb.or([eb('sku.code', '=', code), skuHasBarcode('sku.id', code, options)]));
  if (options.ownerId !== undefined) query = query.where('sku.owner_id', '=', options.ownerId);
  return query.orderBy('sku.id').executeTakeFirst();
}

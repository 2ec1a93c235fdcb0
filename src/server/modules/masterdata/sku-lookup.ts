import { sql, type Kysely, type RawBuilder } from 'kysely';
import { looksLikeGs1, parseGs1, type Gs1Data } from '../../../common/gs1.js';
import type { DB } from '../../db/schema.js';

/**
 * The one way a typed or scanned code names a SKU of a project: the SKU's own code, or one of its
 * barcodes (UPC, EAN, GTIN) in `sku_upc`. A numeric barcode names the same item in each of its
 * GTIN lengths: a UPC-A (12 digits), an EAN-13 and the GTIN-14 a GS1 label carries differ only by
 * leading zeros, so a barcode stored in one of them is found by a scan of another. A GS1-128 label
 * (`looksLikeGs1`) names the SKU by its GTIN (AI 01) only, never by a SKU code.
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
 * The forms a numeric code of 8 to 14 digits has in the other GTIN lengths (8, 12, 13, 14), the
 * code itself first: leading zeros added or taken off. Any other code has only itself.
 */
export function gtinForms(code: string): string[] {
  const forms = [code];
  if (!/^\d{8,14}$/.test(code)) return forms;
  const digits = code.replace(/^0+/, '');
  for (const length of [8, 12, 13, 14]) {
    if (digits.length > length) continue;
    const form = digits.padStart(length, '0');
    if (!forms.includes(form)) forms.push(form);
  }
  return forms;
}

/** A scan as the SKU lookup reads it: the code to look up, and the GS1 data when it is a GS1-128 label. */
export type ReadBarcode = { ok: true; code: string; gs1: Gs1Data | null } | { ok: false };

/**
 * Reads a scan: a GS1-128 label gives its GTIN (a label that does not parse, or has no GTIN, is a
 * wrong barcode format); anything else is looked up as typed, without surrounding blanks.
 */
export function readBarcode(scanned: string): ReadBarcode {
  const text = scanned.trim();
  if (!text) return { ok: false };
  if (!looksLikeGs1(text)) return { ok: true, code: text, gs1: null };
  const parsed = parseGs1(text);
  if (!parsed.ok || !parsed.data.gtin) return { ok: false };
  return { ok: true, code: parsed.data.gtin, gs1: parsed.data };
}

/** The condition "the barcode row `u` is one of the GTIN forms of the code" (or the code itself). */
function barcodeIn(code: string, gs1Label: boolean): RawBuilder<boolean> {
  const forms = gs1Label || /^\d+$/.test(code) ? gtinForms(code) : [code];
  return sql<boolean>`u.upc in (${sql.join(forms)})`;
}

/**
 * The condition "the SKU whose id is in `skuIdColumn` has the barcode `code`", for a query that
 * reads SKUs under another alias (a search of document lines by barcode).
 */
export function skuHasBarcode(skuIdColumn: string, code: string, options: Pick<SkuCodeOptions, 'gs1Label'> = {}): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from sku_upc u where u.sku_id = ${sql.ref(skuIdColumn)} and ${barcodeIn(code, options.gs1Label === true)})`;
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

/** A SKU a code names, and what one scan of that code is. */
export interface SkuOfBarcode {
  skuId: number;
  skuCode: string;
  ownerId: number;
  description: string;
  baseUom: string;
  /** The barcode row that matched, or null when the code is the SKU's own code. */
  barcode: string | null;
  /** The unit of measure of the package the barcode is on (the base unit for the SKU's own code). */
  uom: string;
  /** Base units one scan of the code stands for: the package quantity of the barcode, 1 for the SKU's own code. */
  perScan: string;
}

/** A row of the barcode lookup, as `skusOfBarcodeSql` selects it. */
export interface SkuOfBarcodeRow {
  id: number;
  code: string;
  owner_id: number;
  description: string;
  base_uom: string;
  upc: string | null;
  uom: string;
  qty: string;
}

/**
 * The statement of `skusOfBarcode`, for a caller that reads it within a statement of its own (a
 * scan that reads the SKU together with what it packs): every SKU of the project (of the owner,
 * when given) the code names, in the order a scan means them (see `skusOfBarcode`); the package
 * quantity as text. Read its rows with `skuOfBarcodeRow`.
 */
export function skusOfBarcodeSql(projectId: number, code: string, options: SkuCodeOptions = {}): RawBuilder<SkuOfBarcodeRow> {
  const gs1Label = options.gs1Label === true;
  const owner = options.ownerId === undefined ? sql`` : sql` and s.owner_id = ${options.ownerId}`;
  // The SKUs of that own code (ordered by id), then those of that barcode.
  const own = gs1Label
    ? sql``
    : sql`select 0 as part, false as exact, false as is_default, s.id as row_id, s.id, s.code, s.owner_id, s.description, s.base_uom, null::text as upc, s.base_uom as uom, '1'::text as qty
          from sku s where s.project_id = ${projectId} and s.code = ${code}${owner}
          union all `;
  return sql<SkuOfBarcodeRow>`
    ${own}select 1 as part, u.upc = ${code} as exact, u.is_default, u.id as row_id, s.id, s.code, s.owner_id, s.description, s.base_uom, u.upc, u.uom, u.qty::text
      from sku_upc u join sku s on s.id = u.sku_id
     where s.project_id = ${projectId} and ${barcodeIn(code, gs1Label)}${owner}
     order by part, exact desc, is_default desc, row_id`;
}

/** A row of `skusOfBarcodeSql` as the SKU and what one scan of the code is. */
export function skuOfBarcodeRow(r: SkuOfBarcodeRow): SkuOfBarcode {
  return {
    skuId: Number(r.id),
    skuCode: r.code,
    ownerId: Number(r.owner_id),
    description: r.description,
    baseUom: r.base_uom,
    barcode: r.upc,
    uom: r.upc === null ? r.base_uom : r.uom,
    perScan: r.upc === null ? '1' : String(r.qty),
  };
}

/**
 * Every SKU of the project (of the owner, when given) that a looked-up code names: by its own code
 * first (not for a GS1 label's GTIN), then by its barcodes, the default barcode of a SKU before its
 * others. The first is what a scan into a flow means. One statement.
 */
export async function skusOfBarcode(db: Kysely<DB>, projectId: number, code: string, options: SkuCodeOptions = {}): Promise<SkuOfBarcode[]> {
  const { rows } = await skusOfBarcodeSql(projectId, code, options).execute(db);
  return rows.map(skuOfBarcodeRow);
}

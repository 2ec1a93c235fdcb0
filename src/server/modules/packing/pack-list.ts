import Decimal from 'decimal.js';
import type { Kysely } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import { openPdf, pdfTableHeader, pdfTableRow, pdfText, type PdfColumn } from '../../files/pdf-text.js';
import { printPublished, type TemplateInputs } from '../template/index.js';
import { packListOrder, packListRows } from './pack-list.repository.js';

/*
 * The shipping documents of an order, made of its closed cartons: the pack list (what each carton
 * holds) and the delivery note (what left on a load). Both print from the project's published
 * template of their kind (`packList`, `deliveryNote`, docs/templates.md); the pack list has a
 * built-in layout besides, for a project that published none.
 */

export interface PackListLine {
  cartonNo: string;
  sscc: string;
  sku: string;
  description: string;
  lotExpiry: string;
  qty: string;
  line: string;
}

export interface PackList {
  orderNo: string;
  customerOrderNo: string;
  shipTo: { name: string; lines: string[] };
  cartonCount: number;
  lines: PackListLine[];
}

/**
 * The pack list of an order of the scope: its closed cartons and what each holds (only the cartons
 * of `cartonIds`, when given). An order of another scope is NO_RECORD; one with no closed carton
 * yet (not scan-packed) is PACK_NOTHING_PACKED.
 */
export async function packListOf(db: Kysely<DB>, scope: { projectId: number; warehouseId: number }, soId: number, cartonIds?: readonly number[]): Promise<PackList> {
  const order = await packListOrder(db, scope, soId);
  if (!order) throw new AppError('NO_RECORD');
  const rows = await packListRows(db, soId, cartonIds);
  if (rows.length === 0) throw new AppError('PACK_NOTHING_PACKED', { orderNo: order.order_no });
  const address = order.ship_to_address_en?.trim() || order.ship_to_address_cn?.trim() || '';
  return {
    orderNo: order.order_no,
    customerOrderNo: order.customer_order_no ?? '',
    shipTo: { name: order.ship_to_name ?? '', lines: address.split(/\r?\n|,\s*/).map((l) => l.trim()).filter(Boolean) },
    cartonCount: new Set(rows.map((r) => Number(r.carton_id))).size,
    lines: rows.map((r) => ({
      cartonNo: r.carton_no,
      sscc: r.sscc ?? '',
      sku: r.sku_code,
      description: r.sku_description,
      lotExpiry: [r.lot_no, r.expiry_date ?? ''].filter(Boolean).join(' '),
      qty: `${new Decimal(r.qty).toString()} ${r.uom}`,
      line: `${order.order_no}/${r.line_no}`,
    })),
  };
}

const printedLine = (by: string) => `Printed ${new Date().toISOString().slice(0, 16).replace('T', ' ')} by ${by}`;
const code128 = (text: string) => (/^[\x20-\x7E]{1,80}$/.test(text) ? text : '');

/**
 * A shipping document's data for its template: `title`, `printed`, `number` (the order number as a
 * barcode), `orderNo`, `customerOrderNo`, `shipTo` (name and lines), `cartons` ("3 cartons") and
 * `lines` (carton, SSCC, SKU, description, lot / expiry, qty with unit, order/line); a delivery
 * note adds `load`, `container`, `seal` and `vessel`.
 */
export function shippingDocument(kind: 'packList' | 'deliveryNote', list: PackList, by: string, load?: { loadNo: string; containerNo?: string | null; sealNo?: string | null; vessel?: string | null; voyage?: string | null }): TemplateInputs {
  const document: TemplateInputs = {
    title: `${kind === 'packList' ? 'Pack list' : 'Delivery note'} ${list.orderNo}`,
    printed: printedLine(by),
    number: code128(list.orderNo),
    orderNo: list.orderNo,
    customerOrderNo: list.customerOrderNo,
    shipTo: [list.shipTo.name, ...list.shipTo.lines].filter(Boolean).join('\n'),
    cartons: `${list.cartonCount} carton${list.cartonCount === 1 ? '' : 's'}`,
    lines: list.lines.map((l) => [l.cartonNo, l.sscc, l.sku, l.description, l.lotExpiry, l.qty, l.line]),
  };
  if (load) {
    document.load = load.loadNo;
    document.container = load.containerNo ?? '';
    document.seal = load.sealNo ?? '';
    document.vessel = [load.vessel, load.voyage].filter(Boolean).join(' / ');
  }
  return document;
}

/** The built-in layout's columns. */
const COLUMNS: Array<PdfColumn<PackListLine>> = [
  { title: 'Carton', width: 70, value: (l) => l.cartonNo },
  { title: 'SSCC', width: 95, value: (l) => l.sscc },
  { title: 'SKU', width: 75, value: (l) => l.sku },
  { title: 'Description', width: 110, value: (l) => l.description },
  { title: 'Lot / expiry', width: 70, value: (l) => l.lotExpiry },
  { title: 'Qty', width: 50, value: (l) => l.qty },
  { title: 'Line', width: 50, value: (l) => l.line },
];

/** The built-in pack list layout: each text in the font of its script (a ship-to in Thai and a description in Chinese both print). */
export async function renderPackList(list: PackList, by: string, language: Language): Promise<Buffer> {
  const out = await openPdf(language, { size: 'A4', margin: 36, info: { Title: `Pack list ${list.orderNo}` } });
  const { doc } = out;
  pdfText(out, `Pack list ${list.orderNo}`, { size: 16, bold: true });
  pdfText(out, printedLine(by), { size: 9 });
  if (list.customerOrderNo) pdfText(out, `Customer order ${list.customerOrderNo}`, { size: 9 });
  doc.moveDown(0.5);
  pdfText(out, 'Ship to', { size: 9, bold: true });
  for (const line of [list.shipTo.name, ...list.shipTo.lines].filter(Boolean)) pdfText(out, line, { size: 9 });
  pdfText(out, `${list.cartonCount} carton${list.cartonCount === 1 ? '' : 's'}`, { size: 9 });
  doc.moveDown(0.8);
  pdfTableHeader(out, COLUMNS);
  for (const line of list.lines) {
    pdfTableRow(out, COLUMNS, line);
  }
  doc.end();
  return out.done;
}

/**
 * The pack list of an order as PDF: through the project's published `packList` template when it
 * has one, else the built-in layout. Only once something of the order is packed in a closed carton.
 */
export async function packListPdf(db: Kysely<DB>, scope: { projectId: number; warehouseId: number }, soId: number, by: string, language: Language): Promise<{ orderNo: string; pdf: Buffer }> {
  const list = await packListOf(db, scope, soId);
  const pdf = (await printPublished(db, scope.projectId, 'packList', [shippingDocument('packList', list, by)], language)) ?? (await renderPackList(list, by, language));
  return { orderNo: list.orderNo, pdf };
}

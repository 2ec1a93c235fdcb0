import Decimal from 'decimal.js';
import type { Language } from '../../../common/languages.js';
import { translate } from '../../http/i18n.js';
import { openPdf, pdfText, type PdfOutput } from '../../files/pdf-text.js';
import { renderTableFile, TABLE_FILE_CONTENT_TYPES, type TableFileColumn } from '../../files/table-file.js';
import type { billOf } from './billing.service.js';

/**
 * The documents of a bill: its invoice as PDF and its lines as an xlsx workbook (docs/billing.md).
 * Texts are the reader's language; the invoice's text runs print in the fonts of their script.
 */

export type BillView = Awaited<ReturnType<typeof billOf>>;

const MARGIN = 40;
const PAGE_BOTTOM = 790;

/** The invoice's table columns: what each line shows, amounts in the bill currency. */
const COLUMNS: Array<{ key: string; width: number; align?: 'right'; value: (line: BillView['lines'][number], bill: BillView) => string }> = [
  { key: 'billing.field.lineNo', width: 36, value: (l) => String(l.line_no) },
  { key: 'billing.field.chargeCode', width: 80, value: (l) => l.charge_code },
  { key: 'billing.field.description', width: 150, value: (l) => [l.description ?? '', l.reference ? `(${l.reference})` : ''].filter(Boolean).join(' ') },
  { key: 'billing.field.qty', width: 70, align: 'right', value: (l) => new Decimal(l.qty).toString() },
  { key: 'billing.invoice.unit', width: 45, value: (l) => l.unit ?? '' },
  { key: 'billing.field.rate', width: 60, align: 'right', value: (l) => new Decimal(l.rate).toString() },
  { key: 'billing.field.localAmount', width: 74, align: 'right', value: (l, bill) => money(l.local_amount, bill.decimals.bill) },
];

/**
 * An amount as text in a currency's decimals, rounded half-up in decimal arithmetic (never through
 * a float): 14912 for JPY, 250.00 for USD, 12.346 for KWD.
 */
export function money(value: string | number, decimals: number): string {
  return new Decimal(value).toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP).toFixed(decimals);
}

/**
 * The invoice layout, in one place so that a document template can take it over: the header
 * (invoice number and date, bill id, period, bill-to name and address, currency and exchange rate),
 * the lines, and the total in the bill currency (with the contract currency's total when the bill is
 * in another currency).
 */
export function layoutInvoice(out: PdfOutput, bill: BillView, text: (key: string, params?: Record<string, string | number>) => string): void {
  const { doc } = out;
  const h = bill.header;
  const currency = h.local_currency_code ?? h.currency_code;
  pdfText(out, text('billing.invoice.title'), { x: MARGIN, y: MARGIN, size: 20, bold: true });
  doc.moveDown(0.5);
  const top = doc.y;
  const facts: Array<[string, string]> = [
    [text('billing.field.invoiceNo'), h.invoice_no ?? '-'],
    [text('billing.field.invoiceDate'), h.invoice_date ?? '-'],
    [text('billing.field.billId'), h.bill_id],
    [text('billing.invoice.period'), `${h.period_from} - ${h.period_to}`],
    [text('billing.field.currency'), currency],
    [text('billing.field.exchangeRate'), `${new Decimal(h.exchange_rate).toString()} (${h.currency_code} -> ${currency})`],
  ];
  let y = top;
  for (const [label, value] of facts) {
    pdfText(out, label, { x: 320, y, size: 9, bold: true, width: 100 });
    pdfText(out, value, { x: 420, y, size: 9, width: 135 });
    y += 14;
  }
  const address = [h.bill_to_name, h.address1, h.address2, h.address3, h.address4, [h.zip, h.city].filter(Boolean).join(' '), [h.province, h.country].filter(Boolean).join(' '), h.contact, h.phone, h.email].filter(
    (part): part is string => typeof part === 'string' && part.trim() !== '',
  );
  pdfText(out, text('billing.invoice.billTo'), { x: MARGIN, y: top, size: 9, bold: true, width: 260 });
  let addressY = top + 14;
  for (const part of address) {
    pdfText(out, part, { x: MARGIN, y: addressY, size: 9, width: 260, lineBreak: false, ellipsis: true });
    addressY += 13;
  }
  y = Math.max(y, addressY) + 20;

  const header = () => {
    let x = MARGIN;
    for (const c of COLUMNS) {
      pdfText(out, text(c.key), { x, y, size: 8, bold: true, width: c.width - 4, align: c.align, height: 22 });
      x += c.width;
    }
    y += 24;
    doc
      .moveTo(MARGIN, y - 4)
      .lineTo(MARGIN + COLUMNS.reduce((w, c) => w + c.width, 0), y - 4)
      .stroke();
  };
  header();
  for (const line of bill.lines) {
    if (y > PAGE_BOTTOM - 40) {
      doc.addPage();
      y = MARGIN;
      header();
    }
    let x = MARGIN;
    for (const c of COLUMNS) {
      pdfText(out, c.value(line, bill), { x, y, size: 8, width: c.width - 4, align: c.align, lineBreak: false, ellipsis: true });
      x += c.width;
    }
    y += 14;
  }
  y += 8;
  const right = MARGIN + COLUMNS.reduce((w, c) => w + c.width, 0);
  pdfText(out, `${text('billing.invoice.total')}: ${money(h.local_total_amount, bill.decimals.bill)} ${currency}`, { x: right - 300, y, size: 11, bold: true, width: 300, align: 'right' });
  if (currency !== h.currency_code) {
    y += 18;
    pdfText(out, `${text('billing.invoice.contractTotal')}: ${money(h.total_amount, bill.decimals.contract)} ${h.currency_code}`, { x: right - 300, y, size: 9, width: 300, align: 'right' });
  }
}

/** The invoice of a bill as PDF, in the reader's language. */
export async function renderInvoicePdf(bill: BillView, language: Language): Promise<Buffer> {
  const out = await openPdf(language, { size: 'A4', margin: MARGIN, info: { Title: `${translate(language, 'billing.invoice.title')} ${bill.header.invoice_no ?? bill.header.bill_id}` } });
  layoutInvoice(out, bill, (key, params) => translate(language, key, params));
  out.doc.end();
  return out.done;
}

/** The bill's lines as an xlsx workbook: one row per line, numbers as numbers, amounts in their currency's decimals. */
export async function renderLinesXlsx(bill: BillView, language: Language): Promise<{ content: Buffer; contentType: string }> {
  const t = (key: string) => translate(language, key);
  const columns: TableFileColumn[] = [
    { key: 'line_no', header: t('billing.field.lineNo'), numeric: true },
    { key: 'charge_code', header: t('billing.field.chargeCode') },
    { key: 'description', header: t('billing.field.description') },
    { key: 'charge_method', header: t('billing.field.chargeMethod') },
    { key: 'bill_base', header: t('billing.field.billBase') },
    { key: 'qty', header: t('billing.field.qty'), numeric: true },
    { key: 'unit', header: t('billing.invoice.unit') },
    { key: 'rate', header: t('billing.field.rate'), numeric: true },
    { key: 'amount', header: t('billing.field.amount'), numeric: true },
    { key: 'currency_code', header: t('billing.field.currency') },
    { key: 'local_amount', header: t('billing.field.localAmount'), numeric: true },
    { key: 'account_code', header: t('billing.field.accountCode') },
    { key: 'reference', header: t('billing.field.reference') },
  ];
  async function* batches() {
    // Amounts rounded to their currency's decimals as decimal text first; the cell takes the number.
    yield bill.lines.map((l) => ({ ...l, amount: money(l.amount, bill.decimals.contract), local_amount: money(l.local_amount, bill.decimals.bill) }));
  }
  const file = await renderTableFile(bill.header.bill_id.replace(/[:\\/?*[\]]/g, '_') || 'lines', columns, batches(), 'xlsx', () => {});
  return { content: file.content, contentType: TABLE_FILE_CONTENT_TYPES.xlsx };
}

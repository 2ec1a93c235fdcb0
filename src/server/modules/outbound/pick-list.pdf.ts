import Decimal from 'decimal.js';
import type { Language } from '../../../common/languages.js';
import { openPdf, pdfTableHeader, pdfTableRow, pdfText, type PdfColumn } from '../../files/pdf-text.js';
import type { PickListRow } from './wave.repository.js';

/** The column layout of the pick list: what the picker reads walking the zone in location sequence. */
const COLUMNS: Array<PdfColumn<PickListRow>> = [
  { title: 'Location', width: 80, value: (r) => r.location_code },
  { title: 'LPN', width: 60, value: (r) => r.lpn },
  { title: 'SKU', width: 90, value: (r) => r.sku_code },
  { title: 'Description', width: 110, value: (r) => r.sku_description },
  { title: 'Lot / expiry', width: 80, value: (r) => [r.lot_no, r.expiry_date ?? ''].filter(Boolean).join(' ') },
  { title: 'Qty', width: 45, value: (r) => `${new Decimal(r.qty).toString()} ${r.uom}` },
  { title: 'Order', width: 60, value: (r) => `${r.order_no}/${r.line_no}` },
];

/**
 * Renders the pick list of a wave or an order as a PDF, grouped by zone. Texts of any of the six
 * languages print in their own script (descriptions, locations); Han characters take the shapes of
 * the reader's language.
 */
export async function renderPickList(title: string, rows: readonly PickListRow[], printedBy: string, language: Language = 'en'): Promise<Buffer> {
  const out = await openPdf(language, { size: 'A4', margin: 36, info: { Title: `Pick list ${title}` } });
  const { doc } = out;
  pdfText(out, `Pick list ${title}`, { size: 16, bold: true });
  pdfText(out, `Printed ${new Date().toISOString().slice(0, 16).replace('T', ' ')} by ${printedBy}`, { size: 9 });
  let zone: string | null | undefined;
  for (const row of rows) {
    if (row.zone !== zone) {
      zone = row.zone;
      doc.moveDown(0.8);
      pdfText(out, `Zone ${zone ?? '-'}`, { x: 36, size: 11, bold: true });
      pdfTableHeader(out, COLUMNS);
    }
    pdfTableRow(out, COLUMNS, row);
  }
  doc.end();
  return out.done;
}

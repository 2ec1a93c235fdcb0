import PDFDocument from 'pdfkit';
import Decimal from 'decimal.js';
import type { PickListRow } from './wave.repository.js';

/** The column layout of the pick list: what the picker reads walking the zone in location sequence. */
const COLUMNS: Array<{ title: string; width: number; value: (r: PickListRow) => string }> = [
  { title: 'Location', width: 80, value: (r) => r.location_code },
  { title: 'LPN', width: 60, value: (r) => r.lpn },
  { title: 'SKU', width: 90, value: (r) => r.sku_code },
  { title: 'Description', width: 110, value: (r) => r.sku_description },
  { title: 'Lot / expiry', width: 80, value: (r) => [r.lot_no, r.expiry_date ?? ''].filter(Boolean).join(' ') },
  { title: 'Qty', width: 45, value: (r) => `${new Decimal(r.qty).toString()} ${r.uom}` },
  { title: 'Order', width: 60, value: (r) => `${r.order_no}/${r.line_no}` },
];

/** Renders the pick list of a wave or an order as a PDF, grouped by zone. */
export function renderPickList(title: string, rows: readonly PickListRow[], printedBy: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 36, info: { Title: `Pick list ${title}` } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.font('Helvetica-Bold').fontSize(16).text(`Pick list ${title}`);
    doc.font('Helvetica').fontSize(9).text(`Printed ${new Date().toISOString().slice(0, 16).replace('T', ' ')} by ${printedBy}`);
    let zone: string | null | undefined;
    const header = () => {
      let x = 36;
      const y = doc.y;
      doc.font('Helvetica-Bold').fontSize(8);
      for (const c of COLUMNS) {
        doc.text(c.title, x, y, { width: c.width - 4 });
        x += c.width;
      }
      doc.moveDown(0.3);
      doc.font('Helvetica');
    };
    for (const row of rows) {
      if (row.zone !== zone) {
        zone = row.zone;
        doc.moveDown(0.8);
        doc.font('Helvetica-Bold').fontSize(11).text(`Zone ${zone ?? '-'}`, 36);
        header();
      }
      if (doc.y > 780) {
        doc.addPage();
        header();
      }
      let x = 36;
      const y = doc.y;
      doc.fontSize(8);
      let bottom = y;
      for (const c of COLUMNS) {
        doc.text(c.value(row).replace(/[^\x20-\x7E]/g, '?'), x, y, { width: c.width - 4, lineBreak: true, height: 24, ellipsis: true });
        bottom = Math.max(bottom, doc.y);
        x += c.width;
      }
      doc.x = 36;
      doc.y = bottom + 2;
    }
    doc.end();
  });
}

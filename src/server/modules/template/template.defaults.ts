import { loadPdfme } from './pdfme.js';
import type { TemplateJson } from './template.pdf.js';

/** The kinds of document a template prints. */
export const TEMPLATE_KINDS = ['pickList', 'packList', 'deliveryNote', 'cartonLabel', 'palletLabel', 'invoice', 'report'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

const A4 = { width: 210, height: 297, padding: [10, 10, 10, 10] as [number, number, number, number] };
const LABEL = { width: 100, height: 150, padding: [4, 4, 4, 4] as [number, number, number, number] };

/** A table field: pdfme's default table (`base`, its plugin's default field) with these columns. */
function tableField(base: Record<string, unknown>, name: string, y: number, head: string[], widths: number[], width = 190) {
  const styles = (key: string, extra: Record<string, unknown>) => ({ ...(base[key] as Record<string, unknown>), fontName: undefined, ...extra });
  return {
    ...base,
    type: 'table',
    name,
    position: { x: 10, y },
    width,
    height: 20,
    head,
    headWidthPercentages: widths,
    content: JSON.stringify([head.map(() => '')]),
    repeatHead: true,
    headStyles: styles('headStyles', { fontSize: 8, backgroundColor: '#e6e6e6', fontColor: '#000000' }),
    bodyStyles: styles('bodyStyles', { fontSize: 8, alternateBackgroundColor: '#ffffff' }),
  };
}

const textField = (name: string, x: number, y: number, width: number, height: number, fontSize: number, content = '') => ({ name, type: 'text', position: { x, y }, width, height, fontSize, content });

/**
 * The shipped template of each kind: what prints while a project has published none of its own,
 * and what a new template starts from. The pick list's fields are the pick list's data
 * (docs/templates.md "Data of the pick list").
 */
export async function defaultTemplate(kind: TemplateKind): Promise<TemplateJson> {
  const base = (await loadPdfme()).tableSchema;
  if (kind === 'pickList') {
    return {
      basePdf: A4,
      schemas: [
        [
          textField('title', 10, 10, 120, 9, 16, 'Pick list W0001'),
          textField('printed', 10, 20, 120, 6, 9, 'Printed 2026-01-01 08:00 by admin'),
          { name: 'number', type: 'code128', position: { x: 140, y: 8 }, width: 60, height: 16, content: 'W0001' },
          tableField(base, 'lines', 30, ['Zone', 'Location', 'LPN', 'SKU', 'Description', 'Lot / expiry', 'Qty', 'Order'], [7, 12, 10, 16, 21, 12, 10, 12]),
        ],
      ],
    };
  }
  if (kind === 'packList' || kind === 'deliveryNote') {
    // The pack list's and delivery note's data (docs/templates.md "Data of the pack list and delivery note").
    return {
      basePdf: A4,
      schemas: [
        [
          textField('title', 10, 10, 120, 9, 16, kind === 'packList' ? 'Pack list SO0001' : 'Delivery note SO0001'),
          textField('printed', 10, 20, 120, 6, 9, 'Printed 2026-01-01 08:00 by admin'),
          { name: 'number', type: 'code128', position: { x: 140, y: 8 }, width: 60, height: 16, content: 'SO0001' },
          textField('shipTo', 10, 28, 120, 20, 9, 'Ship to'),
          textField('cartons', 140, 28, 60, 6, 9, '1 carton'),
          ...(kind === 'deliveryNote' ? [textField('load', 140, 35, 60, 6, 9, 'Load L0001')] : []),
          tableField(base, 'lines', 52, ['Carton', 'SSCC', 'SKU', 'Description', 'Lot / expiry', 'Qty', 'Order'], [11, 19, 13, 21, 13, 11, 12]),
        ],
      ],
    };
  }
  const label = kind === 'cartonLabel' || kind === 'palletLabel';
  if (label) {
    return {
      basePdf: LABEL,
      schemas: [
        [
          textField('title', 5, 5, 90, 10, 14, kind === 'cartonLabel' ? 'CARTON' : 'PALLET'),
          textField('address', 5, 18, 90, 30, 10, ''),
          textField('order', 5, 49, 60, 5, 9, ''),
          textField('unit', 65, 49, 30, 5, 9, ''),
          { name: 'barcode', type: 'code128', position: { x: 5, y: 55 }, width: 90, height: 25, content: '00000000000000000' },
          textField('sscc', 5, 81, 90, 6, 10, '(00) 000000000000000000'),
          { name: 'qr', type: 'qrcode', position: { x: 30, y: 90 }, width: 40, height: 40, content: '00000000000000000' },
        ],
      ],
    };
  }
  return {
    basePdf: A4,
    schemas: [
      [
        textField('title', 10, 10, 120, 9, 16, kind),
        textField('printed', 10, 20, 120, 6, 9, ''),
        { name: 'number', type: 'code128', position: { x: 140, y: 8 }, width: 60, height: 16, content: '0001' },
        tableField(base, 'lines', 30, ['Line', 'SKU', 'Description', 'Qty'], [10, 25, 45, 20]),
      ],
    ],
  };
}

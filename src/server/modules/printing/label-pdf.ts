import type BwipJs from 'bwip-js/node';
import type { Language } from '../../../common/languages.js';
import { openPdf, pdfText, type PdfOutput } from '../../files/pdf-text.js';
import { translate } from '../../http/i18n.js';
import { humanReadable, labelElements, type CartonLabel, type Element, type LabelKind } from './zpl.js';

/** A 4 x 6 inch label in PDF points. */
const WIDTH = 288;
const HEIGHT = 432;
const MARGIN = 14;

/**
 * The text a Code 128 symbol encodes for a GS1 element string, as bwip-js's `parsefnc` reads it:
 * FNC1 first (which makes it GS1-128) and after every variable-length element that is not last.
 * The values hold no `^` (GS1 character set 82 has none), so nothing else reads as a function.
 */
export function gs1Code128Text(elements: Element[]): string {
  return '^FNC1' + elements.map((e, i) => e.ai + e.value + (e.variable && i < elements.length - 1 ? '^FNC1' : '')).join('');
}

/**
 * Draws a GS1-128 barcode as filled bars: the module width is the largest that fits the width
 * (at most `maxModule` points), with a quiet zone of ten modules on each side inside `width`.
 */
function drawGs1128(bwipjs: typeof BwipJs, out: PdfOutput, elements: Element[], at: { x: number; y: number; width: number; height: number; maxModule: number }): void {
  const [symbol] = bwipjs.raw('code128', gs1Code128Text(elements), { parsefnc: true }) as Array<{ sbs: number[] }>;
  const modules = symbol.sbs.reduce((sum, w) => sum + w, 0);
  const module = Math.min(at.maxModule, at.width / (modules + 20));
  let x = at.x + (at.width - modules * module) / 2;
  const { doc } = out;
  symbol.sbs.forEach((w, i) => {
    if (i % 2 === 0) doc.rect(x, at.y, w * module, at.height).fill('#000000');
    x += w * module;
  });
}

function rule(out: PdfOutput, y: number): void {
  out.doc.lineWidth(1).moveTo(MARGIN, y).lineTo(WIDTH - MARGIN, y).stroke('#000000');
}

/**
 * A GS1 logistic label (carton or pallet) as a one-page PDF of 4 x 6 inches, in the reader's
 * language: ship-from and ship-to, order number, carton (or pallet) x of y, the content's GTIN,
 * expiry, count and lot as text and as a GS1-128 barcode when given, and the SSCC as a GS1-128
 * barcode (AI 00) with the line `(00) <sscc>`. Texts of any script print in their own font.
 */
export async function labelPdf(label: CartonLabel, kind: LabelKind, language: Language): Promise<Buffer> {
  const { sscc, content } = labelElements(label);
  const t = (key: string, params: Record<string, string | number> = {}) => translate(language, `printing.label.${key}`, params);
  // The barcode library is loaded by the first label, not when the server starts.
  const { default: bwipjs } = await import('bwip-js/node');
  const out = await openPdf(language, { size: [WIDTH, HEIGHT], margin: 0, info: { Title: `${kind === 'pallet' ? 'Pallet' : 'Carton'} label ${label.sscc}` } });
  const inner = WIDTH - 2 * MARGIN;
  let y = MARGIN;
  pdfText(out, t(kind === 'pallet' ? 'pallet' : 'carton'), { x: MARGIN, y, size: 14, bold: true, width: inner, align: 'right' });
  if (label.shipFrom) pdfText(out, `${t('shipFrom')}: ${label.shipFrom}`, { x: MARGIN, y: y + 3, size: 8, width: inner - 80, height: 12, ellipsis: true });
  y += 22;
  rule(out, y);
  pdfText(out, t('shipTo'), { x: MARGIN, y: y + 4, size: 8, bold: true });
  pdfText(out, label.shipTo.name, { x: MARGIN, y: y + 16, size: 13, bold: true, width: inner, height: 18, ellipsis: true });
  y += 36;
  for (const line of label.shipTo.lines.slice(0, 5)) {
    pdfText(out, line, { x: MARGIN, y, size: 10, width: inner, height: 14, ellipsis: true });
    y += 14;
  }
  y = Math.max(y + 4, 128);
  rule(out, y);
  pdfText(out, `${t('order')}: ${label.orderNo}`, { x: MARGIN, y: y + 6, size: 10, bold: true, width: inner / 2 });
  const ofKey = kind === 'pallet' ? 'palletOf' : 'cartonOf';
  pdfText(out, t(ofKey, { no: label.cartonNo, count: label.cartonCount }), { x: MARGIN + inner / 2, y: y + 6, size: 10, bold: true, width: inner / 2, align: 'right' });
  y += 26;
  if (label.grossWeight) {
    pdfText(out, `${t('grossWeight')}: ${label.grossWeight.value} ${label.grossWeight.uom}`.trim(), { x: MARGIN, y: y + 2, size: 10, bold: true, width: inner });
    y += 18;
  }
  if (content.length) {
    rule(out, y);
    pdfText(out, humanReadable(content), { x: MARGIN, y: y + 5, size: 8, width: inner });
    drawGs1128(bwipjs, out, content, { x: MARGIN, y: y + 30, width: inner, height: 50, maxModule: 1.2 });
    y += 86;
  }
  const barHeight = kind === 'pallet' ? 100 : 90;
  const barTop = HEIGHT - MARGIN - 28 - barHeight;
  rule(out, barTop - 20);
  pdfText(out, t('sscc'), { x: MARGIN, y: barTop - 16, size: 8, bold: true });
  drawGs1128(bwipjs, out, sscc, { x: MARGIN, y: barTop, width: inner, height: barHeight, maxModule: 1.5 });
  pdfText(out, `(00) ${label.sscc}`, { x: MARGIN, y: barTop + barHeight + 6, size: 14, bold: true, width: inner, align: 'center' });
  out.doc.end();
  return out.done;
}

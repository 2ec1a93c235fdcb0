import { AppError } from '../../../common/errors.js';
import { gs1CheckDigit } from '../../../common/gs1.js';
import { isSscc } from './sscc.js';

/** What a GS1-128 carton label shows. */
export interface CartonLabel {
  sscc: string;
  /** The sender, one line (optional). */
  shipFrom?: string;
  /** The consignee's name and address lines (at most 5 lines are printed). */
  shipTo: { name: string; lines: string[] };
  orderNo: string;
  /** This carton's number, counted from 1, and the number of cartons of the shipment. */
  cartonNo: number;
  cartonCount: number;
  /** The trade item the carton holds, when it holds one: GTIN-14 (AI 02), lot (AI 10), expiry YYYY-MM-DD (AI 17), count (AI 37). */
  content?: { gtin?: string; lot?: string; expiry?: string; qty?: number };
  /** The unit's gross weight and its unit (a pallet's label shows it). */
  grossWeight?: { value: string; uom: string };
}

/**
 * A text as a ZPL field under `^FH`: the ZPL command characters `^` and `~` and the hex indicator
 * `_` are written as hex escapes, control characters become spaces, anything else passes as UTF-8
 * (the label selects UTF-8 with `^CI28`).
 */
export function zplText(text: string): string {
  const printable = [...text].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? ' ' : c)).join('');
  return printable.replace(/[_^~]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A free-text field at a position, in font 0 of the given height. */
function textField(x: number, y: number, height: number, text: string): string {
  return `^FO${x},${y}^A0N,${height},${height}^FH^FD${zplText(text)}^FS`;
}

/** GS1 character set 82, which AI 10 (lot) values are made of. */
const CSET82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]{1,20}$/;

/** One GS1 element: an application identifier and its value; a variable-length one ends with FNC1 unless it is last. */
export type Element = { ai: string; value: string; variable: boolean };

/**
 * Code 128 field data for GS1 element strings in ZPL's normal mode: start in subset C (`>;`),
 * FNC1 (`>8`) first and after every variable-length element that is not last, digit pairs in
 * subset C, anything else in subset B (`>6`, back to C with `>5` for a run of at least four
 * digits), and `>` written as `><` in subset B.
 */
export function gs1Code128Data(elements: Element[]): string {
  const tokens: string[] = [];
  elements.forEach((e, i) => {
    for (const c of e.ai + e.value) tokens.push(c);
    if (e.variable && i < elements.length - 1) tokens.push('FNC1');
  });
  let out = '>;>8';
  let subset: 'B' | 'C' = 'C';
  const digitRun = (from: number) => {
    let n = 0;
    while (from + n < tokens.length && /^[0-9]$/.test(tokens[from + n])) n += 1;
    return n;
  };
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i];
    if (token === 'FNC1') {
      out += '>8';
      i += 1;
      continue;
    }
    const run = digitRun(i);
    if (subset === 'C') {
      if (run >= 2) {
        out += token + tokens[i + 1];
        i += 2;
        continue;
      }
      out += '>6';
      subset = 'B';
    } else if (run >= 4) {
      // An odd run goes one digit in B first, so the rest pairs up in C.
      if (run % 2 === 1) {
        out += token;
        i += 1;
      }
      out += '>5';
      subset = 'C';
      continue;
    }
    out += token === '>' ? '><' : token;
    i += 1;
  }
  return out;
}

/** YYYY-MM-DD as GS1's YYMMDD. */
function yymmdd(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'expiry', code: 'pattern' }]);
  return match[1].slice(2) + match[2] + match[3];
}

export function contentElements(content: NonNullable<CartonLabel['content']>): Element[] {
  const elements: Element[] = [];
  const invalid = (field: string) => new AppError('VALIDATION_FAILED', {}, [{ field, code: 'pattern' }]);
  if (content.gtin !== undefined) {
    if (!/^[0-9]{14}$/.test(content.gtin) || gs1CheckDigit(content.gtin.slice(0, 13)) !== content.gtin[13]) throw invalid('gtin');
    elements.push({ ai: '02', value: content.gtin, variable: false });
  }
  if (content.expiry !== undefined) elements.push({ ai: '17', value: yymmdd(content.expiry), variable: false });
  if (content.qty !== undefined) {
    if (!Number.isInteger(content.qty) || content.qty < 1 || content.qty > 99_999_999) throw invalid('qty');
    elements.push({ ai: '37', value: String(content.qty), variable: true });
  }
  if (content.lot !== undefined) {
    if (!CSET82.test(content.lot)) throw invalid('lot');
    elements.push({ ai: '10', value: content.lot, variable: true });
  }
  return elements;
}

/** An element string as people read it: `(02) 0...`, `(17) 261231`. */
export function humanReadable(elements: Element[]): string {
  return elements.map((e) => `(${e.ai}) ${e.value}`).join(' ');
}

/** The element string a GS1-128 barcode carries, with FNC1 after a variable-length element that is not last written as GS (ASCII 29), as a scanner hands it on. */
export function gs1ElementString(elements: Element[]): string {
  return elements.map((e, i) => e.ai + e.value + (e.variable && i < elements.length - 1 ? '\u001d' : '')).join('');
}

/** What a label is: a carton's or a pallet's. */
export type LabelKind = 'carton' | 'pallet';

/** The fixed words a ZPL label prints, in one language the printer's font can draw. */
export interface ZplCaptions {
  pallet: string;
  shipFrom: string;
  shipTo: string;
  order: string;
  sscc: string;
  grossWeight: string;
  cartonOf: (no: number, count: number) => string;
  palletOf: (no: number, count: number) => string;
}

/** The captions in English, which every label printer's built-in font prints. */
export const ENGLISH_CAPTIONS: ZplCaptions = {
  pallet: 'PALLET',
  shipFrom: 'FROM',
  shipTo: 'SHIP TO',
  order: 'ORDER',
  sscc: 'SSCC',
  grossWeight: 'GROSS WEIGHT',
  cartonOf: (no, count) => `CARTON ${no} OF ${count}`,
  palletOf: (no, count) => `PALLET ${no} OF ${count}`,
};

/** Checks a label and answers its GS1 elements: the SSCC (AI 00) and the content's, if any. */
export function labelElements(label: CartonLabel): { sscc: Element[]; content: Element[] } {
  if (!isSscc(label.sscc)) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'sscc', code: 'pattern' }]);
  if (!Number.isInteger(label.cartonNo) || !Number.isInteger(label.cartonCount) || label.cartonNo < 1 || label.cartonCount < label.cartonNo) {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: 'cartonNo', code: 'range' }]);
  }
  return { sscc: [{ ai: '00', value: label.sscc, variable: false }], content: label.content ? contentElements(label.content) : [] };
}

/**
 * A GS1-128 carton label (4 x 6 inch at 203 dpi) in ZPL, one `^XA ... ^XZ` format: ship-from and
 * ship-to, order number, carton x of y, the content's GTIN, lot, expiry and count as text and as a
 * GS1-128 barcode when given, and at the bottom the SSCC as a GS1-128 barcode (AI 00) with its
 * human-readable line. Free text is escaped (`zplText`); the label is UTF-8 (`^CI28`). The fixed
 * words are `captions` (English unless given; `zplCaptions` picks them by language).
 */
export function cartonLabelZpl(label: CartonLabel, captions: ZplCaptions = ENGLISH_CAPTIONS): string {
  return labelZpl(label, 'carton', captions);
}

/**
 * A GS1-128 pallet label in ZPL: the carton label's layout headed PALLET, with "PALLET x OF y"
 * and a taller SSCC barcode, for a pallet (a logistic unit of its own SSCC) of a shipment.
 */
export function palletLabelZpl(label: CartonLabel, captions: ZplCaptions = ENGLISH_CAPTIONS): string {
  return labelZpl(label, 'pallet', captions);
}

function labelZpl(label: CartonLabel, kind: LabelKind, captions: ZplCaptions): string {
  const { sscc, content } = labelElements(label);
  const lines: string[] = ['^XA', '^CI28', '^PW812', '^LL1218', '^LH0,0'];
  let y = 30;
  if (kind === 'pallet') {
    lines.push(textField(560, y, 40, captions.pallet));
    if (!label.shipFrom) y += 50;
  }
  if (label.shipFrom) {
    lines.push(textField(40, y, 24, `${captions.shipFrom}: ${label.shipFrom}`));
    y += kind === 'pallet' ? 50 : 40;
  }
  lines.push(`^FO30,${y - 10}^GB752,3,3^FS`);
  lines.push(textField(40, y + 5, 24, `${captions.shipTo}:`));
  y += 40;
  lines.push(textField(40, y, 40, label.shipTo.name));
  y += 50;
  for (const line of label.shipTo.lines.slice(0, 5)) {
    lines.push(textField(40, y, 30, line));
    y += 38;
  }
  y = Math.max(y + 10, 380);
  lines.push(`^FO30,${y}^GB752,3,3^FS`);
  lines.push(textField(40, y + 20, 30, `${captions.order}: ${label.orderNo}`));
  lines.push(textField(560, y + 20, 30, (kind === 'pallet' ? captions.palletOf : captions.cartonOf)(label.cartonNo, label.cartonCount)));
  y += 70;
  if (label.grossWeight) {
    lines.push(textField(40, y, 30, `${captions.grossWeight}: ${label.grossWeight.value} ${label.grossWeight.uom}`.trim()));
    y += 45;
  }
  if (content.length) {
    lines.push(`^FO30,${y}^GB752,3,3^FS`);
    for (const e of content) {
      y += 10;
      lines.push(textField(40, y, 28, `(${e.ai}) ${e.value}`));
      y += 30;
    }
    y += 10;
    lines.push(`^BY2,3^FO60,${y}^BCN,150,N,N,N^FD${gs1Code128Data(content)}^FS`);
    y += 160;
    lines.push(textField(60, y, 24, humanReadable(content)));
  }
  const barHeight = kind === 'pallet' ? 220 : 200;
  lines.push(`^FO30,${1080 - barHeight}^GB752,3,3^FS`);
  lines.push(textField(40, 1095 - barHeight, 24, captions.sscc));
  lines.push(`^BY3,3^FO170,${1130 - barHeight}^BCN,${barHeight},N,N,N^FD${gs1Code128Data(sscc)}^FS`);
  lines.push(textField(150, 1145, 40, `(00) ${label.sscc}`));
  lines.push('^XZ');
  return lines.join('\n') + '\n';
}

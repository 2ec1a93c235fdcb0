/**
 * GS1-128 barcodes as handheld scanners deliver them (keyboard wedge): the element strings of the
 * application identifiers the warehouse flows use, AI 00 (SSCC), 01 (GTIN), 02 (GTIN of the
 * contained trade items), 10 (batch or lot), 17 (expiry date), 21 (serial number), 37 (count of
 * trade items) and 310x (net weight in kg with x decimals). Accepted forms: the raw data with the
 * group separator (ASCII 29) after variable-length fields, optionally prefixed by the symbology
 * identifier `]C1`, and the human-readable form with the AIs in brackets, `(01)...(17)...`.
 * Pure functions shared by every handheld screen.
 */

export interface Gs1Data {
  sscc?: string;
  gtin?: string;
  contentGtin?: string;
  batch?: string;
  /** YYYY-MM-DD; a day of 00 means the last day of the month (GS1 General Specifications 7.12). */
  expiry?: string;
  serial?: string;
  count?: number;
  netWeightKg?: number;
}

export type Gs1Result = { ok: true; data: Gs1Data } | { ok: false; error: string };

const GS = '\u001d';

interface AiRule {
  /** Fixed length of the data, or the maximum of a variable-length field. */
  length: number;
  fixed: boolean;
  numeric: boolean;
}

const RULES: Record<string, AiRule> = {
  '00': { length: 18, fixed: true, numeric: true },
  '01': { length: 14, fixed: true, numeric: true },
  '02': { length: 14, fixed: true, numeric: true },
  '10': { length: 20, fixed: false, numeric: false },
  '17': { length: 6, fixed: true, numeric: true },
  '21': { length: 20, fixed: false, numeric: false },
  '37': { length: 8, fixed: false, numeric: true },
};

/**
 * Element strings whose AI starts with these two digits have a predefined length (the AI included),
 * so no FNC1 follows them; every other element string is ended by FNC1 (GS) unless it is the last.
 */
const PREDEFINED_LENGTH: Record<string, number> = {
  '00': 20, '01': 16, '02': 16, '03': 16, '04': 18, '11': 8, '12': 8, '13': 8, '14': 8, '15': 8, '16': 8, '17': 8, '18': 8, '19': 8, '20': 4,
  '31': 10, '32': 10, '33': 10, '34': 10, '35': 10, '36': 10, '41': 16,
};

/** The dates of production, due, packaging, best before, sell by and expiry: YYMMDD. */
const DATE_AIS = new Set(['11', '12', '13', '15', '16', '17']);

/** How many digits the AI at the start of the text has, by its first digits; undefined when no AI can start so. */
function aiDigits(text: string): number | undefined {
  const two = text.slice(0, 2);
  if (!/^\d{2}$/.test(two)) return undefined;
  const first = Number(two);
  if (first <= 22 || first === 30 || first === 37 || first >= 90) return 2;
  if ((first >= 23 && first <= 29) || (first >= 40 && first <= 49)) return 3;
  return 4;
}

function ruleOf(ai: string): AiRule | undefined {
  if (/^310[0-9]$/.test(ai)) return { length: 6, fixed: true, numeric: true };
  if (RULES[ai]) return RULES[ai];
  if (!/^\d{2,4}$/.test(ai) || aiDigits(ai) !== ai.length) return undefined;
  const predefined = PREDEFINED_LENGTH[ai.slice(0, 2)];
  if (predefined !== undefined) return { length: predefined - ai.length, fixed: true, numeric: true };
  // Any other AI: up to 90 characters of data, read but not used here.
  return { length: 90, fixed: false, numeric: false };
}

/** The GS1 mod-10 check digit of the digits before it. */
export function gs1CheckDigit(digits: string): string {
  let sum = 0;
  // From the rightmost digit leftwards, the weights are 3, 1, 3, 1...
  for (let i = 0; i < digits.length; i += 1) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return String((10 - (sum % 10)) % 10);
}

function checkDigitOk(value: string): boolean {
  return gs1CheckDigit(value.slice(0, -1)) === value.slice(-1);
}

function expiryOf(value: string): string | undefined {
  const yy = Number(value.slice(0, 2));
  const mm = Number(value.slice(2, 4));
  const dd = Number(value.slice(4, 6));
  if (mm < 1 || mm > 12) return undefined;
  // GS1: a two-digit year within 49 years ahead and 50 years back of the current year.
  const current = new Date().getUTCFullYear();
  let year = Math.floor(current / 100) * 100 + yy;
  if (year - current > 50) year -= 100;
  else if (current - year > 49) year += 100;
  const lastDay = new Date(Date.UTC(year, mm, 0)).getUTCDate();
  if (dd > lastDay) return undefined;
  const day = dd === 0 ? lastDay : dd;
  return `${year}-${String(mm).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function assign(data: Gs1Data, ai: string, value: string): string | undefined {
  const rule = ruleOf(ai);
  if (rule && !rule.fixed && value.length === 0) return `wrong length for AI ${ai}`;
  if (!rule) return `unknown application identifier ${ai}`;
  if (value.length === 0 || (rule.fixed ? value.length !== rule.length : value.length > rule.length)) return `wrong length for AI ${ai}`;
  if (rule.numeric && !/^\d+$/.test(value)) return `AI ${ai} must be digits`;
  switch (ai) {
    case '00':
      if (!checkDigitOk(value)) return 'wrong SSCC check digit';
      data.sscc = value;
      return undefined;
    case '01':
    case '02':
      if (!checkDigitOk(value)) return 'wrong GTIN check digit';
      if (ai === '01') data.gtin = value;
      else data.contentGtin = value;
      return undefined;
    case '10':
      data.batch = value;
      return undefined;
    case '17': {
      const expiry = expiryOf(value);
      if (!expiry) return 'invalid expiry date';
      data.expiry = expiry;
      return undefined;
    }
    case '21':
      data.serial = value;
      return undefined;
    case '37':
      data.count = Number(value);
      return undefined;
    default: {
      if (/^310\d$/.test(ai)) {
        data.netWeightKg = Number(value) / 10 ** Number(ai[3]);
        return undefined;
      }
      if (DATE_AIS.has(ai) && !expiryOf(value)) return `invalid date for AI ${ai}`;
      return undefined;
    }
  }
}

function parseBracketed(text: string): Gs1Result {
  const data: Gs1Data = {};
  const pattern = /\((\d{2,4})\)([^()]*)/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = pattern.exec(text)) !== null) {
    // A scanner may send FNC1 (GS) after a variable-length field in this form too.
    const error = assign(data, match[1], match[2].replaceAll(GS, ''));
    if (error) return { ok: false, error };
    consumed = pattern.lastIndex;
  }
  if (consumed !== text.length || consumed === 0) return { ok: false, error: 'incorrect barcode format' };
  return { ok: true, data };
}

function parseRaw(text: string): Gs1Result {
  const data: Gs1Data = {};
  let at = 0;
  while (at < text.length) {
    if (text[at] === GS) {
      at += 1;
      continue;
    }
    const digits = aiDigits(text.slice(at)) ?? 2;
    const ai = text.slice(at, at + digits);
    const rule = ruleOf(ai);
    if (!rule) return { ok: false, error: `unknown application identifier ${ai}` };
    at += ai.length;
    let value: string;
    if (rule.fixed) {
      value = text.slice(at, at + rule.length);
      at += rule.length;
    } else {
      const end = text.indexOf(GS, at);
      value = end === -1 ? text.slice(at) : text.slice(at, end);
      at = end === -1 ? text.length : end + 1;
    }
    const error = assign(data, ai, value);
    if (error) return { ok: false, error };
  }
  if (Object.keys(data).length === 0) return { ok: false, error: 'incorrect barcode format' };
  return { ok: true, data };
}

/** Parses a scanned GS1-128 barcode. */
export function parseGs1(scanned: string): Gs1Result {
  let text = scanned.replace(/[\r\n]+$/, '');
  if (text.startsWith(']C1')) text = text.slice(3);
  if (text.startsWith('(')) return parseBracketed(text);
  return parseRaw(text);
}

/**
 * Whether a scan is meant as GS1-128 rather than a plain code (a location, an LPN, a SKU code):
 * it carries the symbology identifier or a group separator, is in the bracketed form, or is all
 * digits starting with AI 00, 01 or 02 and long enough for it.
 */
export function looksLikeGs1(scanned: string): boolean {
  const text = scanned.trim();
  if (text.startsWith(']C1') || text.includes(GS) || /^\(\d{2,4}\)/.test(text)) return true;
  return /^(00\d{18}|0[12]\d{14})/.test(text);
}

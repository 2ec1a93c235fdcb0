import fs from 'node:fs';
import type { Font, Template } from '@pdfme/common';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import { fontFile, fontRuns, type PdfFontFace, type PdfWeight } from '../../files/pdf-text.js';
import { loadPdfme } from './pdfme.js';

/*
 * Rendering a document template (pdfme template JSON) with data to PDF, and the checks a template
 * passes before it is stored (docs/templates.md "Template JSON").
 *
 * Fonts: the Noto font files of src/server/files/pdf-text.ts, by the names `latin`, `thai`, `sc`,
 * `tc`, `jp`, `kr` (and `<name>-bold`). A text field, table or multi-variable text that names no
 * font (or the designer's stand-in `Roboto`) gets, when rendered, the font of the script of its
 * value: Thai letters in Noto Sans Thai, Hangul in the Korean font, kana in the Japanese font, Han
 * characters in the CJK font of the reader's language, Latin text in Noto Sans. Only the fonts a
 * document uses are handed to pdfme, which embeds the glyphs it prints.
 */

/** The field types a template may use: those of pdfme's plugins. */
export async function templateSchemaTypes(): Promise<string[]> {
  return (await loadPdfme()).schemaTypes;
}

const FACES: PdfFontFace[] = ['latin', 'thai', 'sc', 'tc', 'jp', 'kr'];
export const TEMPLATE_FONT_NAMES = FACES.flatMap((f) => [f, `${f}-bold`]);
/** The font the designer draws with; on the server it means "the font of the value's script". */
const DESIGNER_FONT = 'Roboto';
const TEXT_TYPES = new Set(['text', 'multiVariableText']);

/** The largest template JSON stored, and the largest base PDF it may carry. */
export const TEMPLATE_JSON_MAX = 3_000_000;
const BASE_PDF_MAX = 2_000_000;
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,62}$/;

type Schema = Record<string, unknown> & { name: string; type: string };
export interface TemplateJson {
  basePdf: string | { width: number; height: number; padding: [number, number, number, number] };
  schemas: Schema[][];
  [key: string]: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Checks a template's JSON and answers it typed, or refuses it with every problem, each naming its
 * field (`template.schemas.0.3.type`): the page, the fields' names, types, positions and sizes, the
 * fonts, then pdfme's own check of the whole.
 */
export async function validateTemplate(value: unknown): Promise<TemplateJson> {
  const { checkTemplate, plugins } = await loadPdfme();
  const problems: FieldError[] = [];
  const bad = (field: string, reason: string) => problems.push({ field: `template${field ? `.${field}` : ''}`, code: 'TEMPLATE_INVALID', params: { reason } });
  if (!isObject(value)) {
    bad('', 'not an object');
    throw new AppError('VALIDATION_FAILED', {}, problems);
  }
  if (JSON.stringify(value).length > TEMPLATE_JSON_MAX) bad('', 'too large');
  const base = value.basePdf;
  if (typeof base === 'string') {
    if (!base.startsWith('data:application/pdf;base64,')) bad('basePdf', 'a PDF as data URL or a blank page');
    else if (base.length > BASE_PDF_MAX) bad('basePdf', 'too large');
  } else if (isObject(base)) {
    if (!isNumber(base.width) || base.width < 10 || base.width > 2000) bad('basePdf.width', 'width in mm');
    if (!isNumber(base.height) || base.height < 10 || base.height > 2000) bad('basePdf.height', 'height in mm');
    if (!Array.isArray(base.padding) || base.padding.length !== 4 || !base.padding.every((p) => isNumber(p) && p >= 0 && p < 500)) bad('basePdf.padding', 'four margins in mm');
  } else bad('basePdf', 'missing');
  if (!Array.isArray(value.schemas) || value.schemas.length === 0 || value.schemas.length > 50) bad('schemas', 'one to 50 pages of fields');
  else {
    value.schemas.forEach((page: unknown, p) => {
      if (!Array.isArray(page) || page.length > 300) return bad(`schemas.${p}`, 'a list of at most 300 fields');
      const names = new Set<string>();
      page.forEach((schema: unknown, i) => {
        const at = `schemas.${p}.${i}`;
        if (!isObject(schema)) return bad(at, 'not an object');
        if (typeof schema.name !== 'string' || !NAME.test(schema.name)) bad(`${at}.name`, String(schema.name));
        else if (names.has(schema.name)) bad(`${at}.name`, `duplicate ${schema.name}`);
        else names.add(schema.name);
        if (typeof schema.type !== 'string' || !plugins[schema.type]) bad(`${at}.type`, String(schema.type));
        const position = schema.position;
        if (!isObject(position) || !isNumber(position.x) || !isNumber(position.y)) bad(`${at}.position`, 'x and y in mm');
        if (!isNumber(schema.width) || schema.width <= 0) bad(`${at}.width`, 'width in mm');
        if (!isNumber(schema.height) || schema.height <= 0) bad(`${at}.height`, 'height in mm');
        const fonts: Array<[string, unknown]> = [[`${at}.fontName`, schema.fontName]];
        for (const part of ['headStyles', 'bodyStyles']) {
          const styles = schema[part];
          if (isObject(styles)) fonts.push([`${at}.${part}.fontName`, styles.fontName]);
        }
        for (const [field, font] of fonts) {
          if (font !== undefined && font !== '' && font !== DESIGNER_FONT && !(typeof font === 'string' && TEMPLATE_FONT_NAMES.includes(font))) bad(field, typeof font === 'string' ? font : JSON.stringify(font));
        }
      });
    });
  }
  if (problems.length === 0) {
    try {
      checkTemplate(structuredClone(value));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const position = /ERROR POSITION: ([^\n]*)/.exec(message)?.[1];
      bad(position ?? '', (/ERROR MESSAGE: ([^\n]*)/.exec(message)?.[1] ?? message).slice(0, 200));
    }
  }
  if (problems.length) throw new AppError('VALIDATION_FAILED', {}, problems);
  return value as TemplateJson;
}

/** The face whose script a value is mostly written in (see above). */
async function faceOfText(value: string, language: Language): Promise<PdfFontFace> {
  const counts = new Map<PdfFontFace, number>();
  for (const run of await fontRuns(value, language)) if (run.face !== 'latin') counts.set(run.face, (counts.get(run.face) ?? 0) + [...run.text].length);
  let best: PdfFontFace = 'latin';
  for (const [face, count] of counts) if (count > (counts.get(best) ?? 0)) best = face;
  return best;
}

const fontBytes = new Map<string, Buffer>();
function fontOf(name: string): Uint8Array<ArrayBuffer> {
  const [face, bold] = name.split('-') as [PdfFontFace, string | undefined];
  const weight: PdfWeight = bold ? 'bold' : 'regular';
  let bytes = fontBytes.get(name);
  if (!bytes) {
    bytes = fs.readFileSync(fontFile(face, weight));
    fontBytes.set(name, bytes);
  }
  return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A table's rows cut or padded to the table's columns: rows with fewer cells than the template's
 * head (data made for an older layout) would otherwise fail the whole document.
 */
function fitTable(s: Schema, value: TemplateValue): TemplateValue {
  if (s.type !== 'table' || !Array.isArray(value) || !Array.isArray(s.head)) return value;
  const width = s.head.length;
  return (value as ReadonlyArray<ReadonlyArray<string | number | null>>).map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
}

/** A value of a field as pdfme takes it: text, or a table's rows as JSON. */
export type TemplateValue = string | number | null | undefined | ReadonlyArray<ReadonlyArray<string | number | null>>;
export type TemplateInputs = Record<string, TemplateValue>;

function inputText(value: TemplateValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell)))));
}

/**
 * Renders a template with one document's data per entry of `documents` (each a page set of the
 * template), in the reader's language. A value not given prints the field's `content` (its
 * sample or static text).
 */
export async function renderTemplate(template: TemplateJson, documents: readonly TemplateInputs[], language: Language): Promise<Buffer> {
  const used = new Set<string>();
  const copy = structuredClone(template);
  const inputs = documents.map((doc) => {
    const entry: Record<string, string> = {};
    for (const page of copy.schemas) for (const s of page) if (s.name in doc) entry[s.name] = inputText(fitTable(s, doc[s.name]));
    return entry;
  });
  const sample = (s: Schema) => [typeof s.content === 'string' ? s.content : '', ...inputs.map((i) => i[s.name] ?? '')].join(' ');
  const pick = async (current: unknown, s: Schema): Promise<string> => {
    if (typeof current === 'string' && current !== '' && current !== DESIGNER_FONT) return current;
    return faceOfText(sample(s), language);
  };
  for (const page of copy.schemas) {
    for (const s of page) {
      if (TEXT_TYPES.has(s.type)) s.fontName = await pick(s.fontName, s);
      if (s.type === 'table') {
        for (const part of ['headStyles', 'bodyStyles']) {
          const styles = (s[part] ?? {}) as Record<string, unknown>;
          styles.fontName = await pick(styles.fontName, { ...s, content: `${JSON.stringify(s.head ?? [])} ${typeof s.content === 'string' ? s.content : ''}` });
          s[part] = styles;
        }
      }
      for (const f of [s.fontName, (s.headStyles as Record<string, unknown> | undefined)?.fontName, (s.bodyStyles as Record<string, unknown> | undefined)?.fontName]) if (typeof f === 'string') used.add(f);
    }
  }
  used.add('latin');
  const font: Font = Object.fromEntries([...used].map((name) => [name, { data: fontOf(name), fallback: name === 'latin' }]));
  try {
    const { generate, plugins } = await loadPdfme();
    const pdf = await generate({ template: copy as unknown as Template, inputs: inputs.length ? inputs : [{}], plugins, options: { font, lang: 'en' } });
    return Buffer.from(pdf);
  } catch (error) {
    throw new AppError('TEMPLATE_RENDER_FAILED', { reason: (error instanceof Error ? error.message : String(error)).slice(0, 300) });
  }
}

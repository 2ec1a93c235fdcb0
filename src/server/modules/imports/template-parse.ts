import Decimal from 'decimal.js';
import type { Selectable } from 'kysely';
import { parseCsv, readSheetRows, type ImportRecord } from '../../../../engine/server/index.js';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { Audit } from '../../db/schema.js';
import type { ImportTemplateColumnTable, ImportTemplateTable } from './imports.tables.js';

/**
 * Reading a file through an import template: the file type decides how lines become cells (xlsx sheet,
 * delimited text, fixed-width positions), each template column takes its value (by header, column
 * number or character positions, with combined columns joined), applies its default, checks
 * mandatory, data type, length, decimals and range, converts dates from the template's format,
 * and unique-key columns must not repeat inside the file. Every problem of every row is reported;
 * the records then go through the target page's own field rules (the engine's import).
 */

/** What of a template decides how its file is read. */
export type TemplateSpec = Pick<Selectable<ImportTemplateTable>, 'file_type' | 'delimiter' | 'with_header' | 'start_row'>;

/** What of a template column decides where its value comes from and how it is checked. */
export type TemplateColumnSpec = Omit<Selectable<ImportTemplateColumnTable>, 'id' | 'project_id' | 'template_id' | 'seq' | keyof Audit>;

/** The template's delimiter as a character: '/' by default, none (null) or a space ('Blank'). */
export function delimiterOf(delimiter: string | null | undefined): string | null {
  if (delimiter === null) return null;
  if (delimiter === undefined || delimiter === '') return '/';
  if (delimiter.toLowerCase() === 'blank') return ' ';
  return delimiter;
}

/** Lines of a text file: CR/LF or LF, a leading BOM removed, trailing empty lines dropped. */
function textLines(data: Buffer): string[] {
  let text = data.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split(/\r?\n/);
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

async function cellsOf(template: TemplateSpec, fileName: string, data: Buffer): Promise<unknown[][]> {
  if (template.file_type === 'xlsx') {
    if (!fileName.toLowerCase().endsWith('.xlsx')) throw new AppError('IMPORT_FILE_INVALID', { reason: 'xlsx expected' });
    return readSheetRows(fileName, data).catch(() => {
      throw new AppError('IMPORT_FILE_INVALID', { reason: 'not a readable xlsx file' });
    });
  }
  if (template.file_type === 'fixed') return textLines(data).map((line) => [line]);
  const delimiter = delimiterOf(template.delimiter);
  if (delimiter === null) return textLines(data).map((line) => [line]);
  if (delimiter === ' ') return textLines(data).map((line) => line.trim().split(/ +/));
  const parsed = parseCsv(data.toString('utf8'), delimiter);
  if (parsed.error) throw new AppError('IMPORT_FILE_INVALID', { reason: parsed.error });
  return parsed.rows;
}

function normalize(value: unknown): string {
  return typeof value === 'string' ? value.trim().replace(/\s+/g, ' ').toLowerCase() : typeof value === 'number' ? String(value) : '';
}

/** Where a source column is in the row: a header text (with a header row) or a 1-based number. */
function columnIndex(source: string, headers: string[]): number {
  const wanted = normalize(source);
  const byHeader = headers.findIndex((h) => h !== '' && h === wanted);
  if (byHeader >= 0) return byHeader;
  if (/^\d{1,4}$/.test(source.trim())) return Number(source.trim()) - 1;
  return -1;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

const DATE_TOKENS: Record<string, string> = { YYYY: '(\\d{4})', MM: '(\\d{1,2})', DD: '(\\d{1,2})', HH: '(\\d{1,2})', mm: '(\\d{1,2})', ss: '(\\d{1,2})' };

/** A date or date-time read with a format of YYYY, MM, DD, HH, mm, ss and literal separators; undefined when it does not fit. */
export function parseDateWithFormat(text: string, format: string, withTime: boolean): string | undefined {
  const order: string[] = [];
  const pattern = format.replace(/YYYY|MM|DD|HH|mm|ss|[.*+?^${}()|[\]\\]/g, (token) => {
    if (token in DATE_TOKENS) {
      order.push(token);
      return DATE_TOKENS[token];
    }
    return `\\${token}`;
  });
  const match = new RegExp(`^${pattern}$`).exec(text);
  if (!match) return undefined;
  const part = (token: string) => {
    const i = order.indexOf(token);
    return i < 0 ? 0 : Number(match[i + 1]);
  };
  const [y, mo, d, h, mi, s] = [part('YYYY'), part('MM'), part('DD'), part('HH'), part('mm'), part('ss')];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  const day = `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return withTime ? `${day}T${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:${String(s).padStart(2, '0')}Z` : day;
}

function convert(column: TemplateColumnSpec, text: string): { value?: unknown; problem?: Omit<FieldError, 'field'> } {
  switch (column.data_type) {
    case 'integer': {
      if (!/^[-+]?\d+$/.test(text)) return { problem: { code: 'FIELD_TYPE' } };
      return { value: Number(text) };
    }
    case 'decimal': {
      if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return { problem: { code: 'FIELD_TYPE' } };
      const d = new Decimal(text);
      if (column.decimals !== null && d.decimalPlaces() > column.decimals) return { problem: { code: 'FIELD_DECIMALS', params: { max: column.decimals } } };
      return { value: d.toString() };
    }
    case 'date':
    case 'datetime': {
      const withTime = column.data_type === 'datetime';
      const format = column.date_format || (withTime ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD');
      const iso = /^\d{4}-\d{2}-\d{2}T/.test(text) ? (withTime ? text : text.slice(0, 10)) : parseDateWithFormat(text, format, withTime);
      if (!iso) return { problem: { code: 'FIELD_TYPE', params: { format } } };
      return { value: iso };
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      if (['true', 'y', 'yes', '1'].includes(lower)) return { value: true };
      if (['false', 'n', 'no', '0'].includes(lower)) return { value: false };
      return { problem: { code: 'FIELD_TYPE' } };
    }
    default:
      if (column.length !== null && text.length > column.length) return { problem: { code: 'FIELD_TOO_LONG', params: { max: column.length } } };
      return { value: text };
  }
}

function outOfRange(column: TemplateColumnSpec, value: unknown): boolean {
  if (column.range_min === null && column.range_max === null) return false;
  if (column.data_type === 'integer' || column.data_type === 'decimal') {
    const d = new Decimal(value as string | number);
    return (column.range_min !== null && d.lessThan(column.range_min)) || (column.range_max !== null && d.greaterThan(column.range_max));
  }
  const text = String(value);
  return (column.range_min !== null && text < column.range_min) || (column.range_max !== null && text > column.range_max);
}

export async function parseWithTemplate(
  template: TemplateSpec,
  columns: readonly TemplateColumnSpec[],
  fileName: string,
  data: Buffer,
): Promise<{ records: ImportRecord[]; errors: FieldError[] }> {
  const cells = await cellsOf(template, fileName, data);
  const errors: FieldError[] = [];
  const headers = template.with_header && template.file_type !== 'fixed' ? (cells[0] ?? []).map(normalize) : [];
  const firstRow = Math.max(template.start_row, template.with_header ? 2 : 1);
  const fixed = template.file_type === 'fixed' || (template.file_type === 'csv' && delimiterOf(template.delimiter) === null);

  // Where each column's value comes from, checked once for the whole file.
  const sources = columns.map((column) => {
    if (fixed) return { column, indexes: [] as number[] };
    const names = [column.source_column ?? column.field_name, ...(column.combined_fields ? column.combined_fields.split('+') : [])].map((s) => s.trim()).filter(Boolean);
    const indexes = names.map((name) => columnIndex(name, headers));
    const missing = names.filter((_, i) => indexes[i] < 0);
    for (const header of missing) errors.push({ field: column.field_name, code: 'IMPORT_COLUMN_MISSING', params: { header } });
    return { column, indexes };
  });
  if (errors.length) return { records: [], errors };

  const records: ImportRecord[] = [];
  const seen = new Map<string, number>();
  const uniqueColumns = columns.filter((c) => c.unique_key);
  for (let r = firstRow - 1; r < cells.length; r += 1) {
    const line = cells[r] ?? [];
    const whole = fixed ? cellText(line[0]) : '';
    if (fixed ? whole === '' : line.every((cell) => cellText(cell) === '')) continue;
    const row = r + 1;
    const record: Record<string, unknown> = {};
    for (const { column, indexes } of sources) {
      let text: string;
      if (fixed) {
        const raw = typeof line[0] === 'string' ? line[0] : '';
        text = column.start_pos !== null ? raw.slice(column.start_pos - 1, column.end_pos ?? raw.length).trim() : '';
      } else {
        text = indexes.map((i) => cellText(line[i])).filter((t) => t !== '').join(' ');
      }
      if (text === '' && column.default_value !== null) text = column.default_value;
      const field = `row ${row}: ${column.field_name}`;
      if (text === '') {
        if (column.mandatory) errors.push({ field, code: 'FIELD_REQUIRED', params: { row, name: column.field_name } });
        record[column.field_name] = null;
        continue;
      }
      const converted = convert(column, text);
      if (converted.problem) {
        errors.push({ field, ...converted.problem, params: { ...converted.problem.params, row, name: column.field_name } });
        continue;
      }
      if (outOfRange(column, converted.value)) {
        errors.push({ field, code: 'FIELD_RANGE', params: { row, name: column.field_name, min: column.range_min ?? '', max: column.range_max ?? '' } });
        continue;
      }
      record[column.field_name] = converted.value;
    }
    if (uniqueColumns.length) {
      const key = JSON.stringify(uniqueColumns.map((c) => record[c.field_name] ?? null));
      const first = seen.get(key);
      if (first !== undefined) {
        errors.push({ field: `row ${row}: ${uniqueColumns.map((c) => c.field_name).join('+')}`, code: 'FIELD_NOT_UNIQUE', params: { row, name: uniqueColumns[0].field_name, first } });
      } else seen.set(key, row);
    }
    records.push({ row, record });
  }
  return { records, errors };
}

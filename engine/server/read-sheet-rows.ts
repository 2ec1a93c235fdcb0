import type ExcelJS from 'exceljs';
import { EngineError } from './engine-error.js';
import { parseCsv } from './parse-csv.js';

/** Cells of the first sheet of an uploaded xlsx or csv file, as plain values (text, number, boolean, Date). */
export async function readSheetRows(fileName: string, data: Buffer, delimiter = ','): Promise<unknown[][]> {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.csv') || lower.endsWith('.txt')) {
    const parsed = parseCsv(data.toString('utf8'), delimiter);
    if (parsed.error) throw new EngineError('IMPORT_FILE_INVALID', { reason: parsed.error });
    return parsed.rows;
  }
  if (!lower.endsWith('.xlsx')) throw new EngineError('IMPORT_FILE_INVALID', { reason: 'xlsx or csv expected' });
  // The spreadsheet library is loaded by the first xlsx read, not when the server starts.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw new EngineError('IMPORT_FILE_INVALID', { reason: 'not a readable xlsx file' });
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const values: unknown[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      values[column - 1] = cellValue(cell.value);
    });
    rows[rowNumber - 1] = values;
  });
  return Array.from({ length: rows.length }, (_, i) => rows[i] ?? []);
}

/** Rich text, formulas and hyperlinks carry their shown value inside an object. */
function cellValue(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date || typeof value !== 'object') return value;
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('result' in value) return cellValue(value.result);
  if ('text' in value) return typeof value.text === 'string' ? value.text : null;
  if ('error' in value) return null;
  return null;
}

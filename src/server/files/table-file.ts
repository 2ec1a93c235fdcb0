import { PassThrough } from 'node:stream';
import { loadExcel } from './excel.js';
import { spreadsheetCell, type SheetValue } from './spreadsheet-cell.js';

export type TableFileFormat = 'xlsx' | 'csv';

export const TABLE_FILE_CONTENT_TYPES: Record<TableFileFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

/** A column of a table file: the row's key, its header, and whether its text values are numbers. */
export interface TableFileColumn {
  key: string;
  header: string;
  numeric?: boolean;
}

/**
 * Writes rows arriving in batches as a csv (UTF-8 with a byte-order mark) or an xlsx file (the
 * exceljs streaming writer), every cell through `spreadsheetCell`; reports the rows written after
 * each batch and yields to the event loop between batches.
 */
export async function renderTableFile(
  sheetName: string,
  columns: readonly TableFileColumn[],
  batches: AsyncIterable<Array<Record<string, unknown>>>,
  format: TableFileFormat,
  progress: (rows: number) => void,
): Promise<{ content: Buffer; rows: number }> {
  let rows = 0;
  const pause = () => new Promise((resolve) => setImmediate(resolve));
  const cell = (row: Record<string, unknown>, key: string) => (row[key] ?? null) as SheetValue;
  if (format === 'csv') {
    // A byte-order mark, so that spreadsheet programs read the text as UTF-8.
    const parts: string[] = ['\uFEFF' + columns.map((c) => spreadsheetCell(c.header, 'csv')).join(',') + '\r\n'];
    for await (const batch of batches) {
      for (const row of batch) parts.push(columns.map((c) => spreadsheetCell(cell(row, c.key), 'csv')).join(',') + '\r\n');
      rows += batch.length;
      progress(rows);
      await pause();
    }
    return { content: Buffer.from(parts.join(''), 'utf8'), rows };
  }
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const excel = await loadExcel();
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: 16 }));
  for await (const batch of batches) {
    for (const row of batch) sheet.addRow(columns.map((c) => spreadsheetCell(c.numeric && row[c.key] !== null && row[c.key] !== undefined ? Number(row[c.key]) : cell(row, c.key), 'xlsx'))).commit();
    rows += batch.length;
    progress(rows);
    await pause();
  }
  sheet.commit();
  await workbook.commit();
  await ended;
  return { content: Buffer.concat(chunks), rows };
}

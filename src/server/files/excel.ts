import type ExcelJS from 'exceljs';

/**
 * The spreadsheet library, loaded the first time a sheet is written or read rather than when the
 * server starts: loading it costs about a third of a second of processor time that a server serving
 * no spreadsheet need not pay. Node keeps the loaded module, so later calls cost nothing.
 */
export async function loadExcel(): Promise<typeof ExcelJS> {
  return (await import('exceljs')).default;
}

import type ExcelJS from 'exceljs';

let loading: Promise<typeof ExcelJS> | undefined;

/**
 * The spreadsheet library, loaded the first time a sheet is written or read rather than when the
 * server starts: loading it costs about a third of a second of processor time that a server serving
 * no spreadsheet need not pay. A failed load is forgotten, so the next sheet tries again.
 */
export function loadExcel(): Promise<typeof ExcelJS> {
  loading ??= import('exceljs').then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

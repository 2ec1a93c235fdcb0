import type { FieldMapDefinition } from '../schema/index.js';
import type { EngineFieldError } from './engine-error.js';

export interface ImportRecord {
  /** 1-based row number in the file, as the user sees it. */
  row: number;
  record: Record<string, unknown>;
}

/**
 * Applies a page's field map to the cells of a sheet (README: fieldMaps): columns by header text
 * (case- and space-insensitive) or by 1-based index; data from `startRow`; blank rows skipped. A
 * header the file lacks is reported once, as a problem of the file. `alternativeHeaders` names
 * other headers a field's column may carry, such as the field's label as the export writes it, so
 * that an exported file imports back unchanged.
 */
export function mapImportRows(
  map: FieldMapDefinition,
  cells: unknown[][],
  alternativeHeaders: Record<string, string[]> = {},
): { records: ImportRecord[]; errors: EngineFieldError[] } {
  const headerRow = map.headerRow !== false;
  const startRow = map.startRow ?? (headerRow ? 2 : 1);
  const errors: EngineFieldError[] = [];
  const headers = headerRow ? (cells[0] ?? []).map((h) => normalizeHeader(h)) : [];
  const columns: { field: string; index: number }[] = [];
  for (const column of map.columns) {
    if (column.index !== undefined) {
      columns.push({ field: column.field, index: column.index - 1 });
      continue;
    }
    const candidates = [column.header, ...(alternativeHeaders[column.field] ?? [])].map((h) => normalizeHeader(h));
    const index = headers.findIndex((h) => h !== '' && candidates.includes(h));
    if (index < 0) errors.push({ field: column.field, code: 'IMPORT_COLUMN_MISSING', params: { header: column.header ?? '' } });
    else columns.push({ field: column.field, index });
  }
  const records: ImportRecord[] = [];
  for (let r = startRow - 1; r < cells.length; r += 1) {
    const line = cells[r] ?? [];
    if (line.every((cell) => cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === ''))) continue;
    const record: Record<string, unknown> = {};
    for (const { field, index } of columns) {
      const value = line[index];
      record[field] = typeof value === 'string' ? value.trim() : (value ?? null);
    }
    records.push({ row: r + 1, record });
  }
  return { records, errors };
}

function normalizeHeader(value: unknown): string {
  return typeof value === 'string' ? value.trim().replace(/\s+/g, ' ').toLowerCase() : typeof value === 'number' ? String(value) : '';
}

import type { Writable } from 'node:stream';
import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import type { FieldDefinition } from '../../../../engine/schema/index.js';
import type { EngineRow } from '../../../../engine/server/index.js';
import type { ExportPlan } from './generic.read.js';

/** Excel shows dates and times as such (issue 11, item 7), in the format of these columns. */
export const DATE_FORMATS: Record<string, string | undefined> = { date: 'yyyy-mm-dd', datetime: 'yyyy-mm-dd hh:mm:ss' };

/** xlsx cells: numbers that survive the trip stay numbers; longer decimals stay exact text. */
export function cellOf(type: string, value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  if (type === 'datetime' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) return new Date(value);
  if ((type === 'decimal' || type === 'integer') && (typeof value === 'string' || typeof value === 'number')) {
    const exact = new Decimal(value);
    const number = exact.toNumber();
    return new Decimal(number).equals(exact) ? number : String(value);
  }
  if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

export interface ExportSheet {
  /** Adds a batch of rows as the screen shows them. */
  addRows(rows: EngineRow[], labelOf: (field: FieldDefinition, value: unknown) => string | undefined): void;
  /** A last row of text (the export stopped midway). */
  addNote(text: string): void;
  /** Finishes the file: the stream ends. */
  finish(): Promise<void>;
}

/** The engine's export as a streaming xlsx writer: rows go out as they are added, never whole in memory. */
export function createExportSheet(plan: ExportPlan, stream: Writable): ExportSheet {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(plan.title.slice(0, 31).replace(/[\\/?*[\]:]/g, ' ') || 'Sheet1');
  sheet.columns = plan.columns.map((c) => ({ header: c.header, key: c.field.name, width: 18, ...(DATE_FORMATS[c.field.type] ? { style: { numFmt: DATE_FORMATS[c.field.type] } } : {}) }));
  return {
    addRows(rows, labelOf) {
      for (const row of rows) sheet.addRow(plan.columns.map((c) => labelOf(c.field, row[c.field.name]) ?? cellOf(c.field.type, row[c.field.name]))).commit();
    },
    addNote(text) {
      sheet.addRow([text]).commit();
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
  };
}

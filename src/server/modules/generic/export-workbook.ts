import type { Writable } from 'node:stream';
import Decimal from 'decimal.js';
import type ExcelJS from 'exceljs';
import type { FieldDefinition } from '../../../../engine/schema/index.js';
import type { EngineRow } from '../../../../engine/server/index.js';
import { loadExcel } from '../../files/excel.js';
import { spreadsheetCell } from '../../files/spreadsheet-cell.js';
import type { ExportPlan } from './generic.read.js';

/** Excel shows dates and times as such, in the format of these columns (a date-time keeps its time). */
export const DATE_FORMATS: Record<string, string | undefined> = { date: 'yyyy-mm-dd', datetime: 'yyyy-mm-dd hh:mm:ss' };

/**
 * xlsx cells: numbers that survive the trip stay numbers; longer decimals stay exact text; text that
 * could pass for a formula is written as text (`spreadsheetCell`).
 */
export function cellOf(type: string, value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  if (type === 'datetime' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) return new Date(value);
  if ((type === 'decimal' || type === 'integer') && (typeof value === 'string' || typeof value === 'number')) {
    const exact = new Decimal(value);
    const number = exact.toNumber();
    return new Decimal(number).equals(exact) ? number : String(value);
  }
  if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return spreadsheetCell(value, 'xlsx');
  return spreadsheetCell(JSON.stringify(value), 'xlsx');
}

export interface ExportSheet {
  /** Adds a batch of rows as the screen shows them. */
  addRows(rows: EngineRow[], labelOf: (field: FieldDefinition, value: unknown) => string | undefined): void;
  /** A last row of text (the export stopped midway). */
  addNote(text: string): void;
  /** Finishes the file: the stream ends. */
  finish(): Promise<void>;
}

/**
 * The engine's export as a streaming xlsx writer: rows go out as they are added, never whole in
 * memory. Styles are on, or the columns' date formats would be dropped and a date-time shown without its
 * time. The header row holds the labels (a configurator's texts, so they go through the same
 * cell rule as the values).
 */
export async function createExportSheet(plan: ExportPlan, stream: Writable): Promise<ExportSheet> {
  const excel = await loadExcel();
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(plan.title.slice(0, 31).replace(/[\\/?*[\]:]/g, ' ') || 'Sheet1');
  sheet.columns = plan.columns.map((c) => ({ key: c.field.name, width: 18, ...(DATE_FORMATS[c.field.type] ? { style: { numFmt: DATE_FORMATS[c.field.type] } } : {}) }));
  sheet.addRow(plan.columns.map((c) => spreadsheetCell(c.header, 'xlsx'))).commit();
  return {
    addRows(rows, labelOf) {
      for (const row of rows) {
        sheet.addRow(plan.columns.map((c) => {
          const label = labelOf(c.field, row[c.field.name]);
          return label === undefined ? cellOf(c.field.type, row[c.field.name]) : spreadsheetCell(label, 'xlsx');
        })).commit();
      }
    },
    addNote(text) {
      sheet.addRow([spreadsheetCell(text, 'xlsx')]).commit();
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
  };
}

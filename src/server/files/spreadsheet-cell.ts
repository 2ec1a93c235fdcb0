import type ExcelJS from 'exceljs';

/*
 * The one place that decides how a value becomes a cell of an exported csv or xlsx file, so that no
 * export hands a spreadsheet program a formula someone typed into a record (CSV or formula
 * injection: `=HYPERLINK(...)` in an order number, `@SUM(...)|cmd` in a SKU name).
 *
 * Text starting with =, +, -, @, a tab or a carriage return (or spaces and then one of the first
 * four) is written as text: in csv behind an apostrophe, which spreadsheet programs take as "this
 * is text" and do not show; in xlsx as an inline string cell, which no program evaluates, so that
 * the value reads back unchanged. A plain number written as text ("-5", "+1.25") carries no
 * formula and stays as it is; numbers, dates and booleans are never touched, so a negative
 * quantity is still a number.
 */

export type SheetValue = string | number | boolean | Date | null | undefined;

const FORMULA_START = /^(?:[=+\-@\t\r]| +[=+\-@])/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function formulaLike(text: string): boolean {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
}

/** A cell of an xlsx row, or one field of a csv line (quoted when it must be; numbers as written). */
export function spreadsheetCell(value: SheetValue, format: 'xlsx'): ExcelJS.CellValue;
export function spreadsheetCell(value: SheetValue, format: 'csv'): string;
export function spreadsheetCell(value: SheetValue, format: 'xlsx' | 'csv'): ExcelJS.CellValue | string {
  const risky = typeof value === 'string' && formulaLike(value);
  if (format === 'xlsx') {
    if (value === undefined) return null;
    return risky ? { richText: [{ text: value }] } : value;
  }
  if (value === null || value === undefined) return '';
  const text = risky ? `'${value}` : value instanceof Date ? value.toISOString() : String(value);
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

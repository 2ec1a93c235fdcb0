import { describe, expect, it } from 'vitest';
import { spreadsheetCell } from '../../src/server/files/spreadsheet-cell.js';

/** The one cell rule of every export: formula-like text becomes text, everything else is unchanged. */
describe('spreadsheetCell', () => {
  it.each(['=HYPERLINK("http://x","y")', '+cmd|calc', '-2+3+cmd', '@SUM(1)', '\t=1+1', '\r=1+1', '  =1+1', '-', '+', '=', '@'])('writes %j as text', (text) => {
    expect(spreadsheetCell(text, 'xlsx')).toEqual({ richText: [{ text }] });
    const csv = spreadsheetCell(text, 'csv');
    const unquoted = csv.startsWith('"') ? csv.slice(1, -1).replace(/""/g, '"') : csv;
    expect(unquoted).toBe(`'${text}`);
  });

  it('leaves numbers, plain numbers as text, dates, booleans and ordinary text alone', () => {
    expect(spreadsheetCell(-5, 'xlsx')).toBe(-5);
    expect(spreadsheetCell(-5, 'csv')).toBe('-5');
    expect(spreadsheetCell('-5.000', 'csv')).toBe('-5.000');
    expect(spreadsheetCell('+1.5e3', 'xlsx')).toBe('+1.5e3');
    expect(spreadsheetCell('ORD-1', 'xlsx')).toBe('ORD-1');
    expect(spreadsheetCell('a=b', 'csv')).toBe('a=b');
    expect(spreadsheetCell(true, 'csv')).toBe('true');
    const day = new Date('2030-01-31T00:00:00Z');
    expect(spreadsheetCell(day, 'xlsx')).toBe(day);
    expect(spreadsheetCell(day, 'csv')).toBe('2030-01-31T00:00:00.000Z');
    expect(spreadsheetCell(null, 'csv')).toBe('');
    expect(spreadsheetCell(undefined, 'xlsx')).toBeNull();
  });

  it('quotes csv fields with commas, quotes, line breaks or edge spaces', () => {
    expect(spreadsheetCell('a,b', 'csv')).toBe('"a,b"');
    expect(spreadsheetCell('say "hi"', 'csv')).toBe('"say ""hi"""');
    expect(spreadsheetCell('two\nlines', 'csv')).toBe('"two\nlines"');
    expect(spreadsheetCell(' pad', 'csv')).toBe('" pad"');
    expect(spreadsheetCell('=1,2', 'csv')).toBe('"\'=1,2"');
  });
});

import { describe, expect, it } from 'vitest';
import { delimiterOf, parseDateWithFormat, parseWithTemplate, type TemplateColumnSpec } from '../../src/server/modules/imports/template-parse.js';

const column = (over: Partial<TemplateColumnSpec>): TemplateColumnSpec => ({
  field_name: 'f',
  source_column: null,
  unique_key: false,
  data_type: 'string',
  length: null,
  decimals: null,
  date_format: null,
  start_pos: null,
  end_pos: null,
  default_value: null,
  range_min: null,
  range_max: null,
  mandatory: false,
  combined_fields: null,
  ...over,
});

describe('import template reading', () => {
  it('reads the delimiter as the spec says: slash by default, none when null, a space for Blank', () => {
    expect(delimiterOf(undefined)).toBe('/');
    expect(delimiterOf('')).toBe('/');
    expect(delimiterOf(null)).toBeNull();
    expect(delimiterOf('Blank')).toBe(' ');
    expect(delimiterOf('|')).toBe('|');
  });

  it('converts dates from the template format and refuses impossible ones', () => {
    expect(parseDateWithFormat('31/01/2024', 'DD/MM/YYYY', false)).toBe('2024-01-31');
    expect(parseDateWithFormat('20240131', 'YYYYMMDD', false)).toBe('2024-01-31');
    expect(parseDateWithFormat('2024.01.31 07:05:09', 'YYYY.MM.DD HH:mm:ss', true)).toBe('2024-01-31T07:05:09Z');
    expect(parseDateWithFormat('31/02/2024', 'DD/MM/YYYY', false)).toBeUndefined();
    expect(parseDateWithFormat('2024-01-31', 'DD/MM/YYYY', false)).toBeUndefined();
  });

  it('applies defaults, lengths, decimals, ranges, unique keys and one value per line without a delimiter', async () => {
    const template = { file_type: 'csv' as const, delimiter: null, with_header: false, start_row: 1 };
    const columns = [column({ field_name: 'line', start_pos: 1, end_pos: 4, unique_key: true }), column({ field_name: 'qty', start_pos: 5, end_pos: 8, data_type: 'decimal', decimals: 1, range_min: '0', range_max: '10', default_value: '1' })];
    const data = Buffer.from('AB  2.5 \nCD      \nAB  3   \nEF  12  \nGH  1.25\n');
    const { records, errors } = await parseWithTemplate(template, columns, 'x.txt', data);
    expect(records.map((r) => r.record)).toEqual([
      { line: 'AB', qty: '2.5' },
      { line: 'CD', qty: '1' },
      { line: 'AB', qty: '3' },
      { line: 'EF' },
      { line: 'GH' },
    ]);
    expect(errors.map((e) => `${e.params?.row}:${e.code}`)).toEqual(['3:FIELD_NOT_UNIQUE', '4:FIELD_RANGE', '5:FIELD_DECIMALS']);
  });
});

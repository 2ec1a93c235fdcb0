import { describe, expect, it } from 'vitest';
import type { PageDefinition } from '../../../engine/schema/index.js';
import { coerceFieldValue } from '../../../engine/server/coerce-field-value.js';
import { mapImportRows } from '../../../engine/server/map-import-rows.js';
import { parseCsv } from '../../../engine/server/parse-csv.js';
import { prepareRecord } from '../../../engine/server/prepare-record.js';
import { preparePage } from '../../../engine/server/prepared-page.js';

describe(coerceFieldValue.name, () => {
  it.each([
    ['integer', '42', 42],
    ['integer', 42, 42],
    ['decimal', '0.1', '0.1'],
    ['decimal', 2.5, '2.5'],
    ['boolean', 'yes', true],
    ['boolean', 0, false],
    ['date', '2024-02-29', '2024-02-29'],
    ['datetime', '2026-01-02T03:04:05Z', '2026-01-02T03:04:05Z'],
    ['string', 12, '12'],
    ['integer', '', null],
  ] as const)('%s %j -> %j', (type, input, value) => {
    expect(coerceFieldValue({ type }, input)).toEqual({ ok: true, value });
  });

  it.each([
    ['integer', '4.5'],
    ['integer', '1; drop table x'],
    ['decimal', '1e5'],
    ['decimal', 'NaN'],
    ['boolean', 'maybe'],
    ['date', '2023-02-29'],
    ['date', "2024-01-01' or 1=1"],
    ['datetime', 'tomorrow'],
    ['string', { a: 1 }],
  ] as const)('refuses %s %j', (type, input) => {
    expect(coerceFieldValue({ type }, input).ok).toBe(false);
  });
});

describe(prepareRecord.name, () => {
  const page: PageDefinition = {
    schemaVersion: 2,
    moduleCode: 'm',
    functionCode: 'f',
    titleCode: 't',
    status: 'published',
    table: { name: 'x' },
    scope: 'project',
    fields: [
      { name: 'code', labelCode: 'c', type: 'string', length: 3, mandatory: true, editable: false },
      { name: 'qty', labelCode: 'q', type: 'decimal', decimal: 1, min: 0, max: 9 },
      { name: 'status', labelCode: 's', type: 'string', defaultValue: 'new' },
      { name: 'reason', labelCode: 'r', type: 'string', condition: { when: { combinator: 'and', rules: [{ field: 'status', operator: '=', value: 'hold' }] }, effect: 'mandatory' } },
      { name: 'project_id', labelCode: 'p', type: 'integer' },
    ],
  };
  const prepared = preparePage(page, new Map());

  it('collects every problem of the record at once', () => {
    const result = prepareRecord(prepared, 'add', { code: 'ABCD', qty: '12.34', status: 'hold', nope: 1 });
    expect(result.errors.map((e) => `${e.field}:${e.code}`).sort()).toEqual(['code:FIELD_TOO_LONG', 'nope:FIELD_UNKNOWN', 'qty:FIELD_DECIMALS', 'qty:FIELD_RANGE', 'reason:FIELD_REQUIRED']);
  });

  it('applies defaults on add and never takes the scope column from the caller', () => {
    const result = prepareRecord(prepared, 'add', { code: 'A', project_id: 999 });
    expect(result.errors).toEqual([]);
    expect(result.values).toEqual({ code: 'A', status: 'new' });
  });

  it('ignores non-editable fields on update and checks the merged record', () => {
    const result = prepareRecord(prepared, 'update', { code: 'ZZZ', status: 'hold' }, { code: 'A', qty: '1', status: 'new', reason: null });
    expect(result.values).toEqual({ status: 'hold' });
    expect(result.errors.map((e) => `${e.field}:${e.code}`)).toEqual(['reason:FIELD_REQUIRED']);
  });
});

describe(parseCsv.name, () => {
  it('reads quoted cells, doubled quotes, CRLF and a BOM', () => {
    expect(parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\r\n1,\n').rows).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['1', ''],
    ]);
    expect(parseCsv('a;b\n1;2', ';').rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseCsv('"open').error).toBeDefined();
  });
});

describe(mapImportRows.name, () => {
  it('maps columns by header or index and reports a missing header', () => {
    const map = { code: 'm', titleCode: 't', columns: [{ header: 'Code', field: 'code' }, { index: 3, field: 'qty' }, { header: 'Missing', field: 'x' }] };
    const result = mapImportRows(map, [['code ', 'Name', 'Qty'], ['A', 'n', 2], [null, '', ''], ['B', 'm', '3']]);
    expect(result.records).toEqual([
      { row: 2, record: { code: 'A', qty: 2 } },
      { row: 4, record: { code: 'B', qty: '3' } },
    ]);
    expect(result.errors).toEqual([{ field: 'x', code: 'IMPORT_COLUMN_MISSING', params: { header: 'Missing' } }]);
  });

  it('finds a column under the label the export writes when the map names another header', () => {
    const map = { code: 'm', titleCode: 't', columns: [{ header: 'Base UOM', field: 'base_uom' }, { header: 'SKU', field: 'code' }] };
    const exported = [['SKU', 'Base unit'], ['A', 'EA']];
    expect(mapImportRows(map, exported).errors).toEqual([{ field: 'base_uom', code: 'IMPORT_COLUMN_MISSING', params: { header: 'Base UOM' } }]);
    const result = mapImportRows(map, exported, { base_uom: ['Base unit'] });
    expect(result.errors).toEqual([]);
    expect(result.records).toEqual([{ row: 2, record: { base_uom: 'EA', code: 'A' } }]);
  });
});

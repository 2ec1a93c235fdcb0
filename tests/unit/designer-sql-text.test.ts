import { describe, expect, it } from 'vitest';
import { checkSqlShape, sqlParameters } from '../../src/common/designer/sql-text.js';
import { diffJson, parseDefinitionFilePath, stableStringify } from '../../src/common/designer/stable-json.js';

describe('sqlParameters', () => {
  it.each([
    ['select * from sku where id = :id and code = :code', ['id', 'code']],
    ["select ':notParam', \"col:x\" from t where a = :a", ['a']],
    ['select x::numeric, :value::int -- :comment\n/* :block */', ['value']],
    ['select $$ :dollar $$, $tag$ :tagged $tag$, :real', ['real']],
    ['select :a, :a, :b', ['a', 'b']],
  ])('lists the parameters of %s', (text, expected) => {
    expect(sqlParameters(text)).toEqual(expected);
  });
});

describe('checkSqlShape', () => {
  it.each([
    ['select 1', 'read', undefined],
    ['with x as (select 1) select * from x;', 'read', undefined],
    ['  (select 1)', 'read', undefined],
    ['update sku set a = 1', 'read', 'notARead'],
    ['select 1; delete from sku', 'read', 'multipleStatements'],
    ["select ';' as semicolon", 'read', undefined],
    ['', 'read', 'empty'],
    ["select 'open", 'read', 'unterminated'],
    ['update sku set active = false where id = any(:keys)', 'write', undefined],
    ['drop table sku', 'write', 'notAWrite'],
  ] as const)('%s as %s: %s', (text, mode, expected) => {
    expect(checkSqlShape(text, mode)).toBe(expected);
  });
});

describe('stable JSON and diffs of definitions', () => {
  it('writes sorted keys at every depth, so equal documents give equal files', () => {
    expect(stableStringify({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(stableStringify({ a: { c: null, d: [{ y: 2, z: 1 }] }, b: 1 }));
    expect(stableStringify({ b: 1, a: 2 })).toBe('{\n  "a": 2,\n  "b": 1\n}\n');
  });

  it('matches fields by name, so a reorder reads as a move and an edit as one change', () => {
    const before = { fields: [{ name: 'a', length: 1 }, { name: 'b' }] };
    const after = { fields: [{ name: 'b' }, { name: 'a', length: 2 }] };
    expect(diffJson(before, after)).toEqual([
      { path: '/fields/a/length', kind: 'changed', before: 1, after: 2 },
      { path: '/fields', kind: 'changed', before: ['a', 'b'], after: ['b', 'a'] },
    ]);
  });

  it('reads export paths', () => {
    expect(parseDefinitionFilePath('export/masterdata/sku.page.json')).toEqual({ moduleCode: 'masterdata', functionCode: 'sku' });
    expect(parseDefinitionFilePath('../etc/passwd')).toBeUndefined();
  });
});

import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '../../../engine/schema/index.js';
import { compileConditions } from '../../../engine/server/compile-conditions.js';
import { compileSort } from '../../../engine/server/compile-sort.js';

const cold = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const FIELDS: FieldDefinition[] = [
  { name: 'code', labelCode: 'c', type: 'string', searchable: true },
  { name: 'qty', labelCode: 'q', type: 'decimal', searchable: true },
  { name: 'active', labelCode: 'a', type: 'boolean', searchable: true },
  { name: 'born', labelCode: 'b', type: 'date', searchable: true },
];
const whitelist = new Map(FIELDS.map((f) => [f.name, f]));
const column = (f: FieldDefinition) => sql.ref(`t.${f.name}`);

function compile(group: unknown) {
  const result = compileConditions(group, whitelist, column);
  return { errors: result.errors, ...(result.where ? sql`${result.where}`.compile(cold) : { sql: null, parameters: [] }) };
}

describe(compileConditions.name, () => {
  it.each([
    [{ field: 'code', operator: '=', value: 'A' }, '"t"."code" = $1', ['A']],
    [{ field: 'code', operator: '!=', value: 'A' }, '"t"."code" is distinct from $1', ['A']],
    [{ field: 'qty', operator: '<=', value: 5 }, '"t"."qty" <= $1', ['5']],
    [{ field: 'code', operator: 'contains', value: '50%_off' }, "cast(\"t\".\"code\" as text) ilike $1 escape '\\'", ['%50\\%\\_off%']],
    [{ field: 'code', operator: 'beginsWith', value: 'A' }, "cast(\"t\".\"code\" as text) ilike $1 escape '\\'", ['A%']],
    [{ field: 'code', operator: 'endsWith', value: 'A' }, "cast(\"t\".\"code\" as text) ilike $1 escape '\\'", ['%A']],
    [{ field: 'code', operator: 'in', value: 'A, B' }, '"t"."code" in ($1, $2)', ['A', 'B']],
    [{ field: 'code', operator: 'notIn', value: ['A'] }, '("t"."code" not in ($1) or "t"."code" is null)', ['A']],
    [{ field: 'qty', operator: 'between', value: ['1', '2.5'] }, '"t"."qty" between $1 and $2', ['1', '2.5']],
    [{ field: 'born', operator: 'null' }, '"t"."born" is null', []],
    [{ field: 'born', operator: 'notNull' }, '"t"."born" is not null', []],
    [{ field: 'active', operator: '=', value: 'true' }, '"t"."active" = $1', [true]],
  ])('%j', (rule, expectedSql, parameters) => {
    const compiled = compile({ combinator: 'and', rules: [rule] });
    expect(compiled.errors).toEqual([]);
    expect(compiled.sql).toBe(`(${expectedSql})`);
    expect(compiled.parameters).toEqual(parameters);
  });

  it('nests AND/OR groups and NOT, skipping disabled rules', () => {
    const compiled = compile({
      combinator: 'or',
      rules: [
        { field: 'code', operator: '=', value: 'A' },
        { combinator: 'and', not: true, rules: [{ field: 'qty', operator: '>', value: 1 }, { field: 'active', operator: '=', value: false }] },
        { field: 'code', operator: '=', value: 'ignored', disabled: true },
      ],
    });
    expect(compiled.sql).toBe('("t"."code" = $1 or not ("t"."qty" > $2 and "t"."active" = $3))');
    expect(compiled.parameters).toEqual(['A', '1', false]);
  });

  it('refuses unknown fields, unknown operators and values of the wrong type, all at once', () => {
    const compiled = compile({
      combinator: 'and',
      rules: [
        { field: 'secret', operator: '=', value: 1 },
        { field: 'code; drop table t', operator: '=', value: 1 },
        { field: 'code', operator: 'like', value: '%' },
        { field: 'code', operator: '= 1 or 1=1 --', value: 1 },
        { field: 'qty', operator: '=', value: '1 or 1=1' },
        { field: 'born', operator: '>', value: '2026-13-45' },
        { combinator: 'xor', rules: [] },
      ],
    });
    expect(compiled.sql).toBeNull();
    expect(compiled.errors.map((e) => e.code)).toEqual(['QUERY_FIELD', 'QUERY_FIELD', 'QUERY_OPERATOR', 'QUERY_OPERATOR', 'FIELD_TYPE', 'FIELD_TYPE', 'QUERY_INVALID']);
  });

  it('refuses a field that exists on the object prototype', () => {
    expect(compile({ combinator: 'and', rules: [{ field: 'constructor', operator: '=', value: 1 }] }).errors[0].code).toBe('QUERY_FIELD');
  });
});

describe(compileSort.name, () => {
  it('writes only whitelisted fields and fixed directions', () => {
    const result = compileSort([{ field: 'qty', direction: 'desc' }], whitelist, column);
    expect(sql.join(result.orderBy).compile(cold).sql).toBe('"t"."qty" desc');
  });

  it('refuses an attack in the field or the direction', () => {
    const result = compileSort(
      [
        { field: 'id desc; drop table t', direction: 'asc' },
        { field: 'qty', direction: 'asc; drop table t' },
      ],
      whitelist,
      column,
    );
    expect(result.orderBy).toEqual([]);
    expect(result.errors.map((e) => e.code)).toEqual(['QUERY_FIELD', 'QUERY_INVALID']);
  });
});

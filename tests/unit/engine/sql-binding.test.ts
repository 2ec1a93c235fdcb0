import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bindNamedSql } from '../../../engine/server/bind-named-sql.js';
import { EngineError } from '../../../engine/server/engine-error.js';
import { parseNamedSql } from '../../../engine/server/parse-named-sql.js';

/** A Kysely that only compiles (no database): what SQL text and which parameters would be sent. */
const cold = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe(parseNamedSql.name, () => {
  it('finds :named parameters outside strings, quoted identifiers, comments and casts', () => {
    const result = parseNamedSql(`select ':notParam', "col:x", $$ :alsoNot $$, :a::int -- :comment
      /* :block */ from t where b = :b and c = :a`);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.sql.params).toEqual(['a', 'b', 'a']);
  });

  it.each([
    ['select 1; drop table x', 'only one statement'],
    ['select 1; -- trailing comment only', undefined],
    ["select 'open", 'unterminated string'],
    ['select $1', 'positional'],
    ['   ', 'empty'],
  ])('%j', (text, problem) => {
    const result = parseNamedSql(text);
    if (problem === undefined) expect(result.ok).toBe(true);
    else expect(result.ok ? '' : result.message).toContain(problem);
  });
});

describe(bindNamedSql.name, () => {
  it('sends every value as a positional parameter, never as SQL text', () => {
    const attack = "' or 1=1; drop table sku; --";
    const compiled = bindNamedSql('select * from sku where code = :code and project_id = :projectId and name = :code', {
      code: attack,
      projectId: 7,
    }).compile(cold);
    expect(compiled.sql).toBe('select * from sku where code = $1 and project_id = $2 and name = $3');
    expect(compiled.parameters).toEqual([attack, 7, attack]);
    expect(compiled.sql).not.toContain('drop');
  });

  it('refuses a parameter nobody provides, and a second statement', () => {
    expect(() => bindNamedSql('select :missing', {})).toThrow(EngineError);
    expect(() => bindNamedSql('select 1; delete from sku', {})).toThrow(EngineError);
  });
});


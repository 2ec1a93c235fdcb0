import { sql, type RawBuilder } from 'kysely';
import type { FieldDefinition, NamedSql, PageScope } from '../schema/index.js';
import { bindNamedSql } from './bind-named-sql.js';
import type { BoundValue } from './coerce-field-value.js';
import { configuratorSqlFailure, enterConfiguratorRole, requireAllowedSql } from './configurator-sql.js';
import type { EngineDb, EngineTransaction } from './engine-db.js';
import { EngineError, type EngineFieldError } from './engine-error.js';
import { sessionSqlParams, type EngineSession } from './engine-session.js';
import { foreignRowConditions, type ForeignRowFilters } from './foreign-rows.js';
import type { PreparedPage } from './prepared-page.js';
import type { PreparedRecord } from './prepare-record.js';

/** A foreign table a field's value must be found in, with the scope its definition declares. */
interface TableSource {
  table: string;
  column: string;
  scope: PageScope | undefined;
}

/** The foreign tables of a field: its dropdown's table and its `foreign` rule, each one checked. */
function tableSourcesOf(field: FieldDefinition): TableSource[] {
  const sources: TableSource[] = [];
  if (field.options?.type === 'foreign') sources.push({ table: field.options.table, column: field.options.valueField, scope: field.options.scope });
  if (field.foreign && !sources.some((s) => s.table === field.foreign!.table && s.column === field.foreign!.field)) {
    sources.push({ table: field.foreign.table, column: field.foreign.field, scope: undefined });
  }
  return sources;
}

/** The `:named` parameters of a dropdown SQL: the record's fields, the search text and the session's names. */
export function dropdownSqlParams(prepared: PreparedPage, session: EngineSession, record: Record<string, BoundValue>, search: string | null): Record<string, unknown> {
  const params: Record<string, unknown> = { search };
  for (const field of prepared.page.fields) params[field.name] = record[field.name] ?? null;
  return { ...params, ...sessionSqlParams(session) };
}

function namedSqlOf(prepared: PreparedPage, name: string): NamedSql {
  const named = (prepared.page.sqls ?? []).find((s) => s.name === name);
  if (!named) throw new EngineError('SYSTEM_CONFIG', { reason: `dropdown SQL ${name} missing` });
  return named;
}

function sameValue(stored: unknown, value: BoundValue): boolean {
  if (typeof stored !== 'string' && typeof stored !== 'number' && typeof stored !== 'boolean') return false;
  return String(stored) === String(value);
}

export interface ForeignCheckOptions {
  /** The row as stored, on update: a value the row already has is not checked again. */
  stored?: Record<string, unknown>;
  /** Shared by the rows of one import: foreign table values already found in scope. */
  found?: Set<string>;
}

/**
 * THE scope check of foreign values (README: foreign and options): every value a write sets in a
 * field that names a foreign table (its dropdown's table or its `foreign` rule) or a dropdown SQL
 * must be one the field's dropdown would offer this caller: in the table under the same scope,
 * project, warehouse and row filter conditions as the dropdown (`foreignRowConditions`), or among
 * the rows of the dropdown SQL run for this record under the configurator read role (whose
 * row-level security keeps to the session's scope). Anything else is FIELD_FOREIGN, one error per
 * field, all returned at once. Code-master and static choices name no scoped rows and are not
 * checked here. Runs inside the write's transaction; the SQL checks in a savepoint that is rolled
 * back, which restores the engine's role and settings.
 */
export async function checkForeignValues(
  trx: EngineTransaction,
  prepared: PreparedPage,
  session: EngineSession,
  record: Pick<PreparedRecord, 'values' | 'unstored' | 'merged' | 'failed'>,
  rowFilters: ForeignRowFilters | undefined,
  options: ForeignCheckOptions = {},
): Promise<EngineFieldError[]> {
  const errors: EngineFieldError[] = [];
  const bySql: Array<{ field: FieldDefinition; named: NamedSql; value: BoundValue }> = [];
  for (const [name, value] of Object.entries({ ...record.values, ...record.unstored })) {
    if (value === null || record.failed.has(name)) continue;
    const field = prepared.fieldsByName.get(name);
    if (!field) continue;
    if (options.stored && sameValue(options.stored[name], value)) continue;
    let refused: TableSource | undefined;
    for (const source of tableSourcesOf(field)) {
      const key = `${source.table}\u0000${source.column}\u0000${source.scope ?? ''}\u0000${String(value)}`;
      if (options.found?.has(key)) continue;
      const where = [sql`${sql.ref(`f.${source.column}`)} = ${value}`, ...foreignRowConditions(prepared, session, source.table, source.scope, rowFilters)];
      if (!(await exists(trx, sql`${sql.table(source.table)} as f`, where))) {
        refused = source;
        break;
      }
      options.found?.add(key);
    }
    if (refused) {
      errors.push({ field: name, code: 'FIELD_FOREIGN', params: { table: refused.table } });
      continue;
    }
    if (field.options?.type === 'sql') bySql.push({ field, named: namedSqlOf(prepared, field.options.sql), value });
  }
  if (bySql.length) errors.push(...(await checkSqlChoices(trx, prepared, session, record.merged, bySql)));
  return errors;
}

/** Values of fields whose dropdown is a named SQL: each must be among the rows it answers for this record. */
async function checkSqlChoices(
  trx: EngineTransaction,
  prepared: PreparedPage,
  session: EngineSession,
  merged: Record<string, BoundValue>,
  checks: Array<{ field: FieldDefinition; named: NamedSql; value: BoundValue }>,
): Promise<EngineFieldError[]> {
  for (const { named } of checks) await requireAllowedSql(named.name, named.text, 'read');
  const params = dropdownSqlParams(prepared, session, merged, null);
  await sql`savepoint engine_foreign_sql`.execute(trx);
  try {
    await enterConfiguratorRole(trx, session, 'read');
    const errors: EngineFieldError[] = [];
    for (const { field, named, value } of checks) {
      const { rows } = await sql`
        select 1 from (${bindNamedSql(named.text, params)}) as d where cast(d.value as text) = ${String(value)} limit 1
      `.execute(trx);
      if (!rows.length) errors.push({ field: field.name, code: 'FIELD_FOREIGN', params: { sql: named.name } });
    }
    return errors;
  } catch (error) {
    throw configuratorSqlFailure(error);
  } finally {
    await sql`rollback to savepoint engine_foreign_sql`.execute(trx);
    await sql`release savepoint engine_foreign_sql`.execute(trx);
  }
}

async function exists(db: EngineDb, from: RawBuilder<unknown>, where: RawBuilder<unknown>[]): Promise<boolean> {
  const { rows } = await sql`select 1 from ${from} where ${sql.join(where, sql` and `)} limit 1`.execute(db);
  return rows.length > 0;
}

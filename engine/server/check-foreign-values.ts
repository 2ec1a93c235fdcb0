import { sql, type RawBuilder } from 'kysely';
import type { FieldDefinition, PageScope } from '../schema/index.js';
import { bindNamedSql } from './bind-named-sql.js';
import type { BoundValue } from './coerce-field-value.js';
import { configuratorSqlFailure, enterConfiguratorRole, requireAllowedSql } from './configurator-sql.js';
import type { EngineDb, EngineTransaction } from './engine-db.js';
import type { EngineFieldError } from './engine-error.js';
import { sessionSqlParams, type EngineSession } from './engine-session.js';
import { foreignFilterConditions, foreignFilterKey, type ForeignOptions } from './foreign-options.js';
import { foreignRowConditions, type ForeignRowFilters } from './foreign-rows.js';
import type { PreparedPage } from './prepared-page.js';
import type { PreparedRecord } from './prepare-record.js';

/** A foreign table a field's value must be found in, with the scope its definition declares. */
interface TableSource {
  table: string;
  column: string;
  scope: PageScope | undefined;
  /** The dropdown's options, whose filter narrows the rows too. */
  options?: ForeignOptions;
}

/** The foreign tables of a field: its dropdown's table and its `foreign` rule, each one checked. */
function tableSourcesOf(field: FieldDefinition): TableSource[] {
  const sources: TableSource[] = [];
  if (field.options?.type === 'foreign') sources.push({ table: field.options.table, column: field.options.valueField, scope: field.options.scope, options: field.options });
  if (field.foreign && !sources.some((s) => s.table === field.foreign!.table && s.column === field.foreign!.field)) {
    sources.push({ table: field.foreign.table, column: field.foreign.field, scope: undefined });
  }
  return sources;
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
  /** The codes a code-master dropdown offers the caller (the application's port); without it, such values are not checked. */
  codeMaster?: (codeType: string, session: EngineSession) => Promise<Array<{ value: unknown }>>;
}

/**
 * THE scope check of foreign values (README: foreign and options): every value a write sets in a
 * field that names a foreign table (its dropdown's table or its `foreign` rule) must be one the
 * field's dropdown would offer this caller, found in the table under the same scope, project,
 * warehouse and row filter conditions (`foreignRowConditions`). Anything else is FIELD_FOREIGN, one
 * error per field, all returned at once. A field whose dropdown is the page's own SQL takes only a
 * value that SQL offers, run as the dropdown runs it (`sqlOffers`); a code-master or static list
 * only one of its codes.
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
  const written: Record<string, BoundValue> = { ...record.values, ...record.unstored };
  // A value the write leaves as it was is checked again when a field its dropdown follows changes.
  if (options.stored) {
    for (const field of prepared.page.fields) {
      if (!Object.hasOwn(written, field.name) && followedFieldChanged(field, record.values, options.stored)) written[field.name] = record.merged[field.name] ?? null;
    }
  }
  for (const [name, value] of Object.entries(written)) {
    if (value === null || record.failed.has(name)) continue;
    const field = prepared.fieldsByName.get(name);
    if (!field) continue;
    // A value the row already has is not checked again, unless a field its dropdown follows changed
    // (another SKU: the lot must be one of that SKU's).
    if (options.stored && sameValue(options.stored[name], value) && !followedFieldChanged(field, record.values, options.stored)) continue;
    if (!(await listOffers(prepared, session, field, value, options))) {
      errors.push({ field: name, code: 'FIELD_FOREIGN', params: { list: field.options!.type === 'codeMaster' ? field.options!.codeType : field.name } });
      continue;
    }
    if (field.options?.type === 'sql' && !(await sqlOffers(trx, prepared, session, field, value, record.merged))) {
      errors.push({ field: name, code: 'FIELD_FOREIGN', params: { sql: field.options.sql } });
      continue;
    }
    let refused: TableSource | undefined;
    for (const source of tableSourcesOf(field)) {
      const filterKey = source.options ? foreignFilterKey(prepared, source.options, record.merged) : '';
      const key = `${source.table}\u0000${source.column}\u0000${source.scope ?? ''}\u0000${String(value)}\u0000${filterKey}`;
      if (options.found?.has(key)) continue;
      const where = [
        sql`${sql.ref(`f.${source.column}`)} = ${value}`,
        ...foreignRowConditions(prepared, session, source.table, source.scope, rowFilters),
        ...(source.options ? foreignFilterConditions(prepared, source.options, record.merged, 'f') : []),
      ];
      if (!(await exists(trx, sql`${sql.table(source.table)} as f`, where))) {
        refused = source;
        break;
      }
      options.found?.add(key);
    }
    if (refused) errors.push({ field: name, code: 'FIELD_FOREIGN', params: { table: refused.table } });
  }
  return errors;
}

/** A static or code-master dropdown offers the value (true for a field of another kind of dropdown). */
async function listOffers(prepared: PreparedPage, session: EngineSession, field: FieldDefinition, value: BoundValue, options: ForeignCheckOptions): Promise<boolean> {
  const list = field.options;
  if (list?.type === 'static') return list.items.some((item) => sameValue(item.value, value));
  if (list?.type !== 'codeMaster' || !options.codeMaster) return true;
  const key = `codeMaster\u0000${list.codeType}\u0000${String(value)}`;
  if (options.found?.has(key)) return true;
  const offered = (await options.codeMaster(list.codeType, session)).some((o) => sameValue(o.value, value));
  if (offered) options.found?.add(key);
  return offered;
}

/**
 * The field's dropdown SQL offers the value: the SQL runs as the dropdown runs it (same configurator
 * read role, scope settings, the record's values and the session's names as parameters, no search),
 * wrapped as a subquery filtered by its value column, in a savepoint of the write's transaction that
 * is rolled back afterwards to restore the engine's role.
 */
async function sqlOffers(
  trx: EngineTransaction,
  prepared: PreparedPage,
  session: EngineSession,
  field: FieldDefinition,
  value: BoundValue,
  merged: Record<string, BoundValue>,
): Promise<boolean> {
  if (field.options?.type !== 'sql') return true;
  const sqlName = field.options.sql;
  const named = (prepared.page.sqls ?? []).find((s) => s.name === sqlName);
  if (!named) return false;
  await requireAllowedSql(named.name, named.text, 'read');
  const params: Record<string, unknown> = { search: null };
  for (const f of prepared.page.fields) params[f.name] = merged[f.name] ?? null;
  Object.assign(params, sessionSqlParams(session));
  await sql`savepoint engine_foreign_sql`.execute(trx);
  try {
    await enterConfiguratorRole(trx, session, 'read');
    const { rows } = await sql`select 1 from (${bindNamedSql(named.text, params)}) as d where cast(d.value as text) = ${String(value)} limit 1`.execute(trx);
    return rows.length > 0;
  } catch (error) {
    throw configuratorSqlFailure(error);
  } finally {
    await sql`rollback to savepoint engine_foreign_sql`.execute(trx);
    await sql`release savepoint engine_foreign_sql`.execute(trx);
  }
}

/** A field the dropdown of `field` follows (a `field` filter) gets another value in this write. */
function followedFieldChanged(field: FieldDefinition, values: Record<string, BoundValue>, stored: Record<string, unknown>): boolean {
  if (field.options?.type !== 'foreign') return false;
  const blank = (value: unknown) => value === null || value === undefined || value === '';
  return (field.options.filter ?? []).some((filter) => {
    if (!('field' in filter) || !Object.hasOwn(values, filter.field)) return false;
    const before = stored[filter.field];
    const after = values[filter.field];
    return blank(before) || blank(after) ? blank(before) !== blank(after) : !sameValue(before, after);
  });
}

async function exists(db: EngineDb, from: RawBuilder<unknown>, where: RawBuilder<unknown>[]): Promise<boolean> {
  const { rows } = await sql`select 1 from ${from} where ${sql.join(where, sql` and `)} limit 1`.execute(db);
  return rows.length > 0;
}

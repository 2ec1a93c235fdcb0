import { sql, type RawBuilder } from 'kysely';
import type { EngineDb } from './engine-db.js';
import type { RowKey } from '../schema/api.js';
import { isStored, keyFieldOf, pageSizeOf, tableAliasOf } from '../schema/index.js';
import { bindNamedSql } from './bind-named-sql.js';
import { inConfiguratorTransaction, inReadOnlyTransaction, requireAllowedSql } from './configurator-sql.js';
import type { EngineTransaction } from './engine-db.js';
import { compileConditions } from './compile-conditions.js';
import { compileSort } from './compile-sort.js';
import { EngineError, throwIfFieldErrors, type EngineFieldError } from './engine-error.js';
import { sessionSqlParams, type EngineSession } from './engine-session.js';
import { foreignRowConditions } from './foreign-rows.js';
import { LABEL_PREFIX, normalizeRow, type EngineRow } from './normalize-row.js';
import { columnRef, keyColumnIsInteger, pageScopeConditions, rowFilterCondition, versionExpression, type PreparedPage } from './prepared-page.js';

export interface RowQuery {
  /** A react-querybuilder group over searchable fields. */
  conditions?: unknown;
  sort?: unknown;
  /** Page inputs for a list SQL's :named parameters. */
  inputs?: Record<string, unknown>;
  /** Equality filters on fields of the page (sub-page links); names are the definition's. */
  links?: { field: string; value: unknown }[];
}

export interface CompiledRowQuery {
  from: RawBuilder<unknown>;
  where: RawBuilder<unknown>;
  orderBy: RawBuilder<unknown>;
  select: RawBuilder<unknown>;
}

/**
 * Builds the parts of a page's SELECT: rows from the table or from its list
 * SQL wrapped as a subquery, always limited to the session's scope, filtered by the compiled
 * conditions and links, sorted by whitelisted fields then by the key for stable paging. Throws
 * VALIDATION_FAILED with every problem of the conditions and the sort at once.
 */
export function compileRowQuery(prepared: PreparedPage, session: EngineSession, query: RowQuery, options: { labels?: boolean } = {}): CompiledRowQuery {
  const { page } = prepared;
  const alias = sql.id(tableAliasOf(page));
  const column = (field: { name: string }) => columnRef(page, field.name);
  const errors: EngineFieldError[] = [];

  let from: RawBuilder<unknown>;
  if (page.listSql !== undefined) {
    const named = (page.sqls ?? []).find((s) => s.name === page.listSql);
    if (!named) throw new EngineError('SYSTEM_CONFIG', { reason: `list SQL ${page.listSql} missing` });
    const inputs = Object.fromEntries(Object.entries(query.inputs ?? {}).filter(([name]) => !RESERVED.has(name)));
    from = sql`(${bindNamedSql(named.text, { ...withNulls(named.text), ...inputs, ...sessionSqlParams(session) })}) as ${alias}`;
  } else {
    from = sql`${sql.table(page.table.name)} as ${alias}`;
  }

  const where: RawBuilder<unknown>[] = pageScopeConditions(prepared, session, (name) => columnRef(page, name), { tableColumns: page.listSql === undefined });
  const filtered = rowFilterCondition(prepared, session);
  if (filtered) where.push(filtered);

  const conditions = compileConditions(query.conditions, prepared.searchableByName, column);
  errors.push(...conditions.errors);
  if (conditions.where) where.push(conditions.where);

  for (const link of query.links ?? []) {
    const field = prepared.fieldsByName.get(link.field);
    if (!field && link.field !== keyFieldOf(page)) throw new EngineError('SYSTEM_CONFIG', { reason: `link field ${link.field} missing` });
    where.push(link.value === null ? sql`${columnRef(page, link.field)} is null` : sql`${columnRef(page, link.field)} = ${link.value}`);
  }

  const sort = compileSort(query.sort, prepared.fieldsByName, column);
  errors.push(...sort.errors);
  throwIfFieldErrors(errors);
  const orderBy = sort.orderBy.length ? sort.orderBy : compileSort(page.defaultSort ?? [], prepared.fieldsByName, column).orderBy;
  orderBy.push(sql`${columnRef(page, keyFieldOf(page))} asc`);

  const select = sql.join([
    // A field that is not a column (handed to the writer only) always reads as null.
    ...page.fields.map((f) => (isStored(f) ? sql`${column(f)} as ${sql.id(f.name)}` : sql`null as ${sql.id(f.name)}`)),
    sql`${columnRef(page, keyFieldOf(page))} as "_key"`,
    sql`${versionExpression(page)} as "_version"`,
    ...(options.labels ? foreignLabelColumns(prepared, session) : []),
  ]);
  return { from, where: where.length ? sql.join(where, sql` and `) : sql`true`, orderBy: sql.join(orderBy), select };
}

const INTEGER_TYPES = ['integer', 'bigint', 'smallint'];
const TEXT_TYPES = ['text', 'character varying', 'character', 'citext'];

/**
 * For each stored field with a foreign dropdown, the label column of the row its value names, as
 * `_label:<field>` (normalizeRow gathers them into `_labels`): one lookup per row and field, within
 * the same scope as the dropdown (never another project's row by omission) but without its
 * filter, so a value stored before the filter existed still reads as its code. Pages listing
 * through their own SQL join the texts they show themselves and get none.
 */
function foreignLabelColumns(prepared: PreparedPage, session: EngineSession): RawBuilder<unknown>[] {
  const { page } = prepared;
  if (page.listSql !== undefined) return [];
  const alias = 'engine_label';
  const columns: RawBuilder<unknown>[] = [];
  for (const field of page.fields) {
    const options = field.options;
    if (options?.type !== 'foreign' || !isStored(field)) continue;
    let scoped: RawBuilder<unknown>[];
    try {
      scoped = foreignRowConditions(prepared, session, options.table, options.scope, undefined, alias);
    } catch {
      // A session without the dropdown's scope reads no label; the list still shows the value.
      continue;
    }
    const own = columnRef(page, field.name);
    const other = sql.ref(`${alias}.${options.valueField}`);
    const ownType = prepared.catalog.get(page.table.name)?.get(field.name) ?? '';
    const otherType = prepared.catalog.get(options.table)?.get(options.valueField) ?? '';
    const comparable = ownType === otherType || (INTEGER_TYPES.includes(ownType) && INTEGER_TYPES.includes(otherType)) || (TEXT_TYPES.includes(ownType) && TEXT_TYPES.includes(otherType));
    const match = comparable ? sql`${other} = ${own}` : sql`cast(${other} as text) = cast(${own} as text)`;
    const label = sql.ref(`${alias}.${options.labelField ?? options.valueField}`);
    columns.push(sql`(select cast(${label} as text) from ${sql.table(options.table)} as ${sql.id(alias)}
      where ${sql.join([match, ...scoped], sql` and `)} limit 1) as ${sql.id(`${LABEL_PREFIX}${field.name}`)}`);
  }
  return columns;
}

const RESERVED = new Set(Object.keys(sessionSqlParams({} as EngineSession)));

/** List SQL parameters nobody sent are null, so a page without inputs still lists. */
function withNulls(text: string): Record<string, null> {
  const names = text.match(/(?<!:):[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  return Object.fromEntries(names.map((n) => [n.slice(1), null]));
}

/**
 * Runs a read of the page's rows in a read-only transaction: under the configurator read role
 * when the page lists through its own SQL, which the parser must accept first; as the
 * engine otherwise (the page's table and columns were checked when it was published).
 */
export async function inPageReadTransaction<T>(
  db: EngineDb,
  prepared: PreparedPage,
  session: EngineSession,
  work: (trx: EngineTransaction) => Promise<T>,
  options: { statementTimeoutMs?: number } = {},
): Promise<T> {
  const { page } = prepared;
  if (page.listSql === undefined) return inReadOnlyTransaction(db, work, options);
  const named = (page.sqls ?? []).find((s) => s.name === page.listSql);
  if (!named) throw new EngineError('SYSTEM_CONFIG', { reason: `list SQL ${page.listSql} missing` });
  await requireAllowedSql(named.name, named.text, 'read');
  return inConfiguratorTransaction(db, session, 'read', work, options);
}

/**
 * Up to this many matching rows a page answers the exact count; past it, the planner's estimate
 *: an exact count reads every matching row, on every page of a large table.
 */
export const PAGE_COUNT_LIMITS = { exactBelow: 100_000 };

/** One page of rows and the total count (at most 100 rows a page). */
export async function selectPage(
  db: EngineDb,
  prepared: PreparedPage,
  session: EngineSession,
  query: RowQuery & { page: number; pageSize?: number },
): Promise<{ rows: EngineRow[]; total: number; totalEstimated?: boolean }> {
  const compiled = compileRowQuery(prepared, session, query, { labels: true });
  const pageSize = Math.min(query.pageSize ?? pageSizeOf(prepared.page), 100);
  const offset = (Math.max(query.page, 1) - 1) * pageSize;
  const { rows } = await sql<Record<string, unknown>>`
    select ${compiled.select} from ${compiled.from} where ${compiled.where}
    order by ${compiled.orderBy} limit ${pageSize} offset ${offset}
  `.execute(db);
  const normalized = rows.map((row) => normalizeRow(prepared, row));
  // A first page that is not full is the whole list: nothing left to count.
  if (offset === 0 && rows.length < pageSize) return { rows: normalized, total: rows.length };
  // Counting stops past the limit; a longer list answers the planner's estimate instead.
  const limit = PAGE_COUNT_LIMITS.exactBelow;
  const counted = await sql<{ total: unknown }>`
    select count(*) as total from (select 1 from ${compiled.from} where ${compiled.where} limit ${limit + 1}) as capped
  `.execute(db);
  const total = Number(counted.rows[0].total);
  if (total <= limit) return { rows: normalized, total };
  const { rows: plan } = await sql<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>`
    explain (format json) select 1 from ${compiled.from} where ${compiled.where}
  `.execute(db);
  const estimate = Math.round(plan[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
  return { rows: normalized, total: Math.max(estimate, limit + 1), totalEstimated: true };
}

/**
 * The row of this key as the page lists it to the caller, or undefined: the page's whole selection
 * (scope, row filter, list SQL) limited to the key. Run it in the page's read transaction
 * (`inPageReadTransaction`), as a selection is.
 */
export async function findListedRow(db: EngineDb, prepared: PreparedPage, session: EngineSession, key: string | number): Promise<EngineRow | undefined> {
  const compiled = compileRowQuery(prepared, session, { links: [{ field: keyFieldOf(prepared.page), value: key }] });
  const { rows } = await sql<Record<string, unknown>>`select ${compiled.select} from ${compiled.from} where ${compiled.where} limit 1`.execute(db);
  return rows.length ? normalizeRow(prepared, rows[0]) : undefined;
}

/** Every matching row in batches, for export; stops after maxRows. */
export async function* iterateRows(
  db: EngineDb,
  prepared: PreparedPage,
  session: EngineSession,
  query: RowQuery,
  options: { batchSize?: number; maxRows?: number } = {},
): AsyncGenerator<EngineRow[]> {
  const compiled = compileRowQuery(prepared, session, query);
  const batchSize = options.batchSize ?? 500;
  const maxRows = options.maxRows ?? 100_000;
  for (let offset = 0; offset < maxRows; offset += batchSize) {
    const { rows } = await sql<Record<string, unknown>>`
      select ${compiled.select} from ${compiled.from} where ${compiled.where}
      order by ${compiled.orderBy} limit ${Math.min(batchSize, maxRows - offset)} offset ${offset}
    `.execute(db);
    if (rows.length) yield rows.map((row) => normalizeRow(prepared, row));
    if (rows.length < batchSize) return;
  }
}

/**
 * A key from the caller as the key column takes it, or undefined when it cannot be one (then no
 * row has it: the caller gets NO_RECORD, and the text never reaches the database as SQL).
 */
export function parseRowKey(prepared: PreparedPage, key: RowKey): string | number | undefined {
  if (keyColumnIsInteger(prepared)) {
    const text = String(key).trim();
    return /^-?\d{1,18}$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
  }
  return typeof key === 'string' || typeof key === 'number' ? String(key) : undefined;
}

/** The rows of these keys within the session's scope (for behaviours, tabs and writes). */
export async function findRowsByKeys(
  db: EngineDb,
  prepared: PreparedPage,
  session: EngineSession,
  keys: RowKey[],
  /** rowFilter false: a row the caller's own transaction just wrote, read back for the page's writer before its rules run. */
  options: { rowFilter?: boolean } = {},
): Promise<EngineRow[]> {
  const parsed = keys.map((k) => parseRowKey(prepared, k)).filter((k): k is string | number => k !== undefined);
  if (!parsed.length) return [];
  const { page } = prepared;
  const where: RawBuilder<unknown>[] = [sql`${columnRef(page, keyFieldOf(page))} in (${sql.join(parsed)})`, ...pageScopeConditions(prepared, session, (name) => columnRef(page, name))];
  const filtered = options.rowFilter === false ? undefined : rowFilterCondition(prepared, session);
  if (filtered) where.push(filtered);
  const select = sql.join([
    ...page.fields.map((f) => (isStored(f) ? sql`${columnRef(page, f.name)} as ${sql.id(f.name)}` : sql`null as ${sql.id(f.name)}`)),
    sql`${columnRef(page, keyFieldOf(page))} as "_key"`,
    sql`${versionExpression(page)} as "_version"`,
  ]);
  const { rows } = await sql<Record<string, unknown>>`
    select ${select} from ${sql.table(page.table.name)} as ${sql.id(tableAliasOf(page))} where ${sql.join(where, sql` and `)}
  `.execute(db);
  return rows.map((row) => normalizeRow(prepared, row));
}

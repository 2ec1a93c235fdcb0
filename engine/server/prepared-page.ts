import { sql, type RawBuilder } from 'kysely';
import type { FieldDefinition, PageDefinition } from '../schema/index.js';
import { isSearchable, keyFieldOf, tableAliasOf, versionFieldOf } from '../schema/index.js';
import type { TableColumns } from './catalog.js';
import { EngineError } from './engine-error.js';
import { requireScopeValue, scopeColumnOf, type EngineSession } from './engine-session.js';

/**
 * A published definition that passed the catalog check, with what the engine derives from it once:
 * the catalog columns of its tables and the whitelists of fields by name. The application caches it
 * per process.
 */
export interface PreparedPage {
  page: PageDefinition;
  /** Catalog columns of the page's table and of every table its fields refer to. */
  catalog: ReadonlyMap<string, TableColumns>;
  fieldsByName: ReadonlyMap<string, FieldDefinition>;
  searchableByName: ReadonlyMap<string, FieldDefinition>;
  /** The page's row filter (its `rowFilter` property), as the application defined it. */
  rowFilter?: RowFilter;
}

/**
 * A row filter the application defines in code: given the caller and the page's
 * key column, a condition every row the caller may see fulfils, or undefined for no limit.
 */
export type RowFilter = (session: EngineSession, key: RawBuilder<unknown>) => RawBuilder<unknown> | undefined;

/**
 * A definition made ready for use: field lookups and its row filter. A page naming a row filter
 * the application does not define is refused (fail closed: it would otherwise show every row).
 */
export function preparePage(page: PageDefinition, catalog: ReadonlyMap<string, TableColumns>, rowFilters: ReadonlyMap<string, RowFilter> = new Map()): PreparedPage {
  const rowFilter = page.rowFilter === undefined ? undefined : rowFilters.get(page.rowFilter);
  if (page.rowFilter !== undefined && !rowFilter) throw new EngineError('SYSTEM_CONFIG', { reason: `row filter ${page.rowFilter} is not defined` });
  return {
    page,
    catalog,
    fieldsByName: new Map(page.fields.map((f) => [f.name, f])),
    searchableByName: new Map(page.fields.filter(isSearchable).map((f) => [f.name, f])),
    ...(rowFilter ? { rowFilter } : {}),
  };
}

/** The condition of the page's row filter for this caller, if any. */
export function rowFilterCondition(prepared: PreparedPage, session: EngineSession): RawBuilder<unknown> | undefined {
  return prepared.rowFilter?.(session, columnRef(prepared.page, keyFieldOf(prepared.page)));
}

/**
 * The scope of a page's own rows (README: page property `scope`), as conditions on its table's
 * columns through `column`: the scope column at the session's value, and on a page scoped by
 * warehouse whose table also carries project_id, the session's project too: a warehouse serves
 * several projects, and one project's users read, change or open (as the parent of a sub-page)
 * nothing of another's. `tableColumns: false` leaves that second condition out, for rows listed by
 * a page's own SQL, which the configurator role's row-level security keeps to the project already.
 */
export function pageScopeConditions(
  prepared: PreparedPage,
  session: EngineSession,
  column: (name: string) => RawBuilder<unknown>,
  options: { tableColumns?: boolean } = {},
): RawBuilder<unknown>[] {
  const { page } = prepared;
  const where: RawBuilder<unknown>[] = [];
  const scopeColumn = scopeColumnOf(page.scope);
  if (scopeColumn !== null) where.push(sql`${column(scopeColumn)} = ${requireScopeValue(session, page.scope)}`);
  if (page.scope === 'warehouse' && options.tableColumns !== false && tableColumns(prepared).has('project_id')) {
    where.push(session.projectId === null ? sql`false` : sql`${column('project_id')} = ${session.projectId}`);
  }
  return where;
}

/** `"t"."name"`: an identifier of the definition (pattern- and catalog-checked), quoted by Kysely. */
export function columnRef(page: PageDefinition, name: string): RawBuilder<unknown> {
  return sql.ref(`${tableAliasOf(page)}.${name}`);
}

export function tableColumns(prepared: PreparedPage): TableColumns {
  return prepared.catalog.get(prepared.page.table.name) ?? new Map<string, string>();
}

export function keyColumnIsInteger(prepared: PreparedPage): boolean {
  return ['integer', 'bigint', 'smallint'].includes(tableColumns(prepared).get(keyFieldOf(prepared.page)) ?? '');
}

/** The version expression answered as `_version`: the concurrency column as text, or null. */
export function versionExpression(page: PageDefinition): RawBuilder<unknown> {
  const versionField = versionFieldOf(page);
  return versionField === null ? sql`null::text` : sql`cast(${columnRef(page, versionField)} as text)`;
}

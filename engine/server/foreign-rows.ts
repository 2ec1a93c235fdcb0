import { sql, type RawBuilder } from 'kysely';
import type { PageScope } from '../schema/index.js';
import { requireScopeValue, scopeColumnOf, type EngineSession } from './engine-session.js';
import type { PreparedPage, RowFilter } from './prepared-page.js';

/**
 * Which rows of a foreign table a caller may choose, as a row filter on the table's `id`, as the
 * application defines it (projects and warehouses only as granted); undefined lets every row through.
 */
export type ForeignRowFilters = (table: string) => RowFilter | undefined;

/**
 * The rows of a foreign table the caller may see, as conditions on the alias `alias` (README:
 * options and foreign). The same conditions limit what a dropdown offers and what a write accepts,
 * so a value the dropdown would not offer is never stored:
 * - the declared scope, or without one the page's scope when the table carries its column;
 * - the session's project and warehouse whenever the table carries project_id or warehouse_id,
 *   whatever the declared scope (a warehouse serves several projects, a project several
 *   warehouses: a row of another one is never a choice; without a project or warehouse in the
 *   session, no such row is), unless the application gives the table a row filter of its own;
 * - the application's row filter of the table, which then says alone which rows of the session's
 *   scope are a choice (jobs: those of the session's project, and system jobs of no project for
 *   an administrator).
 */
export function foreignRowConditions(
  prepared: PreparedPage,
  session: EngineSession,
  table: string,
  declaredScope: PageScope | undefined,
  rowFilters: ForeignRowFilters | undefined,
  alias = 'f',
): RawBuilder<unknown>[] {
  const columns = prepared.catalog.get(table);
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const where: RawBuilder<unknown>[] = [];
  const pageScopeColumn = scopeColumnOf(prepared.page.scope);
  const scope = declaredScope ?? (pageScopeColumn !== null && columns?.has(pageScopeColumn) ? prepared.page.scope : 'none');
  const scopeColumn = scopeColumnOf(scope);
  if (scopeColumn !== null) where.push(sql`${column(scopeColumn)} = ${requireScopeValue(session, scope)}`);
  const own = rowFilters?.(table);
  if (own) {
    const granted = own(session, column('id'));
    if (granted) where.push(granted);
    return where;
  }
  for (const [name, value] of [
    ['project_id', session.projectId],
    ['warehouse_id', session.warehouseId],
  ] as const) {
    if (name === scopeColumn || !columns?.has(name)) continue;
    where.push(value === null ? sql`false` : sql`${column(name)} = ${value}`);
  }
  return where;
}

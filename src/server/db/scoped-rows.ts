import type { Kysely, Selectable, SelectQueryBuilder, Transaction } from 'kysely';
import type { DB } from './schema.js';

/**
 * Reading or locking one document row of the caller's scope: the row must belong to the project
 * (and, when given, the warehouse) as well as have the id or key asked for, so a guessed id of
 * another project answers "not found" exactly like one that does not exist. One helper instead of
 * the same three `where` clauses in every repository (docs/architecture.md, "Scope"); a list query
 * keeps to the scope with `whereInScope`.
 */
export interface RowScope {
  projectId: number;
  /** Also filters on `warehouse_id` when given (documents of one warehouse). */
  warehouseId?: number;
}

/** Tables whose rows carry the project they belong to. */
export type ProjectScopedTable = {
  [Name in keyof DB]: DB[Name] extends { id: unknown; project_id: unknown } ? Name : never;
}[keyof DB];

// The table name is a type parameter, which Kysely's builder cannot follow: the query is built
// on an untyped handle and its row typed by the table again on the way out.
function scopedQuery(db: Kysely<DB>, table: string, scope: RowScope, match: number | { column: string; value: string | number }) {
  const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const query = whereInScope(untyped.selectFrom(table).selectAll(), table, scope);
  return typeof match === 'number' ? query.where('id', '=', match) : query.where(match.column, '=', match.value);
}

/** Which row of `table` is asked for: its id, or the value of a key column. */
export type ScopedMatch<Name extends ProjectScopedTable> = number | { column: keyof DB[Name] & string; value: string | number };

type ScopedRow<Name extends ProjectScopedTable> = Selectable<DB[Name]> | undefined;

/** The row of `table` with this id (or key column value) in the scope, without locking it. */
export async function findInScope<Name extends ProjectScopedTable>(db: Kysely<DB>, table: Name, scope: RowScope, match: ScopedMatch<Name>): Promise<ScopedRow<Name>> {
  const row = await scopedQuery(db, table, scope, match).executeTakeFirst();
  return row as ScopedRow<Name>;
}

/**
 * The same row locked `FOR UPDATE` until the transaction ends: the one way a writer takes the
 * document it is about to change, so two sessions changing it queue instead of both reading the
 * old state.
 */
export async function lockInScope<Name extends ProjectScopedTable>(trx: Transaction<DB>, table: Name, scope: RowScope, match: ScopedMatch<Name>): Promise<ScopedRow<Name>> {
  const row = await scopedQuery(trx, table, scope, match).forUpdate().executeTakeFirst();
  return row as ScopedRow<Name>;
}

/**
 * A list query kept to the scope: the rows of `alias` (a table of the query) of the project and,
 * when given, the warehouse.
 */
export function whereInScope<QueryDB, Tables extends keyof QueryDB, Output>(
  query: SelectQueryBuilder<QueryDB, Tables, Output>,
  alias: Tables & string,
  scope: RowScope,
): SelectQueryBuilder<QueryDB, Tables, Output> {
  // The alias is a type parameter, which Kysely's builder cannot follow: the conditions are added on an untyped builder.
  let untyped = query as unknown as SelectQueryBuilder<Record<string, Record<string, unknown>>, string, Output>;
  const column = (name: string): string => `${alias}.${name}`;
  untyped = untyped.where(column('project_id'), '=', scope.projectId);
  if (scope.warehouseId !== undefined) untyped = untyped.where(column('warehouse_id'), '=', scope.warehouseId);
  return untyped as unknown as SelectQueryBuilder<QueryDB, Tables, Output>;
}

import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { DB } from './schema.js';

/** The tables `joinSkuLotLocation` adds, by their aliases. */
type ItemTables = { s: DB['sku']; l: DB['lot']; loc: DB['location'] };

/**
 * Joins what a stock row (`alias`: a balance, a ledger row, a receipt or count line) names by its
 * `sku_id`, `lot_id` and `location_id`: the SKU as `s`, the lot as `l` and the location as `loc`.
 */
export function joinSkuLotLocation<QueryDB, Tables extends keyof QueryDB, Output>(
  query: SelectQueryBuilder<QueryDB, Tables, Output>,
  alias: Tables & string,
): SelectQueryBuilder<QueryDB & ItemTables, Tables | keyof ItemTables, Output> {
  // The alias is a type parameter, which Kysely's builder cannot follow: the joins are built on an
  // untyped builder and the query typed with the joined tables again on the way out.
  const untyped = query as unknown as SelectQueryBuilder<Record<string, Record<string, unknown>>, string, Output>;
  return untyped
    .innerJoin('sku as s', 's.id', `${alias}.sku_id`)
    .innerJoin('lot as l', 'l.id', `${alias}.lot_id`)
    .innerJoin('location as loc', 'loc.id', `${alias}.location_id`) as unknown as SelectQueryBuilder<QueryDB & ItemTables, Tables | keyof ItemTables, Output>;
}

/** The same joins in a query written as SQL text: `join sku s`, `join lot l` and `join location loc` on the row `alias`. */
export function skuLotLocationJoins(alias: string): RawBuilder<unknown> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql`join sku s on s.id = ${column('sku_id')}
      join lot l on l.id = ${column('lot_id')}
      join location loc on loc.id = ${column('location_id')}`;
}

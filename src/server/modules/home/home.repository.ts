import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface PageVisitRow {
  route: string;
  visits: number;
  lastVisitedAt: Date;
}

/** Counts one more opening of `route` by the user. */
export async function recordPageVisit(trx: Transaction<DB>, userId: number, route: string, by: string): Promise<void> {
  await trx
    .insertInto('page_visit')
    .values({ user_id: userId, route, visits: 1, created_by: by, updated_by: by })
    .onConflict((oc) =>
      oc.columns(['user_id', 'route']).doUpdateSet({
        visits: sql<number>`page_visit.visits + 1`,
        last_visited_at: sql<Date>`now()`,
        updated_at: sql<Date>`now()`,
        updated_by: by,
      }),
    )
    .execute();
}

/** The user's most opened pages, most used first, the latest first among equals. */
export async function findMostUsedPages(db: Kysely<DB>, userId: number, limit: number): Promise<PageVisitRow[]> {
  const rows = await db
    .selectFrom('page_visit')
    .select(['route', 'visits', 'last_visited_at'])
    .where('user_id', '=', userId)
    .orderBy('visits', 'desc')
    .orderBy('last_visited_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ route: r.route, visits: r.visits, lastVisitedAt: r.last_visited_at }));
}

/** The columns of `table` in the public schema, or an empty list when the table does not exist. */
export async function tableColumns(db: Kysely<DB>, table: string): Promise<string[]> {
  const result = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}`.execute(db);
  return result.rows.map((r) => r.column_name);
}

/**
 * Counts the rows of a work table by status in one warehouse, leaving out the terminal statuses.
 * `table` comes from the areas' manifests (`homeItems`), never from a request.
 */
export async function countOpenByStatus(
  db: Kysely<DB>,
  table: string,
  warehouseId: number,
  terminal: readonly string[],
): Promise<{ status: string; count: number }[]> {
  const result = await sql<{ status: string; count: string }>`
    select status::text as status, count(*) as count from ${sql.table(table)}
    where warehouse_id = ${warehouseId}
      and lower(status::text) <> all(${sql.val([...terminal])}::text[])
    group by status::text
    order by status::text`.execute(db);
  return result.rows.map((r) => ({ status: r.status, count: Number(r.count) }));
}

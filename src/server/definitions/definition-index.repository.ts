import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * The columns of every index of `table` (current schema), each in the index's order. An index on
 * an expression lists only its plain columns.
 */
export async function listIndexColumns(db: Kysely<DB>, table: string): Promise<string[][]> {
  const { rows } = await sql<{ columns: string | null }>`
    select (
      select string_agg(a.attname::text, ',' order by k.position)
      from unnest(i.indkey::int2[]) with ordinality as k(attnum, position)
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    ) as columns
    from pg_index i
    join pg_class t on t.oid = i.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    where t.relname = ${table} and n.nspname = current_schema()
  `.execute(db);
  return rows.map((row) => (row.columns ? row.columns.split(',') : []));
}

/** Creates the btree index `name` on `table` (`columns` in order) unless an index of that name exists. */
export async function createIndexIfMissing(trx: Transaction<DB>, name: string, table: string, columns: readonly string[]): Promise<void> {
  await sql`create index if not exists ${sql.id(name)} on ${sql.table(table)} using btree (${sql.join(columns.map((column) => sql.id(column)))})`.execute(trx);
}

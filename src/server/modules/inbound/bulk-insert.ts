import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The SQL type of a column of a bulk insert, for the cast of its array; `numeric or 0` is a
 * quantity that is 0 where the row leaves it out.
 */
export type BulkColumnType = 'bigint' | 'numeric' | 'text' | 'numeric or 0';

/**
 * Inserts many rows in one statement: each column travels as one array through `unnest`, so
 * thousands of rows cost one round trip. `columns` names every column of `Row` with its SQL type,
 * in the order they are written. Answers the new ids in the order of the rows given.
 */
export async function insertRows<Row extends object>(
  trx: Transaction<DB>,
  table: 'receipt_line' | 'putaway_task',
  columns: { readonly [Column in keyof Row]-?: BulkColumnType },
  rows: readonly Row[],
): Promise<{ id: number }[]> {
  if (rows.length === 0) return [];
  const entries = Object.entries(columns) as [keyof Row & string, BulkColumnType][];
  const names = entries.map(([name]) => sql.id(name));
  const arrays = entries.map(([name, type]) => sql`${rows.map((row) => (row[name] ?? null) as unknown)}::${sql.raw(type === 'numeric or 0' ? 'numeric' : type)}[]`);
  const picks = entries.map(([name, type]) => (type === 'numeric or 0' ? sql`coalesce(${sql.ref(`v.${name}`)}, 0)` : sql.ref(`v.${name}`)));
  const result = await sql<{ id: number }>`
    insert into ${sql.table(table)} (${sql.join(names)})
    select ${sql.join(picks)}
    from unnest(${sql.join(arrays)}) with ordinality as v(${sql.join(names)}, n)
    order by v.n
    returning id`.execute(trx);
  return result.rows.map((r) => ({ id: Number(r.id) }));
}

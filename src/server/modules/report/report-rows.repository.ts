import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ReportGrouping } from '../../../common/report-api.js';
import type { DB } from '../../db/schema.js';

/*
 * The queries over a report's bound SQL (report.sql.ts), run inside its sandbox transaction: a
 * page of rows, the count, and the group totals. Column names were checked against the report's
 * columns before they reach here and are quoted as identifiers.
 */

type Bound = RawBuilder<Record<string, unknown>>;

export interface RowOrder {
  column: string;
  desc: boolean;
}

function orderBy(order: RowOrder | undefined) {
  return order ? sql`order by ${sql.ref(`r.${order.column}`)} ${sql.raw(order.desc ? 'desc' : 'asc')} nulls last` : sql``;
}

export async function reportRows(trx: Kysely<DB>, base: Bound, order: RowOrder | undefined, limit: number, offset: number): Promise<Array<Record<string, unknown>>> {
  const { rows } = await sql<Record<string, unknown>>`select r.* from (${base}) as r ${orderBy(order)} limit ${limit} offset ${offset}`.execute(trx);
  return rows;
}

export async function reportCount(trx: Kysely<DB>, base: Bound): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from (${base}) as r`.execute(trx);
  return Number(rows[0].n);
}

const AGGREGATES = { sum: 'sum', count: 'count', avg: 'avg' } as const;

/** At most this many groups are answered. */
export const GROUPS_MAX = 1000;

/** Each group's totals and row count (`n`), by the group's value; a total's alias is its position (`t0`, `t1`, ...). */
export async function reportGroupTotals(trx: Kysely<DB>, base: Bound, grouping: ReportGrouping): Promise<Array<Record<string, unknown>>> {
  const selects = grouping.totals.map((t, i) => sql`${sql.raw(AGGREGATES[t.aggregate])}(${sql.ref(`r.${t.column}`)}) as ${sql.id(`t${i}`)}`);
  const { rows } = await sql<Record<string, unknown>>`
    select ${sql.ref(`r.${grouping.groupBy}`)} as g, count(*)::int as n ${selects.length ? sql`, ${sql.join(selects)}` : sql``}
    from (${base}) as r group by 1 order by 1 nulls last limit ${GROUPS_MAX}
  `.execute(trx);
  return rows;
}

/** Compiles the report's SQL without running it (EXPLAIN). */
export async function explainReport(trx: Kysely<DB>, base: Bound): Promise<void> {
  await sql`explain ${base}`.execute(trx);
}

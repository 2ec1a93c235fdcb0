import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { StockActivity } from '../../../common/api-types.js';

/** How many days back the home page's charts of received and shipped quantities reach, today included. */
export const ACTIVITY_DAYS = 14;
/** How many owners the chart of stock by owner shows: those with the most on hand. */
export const ACTIVITY_OWNERS = 10;

/**
 * The home page's charts of one project's stock in one warehouse: the quantities received and shipped
 * on each of the last ACTIVITY_DAYS days (the day as the time zone given sees it; a day with no
 * movement is there with zeros), and the on-hand quantity of the owners with most stock.
 */
export async function stockActivity(db: Kysely<DB>, scope: { projectId: number; warehouseId: number }, timeZone: string): Promise<StockActivity> {
  const day = sql<string>`to_char((t.trans_time at time zone ${timeZone})::date, 'YYYY-MM-DD')`;
  const moved = await db
    .selectFrom('inventory_transaction as t')
    .select([
      day.as('day'),
      sql<string>`coalesce(sum(t.qty) filter (where t.trans_type = 'receive'), 0)`.as('received'),
      sql<string>`coalesce(-sum(t.qty) filter (where t.trans_type = 'ship'), 0)`.as('shipped'),
    ])
    .where('t.project_id', '=', scope.projectId)
    .where('t.warehouse_id', '=', scope.warehouseId)
    .where('t.trans_type', 'in', ['receive', 'ship'])
    .where(sql<boolean>`(t.trans_time at time zone ${timeZone})::date > (now() at time zone ${timeZone})::date - ${ACTIVITY_DAYS}::int`)
    .groupBy(sql`1`)
    .execute();
  const today = await sql<{ today: string }>`select to_char((now() at time zone ${timeZone})::date, 'YYYY-MM-DD') as today`.execute(db);
  const byDay = new Map(moved.map((row) => [row.day, row]));
  const last = new Date(`${today.rows[0].today}T00:00:00Z`);
  const days = Array.from({ length: ACTIVITY_DAYS }, (_, i) => {
    const date = new Date(last.getTime() - (ACTIVITY_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    const row = byDay.get(date);
    return { day: date, received: row ? String(row.received) : '0', shipped: row ? String(row.shipped) : '0' };
  });
  const owners = await db
    .selectFrom('inventory_balance as b')
    .innerJoin('owner as o', 'o.id', 'b.owner_id')
    .select(['o.code as owner', sql<string>`sum(b.on_hand_qty)`.as('onHand')])
    .where('b.project_id', '=', scope.projectId)
    .where('b.warehouse_id', '=', scope.warehouseId)
    .groupBy('o.code')
    .having(sql<boolean>`sum(b.on_hand_qty) > 0`)
    .orderBy(sql`sum(b.on_hand_qty)`, 'desc')
    .orderBy('o.code')
    .limit(ACTIVITY_OWNERS)
    .execute();
  return { days, owners: owners.map((o) => ({ owner: o.owner, onHand: String(o.onHand) })) };
}

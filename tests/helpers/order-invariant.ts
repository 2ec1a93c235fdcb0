import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../src/server/db/schema.js';

/**
 * The stock and order-level invariant, checked with SQL on the database after a concurrency test
 * (each rule answers the rows that break it, as readable lines; an empty list means it holds):
 *
 * - no balance quantity is negative and allocated + picked + held never exceeds on hand;
 * - the ledger sums to each balance's on-hand, allocated, picked and held quantities;
 * - for every balance, allocated = the sum of the allocation records on it;
 * - for every order line, allocated = the sum of its allocation records, and each record names the
 *   line's own order and a positive quantity;
 * - an open pick task never claims more than its record: for every line and balance row, what the
 *   open tasks have left to pick is at most what the line's record holds there;
 * - an ended order (cancelled, deleted, closed) has no open pick task.
 */
export async function orderInvariantViolations(db: Kysely<DB>): Promise<string[]> {
  const found: string[] = [];
  const rules: Array<{ name: string; query: RawBuilder<unknown> }> = [
    {
      name: 'balance over-committed or negative',
      query: sql`
        select id, on_hand_qty, allocated_qty, picked_qty, held_qty from inventory_balance
         where on_hand_qty < 0 or allocated_qty < 0 or picked_qty < 0 or held_qty < 0
            or allocated_qty + picked_qty + held_qty > on_hand_qty`,
    },
    {
      name: 'ledger differs from balance',
      query: sql`
        select b.id, b.on_hand_qty, b.allocated_qty, b.picked_qty, b.held_qty,
               coalesce(sum(t.qty), 0) as ledger_on_hand, coalesce(sum(t.allocated_change), 0) as ledger_allocated,
               coalesce(sum(t.picked_change), 0) as ledger_picked, coalesce(sum(t.held_change), 0) as ledger_held
          from inventory_balance b left join inventory_transaction t on t.balance_id = b.id
         group by b.id
        having coalesce(sum(t.qty), 0) <> b.on_hand_qty or coalesce(sum(t.allocated_change), 0) <> b.allocated_qty
            or coalesce(sum(t.picked_change), 0) <> b.picked_qty or coalesce(sum(t.held_change), 0) <> b.held_qty`,
    },
    {
      name: 'balance allocated differs from its allocation records',
      query: sql`
        select b.id as balance_id, b.allocated_qty, coalesce(a.qty, 0) as records
          from inventory_balance b
          left join (select balance_id, sum(qty) as qty from so_allocation group by balance_id) a on a.balance_id = b.id
         where b.allocated_qty <> coalesce(a.qty, 0)`,
    },
    {
      name: 'allocation record of no balance',
      query: sql`select a.id, a.balance_id from so_allocation a where not exists (select 1 from inventory_balance b where b.id = a.balance_id)`,
    },
    {
      name: 'line allocated differs from its allocation records',
      query: sql`
        select l.id as line_id, l.so_id, l.allocated_qty, coalesce(a.qty, 0) as records
          from so_line l
          left join (select so_line_id, sum(qty) as qty from so_allocation group by so_line_id) a on a.so_line_id = l.id
         where l.allocated_qty <> coalesce(a.qty, 0)`,
    },
    {
      name: 'allocation record not of its line or not positive',
      query: sql`
        select a.id, a.so_id, a.so_line_id, a.qty from so_allocation a
          left join so_line l on l.id = a.so_line_id
         where l.id is null or l.so_id <> a.so_id or a.qty <= 0`,
    },
    {
      name: 'open tasks claim more than their allocation record',
      query: sql`
        select t.so_line_id, t.balance_id, sum(t.qty - t.picked_qty) as open_left, coalesce(max(a.qty), 0) as record,
               array_agg(t.id order by t.id) as task_ids
          from pick_task t
          left join so_allocation a on a.so_line_id = t.so_line_id and a.balance_id = t.balance_id
         where t.status = 'open'
         group by t.so_line_id, t.balance_id
        having sum(t.qty - t.picked_qty) > coalesce(max(a.qty), 0)`,
    },
    {
      name: 'open task of an ended order',
      query: sql`
        select t.id as task_id, h.id as so_id, h.status from pick_task t join so_header h on h.id = t.so_id
         where t.status = 'open' and h.status in ('cancelled', 'deleted', 'closed')`,
    },
  ];
  for (const rule of rules) {
    const { rows } = await rule.query.execute(db);
    for (const row of rows) found.push(`${rule.name}: ${JSON.stringify(row)}`);
  }
  return found;
}

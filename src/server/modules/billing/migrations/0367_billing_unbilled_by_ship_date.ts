import { sql, type Kysely } from 'kysely';

/**
 * The home item "Unbilled shipments this month" counts an order by the time it was shipped, not by
 * its last change: an order shipped last month and changed this month (delivered, a remark) is not
 * this month's. The shipped time of an order is when the latest shipped load carrying its cartons
 * left (`load_header.shipped_at`), else its latest ledger `ship` row referring to it (reference
 * type `so`); an order with neither is not counted.
 *
 * The time is found by a PL/pgSQL function, whose body is read when called: the load tables are
 * created by a later migration of the loading area.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function billing_order_shipped_at(order_id bigint, order_project bigint, order_number text) returns timestamptz
    language plpgsql stable as $$
    begin
      return coalesce(
        (select max(l.shipped_at) from load_carton c join load_header l on l.id = c.load_id where c.so_id = order_id and l.status = 'shipped'),
        (select max(t.trans_time) from inventory_transaction t
          where t.project_id = order_project and t.order_no = order_number and t.trans_type = 'ship' and lower(coalesce(t.reference_type, '')) = 'so'));
    end
    $$`.execute(db);
  await sql`
    create or replace view billing_unbilled_activity as
    select h.id, h.project_id, h.warehouse_id, h.owner_id, h.status
    from so_header h
    where h.status in ('shipped', 'delivered')
      and billing_order_shipped_at(h.id, h.project_id, h.order_no) >= date_trunc('month', now())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace view billing_unbilled_activity as
    select h.id, h.project_id, h.warehouse_id, h.owner_id, h.status
    from so_header h
    where h.status in ('shipped', 'delivered')
      and h.updated_at >= date_trunc('month', now())`.execute(db);
  await sql`drop function billing_order_shipped_at(bigint, bigint, text)`.execute(db);
}

import { sql, type Kysely } from 'kysely';

/**
 * The billing area's home item, unbilled activity of this month: the outbound orders shipped or
 * delivered and not yet billed (posting a bill makes a delivered order `billed`) whose last change
 * (the shipment or the delivery) falls in the current calendar month, by warehouse and status. A
 * view, so that the home page counts it like any other work table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create view billing_unbilled_activity as
    select h.id, h.project_id, h.warehouse_id, h.owner_id, h.status
    from so_header h
    where h.status in ('shipped', 'delivered')
      and h.updated_at >= date_trunc('month', now())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop view billing_unbilled_activity`.execute(db);
}

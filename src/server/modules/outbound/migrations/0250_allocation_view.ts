import { sql, type Kysely } from 'kysely';
import { CONFIGURATOR_READ_ROLE, CONFIGURATOR_WRITE_ROLE } from '../../../db/migrations/helpers.js';

/**
 * The read-only view the allocated-stock tab of a sales order (/so, page soAllocation) lists: each
 * allocation with what a person reads, the order and line number, the SKU, location and lot codes
 * and the licence plate, instead of the keys of the order line and the balance row. It keeps the
 * allocation's id, so the tab's row filter and its link to the order (so_id) work as on the table;
 * security_invoker keeps the tables' row policies in force for configurator roles.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create view so_allocation_view with (security_invoker = true) as
    select a.id, a.project_id, a.warehouse_id, a.so_id, h.order_no, a.so_line_id, l.line_no,
           s.code as sku_code, s.description as sku_name, loc.code as location_code, lot.lot_no, lot.expiry_date,
           b.lpn, a.qty, a.created_at
    from so_allocation a
    join so_header h on h.id = a.so_id
    join so_line l on l.id = a.so_line_id
    join inventory_balance b on b.id = a.balance_id
    join sku s on s.id = b.sku_id
    join location loc on loc.id = b.location_id
    join lot on lot.id = b.lot_id`.execute(db);
  await sql`grant select on so_allocation_view to ${sql.id(CONFIGURATOR_READ_ROLE)}, ${sql.id(CONFIGURATOR_WRITE_ROLE)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop view if exists so_allocation_view`.execute(db);
}

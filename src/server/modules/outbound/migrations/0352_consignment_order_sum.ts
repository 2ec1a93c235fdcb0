import { sql, type Kysely } from 'kysely';
import { CONFIGURATOR_READ_ROLE, CONFIGURATOR_WRITE_ROLE, createScopedTable, grantConfiguratorAccess } from '../../../db/migrations/helpers.js';

/**
 * Consignments: orders of one consignee (ship-to) grouped for one delivery, each order on at most
 * one. And the read-only delivery order summary: per order its ordered, picked, packed, loaded,
 * shipped and delivered quantity. Loaded, shipped and delivered follow the order's status (all that
 * was packed, once the order reached that status) until loads record quantities of their own;
 * security_invoker keeps the tables' row policies in force for configurator roles.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'consignment', 'project_id', 'warehouse_id')
    .addColumn('consignment_no', 'text', (col) => col.notNull())
    .addColumn('consignee_name', 'text', (col) => col.notNull())
    .addColumn('ship_to_address', 'text')
    .addColumn('delivery_date', 'date')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open'))
    .addColumn('remark', 'text')
    .addUniqueConstraint('consignment_no_key', ['warehouse_id', 'consignment_no'])
    .addCheckConstraint('consignment_status_known', sql`status in ('open', 'closed')`)
    .execute();
  await db.schema.alterTable('so_header').addColumn('consignment_id', 'bigint', (col) => col.references('consignment.id').onDelete('set null')).execute();
  await db.schema.createIndex('so_header_consignment_idx').on('so_header').column('consignment_id').execute();
  await grantConfiguratorAccess(db, ['consignment'], 'write');

  await sql`
    create view delivery_order_sum with (security_invoker = true) as
    with lines as (
      select l.so_id, sum(l.qty) as ordered_qty, sum(l.picked_qty) as picked_qty
      from so_line l group by l.so_id
    ), packed as (
      select c.so_id, sum(cl.qty) as packed_qty
      from carton c join carton_line cl on cl.carton_id = c.id group by c.so_id
    )
    select h.id, h.project_id, h.warehouse_id, h.order_no, h.owner_id, h.customer_order_no, h.status,
           h.required_ship_date, h.created_at::date as order_date,
           coalesce(lines.ordered_qty, 0) as ordered_qty,
           coalesce(lines.picked_qty, 0) as picked_qty,
           coalesce(packed.packed_qty, 0) as packed_qty,
           case when h.status in ('loaded', 'partial_shipped', 'shipped', 'delivered', 'billed') then coalesce(packed.packed_qty, 0) else 0 end as loaded_qty,
           case when h.status in ('shipped', 'delivered', 'billed') then coalesce(packed.packed_qty, 0) else 0 end as shipped_qty,
           case when h.status in ('delivered', 'billed') then coalesce(packed.packed_qty, 0) else 0 end as delivered_qty
    from so_header h
    left join lines on lines.so_id = h.id
    left join packed on packed.so_id = h.id`.execute(db);
  await sql`grant select on delivery_order_sum to ${sql.id(CONFIGURATOR_READ_ROLE)}, ${sql.id(CONFIGURATOR_WRITE_ROLE)}`.execute(db);

  // Their menu entries (there since the first menu) open the area's pages and follow their view rights.
  await sql`update sys_module set right_name = 'outbound.' || code where code in ('consignment', 'deliveryOrderSum') and created_by = 'system'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop view if exists delivery_order_sum`.execute(db);
  await db.schema.alterTable('so_header').dropColumn('consignment_id').execute();
  await db.schema.dropTable('consignment').ifExists().execute();
}

import { sql, type Kysely } from 'kysely';
import { createScopedTable, grantConfiguratorAccess } from '../../../db/migrations/helpers.js';
import { orderLineColumns, withShipTo } from './order-columns.js';

/**
 * Outbound documents around the sales order: pre-sales orders that become
 * sales orders when confirmed (/pso), shipment orders grouping sales orders for one shipment
 * (/shipmentOrder), the maintenance list (/so/getMaintenanceList) and the store-arrival time
 * imported onto orders (importStoreArrival).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'pso_header', 'project_id', 'warehouse_id')
    .addColumn('pso_no', 'text', (col) => col.notNull())
    .$call(withShipTo)
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('new').check(sql`status in ('new', 'confirmed', 'cancelled')`))
    // The sales order the confirmation made.
    .addColumn('so_id', 'bigint', (col) => col.references('so_header.id'))
    .addColumn('remark', 'text')
    .addUniqueConstraint('pso_header_pso_no_key', ['project_id', 'pso_no'])
    .execute();

  await createScopedTable(db, 'pso_line', 'project_id', 'warehouse_id')
    .$call(orderLineColumns('pso_id', 'pso_header'))
    .addColumn('required_date', 'date')
    .addUniqueConstraint('pso_line_pso_line_no_key', ['pso_id', 'line_no'])
    .execute();

  await createScopedTable(db, 'shipment_order', 'project_id', 'warehouse_id')
    .addColumn('shipment_no', 'text', (col) => col.notNull())
    .addColumn('carrier_code', 'text')
    .addColumn('ship_date', 'date')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open').check(sql`status in ('open', 'closed')`))
    .addColumn('remark', 'text')
    .addUniqueConstraint('shipment_order_no_key', ['project_id', 'shipment_no'])
    .execute();

  await db.schema
    .alterTable('so_header')
    .addColumn('shipment_order_id', 'bigint', (col) => col.references('shipment_order.id'))
    .addColumn('store_arrival_at', 'timestamptz')
    .execute();

  // An order or a SKU under maintenance: order entry leaves it alone until it is taken off the list.
  await createScopedTable(db, 'so_maintenance', 'project_id', 'warehouse_id')
    .addColumn('so_id', 'bigint', (col) => col.references('so_header.id').onDelete('cascade'))
    .addColumn('sku_id', 'bigint', (col) => col.references('sku.id'))
    .addColumn('reason', 'text')
    .addCheckConstraint('so_maintenance_one_subject', sql`(so_id is null) <> (sku_id is null)`)
    .execute();
  await sql`create unique index so_maintenance_subject_key on so_maintenance (warehouse_id, coalesce(so_id, 0), coalesce(sku_id, 0))`.execute(db);

  // The menu: /pso, /shipmentOrder and /proj_ge open page definitions of the outbound area (src/common/page-routes.ts).
  for (const code of ['pso', 'shipmentOrder', 'proj_ge']) {
    await sql`update sys_module set right_name = ${`outbound.${code}`}, updated_at = now(), updated_by = 'system' where code = ${code} and created_by = 'system'`.execute(db);
  }

  await grantConfiguratorAccess(db, ['shipment_order'], 'write');
  await grantConfiguratorAccess(db, ['pso_header', 'pso_line', 'so_maintenance'], 'read');
}

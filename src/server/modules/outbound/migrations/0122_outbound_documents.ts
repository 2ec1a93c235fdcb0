import { sql, type Kysely } from 'kysely';
import { grantConfiguratorAccess, withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Outbound documents around the sales order (spec sections 2 and 7): pre-sales orders that become
 * sales orders when confirmed (/pso), shipment orders grouping sales orders for one shipment
 * (/shipmentOrder), the maintenance list (/so/getMaintenanceList) and the store-arrival time
 * imported onto orders (importStoreArrival).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdAndAudit(db.schema.createTable('pso_header'))
    .addColumn('project_id', 'bigint', (col) => col.notNull().references('project.id'))
    .addColumn('warehouse_id', 'bigint', (col) => col.notNull().references('warehouse.id'))
    .addColumn('pso_no', 'text', (col) => col.notNull())
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('consignee_id', 'bigint', (col) => col.references('partner.id'))
    .addColumn('customer_order_no', 'text')
    .addColumn('ship_to_name', 'text')
    .addColumn('ship_to_address_en', 'text')
    .addColumn('ship_to_address_cn', 'text')
    .addColumn('carrier_code', 'text')
    .addColumn('required_ship_date', 'date')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('new').check(sql`status in ('new', 'confirmed', 'cancelled')`))
    // The sales order the confirmation made.
    .addColumn('so_id', 'bigint', (col) => col.references('so_header.id'))
    .addColumn('remark', 'text')
    .addUniqueConstraint('pso_header_pso_no_key', ['project_id', 'pso_no'])
    .execute();

  await withIdAndAudit(db.schema.createTable('pso_line'))
    .addColumn('project_id', 'bigint', (col) => col.notNull().references('project.id'))
    .addColumn('warehouse_id', 'bigint', (col) => col.notNull().references('warehouse.id'))
    .addColumn('pso_id', 'bigint', (col) => col.notNull().references('pso_header.id').onDelete('cascade'))
    .addColumn('line_no', 'integer', (col) => col.notNull().check(sql`line_no > 0`))
    .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id'))
    .addColumn('qty', 'numeric(18, 4)', (col) => col.notNull().check(sql`qty > 0`))
    .addColumn('uom', 'text', (col) => col.notNull().defaultTo('EA'))
    .addColumn('lot_no', 'text')
    .addColumn('required_date', 'date')
    .addUniqueConstraint('pso_line_pso_line_no_key', ['pso_id', 'line_no'])
    .execute();

  await withIdAndAudit(db.schema.createTable('shipment_order'))
    .addColumn('project_id', 'bigint', (col) => col.notNull().references('project.id'))
    .addColumn('warehouse_id', 'bigint', (col) => col.notNull().references('warehouse.id'))
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
  await withIdAndAudit(db.schema.createTable('so_maintenance'))
    .addColumn('project_id', 'bigint', (col) => col.notNull().references('project.id'))
    .addColumn('warehouse_id', 'bigint', (col) => col.notNull().references('warehouse.id'))
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

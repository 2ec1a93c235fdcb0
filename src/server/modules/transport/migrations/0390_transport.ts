import { sql, type Kysely } from 'kysely';
import { createScopedTable, dropTables, grantConfiguratorAccess, withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Transport: delivery orders (a drop at a customer, with its place, time window and size) of a
 * project and warehouse, routes (a vehicle and driver on a date) and the stops of each route in
 * order (a delivery order is on one route at most, kept by a unique key). Vehicles get a pallet
 * capacity beside their weight and volume.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'tms_route', 'project_id', 'warehouse_id')
    .addColumn('route_no', 'text', (col) => col.notNull())
    .addColumn('route_date', 'date', (col) => col.notNull())
    .addColumn('vehicle_id', 'bigint', (col) => col.references('vehicle.id'))
    .addColumn('driver_id', 'bigint', (col) => col.references('driver.id'))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open').check(sql`status in ('open', 'confirmed')`))
    .addColumn('remarks', 'text')
    .addUniqueConstraint('tms_route_warehouse_no_key', ['warehouse_id', 'route_no'])
    .execute();

  await createScopedTable(db, 'tms_do_header', 'project_id', 'warehouse_id')
    .addColumn('do_no', 'text', (col) => col.notNull())
    .addColumn('customer_name', 'text', (col) => col.notNull())
    .addColumn('consignee_name', 'text')
    .addColumn('address', 'text')
    .addColumn('city', 'text')
    .addColumn('latitude', 'numeric(9, 6)', (col) => col.check(sql`latitude between -90 and 90`))
    .addColumn('longitude', 'numeric(9, 6)', (col) => col.check(sql`longitude between -180 and 180`))
    .addColumn('window_from', 'timestamptz')
    .addColumn('window_to', 'timestamptz')
    .addColumn('weight_kg', 'numeric(12, 3)', (col) => col.notNull().defaultTo(0).check(sql`weight_kg >= 0`))
    .addColumn('volume_m3', 'numeric(12, 3)', (col) => col.notNull().defaultTo(0).check(sql`volume_m3 >= 0`))
    .addColumn('pallet_count', 'integer', (col) => col.notNull().defaultTo(0).check(sql`pallet_count >= 0`))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('unplanned').check(sql`status in ('unplanned', 'planned', 'confirmed', 'delivered')`))
    .addColumn('so_id', 'bigint', (col) => col.references('so_header.id'))
    .addColumn('so_no', 'text')
    .addColumn('remarks', 'text')
    .addUniqueConstraint('tms_do_header_warehouse_no_key', ['warehouse_id', 'do_no'])
    .addCheckConstraint('tms_do_header_window_check', sql`window_from is null or window_to is null or window_from <= window_to`)
    .execute();
  await db.schema.createIndex('tms_do_header_status_idx').on('tms_do_header').columns(['warehouse_id', 'status']).execute();
  await db.schema.createIndex('tms_do_header_so_idx').on('tms_do_header').column('so_id').execute();

  await withIdAndAudit(db.schema.createTable('tms_route_way'))
    .addColumn('route_id', 'bigint', (col) => col.notNull().references('tms_route.id').onDelete('cascade'))
    .addColumn('do_id', 'bigint', (col) => col.notNull().unique().references('tms_do_header.id'))
    .addColumn('seq', 'integer', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('tms_route_way_route_idx').on('tms_route_way').columns(['route_id', 'seq']).execute();

  await sql`alter table vehicle add column capacity_pallets integer check (capacity_pallets >= 0)`.execute(db);

  await grantConfiguratorAccess(db, ['tms_do_header', 'tms_route'], 'read');
  await grantConfiguratorAccess(db, ['tms_route_way'], 'read', { through: { column: 'route_id', table: 'tms_route' } });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table vehicle drop column capacity_pallets`.execute(db);
  await dropTables(db, ['tms_route_way', 'tms_do_header', 'tms_route']);
}

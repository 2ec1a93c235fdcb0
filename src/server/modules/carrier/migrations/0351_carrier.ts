import { sql, type Kysely } from 'kysely';
import { addMenuEntry, createScopedTable, grantConfiguratorAccess, requiredColumns, withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Parcel carriers: the carrier accounts of a project (where its HTTP API is, how long to wait), their
 * credentials in a table of their own that no page and no configurator role reads, the parcel
 * shipments booked with a carrier and the parcels (closed cartons) registered on them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'carrier_account', 'project_id')
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('name', 'text')
    .addColumn('base_url', 'text', (col) => col.notNull())
    .addColumn('timeout_ms', 'integer', (col) => col.notNull().defaultTo(10000))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('carrier_account_code_key', ['project_id', 'code'])
    .addCheckConstraint('carrier_account_url_form', sql`base_url ~ '^https?://[^[:space:]]+$'`)
    .addCheckConstraint('carrier_account_timeout_range', sql`timeout_ms between 100 and 120000`)
    .execute();

  await withIdAndAudit(db.schema.createTable('carrier_credential'))
    .addColumn('carrier_account_id', 'bigint', (col) => col.notNull().unique().references('carrier_account.id').onDelete('cascade'))
    .addColumn('secret', 'text', (col) => col.notNull())
    .execute();

  await createScopedTable(db, 'carrier_shipment', 'project_id', 'warehouse_id')
    .addColumn('shipment_no', 'text', (col) => col.notNull())
    .addColumn('carrier_account_id', 'bigint', (col) => col.notNull().references('carrier_account.id'))
    .addColumn('shipment_reference', 'text', (col) => col.notNull())
    .addColumn('expected_delivery_date', 'date', (col) => col.notNull())
    .$call(requiredColumns('text', 'gateway', 'service', 'service_provider', 'battery'))
    .addColumn('carrier_shipment_id', 'text')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open'))
    .addColumn('remark', 'text')
    .addUniqueConstraint('carrier_shipment_no_key', ['warehouse_id', 'shipment_no'])
    .addCheckConstraint('carrier_shipment_status_known', sql`status in ('open', 'booked', 'cancelled')`)
    .addCheckConstraint('carrier_shipment_battery_known', sql`battery in ('none', 'lithium_ion', 'lithium_metal')`)
    .execute();
  await db.schema.createIndex('carrier_shipment_reference_idx').on('carrier_shipment').columns(['project_id', 'shipment_reference']).execute();

  await createScopedTable(db, 'carrier_parcel', 'project_id', 'warehouse_id')
    .addColumn('shipment_id', 'bigint', (col) => col.notNull().references('carrier_shipment.id').onDelete('cascade'))
    .addColumn('so_id', 'bigint', (col) => col.notNull().references('so_header.id'))
    .addColumn('carton_id', 'bigint', (col) => col.notNull().unique().references('carton.id'))
    .addColumn('carton_no', 'text', (col) => col.notNull())
    .addColumn('parcel_id', 'text')
    .addColumn('tracking_no', 'text')
    .execute();
  await db.schema.createIndex('carrier_parcel_shipment_idx').on('carrier_parcel').column('shipment_id').execute();
  await db.schema.createIndex('carrier_parcel_order_idx').on('carrier_parcel').column('so_id').execute();
  await db.schema.createIndex('carrier_parcel_tracking_idx').on('carrier_parcel').column('tracking_no').execute();

  // Accounts are kept on their page; shipments on theirs (through the area's writer); parcels only by the area's service.
  await grantConfiguratorAccess(db, ['carrier_account', 'carrier_shipment'], 'write');
  await grantConfiguratorAccess(db, ['carrier_parcel'], 'read');

  // The /shipment entry (there since the first menu) opens the area's page and follows its view
  // right; the courier check and the carrier accounts get their entries at the end of their groups.
  await sql`update sys_module set right_name = 'carrier.shipment' where code = 'shipment' and created_by = 'system'`.execute(db);
  await addMenuEntry(db, { code: 'courierCheck', group: 'outbound', titleKey: 'menu.courierCheck', right: 'carrier.courierCheck' });
  await addMenuEntry(db, { code: 'carrierAccount', group: 'masterData', titleKey: 'menu.carrierAccount', right: 'carrier.carrierAccount' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('carrier_parcel').ifExists().execute();
  await db.schema.dropTable('carrier_shipment').ifExists().execute();
  await db.schema.dropTable('carrier_credential').ifExists().execute();
  await db.schema.dropTable('carrier_account').ifExists().execute();
}

import { sql, type Kysely } from 'kysely';
import { dropTables, grantConfiguratorAccess } from '../../../db/migrations/helpers.js';

/**
 * The nightly storage snapshot billing charges storage from (one row per day x warehouse x owner x
 * SKU, with the locations, LPNs and pallets the stock took), and the record of expiry alerts already
 * sent, so that a lot is not announced twice on one day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('storage_snapshot')
    .addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('snapshot_date', 'date', (col) => col.notNull())
    .addColumn('project_id', 'bigint', (col) => col.notNull().references('project.id'))
    .addColumn('warehouse_id', 'bigint', (col) => col.notNull().references('warehouse.id'))
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id'))
    .addColumn('on_hand_qty', sql`numeric(18,4)`, (col) => col.notNull())
    .addColumn('location_count', 'integer', (col) => col.notNull())
    .addColumn('lpn_count', 'integer', (col) => col.notNull())
    .addColumn('pallet_count', 'integer', (col) => col.notNull())
    .addColumn('taken_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('taken_by', 'text', (col) => col.notNull())
    .addUniqueConstraint('storage_snapshot_key', ['snapshot_date', 'warehouse_id', 'project_id', 'owner_id', 'sku_id'])
    .execute();
  await db.schema.createIndex('storage_snapshot_owner_idx').on('storage_snapshot').columns(['project_id', 'owner_id', 'snapshot_date']).execute();

  await db.schema
    .createTable('expiry_alert_sent')
    .addColumn('alert_date', 'date', (col) => col.notNull())
    .addColumn('warehouse_id', 'bigint', (col) => col.notNull().references('warehouse.id'))
    .addColumn('lot_id', 'bigint', (col) => col.notNull().references('lot.id'))
    .addColumn('sent_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('expiry_alert_sent_key', ['alert_date', 'warehouse_id', 'lot_id'])
    .execute();

  await grantConfiguratorAccess(db, ['storage_snapshot'], 'read');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['expiry_alert_sent', 'storage_snapshot']);
}

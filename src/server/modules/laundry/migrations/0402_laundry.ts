import { sql, type Kysely } from 'kysely';
import { createScopedTable, grantConfiguratorAccess, withIdAndTime } from '../../../db/migrations/helpers.js';

/**
 * The laundry: devices (key hash, bound to a project and warehouse, revocable), customers with
 * their issued code, washing batches, garments by tag (a tag in process once at a time) and the
 * history of each garment's status. Configurator SQL may read customers, batches and garments,
 * never the devices' key hashes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'laundry_device', 'project_id', 'warehouse_id')
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('key_hash', 'text', (col) => col.notNull().unique())
    .addColumn('key_hint', 'text', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'text')
    .addColumn('last_used_at', 'timestamptz')
    .execute();

  await createScopedTable(db, 'laundry_customer', 'project_id', 'warehouse_id')
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('phone', 'text')
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();

  await createScopedTable(db, 'laundry_batch', 'project_id', 'warehouse_id')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('washing').check(sql`status in ('washing', 'finished')`))
    .addColumn('started_by_device', 'bigint', (col) => col.notNull().references('laundry_device.id'))
    .addColumn('finished_at', 'timestamptz')
    .addColumn('finished_by_device', 'bigint', (col) => col.references('laundry_device.id'))
    .execute();

  await createScopedTable(db, 'laundry_garment', 'project_id', 'warehouse_id')
    .addColumn('customer_id', 'bigint', (col) => col.notNull().references('laundry_customer.id'))
    .addColumn('tag', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('received', 'washing', 'cleaned', 'returned')`))
    .addColumn('batch_id', 'bigint', (col) => col.references('laundry_batch.id'))
    .addColumn('received_at', 'timestamptz', (col) => col.notNull())
    .addColumn('washing_at', 'timestamptz')
    .addColumn('cleaned_at', 'timestamptz')
    .addColumn('returned_at', 'timestamptz')
    .execute();
  // A tag is in process once at a time in a warehouse: it can be received again once returned.
  await sql`create unique index laundry_garment_tag_open_key on laundry_garment (warehouse_id, tag) where status <> 'returned'`.execute(db);
  await db.schema.createIndex('laundry_garment_customer_idx').on('laundry_garment').column('customer_id').execute();
  await db.schema.createIndex('laundry_garment_batch_idx').on('laundry_garment').column('batch_id').execute();

  await withIdAndTime(db.schema.createTable('laundry_garment_event'))
    .addColumn('garment_id', 'bigint', (col) => col.notNull().references('laundry_garment.id'))
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (col) => col.notNull())
    .addColumn('batch_id', 'bigint', (col) => col.references('laundry_batch.id'))
    .addColumn('device_id', 'bigint', (col) => col.notNull().references('laundry_device.id'))
    .execute();
  await db.schema.createIndex('laundry_garment_event_garment_idx').on('laundry_garment_event').column('garment_id').execute();

  await grantConfiguratorAccess(db, ['laundry_customer', 'laundry_batch', 'laundry_garment'], 'read');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['laundry_garment_event', 'laundry_garment', 'laundry_batch', 'laundry_customer', 'laundry_device']) await db.schema.dropTable(table).execute();
}

import { sql, type Kysely } from 'kysely';
import { addIdRule, createScopedTable, dropTables, grantConfiguratorAccess, removeIdRule, withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Loading and shipping: a load (container or truck) of a project and warehouse, numbered by the LOAD
 * numbering rule (`LD` + date + 5 digits, per warehouse), with its container, seal, vessel, voyage,
 * bills of lading, driver, dates and ports; the closed cartons put on it (a carton on one load only,
 * kept by a unique key) and the delivery proof of each order (when, who received it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = ['container_no', 'seal_no', 'container_type', 'vessel', 'voyage', 'mbl', 'hbl', 'driver', 'port_of_loading', 'port_of_discharge', 'port_of_destination', 'load_from', 'load_to', 'remarks'];
  let header = createScopedTable(db, 'load_header', 'project_id', 'warehouse_id').addColumn('load_no', 'text', (col) => col.notNull());
  for (const column of text) header = header.addColumn(column, 'text');
  await header
    .addColumn('etd', 'timestamptz')
    .addColumn('eta', 'timestamptz')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open').check(sql`status in ('open', 'loaded', 'shipped')`))
    .addColumn('shipped_at', 'timestamptz')
    .addColumn('shipped_by', 'text')
    .addUniqueConstraint('load_header_warehouse_no_key', ['warehouse_id', 'load_no'])
    .execute();

  await withIdAndAudit(db.schema.createTable('load_carton'))
    .addColumn('load_id', 'bigint', (col) => col.notNull().references('load_header.id').onDelete('cascade'))
    .addColumn('carton_id', 'bigint', (col) => col.notNull().unique().references('carton.id'))
    .addColumn('so_id', 'bigint', (col) => col.notNull().references('so_header.id'))
    .addColumn('pallet_sscc', 'text')
    .addColumn('qty', 'numeric(18, 4)', (col) => col.notNull().check(sql`qty >= 0`))
    .execute();
  await db.schema.createIndex('load_carton_load_idx').on('load_carton').column('load_id').execute();
  await db.schema.createIndex('load_carton_so_idx').on('load_carton').column('so_id').execute();

  await createScopedTable(db, 'load_delivery', 'project_id', 'warehouse_id')
    .addColumn('so_id', 'bigint', (col) => col.notNull().unique().references('so_header.id'))
    .addColumn('delivered_at', 'timestamptz', (col) => col.notNull())
    .addColumn('receiver_name', 'text', (col) => col.notNull())
    .addColumn('remarks', 'text')
    .execute();

  await grantConfiguratorAccess(db, ['load_header', 'load_delivery'], 'read');
  await grantConfiguratorAccess(db, ['load_carton'], 'read', { through: { column: 'load_id', table: 'load_header' } });

  await addIdRule(db, { code: 'LOAD', description: 'Load', prefix: 'LD', sequenceLength: 5 });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['load_delivery', 'load_carton', 'load_header']);
  await removeIdRule(db, 'LOAD');
}

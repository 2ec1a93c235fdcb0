import { sql, type Kysely } from 'kysely';
import { createScopedTable, grantConfiguratorAccess, withId, withScope } from '../../../db/migrations/helpers.js';
import { orderLineColumns, withShipTo } from './order-columns.js';

/**
 * Outbound: sales order headers and lines, allocation rules per owner
 * and SKU, and the balance rows each line holds (so that unallocating and picking give back
 * exactly what was taken).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'so_header', 'project_id', 'warehouse_id')
    .addColumn('order_no', 'text', (col) => col.notNull())
    .$call(withShipTo)
    .addColumn('wave_id', 'text')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('new'))
    .addColumn('remark', 'text')
    .addUniqueConstraint('so_header_order_no_key', ['project_id', 'order_no'])
    .execute();
  await db.schema.createIndex('so_header_status_idx').on('so_header').columns(['project_id', 'warehouse_id', 'status']).execute();

  await createScopedTable(db, 'so_line', 'project_id', 'warehouse_id')
    .$call(orderLineColumns('so_id', 'so_header'))
    .addColumn('expiry_from', 'date')
    .addColumn('expiry_to', 'date')
    .addColumn('required_date', 'date')
    .addColumn('allocated_qty', 'numeric(18, 4)', (col) => col.notNull().defaultTo(0).check(sql`allocated_qty >= 0`))
    .addColumn('picked_qty', 'numeric(18, 4)', (col) => col.notNull().defaultTo(0).check(sql`picked_qty >= 0`))
    .addUniqueConstraint('so_line_so_line_no_key', ['so_id', 'line_no'])
    .addCheckConstraint('so_line_within_qty', sql`allocated_qty + picked_qty <= qty`)
    .execute();

  await createScopedTable(db, 'so_rule', 'project_id')
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    // null: the owner's rule for every SKU without a rule of its own.
    .addColumn('sku_id', 'bigint', (col) => col.references('sku.id'))
    .addColumn('strategy', 'text', (col) => col.notNull().defaultTo('fifo').check(sql`strategy in ('fifo', 'fefo', 'lifo', 'location')`))
    .addColumn('min_shelf_life_days', 'integer', (col) => col.notNull().defaultTo(0).check(sql`min_shelf_life_days >= 0`))
    .addColumn('pick_face_first', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();
  await sql`create unique index so_rule_owner_sku_key on so_rule (owner_id, coalesce(sku_id, 0))`.execute(db);

  await withId(db.schema.createTable('so_allocation'))
    .$call(withScope('project_id', 'warehouse_id'))
    .addColumn('so_id', 'bigint', (col) => col.notNull().references('so_header.id').onDelete('cascade'))
    .addColumn('so_line_id', 'bigint', (col) => col.notNull().references('so_line.id').onDelete('cascade'))
    .addColumn('balance_id', 'bigint', (col) => col.notNull().references('inventory_balance.id'))
    .addColumn('qty', 'numeric(18, 4)', (col) => col.notNull().check(sql`qty > 0`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('so_allocation_line_balance_key', ['so_line_id', 'balance_id'])
    .execute();
  await db.schema.createIndex('so_allocation_so_idx').on('so_allocation').column('so_id').execute();

  // The menu: /so opens the shipped definition (src/common/page-routes.ts).
  await sql`update sys_module set right_name = 'outbound.so' where code = 'so' and created_by = 'system'`.execute(db);

  // Orders change status only through the area's writers and behaviours: configurator SQL reads them.
  await grantConfiguratorAccess(db, ['so_rule'], 'write');
  await grantConfiguratorAccess(db, ['so_header', 'so_line', 'so_allocation'], 'read');
}

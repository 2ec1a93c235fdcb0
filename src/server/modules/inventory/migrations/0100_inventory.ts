import { sql, type Kysely } from 'kysely';
import { createScopedTable, grantConfiguratorAccess, requiredColumns, textColumns, withId, withLotAttributes, withScope, withStockKey } from '../../../db/migrations/helpers.js';

const QTY = sql`numeric(18,4)`;

/** Lots, the balance with its guards, and the append-only ledger. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence lot_no_seq`.execute(db);
  await createScopedTable(db, 'lot', 'project_id')
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id'))
    .addColumn('lot_no', 'text', (col) => col.notNull().defaultTo(sql`'L' || lpad(nextval('lot_no_seq')::text, 8, '0')`))
    .$call(withLotAttributes)
    .$call(textColumns('trace_id', 'pallet_id', 'carton_id'))
    .addColumn('received_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('attribute_key', 'text', (col) => col.notNull())
    .addUniqueConstraint('lot_attributes', ['owner_id', 'sku_id', 'attribute_key'])
    .execute();
  await db.schema.createIndex('lot_number_idx').on('lot').columns(['project_id', 'lot_no']).execute();
  await db.schema.createIndex('lot_expiry_idx').on('lot').columns(['sku_id', 'expiry_date']).execute();

  await withId(db.schema.createTable('inventory_balance'))
    .$call(withScope('project_id', 'warehouse_id'))
    .$call(withStockKey)
    .addColumn('on_hand_qty', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('allocated_qty', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('picked_qty', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('held_qty', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('last_inbound_at', 'timestamptz')
    .addColumn('last_outbound_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('inventory_balance_key', ['warehouse_id', 'owner_id', 'sku_id', 'lot_id', 'location_id', 'lpn'])
    .addCheckConstraint('inventory_balance_not_negative', sql`on_hand_qty >= 0 and allocated_qty >= 0 and picked_qty >= 0 and held_qty >= 0`)
    .addCheckConstraint('inventory_balance_within_on_hand', sql`allocated_qty + picked_qty + held_qty <= on_hand_qty`)
    .execute();
  await db.schema.createIndex('inventory_balance_sku_idx').on('inventory_balance').columns(['project_id', 'sku_id']).execute();
  await db.schema.createIndex('inventory_balance_location_idx').on('inventory_balance').columns(['location_id']).execute();

  await withId(db.schema.createTable('inventory_transaction'))
    .$call(withScope('project_id', 'warehouse_id'))
    .addColumn('balance_id', 'bigint', (col) => col.notNull().references('inventory_balance.id'))
    .addColumn('trans_type', 'text', (col) => col.notNull())
    .addColumn('trans_status', 'text', (col) => col.notNull().defaultTo('done'))
    .addColumn('reference_type', 'text')
    .addColumn('order_no', 'text')
    .addColumn('reference_line', 'integer')
    .addColumn('trans_time', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('operator', 'text', (col) => col.notNull())
    .$call(requiredColumns('bigint', 'owner_id', 'sku_id', 'lot_id', 'location_id'))
    .addColumn('lpn', 'text', (col) => col.notNull())
    .addColumn('trace_id', 'text')
    .addColumn('qty', QTY, (col) => col.notNull())
    .addColumn('allocated_change', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('picked_change', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('held_change', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('before_qty', QTY, (col) => col.notNull())
    .addColumn('after_qty', QTY, (col) => col.notNull())
    .$call(textColumns('uom', 'reason', 'description'))
    .addColumn('amount', sql`numeric(18,4)`)
    .execute();
  await db.schema.createIndex('inventory_transaction_time_idx').on('inventory_transaction').columns(['project_id', 'trans_time']).execute();
  await db.schema.createIndex('inventory_transaction_balance_idx').on('inventory_transaction').columns(['balance_id', 'trans_time']).execute();
  await db.schema.createIndex('inventory_transaction_order_idx').on('inventory_transaction').columns(['project_id', 'order_no']).execute();

  // The ledger is append-only: no role may change or remove a row once written.
  await sql`
    create function inventory_transaction_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'inventory_transaction is append-only' using errcode = '55000';
    end $$`.execute(db);
  await sql`
    create trigger inventory_transaction_append_only before update or delete on inventory_transaction
    for each row execute function inventory_transaction_append_only()`.execute(db);

  await grantConfiguratorAccess(db, ['lot', 'inventory_balance', 'inventory_transaction'], 'read');
}

import { sql, type Kysely } from 'kysely';
import { createScopedTable, documentLine, grantConfiguratorAccess, textColumns } from '../../../db/migrations/helpers.js';

const QTY = sql`numeric(18,4)`;

/**
 * The inventory operation documents: adjustment, move, transfer and
 * hold/release, one header table and one line table told apart by `doc_type`. Their stock effect is
 * written only by the inventory service when a document is confirmed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'inventory_document', 'project_id', 'warehouse_id')
    .addColumn('doc_type', 'text', (col) => col.notNull().check(sql`doc_type in ('adjust', 'move', 'transfer', 'hold')`))
    .addColumn('doc_no', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('new').check(sql`status in ('new', 'requested', 'in_transit', 'confirmed', 'cancelled')`),
    )
    .addColumn('reason', 'text')
    .addColumn('remark', 'text')
    .addColumn('to_warehouse_id', 'bigint', (col) => col.references('warehouse.id'))
    .addColumn('requested_by', 'text')
    .addColumn('requested_at', 'timestamptz')
    .addColumn('approved_by', 'text')
    .addColumn('approved_at', 'timestamptz')
    .addColumn('confirmed_by', 'text')
    .addColumn('confirmed_at', 'timestamptz')
    .addUniqueConstraint('inventory_document_no_key', ['warehouse_id', 'doc_type', 'doc_no'])
    .execute();
  await db.schema.createIndex('inventory_document_status_idx').on('inventory_document').columns(['warehouse_id', 'doc_type', 'status']).execute();

  await createScopedTable(db, 'inventory_document_line', 'project_id', 'warehouse_id')
    .$call(documentLine('document_id', 'inventory_document'))
    .addColumn('action', 'text', (col) => col.check(sql`action in ('add', 'subtract', 'hold', 'release')`))
    .addColumn('owner_id', 'bigint', (col) => col.references('owner.id'))
    .addColumn('sku_id', 'bigint', (col) => col.references('sku.id'))
    .addColumn('lot_id', 'bigint', (col) => col.references('lot.id'))
    .addColumn('location_id', 'bigint', (col) => col.references('location.id'))
    .addColumn('lpn', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('qty', QTY, (col) => col.check(sql`qty > 0`))
    .addColumn('to_owner_id', 'bigint', (col) => col.references('owner.id'))
    .addColumn('to_sku_id', 'bigint', (col) => col.references('sku.id'))
    .addColumn('to_location_id', 'bigint', (col) => col.references('location.id'))
    .addColumn('to_lpn', 'text')
    .addColumn('reason', 'text')
    .addColumn('transit_location_id', 'bigint', (col) => col.references('location.id'))
    .addUniqueConstraint('inventory_document_line_no_key', ['document_id', 'line_no'])
    .execute();

  // Cycle count: plans (the count master), tickets and their lines.
  await createScopedTable(db, 'count_plan', 'project_id', 'warehouse_id')
    .addColumn('plan_code', 'text', (col) => col.notNull())
    .$call(textColumns('description', 'zone', 'location_from', 'location_to'))
    .addColumn('sku_id', 'bigint', (col) => col.references('sku.id'))
    .addColumn('abc_class', 'text', (col) => col.check(sql`abc_class in ('A', 'B', 'C')`))
    .addColumn('not_counted_days', 'integer', (col) => col.check(sql`not_counted_days >= 0`))
    .addColumn('max_locations', 'integer', (col) => col.notNull().defaultTo(100).check(sql`max_locations between 1 and 10000`))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('last_run_at', 'timestamptz')
    .addUniqueConstraint('count_plan_code_key', ['warehouse_id', 'plan_code'])
    .execute();

  await createScopedTable(db, 'count_ticket', 'project_id', 'warehouse_id')
    .addColumn('ticket_no', 'text', (col) => col.notNull())
    .addColumn('plan_id', 'bigint', (col) => col.references('count_plan.id'))
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('open').check(sql`status in ('open', 'counted', 'approved', 'closed', 'cancelled')`),
    )
    .addColumn('approved_by', 'text')
    .addColumn('approved_at', 'timestamptz')
    .addUniqueConstraint('count_ticket_no_key', ['warehouse_id', 'ticket_no'])
    .execute();
  await db.schema.createIndex('count_ticket_status_idx').on('count_ticket').columns(['warehouse_id', 'status']).execute();

  await createScopedTable(db, 'count_ticket_line', 'project_id', 'warehouse_id')
    .$call(documentLine('ticket_id', 'count_ticket'))
    .addColumn('location_id', 'bigint', (col) => col.notNull().references('location.id'))
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id'))
    .addColumn('lot_id', 'bigint', (col) => col.notNull().references('lot.id'))
    .addColumn('lpn', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('system_qty', QTY, (col) => col.notNull())
    .addColumn('counted_qty', QTY, (col) => col.check(sql`counted_qty >= 0`))
    .addColumn('recount_qty', QTY, (col) => col.check(sql`recount_qty >= 0`))
    .addColumn('counted_by', 'text')
    .addColumn('counted_at', 'timestamptz')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open').check(sql`status in ('open', 'counted', 'recount', 'approved')`))
    .addUniqueConstraint('count_ticket_line_no_key', ['ticket_id', 'line_no'])
    .execute();
  await db.schema.createIndex('count_ticket_line_location_idx').on('count_ticket_line').columns(['location_id']).execute();

  // The transaction-log window (the period must lie within a configured number of days).
  await sql`
    insert into sys_param (organization_id, param_code, param_value, description, created_by, updated_by)
    values (null, 'INV_TRANS_LOG_MAX_DAYS', '31', 'Longest period of one transaction-log query, in days', 'system', 'system')
    on conflict on constraint sys_param_org_code_key do nothing`.execute(db);

  await grantConfiguratorAccess(db, ['inventory_document', 'inventory_document_line', 'count_plan', 'count_ticket', 'count_ticket_line'], 'read');
}

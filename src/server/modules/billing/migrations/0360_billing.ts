import { sql, type Kysely } from 'kysely';
import { createScopedTable, grantConfiguratorAccess } from '../../../db/migrations/helpers.js';

/**
 * 3PL billing: charge codes, contracts of a customer (owner) with their tariff lines, bills (header,
 * lines, what each line counted) and the record of billed events, so that a confirmed bill never
 * charges the same receipt, shipment, order or storage day twice under one charge code. Invoice
 * numbers come from the numbering rule INVOICE.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'charge_code', 'project_id')
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('charge_type', 'text', (col) => col.notNull().check(sql`charge_type in ('storage', 'inbound', 'outbound', 'vas', 'fixed', 'minimum')`))
    .addColumn('account_code', 'text')
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('charge_code_project_code_key', ['project_id', 'code'])
    .execute();

  await createScopedTable(db, 'billing_contract', 'project_id')
    .addColumn('contract_no', 'text', (col) => col.notNull())
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('description', 'text')
    .addColumn('currency_code', 'text', (col) => col.notNull())
    .addColumn('valid_from', 'date', (col) => col.notNull())
    .addColumn('valid_to', 'date')
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('billing_contract_project_no_key', ['project_id', 'contract_no'])
    .addCheckConstraint('billing_contract_valid_range', sql`valid_to is null or valid_to >= valid_from`)
    .execute();

  await createScopedTable(db, 'billing_tariff', 'project_id')
    .addColumn('contract_id', 'bigint', (col) => col.notNull().references('billing_contract.id').onDelete('cascade'))
    .addColumn('line_no', 'integer', (col) => col.notNull())
    .addColumn('charge_code_id', 'bigint', (col) => col.notNull().references('charge_code.id'))
    .addColumn('description', 'text')
    .addColumn('charge_method', 'text', (col) =>
      col.notNull().check(sql`charge_method in ('per_unit', 'per_carton', 'per_pallet', 'per_order', 'per_line', 'per_cbm', 'per_kg', 'per_pallet_day', 'fixed')`),
    )
    .addColumn('bill_base', 'text', (col) => col.notNull().check(sql`bill_base in ('received_qty', 'shipped_qty', 'on_hand_snapshot', 'orders', 'lines', 'none')`))
    .addColumn('bill_unit', 'text')
    .addColumn('rate', sql`numeric(18,6)`, (col) => col.notNull().check(sql`rate >= 0`))
    .addColumn('overflow_threshold', sql`numeric(18,4)`, (col) => col.check(sql`overflow_threshold >= 0`))
    .addColumn('overflow_rate', sql`numeric(18,6)`, (col) => col.check(sql`overflow_rate >= 0`))
    .addColumn('min_charge', sql`numeric(18,4)`, (col) => col.check(sql`min_charge >= 0`))
    .addColumn('account_code', 'text')
    .addColumn('currency_code', 'text')
    .addColumn('valid_from', 'date', (col) => col.notNull())
    .addColumn('valid_to', 'date')
    .addCheckConstraint('billing_tariff_valid_range', sql`valid_to is null or valid_to >= valid_from`)
    .addUniqueConstraint('billing_tariff_contract_line_key', ['contract_id', 'line_no'])
    .execute();

  await createScopedTable(db, 'billing_header', 'project_id')
    .addColumn('bill_id', 'text', (col) => col.notNull())
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('contract_id', 'bigint', (col) => col.notNull().references('billing_contract.id'))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('draft').check(sql`status in ('draft', 'confirmed', 'posted')`))
    .addColumn('cutoff_date', 'date', (col) => col.notNull())
    .addColumn('period_from', 'date', (col) => col.notNull())
    .addColumn('period_to', 'date', (col) => col.notNull())
    .addColumn('confirm_date', 'timestamptz')
    .addColumn('post_date', 'timestamptz')
    .addColumn('invoice_no', 'text')
    .addColumn('invoice_date', 'date')
    .addColumn('bill_to_name', 'text')
    .addColumn('address1', 'text')
    .addColumn('address2', 'text')
    .addColumn('address3', 'text')
    .addColumn('address4', 'text')
    .addColumn('city', 'text')
    .addColumn('province', 'text')
    .addColumn('country', 'text')
    .addColumn('zip', 'text')
    .addColumn('contact', 'text')
    .addColumn('phone', 'text')
    .addColumn('fax', 'text')
    .addColumn('email', 'text')
    .addColumn('currency_code', 'text', (col) => col.notNull())
    .addColumn('exchange_rate', sql`numeric(18,6)`, (col) => col.notNull().defaultTo(1).check(sql`exchange_rate > 0`))
    .addColumn('total_amount', sql`numeric(18,4)`, (col) => col.notNull().defaultTo(0))
    .addUniqueConstraint('billing_header_project_bill_key', ['project_id', 'bill_id'])
    .addCheckConstraint('billing_header_period', sql`period_from < period_to`)
    .execute();
  await db.schema.createIndex('billing_header_owner_idx').on('billing_header').columns(['project_id', 'owner_id', 'status']).execute();

  await createScopedTable(db, 'billing_line', 'project_id')
    .addColumn('header_id', 'bigint', (col) => col.notNull().references('billing_header.id').onDelete('cascade'))
    .addColumn('line_no', 'integer', (col) => col.notNull())
    .addColumn('tariff_id', 'bigint', (col) => col.references('billing_tariff.id').onDelete('set null'))
    .addColumn('charge_code_id', 'bigint', (col) => col.notNull().references('charge_code.id'))
    .addColumn('charge_code', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('charge_method', 'text', (col) => col.notNull())
    .addColumn('bill_base', 'text', (col) => col.notNull())
    .addColumn('qty', sql`numeric(18,4)`, (col) => col.notNull())
    .addColumn('unit', 'text')
    .addColumn('rate', sql`numeric(18,6)`, (col) => col.notNull())
    .addColumn('amount', sql`numeric(18,4)`, (col) => col.notNull())
    .addColumn('currency_code', 'text', (col) => col.notNull())
    .addColumn('account_code', 'text')
    .addColumn('reference', 'text')
    .addUniqueConstraint('billing_line_header_line_key', ['header_id', 'line_no'])
    .execute();

  // What a line counted: ledger rows, orders or snapshot rows (with the day), for the drill-down.
  await db.schema
    .createTable('billing_line_source')
    .addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('project_id', 'bigint', (col) => col.notNull().references('project.id'))
    .addColumn('header_id', 'bigint', (col) => col.notNull().references('billing_header.id').onDelete('cascade'))
    .addColumn('line_id', 'bigint', (col) => col.notNull().references('billing_line.id').onDelete('cascade'))
    .addColumn('source_kind', 'text', (col) => col.notNull().check(sql`source_kind in ('ledger', 'order', 'snapshot', 'period')`))
    .addColumn('source_id', 'bigint', (col) => col.notNull())
    .addColumn('source_day', 'date')
    .addColumn('source_ref', 'text')
    .addColumn('qty', sql`numeric(18,4)`, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('billing_line_source_line_idx').on('billing_line_source').column('line_id').execute();
  await db.schema.createIndex('billing_line_source_header_idx').on('billing_line_source').column('header_id').execute();

  // An event billed under a charge code by a confirmed bill; a second confirmation of it is refused.
  await db.schema
    .createTable('billing_event_billed')
    .addColumn('project_id', 'bigint', (col) => col.notNull().references('project.id'))
    .addColumn('charge_code_id', 'bigint', (col) => col.notNull().references('charge_code.id'))
    .addColumn('source_kind', 'text', (col) => col.notNull())
    .addColumn('source_id', 'bigint', (col) => col.notNull())
    .addColumn('header_id', 'bigint', (col) => col.notNull().references('billing_header.id'))
    .addColumn('billed_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('billing_event_billed_key', ['project_id', 'charge_code_id', 'source_kind', 'source_id'])
    .execute();

  await sql`
    insert into id_rule (rule_code, description, prefix, date_pattern, sequence_length, reset_period, scope_level, created_by, updated_by)
    select 'INVOICE', 'Invoice', 'INV', 'YYYYMM', 5, 'monthly', 'project', 'system', 'system'
    where not exists (select 1 from id_rule where rule_code = 'INVOICE')`.execute(db);

  await grantConfiguratorAccess(db, ['charge_code', 'billing_contract', 'billing_tariff'], 'write');
  await grantConfiguratorAccess(db, ['billing_header', 'billing_line', 'billing_line_source'], 'read');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from id_rule where rule_code = 'INVOICE' and created_by = 'system'`.execute(db);
  for (const table of ['billing_event_billed', 'billing_line_source', 'billing_line', 'billing_header', 'billing_tariff', 'billing_contract', 'charge_code']) {
    await db.schema.dropTable(table).execute();
  }
}

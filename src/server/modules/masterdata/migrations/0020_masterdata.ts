import { sql, type Kysely } from 'kysely';
import { createScopedTable, textColumns, withAudit, withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Master data (part 4): owners, SKUs with UPC codes, partners, locations, system
 * parameters, multilingual texts, code master, currencies, inventory codes, RF users, numbering
 * rules, vehicles and drivers. Scope: owners, SKUs and partners belong to a project; locations,
 * RF users, vehicles and drivers to a warehouse; the rest is organization-wide or global.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // /whs sits over the existing warehouse table; these are the columns its page shows.
  await sql`
    alter table warehouse
      add column description text,
      add column address1 text,
      add column address2 text,
      add column city text,
      add column province text,
      add column country text,
      add column postal text,
      add column contact_name text,
      add column phone text,
      add column email text,
      add column active boolean not null default true
  `.execute(db);
  await sql`
    alter table project
      add column description text,
      add column active boolean not null default true
  `.execute(db);

  await createScopedTable(db, 'owner', 'project_id')
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .$call(textColumns('short_name', 'contact_name', 'phone', 'email', 'address1', 'address2', 'city', 'province', 'country', 'postal'))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('owner_project_code_key', ['project_id', 'code'])
    .execute();

  await createScopedTable(db, 'sku', 'project_id')
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('description2', 'text')
    .addColumn('sku_group', 'text')
    .addColumn('base_uom', 'text', (col) => col.notNull().defaultTo('EA'))
    // Pack: how many base units make an inner, a case; how many cases make a pallet.
    .addColumn('inner_qty', 'numeric(18, 4)', (col) => col.check(sql`inner_qty > 0`))
    .addColumn('case_qty', 'numeric(18, 4)', (col) => col.check(sql`case_qty > 0`))
    .addColumn('pallet_cases', 'numeric(18, 4)', (col) => col.check(sql`pallet_cases > 0`))
    // Dimensions in cm and weights in kg, of one base unit.
    .addColumn('length_cm', 'numeric(12, 3)', (col) => col.check(sql`length_cm >= 0`))
    .addColumn('width_cm', 'numeric(12, 3)', (col) => col.check(sql`width_cm >= 0`))
    .addColumn('height_cm', 'numeric(12, 3)', (col) => col.check(sql`height_cm >= 0`))
    .addColumn('volume_cm3', 'numeric(18, 3)', (col) => col.check(sql`volume_cm3 >= 0`))
    .addColumn('gross_weight_kg', 'numeric(12, 4)', (col) => col.check(sql`gross_weight_kg >= 0`))
    .addColumn('net_weight_kg', 'numeric(12, 4)', (col) => col.check(sql`net_weight_kg >= 0`))
    // Shelf-life rules: total life, and the least remaining life accepted at receipt and at shipment.
    .addColumn('shelf_life_days', 'integer', (col) => col.check(sql`shelf_life_days >= 0`))
    .addColumn('inbound_min_days', 'integer', (col) => col.check(sql`inbound_min_days >= 0`))
    .addColumn('outbound_min_days', 'integer', (col) => col.check(sql`outbound_min_days >= 0`))
    .addColumn('expiry_control', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('lot_control', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('serial_control', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('unit_price', 'numeric(18, 4)', (col) => col.check(sql`unit_price >= 0`))
    .addColumn('currency_code', 'text')
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('sku_owner_code_key', ['owner_id', 'code'])
    .execute();
  await db.schema.createIndex('sku_project_code_idx').on('sku').columns(['project_id', 'code']).execute();

  // project_id repeats the SKU's so that the generic engine can scope the UPC page by project.
  await createScopedTable(db, 'sku_upc', 'project_id')
    .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id').onDelete('cascade'))
    .addColumn('upc', 'text', (col) => col.notNull())
    .addColumn('uom', 'text', (col) => col.notNull().defaultTo('EA'))
    .addColumn('qty', 'numeric(18, 4)', (col) => col.notNull().defaultTo(1).check(sql`qty > 0`))
    .addColumn('is_default', 'boolean', (col) => col.notNull().defaultTo(false))
    .addUniqueConstraint('sku_upc_sku_upc_key', ['sku_id', 'upc'])
    .execute();
  await db.schema.createIndex('sku_upc_upc_idx').on('sku_upc').column('upc').execute();

  await createScopedTable(db, 'partner', 'project_id')
    .addColumn('partner_type', 'text', (col) => col.notNull().check(sql`partner_type in ('supplier', 'consignee', 'carrier')`))
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .$call(textColumns('contact_name', 'phone', 'email', 'address1', 'address2', 'address3', 'address4', 'city', 'province', 'country', 'postal'))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('partner_project_type_code_key', ['project_id', 'partner_type', 'code'])
    .execute();

  await createScopedTable(db, 'location', 'warehouse_id')
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('location_type', 'text', (col) =>
      col.notNull().defaultTo('storage').check(sql`location_type in ('storage', 'pick', 'stage', 'dock', 'qc', 'damage', 'virtual')`),
    )
    .$call(textColumns('zone', 'aisle', 'bay', 'level', 'position'))
    .addColumn('pick_seq', 'integer')
    .addColumn('max_volume_cm3', 'numeric(18, 3)', (col) => col.check(sql`max_volume_cm3 >= 0`))
    .addColumn('max_weight_kg', 'numeric(12, 3)', (col) => col.check(sql`max_weight_kg >= 0`))
    .addColumn('max_pallets', 'integer', (col) => col.check(sql`max_pallets >= 0`))
    .addColumn('mix_sku', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('mix_lot', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('active').check(sql`status in ('active', 'hold', 'inactive')`))
    .addUniqueConstraint('location_warehouse_code_key', ['warehouse_id', 'code'])
    .execute();
  await db.schema.createIndex('location_warehouse_zone_idx').on('location').columns(['warehouse_id', 'zone', 'code']).execute();

  // organization_id null: a global parameter; a row of an organization overrides it there.
  await withIdAndAudit(db.schema.createTable('sys_param'))
    .addColumn('organization_id', 'bigint', (col) => col.references('organization.id'))
    .addColumn('param_code', 'text', (col) => col.notNull())
    .addColumn('param_value', 'text')
    .addColumn('description', 'text')
    .execute();
  // NULLS NOT DISTINCT (PostgreSQL 15) keeps one global row per code.
  await sql`alter table sys_param add constraint sys_param_org_code_key unique nulls not distinct (organization_id, param_code)`.execute(db);

  await withIdAndAudit(db.schema.createTable('mult_text'))
    .addColumn('text_code', 'text', (col) => col.notNull().unique())
    .$call(textColumns('text_en', 'text_zh', 'text_zh_tw', 'text_kor', 'text_th', 'text_jp'))
    .execute();

  await withIdAndAudit(db.schema.createTable('code_master'))
    .addColumn('code_type', 'text', (col) => col.notNull())
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('sort_seq', 'integer', (col) => col.notNull().defaultTo(0))
    .$call(textColumns('desc_en', 'desc_zh', 'desc_zh_tw', 'desc_kor', 'desc_th', 'desc_jp'))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('code_master_type_code_key', ['code_type', 'code'])
    .execute();

  await withIdAndAudit(db.schema.createTable('currency'))
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('symbol', 'text')
    .addColumn('decimals', 'integer', (col) => col.notNull().defaultTo(2).check(sql`decimals between 0 and 6`))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();

  // Inventory codes: the reason and status codes of adjustments, holds, moves, transfers, counts.
  await withIdAndAudit(db.schema.createTable('inv_code'))
    .addColumn('code_type', 'text', (col) =>
      col.notNull().check(sql`code_type in ('adjust', 'hold', 'move', 'transfer', 'count', 'status')`),
    )
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('requires_approval', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('inv_code_type_code_key', ['code_type', 'code'])
    .execute();

  // Handheld (RF) access of a user in a warehouse.
  await createScopedTable(db, 'rf_user', 'warehouse_id')
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('app_user.id'))
    .$call(textColumns('zone', 'task_types', 'default_location'))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('rf_user_warehouse_user_key', ['warehouse_id', 'user_id'])
    .execute();

  // Numbering rules of document numbers (/idGener) and their counters.
  await withIdAndAudit(db.schema.createTable('id_rule'))
    .addColumn('rule_code', 'text', (col) => col.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('prefix', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('date_pattern', 'text', (col) =>
      col.notNull().defaultTo('').check(sql`date_pattern in ('', 'YYYY', 'YY', 'YYYYMM', 'YYMM', 'YYYYMMDD', 'YYMMDD')`),
    )
    .addColumn('sequence_length', 'integer', (col) => col.notNull().defaultTo(6).check(sql`sequence_length between 1 and 18`))
    .addColumn('reset_period', 'text', (col) =>
      col.notNull().defaultTo('never').check(sql`reset_period in ('never', 'daily', 'monthly', 'yearly')`),
    )
    .addColumn('scope_level', 'text', (col) =>
      col.notNull().defaultTo('global').check(sql`scope_level in ('global', 'warehouse', 'project')`),
    )
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();
  await withAudit(db.schema.createTable('id_rule_counter'))
    .addColumn('rule_id', 'bigint', (col) => col.notNull().references('id_rule.id').onDelete('cascade'))
    // 0 for a global rule, else the warehouse or project id the number belongs to.
    .addColumn('scope_id', 'bigint', (col) => col.notNull().defaultTo(0))
    // '' for a rule that never resets, else the period: '2026', '202611' or '20261120'.
    .addColumn('period_key', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('current_value', 'bigint', (col) => col.notNull().check(sql`current_value >= 0`))
    .addPrimaryKeyConstraint('id_rule_counter_pk', ['rule_id', 'scope_id', 'period_key'])
    .execute();

  await createScopedTable(db, 'vehicle', 'warehouse_id')
    .addColumn('plate_no', 'text', (col) => col.notNull())
    .addColumn('vehicle_type', 'text')
    .addColumn('carrier_code', 'text')
    .addColumn('capacity_weight_kg', 'numeric(12, 3)', (col) => col.check(sql`capacity_weight_kg >= 0`))
    .addColumn('capacity_volume_m3', 'numeric(12, 3)', (col) => col.check(sql`capacity_volume_m3 >= 0`))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('vehicle_warehouse_plate_key', ['warehouse_id', 'plate_no'])
    .execute();

  await createScopedTable(db, 'driver', 'warehouse_id')
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('phone', 'text')
    .addColumn('license_no', 'text')
    .addColumn('license_expiry', 'date')
    .addColumn('vehicle_id', 'bigint', (col) => col.references('vehicle.id').onDelete('set null'))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('driver_warehouse_code_key', ['warehouse_id', 'code'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'driver',
    'vehicle',
    'id_rule_counter',
    'id_rule',
    'rf_user',
    'inv_code',
    'currency',
    'code_master',
    'mult_text',
    'sys_param',
    'location',
    'partner',
    'sku_upc',
    'sku',
    'owner',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await sql`alter table project drop column description, drop column active`.execute(db);
  await sql`
    alter table warehouse
      drop column description, drop column address1, drop column address2, drop column city,
      drop column province, drop column country, drop column postal, drop column contact_name,
      drop column phone, drop column email, drop column active
  `.execute(db);
}

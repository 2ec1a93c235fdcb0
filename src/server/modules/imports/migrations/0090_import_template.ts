import { sql, type Kysely } from 'kysely';
import { createScopedTable, grantConfiguratorAccess, textColumns } from '../../../db/migrations/helpers.js';

/** Import templates and their columns ("report setting and import template"). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'import_template', 'project_id')
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('name_en', 'text', (col) => col.notNull())
    .$call(textColumns('name_zh', 'name_zh_tw', 'name_jp'))
    .addColumn('display_seq', 'integer', (col) => col.notNull().defaultTo(0))
    .$call(textColumns('calculate_type', 'customer_code', 'project_code'))
    .addColumn('module_code', 'text', (col) => col.notNull())
    .addColumn('function_code', 'text', (col) => col.notNull())
    .addColumn('file_type', 'text', (col) => col.notNull().check(sql`file_type in ('xlsx', 'csv', 'fixed')`))
    .addColumn('delimiter', 'text', (col) => col.defaultTo('/'))
    .addColumn('with_header', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('start_row', 'integer', (col) => col.notNull().defaultTo(2).check(sql`start_row >= 1`))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('import_template_code', ['project_id', 'code'])
    .execute();
  await createScopedTable(db, 'import_template_column', 'project_id')
    .addColumn('template_id', 'bigint', (col) => col.notNull().references('import_template.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('field_name', 'text', (col) => col.notNull())
    .addColumn('source_column', 'text')
    .addColumn('unique_key', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('data_type', 'text', (col) => col.notNull().defaultTo('string').check(sql`data_type in ('string', 'integer', 'decimal', 'date', 'datetime', 'boolean')`))
    .addColumn('length', 'integer')
    .addColumn('decimals', 'integer')
    .addColumn('date_format', 'text')
    .addColumn('start_pos', 'integer')
    .addColumn('end_pos', 'integer')
    .$call(textColumns('default_value', 'range_min', 'range_max'))
    .addColumn('mandatory', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('combined_fields', 'text')
    .addUniqueConstraint('import_template_column_field', ['template_id', 'field_name'])
    .execute();
  await grantConfiguratorAccess(db, ['import_template', 'import_template_column'], 'write');
  // The menu entry now opens the shipped definition: its right is that page's (src/common/page-routes.ts).
  await sql`update sys_module set right_name = 'masterdata.importConfig' where code = 'importConfig' and right_name is distinct from 'masterdata.importConfig'`.execute(db);
}

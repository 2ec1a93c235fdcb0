import { sql, type Kysely } from 'kysely';
import { createScopedTable } from '../../../db/migrations/helpers.js';

/**
 * Auto print rules (docs/printing.md "Auto print"): per project and warehouse, when an event
 * happens (an order checked complete, a load shipped), the document is rendered
 * from the rule's template and queued on the rule's printer, in the given number of copies.
 * Not granted to the configurator roles.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'auto_print_rule', 'project_id', 'warehouse_id')
    .addColumn('event', 'text', (col) => col.notNull().check(sql`event in ('packing.checkCompleted', 'loading.shipped')`))
    .addColumn('template_id', 'bigint', (col) => col.notNull().references('doc_template.id'))
    .addColumn('printer_id', 'bigint', (col) => col.notNull().references('printer.id'))
    .addColumn('copies', 'integer', (col) => col.notNull().defaultTo(1).check(sql`copies between 1 and 20`))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('remark', 'text')
    .execute();
  await sql`create index auto_print_rule_event on auto_print_rule (warehouse_id, event) where active`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('auto_print_rule').ifExists().execute();
}

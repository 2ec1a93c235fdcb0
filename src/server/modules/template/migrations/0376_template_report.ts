import { type Kysely } from 'kysely';

/**
 * A template of kind `report` may name the report it prints (docs/templates.md "Templates for a
 * report"): the report's runner offers it for printing, and the designer previews it with the
 * report's first rows. A deleted report leaves the template without one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('doc_template')
    .addColumn('report_id', 'bigint', (col) => col.references('report_definition.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('doc_template_report_idx').on('doc_template').column('report_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('doc_template_report_idx').ifExists().execute();
  await db.schema.alterTable('doc_template').dropColumn('report_id').execute();
}

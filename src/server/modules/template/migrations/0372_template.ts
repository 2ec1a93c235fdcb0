import { sql, type Kysely } from 'kysely';
import { createScopedTable, createVersionTable } from '../../../db/migrations/helpers.js';

/**
 * Document templates (docs/templates.md). A template belongs to the project it was made in: a
 * kind (pick list, pack list, delivery note, carton label, pallet label, invoice, report), a draft
 * of pdfme template JSON and numbered published versions that printing uses. Jasper .jrxml files of
 * other systems are kept per project as they were uploaded (stored, never rendered). None of these
 * tables is granted to the configurator roles.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'doc_template', 'project_id')
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('pickList', 'packList', 'deliveryNote', 'cartonLabel', 'palletLabel', 'invoice', 'report')`))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('draft', 'jsonb', (col) => col.notNull())
    .addColumn('published_version', 'integer')
    .addUniqueConstraint('doc_template_code_unique', ['project_id', 'code'])
    .execute();
  await createVersionTable(db, 'doc_template_version', { parent: { column: 'template_id', parent: 'doc_template' }, body: 'template', uniqueKey: 'doc_template_version_unique' });
  await createScopedTable(db, 'jrxml_file', 'project_id')
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('content', 'bytea', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['jrxml_file', 'doc_template_version', 'doc_template']) await db.schema.dropTable(table).ifExists().execute();
}

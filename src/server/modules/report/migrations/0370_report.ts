import { sql, type Kysely } from 'kysely';
import { createScopedTable, createVersionTable, withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Configured reports and dashboards (docs/reports.md). A report belongs to the project it was made
 * in: a draft (its names, order, SQL, parameters, columns, group totals) and numbered published
 * versions that operators run; its assignments name the organizations, projects and users who see
 * it. A dashboard is one project's start page of report widgets, drafted and published the same way.
 * None of these tables is granted to the configurator roles: configurator SQL never reads the SQL
 * of other reports.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'report_definition', 'project_id')
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('names', 'jsonb', (col) => col.notNull())
    .addColumn('display_order', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('draft', 'jsonb', (col) => col.notNull())
    .addColumn('published_version', 'integer')
    .addUniqueConstraint('report_definition_code_unique', ['project_id', 'code'])
    .execute();
  await createVersionTable(db, 'report_version', { parent: { column: 'report_id', parent: 'report_definition' }, body: 'spec', uniqueKey: 'report_version_unique' });
  await withIdAndAudit(db.schema.createTable('report_assignment'))
    .addColumn('report_id', 'bigint', (col) => col.notNull().references('report_definition.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('organization', 'project', 'user')`))
    .addColumn('target_id', 'bigint', (col) => col.notNull())
    .addUniqueConstraint('report_assignment_unique', ['report_id', 'kind', 'target_id'])
    .execute();
  await createScopedTable(db, 'report_dashboard', 'project_id')
    .addColumn('draft', 'jsonb', (col) => col.notNull())
    .addColumn('published', 'jsonb')
    .addColumn('published_version', 'integer')
    .addUniqueConstraint('report_dashboard_project_unique', ['project_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['report_dashboard', 'report_assignment', 'report_version', 'report_definition']) await db.schema.dropTable(table).ifExists().execute();
}

import { sql, type Kysely } from 'kysely';
import { withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * The store of page definitions. Every version of a page is a row:
 * project_id null for the shipped defaults synced from definitions/, a project's id for its own
 * copies. Published versions are immutable snapshots; rollback republishes an earlier one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdAndAudit(db.schema.createTable('page_definition'))
    .addColumn('project_id', 'bigint', (col) => col.references('project.id').onDelete('cascade'))
    .addColumn('module_code', 'text', (col) => col.notNull())
    .addColumn('function_code', 'text', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull().check(sql`version > 0`))
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('draft', 'published', 'inactive')`))
    .addColumn('content', 'jsonb', (col) => col.notNull())
    .addColumn('content_hash', 'text', (col) => col.notNull())
    .execute();
  // PostgreSQL 15's NULLS NOT DISTINCT: the shipped defaults (project_id null) get unique versions too.
  await sql`
    alter table page_definition add constraint page_definition_version_key
      unique nulls not distinct (project_id, module_code, function_code, version)
  `.execute(db);
  // At most one published version of a page per project (and one shipped default).
  await sql`
    create unique index page_definition_published_key on page_definition
      (coalesce(project_id, 0), module_code, function_code) where status = 'published'
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('page_definition').execute();
}

import { sql, type Kysely } from 'kysely';
import { requiredColumns, withIdAndAudit } from '../../../db/migrations/helpers.js';

/** The download center: background exports with their progress, kept for a number of days. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdAndAudit(
    db.schema
      .createTable('download_file')
      .addColumn('user_id', 'bigint', (col) => col.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('project_id', 'bigint', (col) => col.references('project.id').onDelete('cascade'))
      .$call(requiredColumns('text', 'kind', 'title', 'file_name'))
      .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('running', 'done', 'failed')`))
      .addColumn('rows_written', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('rows_total', 'integer')
      .addColumn('content_type', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'bigint')
      .addColumn('content', 'bytea')
      .addColumn('error_code', 'text')
      .addColumn('finished_at', 'timestamptz')
      .addColumn('expires_at', 'timestamptz', (col) => col.notNull()),
  ).execute();
  await db.schema.createIndex('download_file_user_idx').on('download_file').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('download_file_expires_idx').on('download_file').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('download_file').execute();
}

import { sql, type Kysely } from 'kysely';
import { withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Attachments of the records of any page definition (`/generic/getAttachment` and its
 * siblings). The bytes are stored in the row; the file name is a
 * label and never reaches the file system. Not granted to configurator SQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdAndAudit(
    db.schema
      .createTable('attachment')
      .addColumn('project_id', 'bigint', (col) => col.references('project.id').onDelete('cascade'))
      .addColumn('module_code', 'text', (col) => col.notNull().check(sql`module_code ~ '^[A-Za-z][A-Za-z0-9_-]{0,63}$'`))
      .addColumn('function_code', 'text', (col) => col.notNull().check(sql`function_code ~ '^[A-Za-z][A-Za-z0-9_-]{0,63}$'`))
      .addColumn('record_key', 'text', (col) => col.notNull().check(sql`length(record_key) between 1 and 200`))
      .addColumn('file_name', 'text', (col) => col.notNull().check(sql`length(file_name) between 1 and 255`))
      .addColumn('remark', 'text', (col) => col.check(sql`length(remark) <= 500`))
      .addColumn('content_type', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'bigint', (col) => col.notNull().check(sql`size_bytes >= 0`))
      .addColumn('sha256', 'text', (col) => col.notNull())
      .addColumn('content', 'bytea', (col) => col.notNull()),
  ).execute();
  await db.schema.createIndex('attachment_record_idx').on('attachment').columns(['module_code', 'function_code', 'record_key', 'project_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('attachment').execute();
}

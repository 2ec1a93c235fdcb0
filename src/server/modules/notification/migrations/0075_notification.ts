import { sql, type Kysely } from 'kysely';
import { withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Per-user notifications (the bell and the notification list). They are personal, like sessions:
 * configurator SQL is given no access to them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdAndAudit(
    db.schema
      .createTable('notification')
      .addColumn('user_id', 'bigint', (col) => col.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('project_id', 'bigint', (col) => col.references('project.id').onDelete('set null'))
      .addColumn('category', 'text', (col) => col.notNull().check(sql`category ~ '^[a-z][A-Za-z0-9.]{0,63}$'`))
      .addColumn('title_key', 'text')
      .addColumn('title_text', 'text', (col) => col.check(sql`char_length(title_text) <= 500`))
      .addColumn('body_key', 'text')
      .addColumn('body_text', 'text', (col) => col.check(sql`char_length(body_text) <= 4000`))
      .addColumn('params', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn('link', 'text', (col) => col.check(sql`char_length(link) <= 500`))
      .addColumn('read_at', 'timestamptz')
      .addCheckConstraint('notification_title', sql`(title_key is null) <> (title_text is null)`)
      .addCheckConstraint('notification_body', sql`body_key is null or body_text is null`),
  ).execute();
  await sql`create index notification_user_latest on notification (user_id, id desc)`.execute(db);
  await sql`create index notification_user_unread on notification (user_id) where read_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification').execute();
}

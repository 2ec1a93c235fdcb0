import { sql, type Kysely } from 'kysely';
import { withAudit } from '../../../db/migrations/helpers.js';

/** How often each user opened each page: the home page's "most used pages". */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withAudit(
    db.schema
      .createTable('page_visit')
      .addColumn('user_id', 'bigint', (col) => col.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('route', 'text', (col) => col.notNull().check(sql`route ~ '^[A-Za-z][A-Za-z0-9_]{0,63}$'`))
      .addColumn('visits', 'integer', (col) => col.notNull().defaultTo(0).check(sql`visits >= 0`))
      .addColumn('last_visited_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`)),
  )
    .addPrimaryKeyConstraint('page_visit_pk', ['user_id', 'route'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('page_visit').execute();
}

import { sql, type Kysely } from 'kysely';
import { createLinkTable, withIdAndAudit } from '../../../db/migrations/helpers.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdAndAudit(db.schema.createTable('organization'))
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .execute();

  await withIdAndAudit(db.schema.createTable('project'))
    .addColumn('organization_id', 'bigint', (col) => col.notNull().references('organization.id'))
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('nav_layout', 'text', (col) => col.notNull().defaultTo('left').check(sql`nav_layout in ('left', 'top')`))
    .execute();

  await withIdAndAudit(db.schema.createTable('warehouse'))
    .addColumn('organization_id', 'bigint', (col) => col.notNull().references('organization.id'))
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('nav_layout', 'text', (col) => col.check(sql`nav_layout in ('left', 'top')`))
    .addColumn('time_zone', 'text', (col) => col.notNull().defaultTo('UTC'))
    .execute();

  await createLinkTable(db, 'project_warehouse', { column: 'project_id', parent: 'project' }, { column: 'warehouse_id', parent: 'warehouse' });

  await withIdAndAudit(db.schema.createTable('app_user'))
    .addColumn('login_account', 'text', (col) => col.notNull())
    .addColumn('display_name', 'text', (col) => col.notNull())
    .addColumn('email', 'text')
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('language', 'text', (col) => col.notNull().defaultTo('en'))
    .addColumn('time_zone', 'text', (col) => col.notNull().defaultTo('UTC'))
    .addColumn('is_admin', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('enabled', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();
  // Login accounts are unique regardless of case: "Admin" and "admin" are one account.
  await sql`create unique index app_user_login_account_key on app_user (lower(login_account))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['app_user', 'project_warehouse', 'warehouse', 'project', 'organization']) {
    await db.schema.dropTable(table).execute();
  }
}

import { sql, type Kysely } from 'kysely';
import { createLinkTable, withAudit, withId, withIdAndAudit, withIdAndTime } from '../../../db/migrations/helpers.js';

/**
 * Sign-in, sessions, two-step verification, notifications and the access model of users and
 * roles (docs/architecture.md, "Scope: organization, project, warehouse").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The user's profile fields, the lockout state, the default
  // scope and the two-step settings.
  await db.schema
    .alterTable('app_user')
    .addColumn('first_name', 'text')
    .addColumn('middle_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('title', 'text')
    .addColumn('gender', 'text', (col) => col.check(sql`gender in ('male', 'female')`))
    .addColumn('company', 'text')
    .addColumn('department', 'text')
    .addColumn('position', 'text')
    .addColumn('telephone', 'text')
    .addColumn('city', 'text')
    .addColumn('address1', 'text')
    .addColumn('address2', 'text')
    .addColumn('address3', 'text')
    .addColumn('address4', 'text')
    .addColumn('postal', 'text')
    .addColumn('street', 'text')
    .addColumn('district', 'text')
    .addColumn('latitude', 'numeric')
    .addColumn('longitude', 'numeric')
    .addColumn('country', 'text')
    .addColumn('alias_name', 'text')
    .addColumn('failed_logins', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('default_project_id', 'bigint', (col) => col.references('project.id').onDelete('set null'))
    .addColumn('default_warehouse_id', 'bigint', (col) => col.references('warehouse.id').onDelete('set null'))
    .addColumn('two_step_email', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('two_step_sms', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('totp_secret', 'text')
    .addColumn('totp_pending_secret', 'text')
    .addColumn('totp_last_counter', 'bigint')
    .addColumn('password_changed_at', 'timestamptz')
    .execute();
  await sql`create unique index app_user_email_key on app_user (lower(email)) where email is not null`.execute(db);

  // Grants of organization, project and warehouse to a user.
  for (const [table, ref] of [
    ['user_organization', 'organization'],
    ['user_project', 'project'],
    ['user_warehouse', 'warehouse'],
  ] as const) {
    await createLinkTable(db, table, { column: 'user_id', parent: 'app_user' }, { column: `${ref}_id`, parent: ref });
  }

  // Modules and child routes of the /page shell, the source of the menu and of
  // the module codes that rights name.
  await withIdAndAudit(db.schema.createTable('sys_module'))
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('parent_code', 'text', (col) => col.references('sys_module.code').onDelete('cascade'))
    .addColumn('title_key', 'text', (col) => col.notNull())
    .addColumn('route', 'text')
    .addColumn('sequence', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('enabled', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();

  await withIdAndAudit(db.schema.createTable('role'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('role_type', 'text', (col) => col.notNull().defaultTo('general'))
    .addColumn('role_level', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('description', 'text')
    .addColumn('enabled', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();
  await sql`create unique index role_name_key on role (lower(name))`.execute(db);

  await withId(db.schema.createTable('role_permission'))
    .addColumn('role_id', 'bigint', (col) => col.notNull().references('role.id').onDelete('cascade'))
    .addColumn('module_code', 'text', (col) => col.notNull())
    .addColumn('sub_module_code', 'text')
    .addColumn('can_view', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('can_add', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('can_edit', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('can_delete', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
  await sql`create unique index role_permission_key on role_permission (role_id, module_code, coalesce(sub_module_code, ''))`.execute(db);

  // Rules (the /all_rule screen): a name and a rule type, attached to roles.
  await withIdAndAudit(db.schema.createTable('access_rule'))
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('rule_type', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .execute();
  await createLinkTable(db, 'role_rule', { column: 'role_id', parent: 'role' }, { column: 'rule_id', parent: 'access_rule' });
  await createLinkTable(db, 'user_role', { column: 'user_id', parent: 'app_user' }, { column: 'role_id', parent: 'role' });

  // Sessions: only the sha256 of the token is stored.
  await withId(db.schema.createTable('user_session'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('simulated_user_id', 'bigint', (col) => col.references('app_user.id').onDelete('set null'))
    .addColumn('project_id', 'bigint', (col) => col.references('project.id').onDelete('set null'))
    .addColumn('warehouse_id', 'bigint', (col) => col.references('warehouse.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('last_seen_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('user_session_user_idx').on('user_session').column('user_id').execute();

  await withId(db.schema.createTable('two_step_challenge'))
    .addColumn('challenge_hash', 'text', (col) => col.notNull().unique())
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('method', 'text', (col) => col.check(sql`method in ('sms', 'email', 'totp')`))
    .addColumn('code_hash', 'text')
    .addColumn('code_expires_at', 'timestamptz')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await withId(db.schema.createTable('trusted_browser'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('label', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('trusted_browser_user_idx').on('trusted_browser').column('user_id').execute();

  // E-mail codes for registration and password reset: single use, short-lived, stored hashed.
  await withId(db.schema.createTable('verification_code'))
    .addColumn('purpose', 'text', (col) => col.notNull().check(sql`purpose in ('register', 'reset')`))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('user_id', 'bigint', (col) => col.references('app_user.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await sql`create index verification_code_email_idx on verification_code (purpose, lower(email))`.execute(db);

  // Messages that could not be (or, unconfigured, were not) delivered.
  await withAudit(
    db.schema
      .createTable('outbox_message')
      .addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('channel', 'text', (col) => col.notNull().check(sql`channel in ('email', 'sms')`))
      .addColumn('recipient', 'text', (col) => col.notNull())
      .addColumn('subject', 'text')
      .addColumn('body', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('stored', 'sent', 'failed')`))
      .addColumn('error', 'text'),
  ).execute();

  // Who did what to whose account: simulation, release, grants.
  await withIdAndTime(db.schema.createTable('audit_log'))
    .addColumn('actor_user_id', 'bigint', (col) => col.references('app_user.id').onDelete('set null'))
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_user_id', 'bigint', (col) => col.references('app_user.id').onDelete('set null'))
    .addColumn('details', 'jsonb')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'audit_log',
    'outbox_message',
    'verification_code',
    'trusted_browser',
    'two_step_challenge',
    'user_session',
    'user_role',
    'role_rule',
    'access_rule',
    'role_permission',
    'role',
    'sys_module',
    'user_warehouse',
    'user_project',
    'user_organization',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await sql`drop index app_user_email_key`.execute(db);
  let alter = db.schema.alterTable('app_user').dropColumn('first_name');
  for (const column of [
    'middle_name', 'last_name', 'title', 'gender', 'company', 'department', 'position', 'telephone', 'city',
    'address1', 'address2', 'address3', 'address4', 'postal', 'street', 'district', 'latitude', 'longitude',
    'country', 'alias_name', 'failed_logins', 'locked_until', 'default_project_id', 'default_warehouse_id',
    'two_step_email', 'two_step_sms', 'totp_secret', 'totp_pending_secret', 'totp_last_counter', 'password_changed_at',
  ]) {
    alter = alter.dropColumn(column);
  }
  await alter.execute();
}

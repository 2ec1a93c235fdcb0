import { sql, type Kysely } from 'kysely';
import { CONFIGURATOR_READ_ROLE, CONFIGURATOR_WRITE_ROLE, grantConfiguratorAccess } from '../../../db/migrations/helpers.js';

/**
 * Configurator SQL runs as a restricted database role:
 * the database itself refuses what a configurator may not read or write, and row-level security
 * keeps every other project's and warehouse's rows out, however the SQL is written.
 *
 * The roles are cluster-wide, so this migration copes with a cluster that already has them (another
 * database, or an administrator who created them for an install whose user may not create roles),
 * and with several databases being migrated at once. The connecting user must be able to SET ROLE
 * to them: it is made a member when it may grant that, else it must already be one (README:
 * "Database privileges").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const role of [CONFIGURATOR_READ_ROLE, CONFIGURATOR_WRITE_ROLE]) {
    await sql`
      do $$
      begin
        if not exists (select 1 from pg_roles where rolname = ${sql.lit(role)}) then
          begin
            execute format('create role %I nologin', ${sql.lit(role)});
          exception when duplicate_object or unique_violation then null;
          end;
        end if;
        if not pg_has_role(current_user, ${sql.lit(role)}, 'member') then
          execute format('grant %I to %I', ${sql.lit(role)}, current_user);
        end if;
      end
      $$
    `.execute(db);
  }
  await sql`grant usage on schema public to ${sql.id(CONFIGURATOR_READ_ROLE)}, ${sql.id(CONFIGURATOR_WRITE_ROLE)}`.execute(db);
  // Read: master data and the scope tables, never the access tables, users, sessions, codes,
  // outbox, audit logs or page definitions.
  await grantConfiguratorAccess(
    db,
    ['organization', 'project', 'warehouse', 'project_warehouse', 'sys_module'],
    'read',
  );
  await grantConfiguratorAccess(
    db,
    ['owner', 'sku', 'sku_upc', 'partner', 'location', 'mult_text', 'code_master', 'currency', 'inv_code', 'rf_user', 'vehicle', 'driver', 'id_rule', 'sys_param'],
    'write',
  );
  // Users: only who they are (id, account, name), and only those who share the transaction's
  // project; never e-mail, phone, password hash, two-step secrets or lockout state. The policy asks
  // a function that runs with its owner's rights, so the roles need no grant on the access tables.
  await sql`
    create or replace function configurator_user_visible(user_id bigint) returns boolean
    language sql stable security definer set search_path = public as $$
      select exists (
        select 1 from user_project up
        where up.user_id = configurator_user_visible.user_id
          and up.project_id = nullif(current_setting('wms.project_id', true), '')::bigint
      )
    $$
  `.execute(db);
  await sql`grant select (id, login_account, display_name) on app_user to ${sql.id(CONFIGURATOR_READ_ROLE)}, ${sql.id(CONFIGURATOR_WRITE_ROLE)}`.execute(db);
  await sql`alter table app_user enable row level security`.execute(db);
  await sql`drop policy if exists configurator_scope on app_user`.execute(db);
  await sql`create policy configurator_scope on app_user for select to ${sql.id(CONFIGURATOR_READ_ROLE)}, ${sql.id(CONFIGURATOR_WRITE_ROLE)} using (configurator_user_visible(id))`.execute(db);
}

export async function down(): Promise<void> {
  // Roles are shared by every database of the cluster: they are left in place.
}

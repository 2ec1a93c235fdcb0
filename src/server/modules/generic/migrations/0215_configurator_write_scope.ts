import { sql, type Kysely } from 'kysely';
import { CONFIGURATOR_READ_ROLE, CONFIGURATOR_WRITE_ROLE, grantConfiguratorAccess } from '../../../db/migrations/helpers.js';

/**
 * Configurator SQL of one project changes no other project's rows: every table the configurator
 * roles reach gets the policies `grantConfiguratorAccess` now makes, keeping whether it was
 * writable. Rows that more than one project shares are written by administrators only: tables
 * without a scope (inventory codes, code master, currencies, texts, ID rules, jobs and their
 * parameters), rows of a warehouse another project uses too, and organization-wide rows; every
 * write is checked against the policy for the row it leaves behind.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ table: string; writable: boolean }>`
    select c.relname as table,
      has_table_privilege(${CONFIGURATOR_WRITE_ROLE}, c.oid, 'INSERT') or has_table_privilege(${CONFIGURATOR_WRITE_ROLE}, c.oid, 'UPDATE')
        or has_table_privilege(${CONFIGURATOR_WRITE_ROLE}, c.oid, 'DELETE') as writable
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p')
      and has_table_privilege(${CONFIGURATOR_READ_ROLE}, c.oid, 'SELECT')
    order by c.relname
  `.execute(db);
  for (const { table, writable } of rows) await grantConfiguratorAccess(db, [table], writable ? 'write' : 'read');
}

export async function down(): Promise<void> {
  // Loosening the policies again is not offered.
}

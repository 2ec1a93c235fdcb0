import { sql, type CreateTableBuilder, type Kysely } from 'kysely';

/** Adds the identity key and the audit columns every business table carries. */
export function withIdAndAudit<T extends string>(table: CreateTableBuilder<T, never>) {
  return withAudit(table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity()));
}

export function withAudit<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'text')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'text');
}

/**
 * The database roles configurator SQL runs under (issue 9; DESIGN.md section 6). Their names are
 * shared with the engine, which switches to them with `SET LOCAL ROLE` for every configurator
 * statement.
 */
export const CONFIGURATOR_READ_ROLE = 'wms_config_read';
export const CONFIGURATOR_WRITE_ROLE = 'wms_config_write';

/**
 * Lets configurator SQL read (mode 'read') or also write (mode 'write') these tables, limited by
 * row-level security to the transaction's organization, project and warehouse. Every area calls it
 * in its own migration for the business tables a configurator may touch, and never for users'
 * secrets, sessions, codes, outbox, audit, grants or definitions. The policy follows the table's
 * scope columns as they are when the migration runs: warehouse_id, project_id, organization_id
 * (each one present is matched), and for the scope tables themselves their own id.
 */
export async function grantConfiguratorAccess<T>(db: Kysely<T>, tables: readonly string[], mode: 'read' | 'write'): Promise<void> {
  for (const table of tables) {
    const id = sql.table(table);
    await sql`grant select on ${id} to ${sql.id(CONFIGURATOR_READ_ROLE)}, ${sql.id(CONFIGURATOR_WRITE_ROLE)}`.execute(db);
    if (mode === 'write') await sql`grant insert, update, delete on ${id} to ${sql.id(CONFIGURATOR_WRITE_ROLE)}`.execute(db);
    const scope = await scopePredicate(db, table);
    if (scope === undefined) continue;
    await sql`alter table ${id} enable row level security`.execute(db);
    await sql`drop policy if exists configurator_scope on ${id}`.execute(db);
    await sql`create policy configurator_scope on ${id} for all to ${sql.id(CONFIGURATOR_READ_ROLE)}, ${sql.id(CONFIGURATOR_WRITE_ROLE)} using (${scope}) with check (${scope})`.execute(db);
  }
}

/** The transaction's scope setting, null (so no row) when it is not set. */
function setting(name: 'organization_id' | 'project_id' | 'warehouse_id') {
  return sql`nullif(current_setting(${sql.lit(`wms.${name}`)}, true), '')::bigint`;
}

async function scopePredicate<T>(db: Kysely<T>, table: string) {
  switch (table) {
    case 'organization':
      return sql`id = ${setting('organization_id')}`;
    case 'project':
      return sql`id = ${setting('project_id')}`;
    case 'warehouse':
      return sql`id in (select pw.warehouse_id from project_warehouse pw where pw.project_id = ${setting('project_id')})`;
  }
  const { rows } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}
      and column_name in ('organization_id', 'project_id', 'warehouse_id')
  `.execute(db);
  const columns = rows.map((r) => r.column_name as 'organization_id' | 'project_id' | 'warehouse_id').sort();
  if (!columns.length) return undefined;
  return sql.join(
    columns.map((column) => sql`${sql.ref(column)} = ${setting(column)}`),
    sql` and `,
  );
}

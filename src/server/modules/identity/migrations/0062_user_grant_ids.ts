import { sql, type Kysely } from 'kysely';

/**
 * The grants of organizations, projects, warehouses and roles to users get a surrogate key and the
 * audit columns, so that the /user screen can add and withdraw them one row at a time through the
 * page engine (whose rows are addressed by one key). Each pair stays unique: a second grant of the
 * same thing is refused, not stored twice.
 */
const GRANTS = [
  ['user_organization', 'organization_id'],
  ['user_project', 'project_id'],
  ['user_warehouse', 'warehouse_id'],
  ['user_role', 'role_id'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of GRANTS) {
    const t = sql.table(table);
    await sql`alter table ${t} drop constraint ${sql.id(`${table}_pk`)}`.execute(db);
    await sql`alter table ${t} add column id bigint generated always as identity`.execute(db);
    await sql`alter table ${t} add constraint ${sql.id(`${table}_pkey`)} primary key (id)`.execute(db);
    await sql`alter table ${t} add constraint ${sql.id(`${table}_key`)} unique (user_id, ${sql.ref(column)})`.execute(db);
    await sql`alter table ${t} add column created_at timestamptz not null default now()`.execute(db);
    await sql`alter table ${t} add column created_by text`.execute(db);
    await sql`alter table ${t} add column updated_at timestamptz not null default now()`.execute(db);
    await sql`alter table ${t} add column updated_by text`.execute(db);
    // Which users hold a project, warehouse or role is asked on every request: by the granted side too.
    await sql`create index ${sql.id(`${table}_${column}_idx`)} on ${t} (${sql.ref(column)})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of GRANTS) {
    const t = sql.table(table);
    await sql`drop index ${sql.id(`${table}_${column}_idx`)}`.execute(db);
    await sql`alter table ${t} drop constraint ${sql.id(`${table}_key`)}`.execute(db);
    await sql`alter table ${t} drop constraint ${sql.id(`${table}_pkey`)}`.execute(db);
    for (const c of ['id', 'created_at', 'created_by', 'updated_at', 'updated_by']) await sql`alter table ${t} drop column ${sql.ref(c)}`.execute(db);
    await sql`alter table ${t} add constraint ${sql.id(`${table}_pk`)} primary key (user_id, ${sql.ref(column)})`.execute(db);
  }
}

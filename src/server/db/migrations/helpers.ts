import { sql, type CreateTableBuilder, type Kysely, type RawBuilder } from 'kysely';

/*
 * Building blocks of the areas' migrations. Migrations that already ran used them, so the SQL a
 * helper runs must never change; a different table shape needs a new helper.
 */

/** Adds the identity key a table's rows are found by. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>) {
  return table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity());
}

/** Adds the identity key and the time of an entry of an append-only log (an audit trail): id, then `at`, now by default. */
export function withIdAndTime<T extends string>(table: CreateTableBuilder<T, never>) {
  return withId(table).addColumn('at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`));
}

/** Adds the identity key and the audit columns every business table carries. */
export function withIdAndAudit<T extends string>(table: CreateTableBuilder<T, never>) {
  return withAudit(withId(table));
}

/** The table each scope column references. */
const SCOPE_TABLES: Record<ScopeColumn, string> = { organization_id: 'organization', project_id: 'project', warehouse_id: 'warehouse' };

/** Adds required scope columns in the order named, for `$call`, each referencing its scope table. */
export function withScope(...columns: ScopeColumn[]) {
  return <T extends string, C extends string>(table: CreateTableBuilder<T, C>): CreateTableBuilder<T, C | ScopeColumn> =>
    columns.reduce<CreateTableBuilder<T, C | ScopeColumn>>(
      (builder, column) => builder.addColumn(column, 'bigint', (col) => col.notNull().references(`${SCOPE_TABLES[column]}.id`)),
      table,
    );
}

/** Creates a business table (identity key, audit columns) of a scope: its first columns are the scope's (`withScope`). */
export function createScopedTable<T>(db: Kysely<T>, table: string, ...scope: ScopeColumn[]) {
  return withIdAndAudit(db.schema.createTable(table)).$call(withScope(...scope));
}

/** Adds the key of a stock balance row: owner, SKU, lot and location (each required) and the LPN ('' for loose stock). */
export function withStockKey<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id'))
    .addColumn('lot_id', 'bigint', (col) => col.notNull().references('lot.id'))
    .addColumn('location_id', 'bigint', (col) => col.notNull().references('location.id'))
    .addColumn('lpn', 'text', (col) => col.notNull().defaultTo(''));
}

/** Adds the first columns of a document's line, for `$call`: its document (`column`, deleted with it) and its line number. */
export function documentLine(column: string, documentTable: string) {
  return <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    table
      .addColumn(column, 'bigint', (col) => col.notNull().references(`${documentTable}.id`).onDelete('cascade'))
      .addColumn('line_no', 'integer', (col) => col.notNull());
}

/** Adds the lot attributes a lot carries and an ASN line announces: the three dates and the three user-defined texts. */
export function withLotAttributes<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('manufacture_date', 'date')
    .addColumn('expiry_date', 'date')
    .addColumn('shelf_date', 'date')
    .$call(textColumns('udf1', 'udf2', 'udf3'));
}

/** Adds optional text columns in the order named, for `$call` (a table's plain descriptive fields). */
export function textColumns(...columns: string[]) {
  return <T extends string, C extends string>(table: CreateTableBuilder<T, C>): CreateTableBuilder<T, string> =>
    columns.reduce<CreateTableBuilder<T, string>>((builder, column) => builder.addColumn(column, 'text'), table);
}

/** A column type as `addColumn` takes it: a type name or raw SQL. */
type ColumnType = Parameters<CreateTableBuilder<string, never>['addColumn']>[1];

/** Adds required columns of one type in the order named, for `$call` (a table's plain required fields). */
export function requiredColumns(type: ColumnType, ...columns: string[]) {
  return <T extends string, C extends string>(table: CreateTableBuilder<T, C>): CreateTableBuilder<T, string> =>
    columns.reduce<CreateTableBuilder<T, string>>((builder, column) => builder.addColumn(column, type, (col) => col.notNull()), table);
}

/**
 * Creates a table linking two parents: a required key of each, deleted with its parent row, which
 * together are the primary key `<table>_pk`.
 */
export async function createLinkTable<T>(db: Kysely<T>, table: string, first: LinkKey, second: LinkKey): Promise<void> {
  await db.schema
    .createTable(table)
    .addColumn(first.column, 'bigint', (col) => col.notNull().references(`${first.parent}.id`).onDelete('cascade'))
    .addColumn(second.column, 'bigint', (col) => col.notNull().references(`${second.parent}.id`).onDelete('cascade'))
    .addPrimaryKeyConstraint(`${table}_pk`, [first.column, second.column])
    .execute();
}

/**
 * Creates the table of a definition's published versions (identity key, audit columns): the
 * definition it belongs to (`parent.column`, deleted with it), the version number and what was
 * published (`body`, JSON), one row per definition and version (the unique key `uniqueKey`).
 */
export async function createVersionTable<T>(db: Kysely<T>, table: string, spec: { parent: LinkKey; body: string; uniqueKey: string }): Promise<void> {
  const { parent, body, uniqueKey } = spec;
  await withIdAndAudit(db.schema.createTable(table))
    .addColumn(parent.column, 'bigint', (col) => col.notNull().references(`${parent.parent}.id`).onDelete('cascade'))
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn(body, 'jsonb', (col) => col.notNull())
    .addUniqueConstraint(uniqueKey, [parent.column, 'version'])
    .execute();
}

/** Drops these tables one by one, in the order given (a down migration: the children before their parents). */
export async function dropTables<T>(db: Kysely<T>, tables: readonly string[]): Promise<void> {
  for (const table of tables) await db.schema.dropTable(table).execute();
}

/** One key of a link table: its column and the table of the parent it names. */
export interface LinkKey {
  column: string;
  parent: string;
}

/**
 * Gives a role these verbs (`<module>.<sub-module>:<verb>`), each recorded as a known verb first (the
 * start-up sync fills in its label). A verb or grant that already exists is left alone.
 */
export async function grantRoleVerbs<T>(db: Kysely<T>, roleId: number, codes: readonly string[]): Promise<void> {
  for (const code of codes) {
    const [subject, verb] = code.split(':') as [string, string];
    const [module, subModule] = subject.split('.') as [string, string];
    await sql`
      insert into right_verb (code, module_code, sub_module_code, verb, label_code)
      values (${code}, ${module}, ${subModule}, ${verb}, ${code})
      on conflict (code) do nothing
    `.execute(db);
    await sql`
      insert into role_verb (role_id, right_code, created_by, updated_by)
      values (${roleId}, ${code}, 'migration', 'migration')
      on conflict (role_id, right_code) do nothing
    `.execute(db);
  }
}

/**
 * Adds a menu entry at the end of its menu group: the `sys_module` row the route table declares for
 * the route `code` (opened at `/<code>`), with the right of the page it opens, numbered after the
 * group's last entry the system made. A database that already has an entry of that code keeps it.
 */
export async function addMenuEntry<T>(db: Kysely<T>, entry: { code: string; group: string; titleKey: string; right: string | null }): Promise<void> {
  const [code, group] = [sql.lit(entry.code), sql.lit(entry.group)];
  await sql`
    insert into sys_module (code, parent_code, title_key, route, right_name, sequence, created_by, updated_by)
    select ${code}, ${group}, ${sql.lit(entry.titleKey)}, ${sql.lit(`/${entry.code}`)}, ${sql.lit(entry.right)}, coalesce(max(sequence), 0) + 1, 'system', 'system'
      from sys_module
     where parent_code = ${group} and created_by = 'system'
       and not exists (select 1 from sys_module where code = ${code})`.execute(db);
}

/**
 * A numbering rule the system brings (`id_rule`): its code, what it numbers, the prefix, the date
 * part and counter length of a number, when the counter starts again and what it counts within
 * (by default a date of YYMMDD, a daily counter per warehouse).
 */
export interface IdRuleSeed {
  code: string;
  description: string;
  prefix: string;
  sequenceLength: number;
  datePattern?: string;
  resetPeriod?: string;
  scopeLevel?: string;
}

/** Adds a numbering rule made by the system; a database that already has a rule of that code keeps it. */
export async function addIdRule<T>(db: Kysely<T>, rule: IdRuleSeed): Promise<void> {
  const { code, description, prefix, sequenceLength, datePattern = 'YYMMDD', resetPeriod = 'daily', scopeLevel = 'warehouse' } = rule;
  await sql`
    insert into id_rule (rule_code, description, prefix, date_pattern, sequence_length, reset_period, scope_level, created_by, updated_by)
    select ${sql.lit(code)}, ${sql.lit(description)}, ${sql.lit(prefix)}, ${sql.lit(datePattern)}, ${sql.lit(sequenceLength)}, ${sql.lit(resetPeriod)}, ${sql.lit(scopeLevel)}, 'system', 'system'
    where not exists (select 1 from id_rule where rule_code = ${sql.lit(code)})`.execute(db);
}

/** Removes a numbering rule the system made (`addIdRule`); one an administrator made of that code stays. */
export async function removeIdRule<T>(db: Kysely<T>, code: string): Promise<void> {
  await sql`delete from id_rule where rule_code = ${sql.lit(code)} and created_by = 'system'`.execute(db);
}

/** A code a migration seeds: the code, then its description in en, zh, zh_tw, kor, th and jp. */
export type CodeSeed = readonly [code: string, en: string, zh: string, zhTw: string, kor: string, th: string, jp: string];

/**
 * Adds the codes of a code-master type made by the system, numbered 10, 20, ... in the order
 * given; a code the type already has is left as it is.
 */
export async function seedCodes<T>(db: Kysely<T>, codeType: string, codes: readonly CodeSeed[]): Promise<void> {
  await (db as unknown as Kysely<{ code_master: Record<string, unknown> }>)
    .insertInto('code_master')
    .values(
      codes.map(([code, desc_en, desc_zh, desc_zh_tw, desc_kor, desc_th, desc_jp], i) => ({
        code_type: codeType,
        code,
        sort_seq: (i + 1) * 10,
        desc_en,
        desc_zh,
        desc_zh_tw,
        desc_kor,
        desc_th,
        desc_jp,
        created_by: 'system',
        updated_by: 'system',
      })),
    )
    .onConflict((oc) => oc.columns(['code_type', 'code']).doNothing())
    .execute();
}

/** Removes the codes of these code-master types the system made (`seedCodes`); codes users added stay. */
export async function removeSeededCodes<T>(db: Kysely<T>, codeTypes: readonly string[]): Promise<void> {
  await (db as unknown as Kysely<{ code_master: { code_type: string; created_by: string | null } }>)
    .deleteFrom('code_master')
    .where('code_type', 'in', [...codeTypes])
    .where('created_by', '=', 'system')
    .execute();
}

/** The id of the role of this name (any case), if there is one. */
export async function findRoleId<T>(db: Kysely<T>, name: string): Promise<number | undefined> {
  const { rows } = await sql<{ id: number }>`select id from role where lower(name) = lower(${name})`.execute(db);
  return rows[0]?.id;
}

/** Adds the audit columns: when and by whom a row was created and last changed. */
export function withAudit<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'text')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'text');
}

/**
 * The database roles configurator SQL runs under. Their names are
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
 * (each one present is matched), for the scope tables themselves their own id, and for a table
 * without scope columns that belongs to a scoped parent (`through`), the parent row's scope.
 *
 * What a configurator of one project writes must not change another project's data:
 * - a table with a project_id: rows of the transaction's project, new or changed alike;
 * - a table scoped by warehouse only (locations, vehicles, handheld users): a warehouse may be
 *   shared by several projects, so its rows are writable only when no other project uses the
 *   warehouse, or by an administrator;
 * - a table scoped by organization only: shared by every project of it, writable by administrators;
 * - a table with no scope at all (codes, currencies, texts, jobs): shared by every project, so
 *   writable by administrators only (asked for reading, it has no row policy: every row is read).
 * Reading, writing, and the rows a write leaves behind (WITH CHECK) each have their own policy.
 * The write privilege itself stays, so that published pages may still edit such a table (through
 * the engine, with the page's rights), as the shipped pages do.
 * Calling it again replaces what an earlier call granted on the table.
 */
export async function grantConfiguratorAccess<T>(
  db: Kysely<T>,
  tables: readonly string[],
  mode: 'read' | 'write',
  options: { through?: { column: string; table: string } } = {},
): Promise<void> {
  await createPolicyFunctions(db);
  const read = sql.id(CONFIGURATOR_READ_ROLE);
  const write = sql.id(CONFIGURATOR_WRITE_ROLE);
  for (const table of tables) {
    const id = sql.table(table);
    await sql`grant select on ${id} to ${read}, ${write}`.execute(db);
    await sql`revoke insert, update, delete on ${id} from ${read}, ${write}`.execute(db);
    const scoped = options.through ? await parentScope(db, table, options.through) : await tableScope(db, table);
    for (const policy of POLICIES) await sql`drop policy if exists ${sql.id(policy)} on ${id}`.execute(db);
    if (scoped === undefined && mode === 'read') continue;
    const scope = scoped ?? { read: sql`true`, write: sql`configurator_is_admin()` };
    await sql`alter table ${id} enable row level security`.execute(db);
    await sql`create policy configurator_scope on ${id} for select to ${read}, ${write} using (${scope.read})`.execute(db);
    if (mode === 'read' || scope.write === undefined) continue;
    await sql`grant insert, update, delete on ${id} to ${write}`.execute(db);
    await sql`create policy configurator_insert on ${id} for insert to ${write} with check (${scope.write})`.execute(db);
    await sql`create policy configurator_update on ${id} for update to ${write} using (${scope.write}) with check (${scope.write})`.execute(db);
    await sql`create policy configurator_delete on ${id} for delete to ${write} using (${scope.write})`.execute(db);
  }
}

/** Every policy name the helper has ever created (the first one applied to every command). */
const POLICIES = ['configurator_scope', 'configurator_insert', 'configurator_update', 'configurator_delete'];

type ScopeColumn = 'organization_id' | 'project_id' | 'warehouse_id';

/** The transaction's scope setting, null (so no row) when it is not set. */
function setting(name: ScopeColumn) {
  return sql`nullif(current_setting(${sql.lit(`wms.${name}`)}, true), '')::bigint`;
}

interface Scope {
  read: RawBuilder<unknown>;
  /** Undefined: the rows are shared beyond one project, so the table stays read only. */
  write?: RawBuilder<unknown>;
}

async function scopeColumns<T>(db: Kysely<T>, table: string): Promise<ScopeColumn[]> {
  const { rows } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}
      and column_name in ('organization_id', 'project_id', 'warehouse_id')
  `.execute(db);
  return rows.map((r) => r.column_name as ScopeColumn).sort();
}

function matchAll(columns: ScopeColumn[], qualifier?: string) {
  return sql.join(
    columns.map((column) => sql`${sql.ref(qualifier ? `${qualifier}.${column}` : column)} = ${setting(column)}`),
    sql` and `,
  );
}

async function tableScope<T>(db: Kysely<T>, table: string): Promise<Scope | undefined> {
  switch (table) {
    case 'organization':
      return { read: sql`id = ${setting('organization_id')}` };
    case 'project':
      return { read: sql`id = ${setting('project_id')}` };
    case 'warehouse':
      return { read: sql`id in (select pw.warehouse_id from project_warehouse pw where pw.project_id = ${setting('project_id')})` };
    // Every warehouse the transaction's project is served by, not only the session's (a transfer
    // chooses another one of the project as its destination).
    case 'project_warehouse':
      return { read: sql`project_id = ${setting('project_id')}` };
    // Locations are read in every warehouse of the project (a transfer's destination); they are
    // still written only in the session's warehouse, and only when no other project uses it.
    case 'location':
      return {
        read: sql`warehouse_id in (select pw.warehouse_id from project_warehouse pw where pw.project_id = ${setting('project_id')})`,
        write: sql`warehouse_id = ${setting('warehouse_id')} and configurator_warehouse_writable(warehouse_id)`,
      };
  }
  const columns = await scopeColumns(db, table);
  if (!columns.length) return undefined;
  const read = matchAll(columns);
  if (columns.includes('project_id')) return { read, write: read };
  if (columns.includes('warehouse_id')) return { read, write: sql`${read} and configurator_warehouse_writable(warehouse_id)` };
  return { read, write: sql`${read} and configurator_is_admin()` };
}

/** Rows of a child table are visible with their parent row; such tables stay read only. */
async function parentScope<T>(db: Kysely<T>, table: string, through: { column: string; table: string }): Promise<Scope | undefined> {
  const columns = await scopeColumns(db, through.table);
  if (!columns.length) throw new Error(`${through.table} has no scope columns for ${table}`);
  return {
    read: sql`exists (select 1 from ${sql.table(through.table)} parent where parent.id = ${sql.ref(`${table}.${through.column}`)} and ${matchAll(columns, 'parent')})`,
  };
}

/**
 * The two questions the write policies ask, answered with their owner's rights (the configurator
 * roles may read neither the users' administrator flag nor other projects' warehouse links):
 * whether the transaction's user is an administrator, and whether a warehouse's rows belong to the
 * transaction's project alone.
 */
async function createPolicyFunctions<T>(db: Kysely<T>): Promise<void> {
  await sql`
    create or replace function configurator_is_admin() returns boolean
    language sql stable security definer set search_path = public as $$
      select coalesce((select u.is_admin from app_user u where u.id = nullif(current_setting('wms.user_id', true), '')::bigint), false)
    $$
  `.execute(db);
  await sql`
    create or replace function configurator_warehouse_writable(warehouse bigint) returns boolean
    language sql stable security definer set search_path = public as $$
      select configurator_is_admin() or (
        exists (select 1 from project_warehouse pw where pw.warehouse_id = warehouse and pw.project_id = nullif(current_setting('wms.project_id', true), '')::bigint)
        and not exists (select 1 from project_warehouse pw where pw.warehouse_id = warehouse and pw.project_id is distinct from nullif(current_setting('wms.project_id', true), '')::bigint)
      )
    $$
  `.execute(db);
}

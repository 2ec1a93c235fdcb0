import { sql } from 'kysely';
import type { EngineDb } from './engine-db.js';
import type { FieldType, PageDefinition, ValidationProblem } from '../schema/index.js';
import { isStored, keyFieldOf, versionFieldOf } from '../schema/index.js';
import { scopeColumnOf } from './engine-session.js';

/** Columns of one table of the current schema, by name, with information_schema's data_type. */
export type TableColumns = ReadonlyMap<string, string>;

/** Reads the columns of tables from the database catalog (information_schema), one query for all. */
export async function readTableColumns(db: EngineDb, tables: string[]): Promise<Map<string, TableColumns>> {
  const result = new Map<string, Map<string, string>>();
  if (!tables.length) return result;
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select table_name, column_name, data_type
    from information_schema.columns
    where table_schema = current_schema() and table_name in (${sql.join([...new Set(tables)])})
  `.execute(db);
  for (const row of rows) {
    const columns = result.get(row.table_name) ?? new Map<string, string>();
    columns.set(row.column_name, row.data_type);
    result.set(row.table_name, columns);
  }
  return result;
}

const COMPATIBLE: Record<FieldType, string[]> = {
  string: ['text', 'character varying', 'character', 'USER-DEFINED', 'uuid', 'citext'],
  text: ['text', 'character varying', 'character', 'citext'],
  integer: ['integer', 'bigint', 'smallint'],
  decimal: ['numeric', 'integer', 'bigint', 'smallint', 'real', 'double precision'],
  boolean: ['boolean'],
  date: ['date'],
  datetime: ['timestamp with time zone', 'timestamp without time zone'],
};

/**
 * Checks every identifier of a definition against the database catalog:
 * the table, each field's column and its type, the key, version and scope columns, and the tables
 * and columns of foreign checks and foreign dropdowns. Run when a definition is synced or published
 * and before its first use, so that no SQL is ever built from a name the database does not have.
 */
export async function checkPageAgainstCatalog(db: EngineDb, page: PageDefinition): Promise<ValidationProblem[]> {
  return checkPageAgainstColumns(page, await readTableColumns(db, catalogTablesOf(page)));
}

/** The tables a definition names: its own, then those of its foreign checks and foreign dropdowns. */
export function catalogTablesOf(page: PageDefinition): string[] {
  const tables = [page.table.name];
  for (const field of page.fields) {
    if (field.foreign) tables.push(field.foreign.table);
    if (field.options?.type === 'foreign') tables.push(field.options.table);
  }
  return tables;
}

/**
 * `checkPageAgainstCatalog` on columns already read (`readTableColumns`) for at least the tables
 * of `catalogTablesOf(page)`: a table missing from them does not exist.
 */
export function checkPageAgainstColumns(page: PageDefinition, catalog: ReadonlyMap<string, TableColumns>): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const columns = catalog.get(page.table.name);
  if (!columns) {
    return [{ path: '/table/name', code: 'catalog', message: `table "${page.table.name}" does not exist` }];
  }
  const needColumn = (path: string, table: string, column: string) => {
    const found = catalog.get(table);
    if (!found) problems.push({ path, code: 'catalog', message: `table "${table}" does not exist` });
    else if (!found.has(column)) problems.push({ path, code: 'catalog', message: `column "${table}.${column}" does not exist` });
  };
  needColumn('/keyField', page.table.name, keyFieldOf(page));
  const versionField = versionFieldOf(page);
  if (versionField !== null) needColumn('/versionField', page.table.name, versionField);
  const scopeColumn = scopeColumnOf(page.scope);
  if (scopeColumn !== null) needColumn('/scope', page.table.name, scopeColumn);
  page.fields.forEach((field, i) => {
    const dataType = columns.get(field.name);
    if (!isStored(field)) {
      if (dataType !== undefined) problems.push({ path: `/fields/${i}/stored`, code: 'catalog', message: `field "${field.name}" is a column of "${page.table.name}" and cannot be stored: false` });
    } else if (dataType === undefined) {
      problems.push({ path: `/fields/${i}/name`, code: 'catalog', message: `column "${page.table.name}.${field.name}" does not exist` });
    } else if (!COMPATIBLE[field.type].includes(dataType)) {
      problems.push({ path: `/fields/${i}/type`, code: 'catalog', message: `field type ${field.type} does not fit column type ${dataType}` });
    }
    if (field.foreign) needColumn(`/fields/${i}/foreign`, field.foreign.table, field.foreign.field);
    if (field.options?.type === 'foreign') {
      needColumn(`/fields/${i}/options/valueField`, field.options.table, field.options.valueField);
      if (field.options.labelField) needColumn(`/fields/${i}/options/labelField`, field.options.table, field.options.labelField);
      if (field.options.descriptionField) needColumn(`/fields/${i}/options/descriptionField`, field.options.table, field.options.descriptionField);
      const table = field.options.table;
      field.options.filter?.forEach((filter, j) => needColumn(`/fields/${i}/options/filter/${j}/column`, table, filter.column));
      field.options.fill?.forEach((fill, j) => needColumn(`/fields/${i}/options/fill/${j}/column`, table, fill.column));
      const optionScope = scopeColumnOf(field.options.scope ?? 'none');
      if (optionScope) needColumn(`/fields/${i}/options/scope`, field.options.table, optionScope);
    }
  });
  return problems;
}

const WRITE_VERBS = { INSERT: 'add', UPDATE: 'change', DELETE: 'delete' } as const;

/**
 * Checks that the configurator roles may touch what a page names: its table and every
 * column it reads must be readable by the read role, the tables of its foreign checks and dropdowns
 * too, and a page that is not read-only must be writable by the write role. Run when a
 * configurator publishes, so that no page can show users' secrets, sessions or codes through the
 * engine. Shipped definitions are code and are not held to it.
 */
export async function checkPageAgainstRoles(db: EngineDb, page: PageDefinition, roles: { read: string; write: string }): Promise<ValidationProblem[]> {
  const wanted: Array<{ path: string; table: string; column?: string; privilege: 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE'; role: string }> = [];
  const table = page.table.name;
  for (const column of [keyFieldOf(page), versionFieldOf(page), scopeColumnOf(page.scope)]) {
    if (column !== null) wanted.push({ path: '/table/name', table, column, privilege: 'SELECT', role: roles.read });
  }
  page.fields.forEach((field, i) => {
    if (isStored(field)) wanted.push({ path: `/fields/${i}/name`, table, column: field.name, privilege: 'SELECT', role: roles.read });
    if (field.foreign) wanted.push({ path: `/fields/${i}/foreign`, table: field.foreign.table, column: field.foreign.field, privilege: 'SELECT', role: roles.read });
    if (field.options?.type === 'foreign') {
      const columns = [
        field.options.valueField,
        field.options.labelField,
        field.options.descriptionField,
        ...(field.options.filter ?? []).map((filter) => filter.column),
        ...(field.options.fill ?? []).map((fill) => fill.column),
      ];
      for (const column of columns) {
        if (column) wanted.push({ path: `/fields/${i}/options`, table: field.options.table, column, privilege: 'SELECT', role: roles.read });
      }
    }
  });
  if (page.readOnly !== true) {
    for (const privilege of ['INSERT', 'UPDATE', 'DELETE'] as const) wanted.push({ path: '/readOnly', table, privilege, role: roles.write });
  }
  const checks = wanted.map((w) =>
    w.column === undefined
      ? sql<boolean>`has_table_privilege(${w.role}, ${w.table}, ${w.privilege})`
      : sql<boolean>`has_column_privilege(${w.role}, ${w.table}, ${w.column}, ${w.privilege})`,
  );
  const { rows } = await sql<Record<string, boolean>>`select ${sql.join(checks.map((c, i) => sql`${c} as ${sql.id(`c${i}`)}`))}`.execute(db);
  const problems: ValidationProblem[] = [];
  const seen = new Set<string>();
  wanted.forEach((w, i) => {
    if (rows[0][`c${i}`]) return;
    const message =
      w.column === undefined
        ? `this page would ${WRITE_VERBS[w.privilege as keyof typeof WRITE_VERBS]} rows of "${w.table}", which only its area's own screens and services may write: tick Read-only in the page settings (its list, search, sub-pages and actions keep working)`
        : `"${w.table}.${w.column}" cannot be shown on a page published here (it is kept from configured pages, like passwords, sessions and codes): remove it from the page`;
    if (seen.has(`${w.path}|${message}`)) return;
    seen.add(`${w.path}|${message}`);
    problems.push({ path: w.path, code: 'privilege', message });
  });
  return problems;
}

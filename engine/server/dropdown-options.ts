import { sql, type RawBuilder } from 'kysely';
import { toText } from '../core/index.js';
import type { DropdownOption } from '../schema/api.js';
import { bindNamedSql } from './bind-named-sql.js';
import { coerceFieldValue } from './coerce-field-value.js';
import { CONFIGURATOR_SQL_LIMITS, inConfiguratorTransaction, requireAllowedSql } from './configurator-sql.js';
import type { EngineDb } from './engine-db.js';
import { EngineError } from './engine-error.js';
import { sessionSqlParams, type EngineSession } from './engine-session.js';
import { foreignChoiceText, foreignFilterConditions } from './foreign-options.js';
import { foreignRowConditions, type ForeignRowFilters } from './foreign-rows.js';
import type { PreparedPage } from './prepared-page.js';

/** What the application provides for dropdowns the engine cannot answer alone. */
export interface DropdownPorts {
  /** Codes of one code type of the code master, labelled in the session's language. */
  codeMaster(db: EngineDb, codeType: string, session: EngineSession): Promise<DropdownOption[]>;
  /** Which rows of a foreign table the caller may choose (see `ForeignRowFilters`). */
  foreignRowFilter?: ForeignRowFilters;
}

export interface DropdownAnswer {
  options: DropdownOption[];
  /** More choices exist than the row cap; the caller should narrow with `search`. */
  truncated: boolean;
}

/**
 * The choices of one field's dropdown (README: options): code master, foreign table (within its
 * scope column when the definition says so), named SQL (read-only, timeout, row cap, the record's
 * values as bound parameters) or a static list.
 */
export async function dropdownOptions(
  db: EngineDb,
  prepared: PreparedPage,
  session: EngineSession,
  fieldName: string,
  record: Record<string, unknown>,
  search: string | undefined,
  ports: DropdownPorts,
): Promise<DropdownAnswer> {
  const field = prepared.fieldsByName.get(fieldName);
  if (!field?.options) throw new EngineError('VALIDATION_FAILED', {}, [{ field: 'field', code: 'FIELD_UNKNOWN', params: { name: fieldName.slice(0, 64) } }]);
  const cap = CONFIGURATOR_SQL_LIMITS.rowCap;
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const options = field.options;
  switch (options.type) {
    case 'static':
      return { options: options.items.map((item) => ({ value: item.value, labelCode: item.labelCode })), truncated: false };
    case 'codeMaster': {
      const all = await ports.codeMaster(db, options.codeType, session);
      const filtered = pattern ? all.filter((o) => toText(o.label ?? o.value).toLowerCase().includes(search!.toLowerCase())) : all;
      return { options: filtered.slice(0, cap), truncated: filtered.length > cap };
    }
    case 'foreign': {
      const value = sql.ref(`f.${options.valueField}`);
      const label = foreignChoiceText(options, 'f');
      // The same rows a write of the field accepts (checkForeignValues): never another project's by
      // omission, only those of the definition's filter (partners of one type, the chosen SKU's lots).
      const where: RawBuilder<unknown>[] = [
        // An empty value is no choice: the form takes it for "nothing chosen".
        sql`${value} is not null and cast(${value} as text) <> ''`,
        ...foreignRowConditions(prepared, session, options.table, options.scope, ports.foreignRowFilter),
        ...foreignFilterConditions(prepared, options, record, 'f'),
      ];
      // The search reads what the user reads: the code and the name.
      if (pattern) where.push(sql`${label} ilike ${pattern} escape '\\'`);
      const { rows } = await sql<{ value: unknown; label: unknown }>`
        select distinct ${value} as value, ${label} as label
        from ${sql.table(options.table)} as f where ${sql.join(where, sql` and `)}
        order by 2 limit ${cap + 1}
      `.execute(db);
      return answer(rows, cap);
    }
    case 'route':
      // The browser asks the route itself (README: options `route`); the engine has no list of its own.
      return { options: [], truncated: false };
    case 'sql': {
      const named = (prepared.page.sqls ?? []).find((s) => s.name === options.sql);
      if (!named) throw new EngineError('SYSTEM_CONFIG', { reason: `dropdown SQL ${options.sql} missing` });
      const params: Record<string, unknown> = { search: search ?? null };
      for (const f of prepared.page.fields) {
        const parsed = coerceFieldValue(f, record[f.name]);
        params[f.name] = parsed.ok ? parsed.value : null;
      }
      Object.assign(params, sessionSqlParams(session));
      await requireAllowedSql(named.name, named.text, 'read');
      const rows = await inConfiguratorTransaction(db, session, 'read', async (trx) => {
        const filter = pattern ? sql`where cast(d.label as text) ilike ${pattern} escape '\\'` : sql``;
        const result = await sql<{ value: unknown; label: unknown }>`
          select d.value, d.label from (${bindNamedSql(named.text, params)}) as d ${filter} limit ${cap + 1}
        `.execute(trx);
        return result.rows;
      });
      return answer(rows, cap);
    }
  }
}

function answer(rows: { value: unknown; label: unknown }[], cap: number): DropdownAnswer {
  const options = rows.slice(0, cap).map((row) => ({
    value: typeof row.value === 'number' || typeof row.value === 'boolean' ? row.value : toText(row.value),
    label: toText(row.label ?? row.value),
  }));
  return { options, truncated: rows.length > cap };
}

/**
 * What picking `chosen` in a field's foreign dropdown fills (README: options `fill`): one entry per
 * filled field, `value` the field's name and `label` the text of the chosen row's column; a column
 * without a value is left out. The row is looked up among those the dropdown offers the caller
 * (scope, row filter, the definition's filter), so a fill never reads a row the list would not show;
 * a value the list does not offer fills nothing.
 */
export async function dropdownFill(
  db: EngineDb,
  prepared: PreparedPage,
  session: EngineSession,
  fieldName: string,
  chosen: unknown,
  record: Record<string, unknown>,
  ports: DropdownPorts,
): Promise<DropdownAnswer> {
  const field = prepared.fieldsByName.get(fieldName);
  if (!field?.options) throw new EngineError('VALIDATION_FAILED', {}, [{ field: 'field', code: 'FIELD_UNKNOWN', params: { name: fieldName.slice(0, 64) } }]);
  const options = field.options;
  if (options.type !== 'foreign' || !options.fill?.length) return { options: [], truncated: false };
  const parsed = coerceFieldValue(field, chosen);
  if (!parsed.ok || parsed.value === null) return { options: [], truncated: false };
  const where: RawBuilder<unknown>[] = [
    sql`${sql.ref(`f.${options.valueField}`)} = ${parsed.value}`,
    ...foreignRowConditions(prepared, session, options.table, options.scope, ports.foreignRowFilter),
    ...foreignFilterConditions(prepared, options, record, 'f'),
  ];
  const columns = options.fill.map((fill, i) => sql`cast(${sql.ref(`f.${fill.column}`)} as text) as ${sql.id(`c${i}`)}`);
  const { rows } = await sql<Record<string, string | null>>`
    select ${sql.join(columns)} from ${sql.table(options.table)} as f where ${sql.join(where, sql` and `)} limit 1
  `.execute(db);
  if (!rows.length) return { options: [], truncated: false };
  const filled = options.fill.flatMap((fill, i) => {
    const text = rows[0][`c${i}`];
    return text === null || text === '' ? [] : [{ value: fill.field, label: text }];
  });
  return { options: filled, truncated: false };
}

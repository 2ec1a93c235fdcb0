import { sql, type RawBuilder } from 'kysely';
import { toText } from '../core/index.js';
import type { DropdownOption } from '../schema/api.js';
import { bindNamedSql } from './bind-named-sql.js';
import { coerceFieldValue } from './coerce-field-value.js';
import { CONFIGURATOR_SQL_LIMITS, inConfiguratorTransaction, requireAllowedSql } from './configurator-sql.js';
import type { EngineDb } from './engine-db.js';
import { EngineError } from './engine-error.js';
import { sessionSqlParams, type EngineSession } from './engine-session.js';
import { foreignRowConditions, type ForeignRowFilters } from './foreign-rows.js';
import type { PreparedPage } from './prepared-page.js';

/** What the application provides for dropdowns the engine cannot answer alone (STYLE.md: ports). */
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
      const label = sql.ref(`f.${options.labelField ?? options.valueField}`);
      // The same rows a write of the field accepts (checkForeignValues): never another project's by omission.
      const where: RawBuilder<unknown>[] = [sql`${value} is not null`, ...foreignRowConditions(prepared, session, options.table, options.scope, ports.foreignRowFilter)];
      if (pattern) where.push(sql`cast(${label} as text) ilike ${pattern} escape '\\'`);
      const { rows } = await sql<{ value: unknown; label: unknown }>`
        select distinct ${value} as value, cast(${label} as text) as label
        from ${sql.table(options.table)} as f where ${sql.join(where, sql` and `)}
        order by 2 limit ${cap + 1}
      `.execute(db);
      return answer(rows, cap);
    }
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

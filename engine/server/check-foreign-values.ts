import { sql, type RawBuilder } from 'kysely';
import type { FieldDefinition, PageScope } from '../schema/index.js';
import type { BoundValue } from './coerce-field-value.js';
import type { EngineDb } from './engine-db.js';
import type { EngineFieldError } from './engine-error.js';
import type { EngineSession } from './engine-session.js';
import { foreignRowConditions, type ForeignRowFilters } from './foreign-rows.js';
import type { PreparedPage } from './prepared-page.js';
import type { PreparedRecord } from './prepare-record.js';

/** A foreign table a field's value must be found in, with the scope its definition declares. */
interface TableSource {
  table: string;
  column: string;
  scope: PageScope | undefined;
}

/** The foreign tables of a field: its dropdown's table and its `foreign` rule, each one checked. */
function tableSourcesOf(field: FieldDefinition): TableSource[] {
  const sources: TableSource[] = [];
  if (field.options?.type === 'foreign') sources.push({ table: field.options.table, column: field.options.valueField, scope: field.options.scope });
  if (field.foreign && !sources.some((s) => s.table === field.foreign!.table && s.column === field.foreign!.field)) {
    sources.push({ table: field.foreign.table, column: field.foreign.field, scope: undefined });
  }
  return sources;
}

function sameValue(stored: unknown, value: BoundValue): boolean {
  if (typeof stored !== 'string' && typeof stored !== 'number' && typeof stored !== 'boolean') return false;
  return String(stored) === String(value);
}

export interface ForeignCheckOptions {
  /** The row as stored, on update: a value the row already has is not checked again. */
  stored?: Record<string, unknown>;
  /** Shared by the rows of one import: foreign table values already found in scope. */
  found?: Set<string>;
}

/**
 * THE scope check of foreign values (README: foreign and options): every value a write sets in a
 * field that names a foreign table (its dropdown's table or its `foreign` rule) must be one the
 * field's dropdown would offer this caller, found in the table under the same scope, project,
 * warehouse and row filter conditions (`foreignRowConditions`). Anything else is FIELD_FOREIGN, one
 * error per field, all returned at once. Code-master and static choices name no scoped rows; a
 * dropdown of the page's own SQL runs under row-level security that may be narrower than what the
 * page's rules allow (another warehouse of the project), so its values are left to the page's
 * writer and validation SQL.
 */
export async function checkForeignValues(
  trx: EngineDb,
  prepared: PreparedPage,
  session: EngineSession,
  record: Pick<PreparedRecord, 'values' | 'unstored' | 'failed'>,
  rowFilters: ForeignRowFilters | undefined,
  options: ForeignCheckOptions = {},
): Promise<EngineFieldError[]> {
  const errors: EngineFieldError[] = [];
  for (const [name, value] of Object.entries({ ...record.values, ...record.unstored })) {
    if (value === null || record.failed.has(name)) continue;
    const field = prepared.fieldsByName.get(name);
    if (!field) continue;
    if (options.stored && sameValue(options.stored[name], value)) continue;
    let refused: TableSource | undefined;
    for (const source of tableSourcesOf(field)) {
      const key = `${source.table}\u0000${source.column}\u0000${source.scope ?? ''}\u0000${String(value)}`;
      if (options.found?.has(key)) continue;
      const where = [sql`${sql.ref(`f.${source.column}`)} = ${value}`, ...foreignRowConditions(prepared, session, source.table, source.scope, rowFilters)];
      if (!(await exists(trx, sql`${sql.table(source.table)} as f`, where))) {
        refused = source;
        break;
      }
      options.found?.add(key);
    }
    if (refused) errors.push({ field: name, code: 'FIELD_FOREIGN', params: { table: refused.table } });
  }
  return errors;
}

async function exists(db: EngineDb, from: RawBuilder<unknown>, where: RawBuilder<unknown>[]): Promise<boolean> {
  const { rows } = await sql`select 1 from ${from} where ${sql.join(where, sql` and `)} limit 1`.execute(db);
  return rows.length > 0;
}

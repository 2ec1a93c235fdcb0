import { sql, type RawBuilder } from 'kysely';
import { isUnique, keyFieldOf, tableAliasOf } from '../schema/index.js';
import { checkForeignValues, type ForeignCheckOptions } from './check-foreign-values.js';
import type { EngineDb, EngineTransaction } from './engine-db.js';
import type { EngineFieldError } from './engine-error.js';
import type { ForeignRowFilters } from './foreign-rows.js';
import { requireScopeValue, scopeColumnOf, type EngineSession } from './engine-session.js';
import { columnRef, type PreparedPage } from './prepared-page.js';
import type { PreparedRecord } from './prepare-record.js';

/**
 * The field rules that ask the database, inside the write's transaction: unique within the scope
 * (excluding the row itself on update) and foreign values, which must be ones the field's dropdown
 * would offer the caller (`checkForeignValues`). Every problem is returned, none thrown.
 */
export async function checkRecordInDatabase(
  trx: EngineTransaction,
  prepared: PreparedPage,
  session: EngineSession,
  record: Pick<PreparedRecord, 'values' | 'unstored' | 'merged' | 'failed'>,
  options: ForeignCheckOptions & { ownKey?: string | number; rowFilters?: ForeignRowFilters } = {},
): Promise<EngineFieldError[]> {
  const { ownKey } = options;
  const { page } = prepared;
  const errors: EngineFieldError[] = [];
  const scopeColumn = scopeColumnOf(page.scope);
  const scopeValue = requireScopeValue(session, page.scope);
  for (const [name, value] of Object.entries(record.values)) {
    if (value === null || record.failed.has(name)) continue;
    const field = prepared.fieldsByName.get(name);
    if (!field) continue;
    if (isUnique(field)) {
      const where: RawBuilder<unknown>[] = [sql`${columnRef(page, name)} = ${value}`];
      if (scopeColumn !== null) where.push(sql`${columnRef(page, scopeColumn)} = ${scopeValue}`);
      if (ownKey !== undefined) where.push(sql`${columnRef(page, keyFieldOf(page))} <> ${ownKey}`);
      if (await exists(trx, sql`${sql.table(page.table.name)} as ${sql.id(tableAliasOf(page))}`, where)) {
        errors.push({ field: name, code: 'FIELD_NOT_UNIQUE' });
        continue;
      }
    }
  }
  // A field already refused as a duplicate gets no second error.
  const failed = new Set([...record.failed, ...errors.map((e) => e.field)]);
  errors.push(...(await checkForeignValues(trx, prepared, session, { ...record, failed }, options.rowFilters, options)));
  return errors;
}

async function exists(trx: EngineDb, from: RawBuilder<unknown>, where: RawBuilder<unknown>[]): Promise<boolean> {
  const { rows } = await sql`select 1 from ${from} where ${sql.join(where, sql` and `)} limit 1`.execute(trx);
  return rows.length > 0;
}

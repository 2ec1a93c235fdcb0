import { sql, type RawBuilder } from 'kysely';
import type { RowKey } from '../schema/api.js';
import { keyFieldOf, versionFieldOf } from '../schema/index.js';
import type { BoundValue } from './coerce-field-value.js';
import type { EngineDb } from './engine-db.js';
import { EngineError } from './engine-error.js';
import { requireScopeValue, scopeColumnOf, type EngineSession } from './engine-session.js';
import { parseRowKey } from './page-rows.js';
import { pageScopeConditions, tableColumns, type PreparedPage } from './prepared-page.js';

const INTEGER_TYPES = ['integer', 'bigint', 'smallint'];

/** Inserts one record into the page's table with the session's scope and audit columns; answers its key. */
export async function insertRow(
  trx: EngineDb,
  prepared: PreparedPage,
  session: EngineSession,
  values: Record<string, BoundValue>,
): Promise<string | number> {
  const { page } = prepared;
  const columns = tableColumns(prepared);
  const assignments = new Map<string, RawBuilder<unknown>>();
  for (const [name, value] of Object.entries(values)) assignments.set(name, sql`${value}`);
  const scopeColumn = scopeColumnOf(page.scope);
  if (scopeColumn !== null) assignments.set(scopeColumn, sql`${requireScopeValue(session, page.scope)}`);
  if (columns.has('created_by')) assignments.set('created_by', sql`${session.loginAccount}`);
  if (columns.has('updated_by')) assignments.set('updated_by', sql`${session.loginAccount}`);
  const names = [...assignments.keys()];
  const keyField = keyFieldOf(page);
  const { rows } = await sql<{ key: string | number }>`
    insert into ${sql.table(page.table.name)} (${sql.join(names.map((n) => sql.id(n)))})
    values (${sql.join(names.map((n) => assignments.get(n)!))})
    returning ${sql.id(keyField)} as key
  `.execute(trx);
  const key = rows[0].key;
  return typeof key === 'bigint' ? Number(key) : key;
}

/**
 * Updates one row only if it is still the version the caller read (a stale update is
 * refused, never silently overwritten) and within the session's scope. The version column moves
 * on: a timestamp to clock_timestamp() (now() would repeat inside one transaction), an integer by 1.
 */
export async function updateRow(
  trx: EngineDb,
  prepared: PreparedPage,
  session: EngineSession,
  key: RowKey,
  version: string | null,
  values: Record<string, BoundValue>,
): Promise<void> {
  const { page } = prepared;
  const columns = tableColumns(prepared);
  const versionField = versionFieldOf(page);
  const assignments: RawBuilder<unknown>[] = Object.entries(values).map(([name, value]) => sql`${sql.id(name)} = ${value}`);
  if (versionField !== null) {
    const type = columns.get(versionField) ?? '';
    if (INTEGER_TYPES.includes(type)) assignments.push(sql`${sql.id(versionField)} = ${sql.id(versionField)} + 1`);
    else if (type.startsWith('timestamp')) assignments.push(sql`${sql.id(versionField)} = clock_timestamp()`);
  }
  if (columns.has('updated_at') && versionField !== 'updated_at') assignments.push(sql`updated_at = clock_timestamp()`);
  if (columns.has('updated_by')) assignments.push(sql`updated_by = ${session.loginAccount}`);
  if (!assignments.length) return;
  const matched = await matchRow(trx, prepared, session, key, version, (where) =>
    sql`update ${sql.table(page.table.name)} set ${sql.join(assignments)} where ${where} returning 1`,
  );
  if (!matched) throw await staleOrMissing(trx, prepared, session, key);
}

/** Deletes one row of the scope, only at the version the caller read. */
export async function deleteRow(trx: EngineDb, prepared: PreparedPage, session: EngineSession, key: RowKey, version: string | null): Promise<void> {
  const { page } = prepared;
  const matched = await matchRow(trx, prepared, session, key, version, (where) =>
    sql`delete from ${sql.table(page.table.name)} where ${where} returning 1`,
  );
  if (!matched) throw await staleOrMissing(trx, prepared, session, key);
}

async function matchRow(
  trx: EngineDb,
  prepared: PreparedPage,
  session: EngineSession,
  key: RowKey,
  version: string | null,
  statement: (where: RawBuilder<unknown>) => RawBuilder<unknown>,
): Promise<boolean> {
  const parsedKey = parseRowKey(prepared, key);
  if (parsedKey === undefined) throw new EngineError('NO_RECORD');
  const where = [...keyAndScope(prepared, session, parsedKey)];
  const versionField = versionFieldOf(prepared.page);
  if (versionField !== null) {
    if (version === null) throw new EngineError('STALE_UPDATE');
    where.push(sql`cast(${sql.id(versionField)} as text) = ${version}`);
  }
  const { rows } = await statement(sql.join(where, sql` and `)).execute(trx);
  return rows.length > 0;
}

function keyAndScope(prepared: PreparedPage, session: EngineSession, key: string | number): RawBuilder<unknown>[] {
  return [sql`${sql.id(keyFieldOf(prepared.page))} = ${key}`, ...pageScopeConditions(prepared, session, (name) => sql.id(name))];
}

/** A row of another scope is answered as missing, so its existence does not leak (access contract). */
async function staleOrMissing(trx: EngineDb, prepared: PreparedPage, session: EngineSession, key: RowKey): Promise<EngineError> {
  const parsedKey = parseRowKey(prepared, key);
  if (parsedKey === undefined) return new EngineError('NO_RECORD');
  const { rows } = await sql`
    select 1 from ${sql.table(prepared.page.table.name)} where ${sql.join(keyAndScope(prepared, session, parsedKey), sql` and `)}
  `.execute(trx);
  return rows.length ? new EngineError('STALE_UPDATE') : new EngineError('NO_RECORD');
}

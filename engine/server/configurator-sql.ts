import { sql } from 'kysely';
import { checkConfiguratorSql, type ConfiguratorSqlMode } from './check-configurator-sql.js';
import type { EngineDb, EngineTransaction } from './engine-db.js';
import { EngineError } from './engine-error.js';
import type { EngineSession } from './engine-session.js';

/** Limits of configurator SQL; the application may lower or raise them. */
export const CONFIGURATOR_SQL_LIMITS = { statementTimeoutMs: 5000, rowCap: 1000 };

/**
 * The database roles configurator SQL runs under: created by the application's
 * migrations, granted only the business tables a configurator may read or write, with row-level
 * security keyed on the transaction's `wms.*` scope settings.
 */
export const CONFIGURATOR_ROLES: Record<ConfiguratorSqlMode, string> = { read: 'wms_config_read', write: 'wms_config_write' };

/**
 * Runs work in a read-only transaction with a local statement timeout, as the engine's own
 * connection (for reads that involve no configurator SQL).
 */
export async function inReadOnlyTransaction<T>(
  db: EngineDb,
  work: (trx: EngineTransaction) => Promise<T>,
  options: { statementTimeoutMs?: number } = {},
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set transaction read only`.execute(trx);
    await setLocalStatementTimeout(trx, options.statementTimeoutMs);
    return work(trx);
  });
}

/**
 * THE way configurator SQL runs: inside a transaction (read only for
 * reads) with a statement timeout, the session's organization, project, warehouse and user as
 * transaction settings for row-level security, and `SET LOCAL ROLE` to the restricted role of the
 * mode. Whatever the SQL says, the database refuses tables the role was not granted and hides rows
 * of other projects and warehouses. A permission failure becomes SQL_NOT_PERMITTED.
 */
export async function inConfiguratorTransaction<T>(
  db: EngineDb,
  session: Pick<EngineSession, 'organizationId' | 'projectId' | 'warehouseId' | 'userId'>,
  mode: ConfiguratorSqlMode,
  work: (trx: EngineTransaction) => Promise<T>,
  options: { statementTimeoutMs?: number } = {},
): Promise<T> {
  try {
    return await db.transaction().execute(async (trx) => {
      if (mode === 'read') await sql`set transaction read only`.execute(trx);
      await enterConfiguratorRole(trx, session, mode, options.statementTimeoutMs);
      return work(trx);
    });
  } catch (error) {
    throw configuratorSqlFailure(error);
  }
}

/**
 * Switches an open transaction to the configurator role of the mode for the rest of the
 * transaction (for a `sql:` behaviour, whose selected rows were read before as the engine).
 */
export async function enterConfiguratorRole(
  trx: EngineTransaction,
  session: Pick<EngineSession, 'organizationId' | 'projectId' | 'warehouseId' | 'userId'>,
  mode: ConfiguratorSqlMode,
  statementTimeoutMs = CONFIGURATOR_SQL_LIMITS.statementTimeoutMs,
): Promise<void> {
  const text = (value: number | null) => (value === null ? '' : String(value));
  await sql`select
    set_config('statement_timeout', ${String(statementTimeoutMs)}, true),
    set_config('wms.organization_id', ${text(session.organizationId)}, true),
    set_config('wms.project_id', ${text(session.projectId)}, true),
    set_config('wms.warehouse_id', ${text(session.warehouseId)}, true),
    set_config('wms.user_id', ${String(session.userId)}, true)`.execute(trx);
  await sql`set local role ${sql.id(CONFIGURATOR_ROLES[mode])}`.execute(trx);
}

/**
 * Refuses configurator SQL that the parser does not accept, at run time as the
 * designer does at save: a stored or shipped definition that slipped through is refused too.
 */
export async function requireAllowedSql(name: string, text: string, mode: ConfiguratorSqlMode): Promise<void> {
  const verdict = await checkConfiguratorSql(text, mode);
  if (!verdict.ok) throw new EngineError('SQL_REFUSED', { name, reason: verdict.reason });
}

/** `set local statement_timeout` for the rest of the current transaction. */
export async function setLocalStatementTimeout(trx: EngineDb, ms = CONFIGURATOR_SQL_LIMITS.statementTimeoutMs): Promise<void> {
  await sql`select set_config('statement_timeout', ${String(ms)}, true)`.execute(trx);
}

/**
 * Turns a failure of configurator SQL into an answer: a timeout is SQL_TIMEOUT; a table or column
 * the role may not touch, or a row that row-level security keeps out, is SQL_NOT_PERMITTED; any
 * other SQL error is the configuration's fault.
 */
export function configuratorSqlFailure(error: unknown): unknown {
  if (error instanceof EngineError) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return error;
  if (code === '57014') return new EngineError('SQL_TIMEOUT');
  if (code === '42501') return new EngineError('SQL_NOT_PERMITTED', { reason: firstLine(error) });
  return new EngineError('SYSTEM_CONFIG', { reason: `SQL ${code}` });
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200);
}

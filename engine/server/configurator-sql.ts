import { sql } from 'kysely';
import type { EngineDb, EngineTransaction } from './engine-db.js';
import { EngineError } from './engine-error.js';

/** Limits of configurator SQL (DESIGN.md section 6); the application may lower or raise them. */
export const CONFIGURATOR_SQL_LIMITS = { statementTimeoutMs: 5000, rowCap: 1000 };

/**
 * Runs work in a read-only transaction with a local statement timeout: configurator SQL can read
 * but never write, and cannot hold the database for long. On PGlite the same statements work.
 */
export async function inReadOnlyTransaction<T>(db: EngineDb, work: (trx: EngineTransaction) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set transaction read only`.execute(trx);
    await setLocalStatementTimeout(trx);
    return work(trx);
  });
}

/** `set local statement_timeout` for the rest of the current transaction. */
export async function setLocalStatementTimeout(trx: EngineDb, ms = CONFIGURATOR_SQL_LIMITS.statementTimeoutMs): Promise<void> {
  await sql`select set_config('statement_timeout', ${String(ms)}, true)`.execute(trx);
}

/**
 * Turns a failure of configurator SQL into an answer: a timeout is SQL_TIMEOUT; an attempt to
 * write in a read-only transaction and any other SQL error are the configuration's fault.
 */
export function configuratorSqlFailure(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === '57014') return new EngineError('SQL_TIMEOUT');
  return new EngineError('SYSTEM_CONFIG', { reason: typeof code === 'string' ? `SQL ${code}` : 'SQL failed' });
}

import { sql } from 'kysely';
import { bindNamedSql } from './bind-named-sql.js';
import { configuratorSqlFailure, enterConfiguratorRole, requireAllowedSql } from './configurator-sql.js';
import type { EngineTransaction } from './engine-db.js';
import type { EngineFieldError } from './engine-error.js';
import { sessionSqlParams, type EngineSession } from './engine-session.js';
import type { PreparedPage } from './prepared-page.js';
import type { PreparedRecord } from './prepare-record.js';

/**
 * Runs the validation SQL of every field the record sets (README: validationSql): valid when the
 * SQL answers at least one row. Parameters: `:value`, every field of the record by name and the
 * session's names, all bound. Runs inside the write's own transaction (so it sees what the write
 * sees), in a savepoint under the configurator read role with a timeout; rolling back to the
 * savepoint afterwards restores the engine's role and settings.
 */
export async function runValidationSql(
  trx: EngineTransaction,
  prepared: PreparedPage,
  session: EngineSession,
  record: Pick<PreparedRecord, 'values' | 'merged' | 'failed'>,
): Promise<EngineFieldError[]> {
  const checks = prepared.page.fields.filter(
    (f) => f.validationSql && Object.hasOwn(record.values, f.name) && record.values[f.name] !== null && !record.failed.has(f.name),
  );
  if (!checks.length) return [];
  const sqls = new Map((prepared.page.sqls ?? []).map((s) => [s.name, s.text]));
  for (const field of checks) await requireAllowedSql(field.validationSql!.sql, sqls.get(field.validationSql!.sql) ?? '', 'read');
  await sql`savepoint engine_validation_sql`.execute(trx);
  try {
    await enterConfiguratorRole(trx, session, 'read');
    const errors: EngineFieldError[] = [];
    for (const field of checks) {
      const text = sqls.get(field.validationSql!.sql)!;
      const params: Record<string, unknown> = { ...record.merged, ...sessionSqlParams(session), value: record.values[field.name] };
      const { rows } = await sql`select 1 from (${bindNamedSql(text, params)}) as v limit 1`.execute(trx);
      if (!rows.length) {
        errors.push({
          field: field.name,
          code: 'FIELD_VALIDATION_SQL',
          ...(field.validationSql!.messageCode ? { params: { messageCode: field.validationSql!.messageCode } } : {}),
        });
      }
    }
    return errors;
  } catch (error) {
    throw configuratorSqlFailure(error);
  } finally {
    await sql`rollback to savepoint engine_validation_sql`.execute(trx);
    await sql`release savepoint engine_validation_sql`.execute(trx);
  }
}

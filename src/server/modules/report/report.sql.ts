import { sql, type Kysely, type RawBuilder } from 'kysely';
import { bindNamedSql, EngineError, parseNamedSql } from '../../../../engine/server/index.js';
import { inConfiguratorTransaction, requireAllowedSql } from '../../../../engine/server/configurator-sql.js';
import type { ReportParamType, ReportSpec } from '../../../common/report-api.js';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import type { SessionUser } from '../../http/access.js';
import { engine } from '../generic/index.js';
import { explainReport } from './report-rows.repository.js';

/*
 * A report's SQL runs exactly as every configurator SQL does (docs/reports.md): the PostgreSQL
 * parser's allow-list first (one SELECT, allowed functions only), then a read-only transaction as
 * the restricted configurator role with the session's project and warehouse for row-level
 * security and a statement time-out. The report's database may be a read replica.
 */

/** Parameters every report may use without declaring them: the session's own values. */
const RESERVED: Record<string, { type: string; of: (user: SessionUser) => unknown }> = {
  projectId: { type: 'bigint', of: (u) => u.projectId },
  projectCode: { type: 'text', of: (u) => u.projectCode },
  warehouseId: { type: 'bigint', of: (u) => u.warehouseId },
  warehouseCode: { type: 'text', of: (u) => u.warehouseCode },
  organizationId: { type: 'bigint', of: (u) => u.organizationId },
  userId: { type: 'bigint', of: (u) => u.userId },
  userLogin: { type: 'text', of: (u) => u.loginAccount },
};

const SQL_TYPES: Record<ReportParamType, string> = { text: 'text', number: 'numeric', date: 'date' };

/** How long one statement of a report may run. */
export const REPORT_STATEMENT_TIMEOUT_MS = 10_000;

export function isReservedParam(name: string): boolean {
  return Object.hasOwn(RESERVED, name);
}

/** The `:names` of the SQL (each once), or REPORT_SPEC_INVALID when the text cannot be split. */
export function sqlParams(text: string): string[] {
  const parsed = parseNamedSql(text);
  if (!parsed.ok) throw new AppError('REPORT_SPEC_INVALID', { reason: parsed.message });
  return [...new Set(parsed.sql.params)];
}

/** The SQL with every parameter bound and cast to its type: values never become SQL text. */
export function boundSql(spec: ReportSpec, user: SessionUser, values: Record<string, unknown>): RawBuilder<Record<string, unknown>> {
  const bound: Record<string, unknown> = {};
  for (const name of sqlParams(spec.sql)) {
    const reserved = RESERVED[name];
    if (reserved) {
      bound[name] = sql`cast(${reserved.of(user)} as ${sql.raw(reserved.type)})`;
      continue;
    }
    const param = spec.params.find((p) => p.name === name);
    bound[name] = sql`cast(${values[name] ?? null} as ${sql.raw(SQL_TYPES[param?.type ?? 'text'])})`;
  }
  return bindNamedSql(spec.sql, bound);
}

/**
 * Runs work over the report's SQL in the configurator sandbox. A statement the database refuses
 * for its own reasons (a wrong column, a value of the wrong type) is the report's fault and
 * answered REPORT_SQL_FAILED; refusals of the sandbox keep their codes (SQL_REFUSED,
 * SQL_NOT_PERMITTED, SQL_TIMEOUT).
 */
export async function inReportSandbox<T>(db: Kysely<DB>, user: SessionUser, spec: ReportSpec, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  try {
    return await engine(async () => {
      await requireAllowedSql('report', spec.sql, 'read');
      return inConfiguratorTransaction(db, user, 'read', (trx) => work(trx as unknown as Kysely<DB>), { statementTimeoutMs: REPORT_STATEMENT_TIMEOUT_MS });
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'SYSTEM_CONFIG') throw new AppError('REPORT_SQL_FAILED', { reason: String(error.params?.reason ?? '') });
    throw error;
  }
}

/** Compiles the SQL (EXPLAIN, never run) in the sandbox: a draft that cannot run is refused when saved. */
export async function checkReportSql(db: Kysely<DB>, user: SessionUser, spec: ReportSpec): Promise<void> {
  await inReportSandbox(db, user, spec, async (trx) => {
    try {
      await explainReport(trx, boundSql(spec, user, {}));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      // Permission and time-out keep the sandbox's answer; anything else is the text's fault.
      if (code === '42501' || code === '57014' || typeof code !== 'string') throw error;
      throw new EngineError('SYSTEM_CONFIG', { reason: (error as Error).message.split('\n')[0].slice(0, 300) });
    }
  });
}

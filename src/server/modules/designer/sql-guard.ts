import { sql, type Kysely } from 'kysely';
import { bindNamedSql } from '../../../../engine/server/bind-named-sql.js';
import { parseNamedSql } from '../../../../engine/server/parse-named-sql.js';
import { checkConfiguratorSql } from '../../../../engine/server/check-configurator-sql.js';
import { enterConfiguratorRole } from '../../../../engine/server/configurator-sql.js';
import type { SqlTestResult } from '../../../common/designer/api-types.js';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';

/** What a named SQL is for: a read (lists, dropdowns, validation) or a `sql:` behaviour's write. */
export type SqlMode = 'read' | 'write';

/** Values bound to the reserved parameters when SQL is checked or test-run (README of engine/schema). */
export interface SqlSession {
  projectId: number | null;
  projectCode: string | null;
  warehouseId: number | null;
  warehouseCode: string | null;
  organizationId: number | null;
  userId: number;
  userLogin: string;
  language: string;
}

/** How long a check or a test run may take, and how many rows a test run shows. */
const STATEMENT_TIMEOUT_MS = 5000;
export const TEST_RUN_ROWS = 20;

/** Values for every `:name` of the text: the given ones, null for the rest (a check only compiles it). */
function valuesFor(params: string[], given: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of params) values[name] = Object.hasOwn(given, name) ? given[name] : null;
  return values;
}

function reservedValues(session: SqlSession): Record<string, unknown> {
  return {
    projectId: session.projectId,
    projectCode: session.projectCode,
    warehouseId: session.warehouseId,
    warehouseCode: session.warehouseCode,
    organizationId: session.organizationId,
    userId: session.userId,
    userLogin: session.userLogin,
    language: session.language,
  };
}

interface PlanNode {
  'Node Type'?: string;
  Plans?: PlanNode[];
}

function planWrites(node: PlanNode | undefined): boolean {
  if (!node) return false;
  if (node['Node Type'] === 'ModifyTable' || node['Node Type'] === 'LockRows') return true;
  return (node.Plans ?? []).some(planWrites);
}

/**
 * THE parse guard for configurator SQL: one statement of
 * the expected kind, compiled by the database with EXPLAIN inside a read-only transaction that is
 * always rolled back — EXPLAIN without ANALYZE plans and never runs it. A read whose plan modifies
 * data (a data-modifying CTE) or locks rows is refused. Answers the problem, or undefined.
 */
export async function checkNamedSql(
  db: Kysely<DB>,
  named: { name: string; text: string; mode?: SqlMode },
  session: SqlSession,
): Promise<FieldError | undefined> {
  const mode = named.mode ?? 'read';
  const parsed = parseNamedSql(named.text);
  if (!parsed.ok) return { field: `sqls.${named.name}`, code: 'GENERIC_SQL_INVALID', params: { name: named.name, reason: parsed.message } };
  // The real PostgreSQL parser decides what may run; the database's roles decide
  // what it may touch (EXPLAIN below runs as the configurator role, so a table it may not read or
  // write is refused here already).
  const verdict = await checkConfiguratorSql(named.text, mode);
  if (!verdict.ok) {
    return { field: `sqls.${named.name}`, code: mode === 'read' ? 'GENERIC_SQL_NOT_READ' : 'GENERIC_SQL_INVALID', params: { name: named.name, reason: verdict.reason } };
  }
  try {
    const plan = await inReadOnlyRollback(db, session, mode, async (trx) => {
      const { rows } = await sql<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>`explain (format json) ${bindNamedSql(named.text, valuesFor(parsed.sql.params, reservedValues(session)))}`.execute(trx);
      return rows[0]?.['QUERY PLAN'][0]?.Plan;
    });
    if (mode === 'read' && planWrites(plan)) {
      return { field: `sqls.${named.name}`, code: 'GENERIC_SQL_NOT_READ', params: { name: named.name, reason: 'modifiesData' } };
    }
    return undefined;
  } catch (error) {
    if (error instanceof AppError) throw error;
    return { field: `sqls.${named.name}`, code: 'GENERIC_SQL_INVALID', params: { name: named.name, reason: databaseMessage(error) } };
  }
}

/** Checks every named SQL of a definition; answers every problem at once. */
export async function checkDefinitionSqls(
  db: Kysely<DB>,
  sqls: Array<{ name: string; text: string; mode?: SqlMode }>,
  session: SqlSession,
): Promise<FieldError[]> {
  const problems: FieldError[] = [];
  for (const [index, named] of sqls.entries()) {
    const problem = await checkNamedSql(db, named, session);
    // On the statement's own JSON path, where the designer shows the validator's problems.
    if (problem) problems.push({ ...problem, field: `/sqls/${index}/text` });
  }
  return problems;
}

/**
 * A test run from the designer: the read runs for real (read-only transaction, statement timeout,
 * rolled back, first rows only); a write is only compiled. Parameters not reserved take the values
 * the configurator typed.
 */
export async function testRunSql(
  db: Kysely<DB>,
  named: { name: string; text: string; mode?: SqlMode },
  session: SqlSession,
  inputs: Record<string, unknown>,
): Promise<SqlTestResult> {
  const problem = await checkNamedSql(db, named, session);
  if (problem) return { ok: false, columns: [], rows: [], errorCode: problem.code, error: String(problem.params?.reason ?? '') };
  if ((named.mode ?? 'read') === 'write') return { ok: true, columns: [], rows: [] };
  try {
    const params = parseNamedSql(named.text);
    const values = valuesFor(params.ok ? params.sql.params : [], { ...inputs, ...reservedValues(session) });
    const rows = await inReadOnlyRollback(db, session, 'read', async (trx) => {
      const query = sql<Record<string, unknown>>`select * from (${bindNamedSql(named.text, values)}) as test_run limit ${TEST_RUN_ROWS}`;
      return (await query.execute(trx)).rows;
    });
    return { ok: true, columns: rows.length ? Object.keys(rows[0]) : [], rows };
  } catch (error) {
    // Stopped at its time limit: not a fault of the text, so said as such.
    if ((error as { code?: unknown }).code === QUERY_CANCELED) return { ok: false, columns: [], rows: [], errorCode: 'SQL_TIMEOUT', error: databaseMessage(error) };
    return { ok: false, columns: [], rows: [], errorCode: 'GENERIC_SQL_INVALID', error: databaseMessage(error) };
  }
}

/** SQLSTATE of a statement stopped by its time limit. */
const QUERY_CANCELED = '57014';

class Rollback<T> extends Error {
  constructor(readonly value: T) {
    super('rollback');
  }
}

/** Runs work as the configurator role of the mode in a read-only transaction that is always rolled back. */
async function inReadOnlyRollback<T>(db: Kysely<DB>, session: SqlSession, mode: SqlMode, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  try {
    await inTransaction(db, async (trx) => {
      await sql`set transaction read only`.execute(trx);
      await enterConfiguratorRole(trx, session, mode, STATEMENT_TIMEOUT_MS);
      throw new Rollback(await work(trx));
    });
  } catch (error) {
    if (error instanceof Rollback) return error.value as T;
    throw error;
  }
  throw new Error('unreachable');
}

/** The database's own message (e.g. `column "x" does not exist`); no stack, no connection details. */
function databaseMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].slice(0, 500);
}

import { CompiledQuery, sql, type QueryResult } from 'kysely';

/**
 * Statements sent to the PostgreSQL server without waiting for the answer of the one before
 * (`pg-driver.ts`). The server still runs them one after another, each with its own snapshot taken
 * when it starts, so what they do and see is what they would do and see sent one by one: only the
 * waits between them go. The embedded database runs them one by one (no network between).
 */

/**
 * Appended to a write inside a transaction whose answer the caller does not need (no rows, no
 * count): on the server it is sent at once and answered only with the transaction's next statement
 * or its commit, which go out right behind it. When it fails, that next statement or the commit
 * fails with its error (the server rolls the transaction back), so nothing of the transaction is
 * kept and the caller sees the failure as if it had waited.
 */
export const DEFERRED_MARK = '/* deferred */';
export const DEFERRED = sql.raw(DEFERRED_MARK);

/** A write marked `DEFERRED`. */
export function isDeferred(text: string): boolean {
  return text.endsWith(DEFERRED_MARK);
}

/** What runs statements: a `Kysely` or a `Transaction` of any schema. */
type Executor = { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> };

const STATEMENTS = Symbol('pipelined statements');

type PipelinedQuery = CompiledQuery & { readonly [STATEMENTS]: readonly CompiledQuery[] };

/** The statements of a query made by `runPipelined`, or undefined for an ordinary query. */
export function pipelinedStatements(query: CompiledQuery): readonly CompiledQuery[] | undefined {
  return (query as Partial<PipelinedQuery>)[STATEMENTS];
}

/**
 * Runs the statements in the order given, sent together: one wait for all of them instead of one
 * each. A statement cannot use the answer of one before it, but it sees what that one did. When one
 * fails, its error is thrown (inside a transaction the ones after it then fail too, as they would
 * have). The answers, in the order given.
 */
export async function runPipelined(db: Executor, statements: readonly CompiledQuery[]): Promise<QueryResult<unknown>[]> {
  // A driver that did not know pipelined statements would run this text: it fails instead of answering nothing.
  const query: PipelinedQuery = {
    ...CompiledQuery.raw(`do $$ begin raise exception 'pipelined statements need the pipelining driver'; end $$`),
    [STATEMENTS]: statements,
  };
  const { rows } = await db.executeQuery<QueryResult<unknown>>(query);
  return rows;
}

/** A statement with what its answer means: for `pipelined`. */
export interface Statement<T> {
  query: CompiledQuery;
  answer(result: QueryResult<unknown>): T;
}

/** `runPipelined` of statements that each say what their answer means: the meanings, in the order given. */
export async function pipelined<T extends readonly unknown[]>(db: Executor, statements: { readonly [K in keyof T]: Statement<T[K]> }): Promise<T> {
  const list = statements as readonly Statement<unknown>[];
  const results = await runPipelined(
    db,
    list.map((s) => s.query),
  );
  return list.map((s, i) => s.answer(results[i])) as unknown as T;
}

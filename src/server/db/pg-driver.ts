import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import type pg from 'pg';
import { isDeferred, pipelinedStatements } from './pipeline.js';
import { PostgresDialect, PostgresSavepoints, transactionMode } from './postgres-dialect.js';

/**
 * A Kysely dialect over a pool of node-postgres clients in pipeline mode: a client sends a
 * statement without waiting for the answers of those before it, and the server answers them in
 * order. Kysely itself still waits for each statement it sends; this driver saves the waits that
 * are not needed:
 *
 * - `begin` is sent without waiting: it goes out with the transaction's first statement, which
 *   waits for both. Should `begin` fail, that statement's answer is not used: its error is thrown.
 *   (`begin` fails only with the connection, and then every statement behind it does too.)
 * - a write marked `DEFERRED` (`pipeline.ts`) inside a transaction is sent and answered at once
 *   with no rows; its answer is awaited with the next statement or with the commit, which then
 *   fails with the write's error (a failed statement makes the server roll the commit back).
 * - `runPipelined` sends several statements together and waits once.
 *
 * Everything else runs as with Kysely's own Postgres driver: one statement, one wait.
 */
export class PipelinedPostgresDialect extends PostgresDialect {
  constructor(private readonly pool: pg.Pool) {
    super();
  }

  createDriver(): Driver {
    return new PipelinedPostgresDriver(this.pool);
  }
}

/** A statement's outcome, never a rejected promise (an answer not awaited yet must not be an unhandled rejection). */
type Outcome = { ok: true; result: QueryResult<unknown> } | { ok: false; error: unknown };

function outcomeOf(answer: Promise<QueryResult<unknown>>): Promise<Outcome> {
  return answer.then(
    (result) => ({ ok: true as const, result }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

function resultOf(outcome: Outcome): QueryResult<unknown> {
  if (!outcome.ok) throw outcome.error;
  return outcome.result;
}

const AFFECTING = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

class PipelinedConnection implements DatabaseConnection {
  /** Statements sent whose answers nobody awaited yet (`begin`, deferred writes), in the order sent. */
  private unanswered: Promise<Outcome>[] = [];
  private inTransaction = false;

  constructor(readonly client: pg.PoolClient) {}

  /** Sends one statement now; its answer comes later. */
  private send(query: CompiledQuery): Promise<Outcome> {
    const answer = this.client.query(query.sql, [...query.parameters]).then(
      ({ command, rowCount, rows }): QueryResult<unknown> => ({
        ...(AFFECTING.has(command) ? { numAffectedRows: BigInt(rowCount ?? 0) } : {}),
        rows: rows ?? [],
      }),
    );
    return outcomeOf(answer);
  }

  /** Awaits the statements sent before and not yet answered: the first failure among them is thrown. */
  private async settle(): Promise<void> {
    const waiting = this.unanswered;
    this.unanswered = [];
    let failure: Outcome | undefined;
    for (const answer of waiting) {
      const outcome = await answer;
      if (!outcome.ok && failure === undefined) failure = outcome;
    }
    if (failure) resultOf(failure);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const statements = pipelinedStatements(query);
    if (statements) {
      const sent = statements.map((statement) => this.send(statement));
      await this.settleAll(sent);
      const answers: QueryResult<unknown>[] = [];
      for (const outcome of sent) answers.push(resultOf(await outcome));
      return { rows: answers as R[] };
    }
    if (this.inTransaction && isDeferred(query.sql)) {
      this.unanswered.push(this.send(query));
      return { rows: [] };
    }
    const sent = this.send(query);
    await this.settleAll([sent]);
    return resultOf(await sent) as QueryResult<R>;
  }

  /**
   * Awaits what was sent before these statements, then these: a failure before them is thrown
   * first (these then failed only because the transaction was already aborted).
   */
  private async settleAll(sent: readonly Promise<Outcome>[]): Promise<void> {
    try {
      await this.settle();
    } catch (error) {
      await Promise.all(sent);
      throw error;
    }
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported; page the query instead');
  }

  begin(text: string): void {
    this.inTransaction = true;
    this.unanswered.push(this.send(CompiledQuery.raw(text)));
  }

  async commit(): Promise<void> {
    this.inTransaction = false;
    const commit = this.send(CompiledQuery.raw('commit'));
    // A deferred write that failed made the server answer the commit with a rollback: its error is the answer.
    await this.settleAll([commit]);
    resultOf(await commit);
  }

  async rollback(): Promise<void> {
    this.inTransaction = false;
    await this.settle().catch(() => undefined);
    resultOf(await this.send(CompiledQuery.raw('rollback')));
  }
}

class PipelinedPostgresDriver extends PostgresSavepoints implements Driver {
  private readonly connections = new WeakMap<pg.PoolClient, PipelinedConnection>();

  constructor(private readonly pool: pg.Pool) {
    super();
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.pool.connect();
    let connection = this.connections.get(client);
    if (!connection) {
      connection = new PipelinedConnection(client);
      this.connections.set(client, connection);
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const mode = transactionMode(settings);
    (connection as PipelinedConnection).begin(mode ? `start transaction ${mode}` : 'begin');
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).rollback();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PipelinedConnection).client.release();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

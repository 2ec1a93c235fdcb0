import type { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import { pipelinedStatements } from './pipeline.js';
import { PostgresDialect, PostgresSavepoints, transactionMode } from './postgres-dialect.js';

/**
 * Runs each statement so that it ends at the `statement_timeout` in force (see
 * `pglite-interrupt.ts`); without one, statements run to their end.
 */
export interface PGliteStatementTimer {
  around<T>(statement: () => Promise<T>): Promise<T>;
}

const UNTIMED: PGliteStatementTimer = { around: (statement) => statement() };

/**
 * A Kysely dialect over embedded PGlite. PGlite has a single session, so the driver hands out
 * one connection at a time: a transaction holds it from BEGIN to COMMIT and every other query
 * waits its turn. That serialization is what makes transactions from concurrent requests safe,
 * and why every statement must end by its time limit: the timer cancels one that would not.
 */
export class PGliteDialect extends PostgresDialect {
  constructor(
    private readonly pglite: PGlite,
    private readonly timer: PGliteStatementTimer = UNTIMED,
  ) {
    super();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.timer);
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly pglite: PGlite,
    private readonly timer: PGliteStatementTimer,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    // Pipelined statements (`pipeline.ts`) run one by one: there is no network to save waits on.
    const statements = pipelinedStatements(compiledQuery);
    if (statements) {
      const answers: QueryResult<unknown>[] = [];
      for (const statement of statements) answers.push(await this.executeQuery(statement));
      return { rows: answers as R[] };
    }
    const result = await this.timer.around(() => this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]));
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && /^\s*(insert|update|delete|merge)/i.test(compiledQuery.sql)
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not support streaming queries; page the query instead');
  }
}

class PGliteDriver extends PostgresSavepoints implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly pglite: PGlite,
    timer: PGliteStatementTimer,
  ) {
    super();
    this.connection = new PGliteConnection(pglite, timer);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  private release: (() => void) | undefined;

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.release = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const mode = transactionMode(settings);
    await connection.executeQuery(CompiledQuery.raw(mode ? `begin transaction ${mode}` : 'begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  releaseConnection(): Promise<void> {
    // A failed query inside a transaction that was never rolled back would poison the single
    // session for every later request; Kysely always rolls back before releasing, so releasing
    // here is enough.
    const release = this.release;
    this.release = undefined;
    release?.();
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    await this.queue;
    if (!this.pglite.closed) await this.pglite.close();
  }
}

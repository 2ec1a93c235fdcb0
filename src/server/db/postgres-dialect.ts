import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type TransactionSettings,
} from 'kysely';

/**
 * What the Postgres dialects (node-postgres in pipeline mode, embedded PGlite) have in common:
 * Kysely's Postgres adapter, query compiler and introspector; each brings only its driver.
 */
export abstract class PostgresDialect implements Dialect {
  abstract createDriver(): Driver;

  createAdapter() {
    return new PostgresAdapter();
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

/** The isolation level and access mode of a transaction as SQL (`isolation level serializable read only`), '' for neither. */
export function transactionMode(settings: TransactionSettings): string {
  return [settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : '', settings.accessMode ?? ''].filter(Boolean).join(' ');
}

/** Savepoints are plain statements on the transaction's connection, for every Postgres driver. */
export abstract class PostgresSavepoints {
  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdentifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdentifier(name)}`));
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

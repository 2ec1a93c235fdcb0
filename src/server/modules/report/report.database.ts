import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { connectPostgres, type Database } from '../../db/database.js';
import type { AppConfig } from '../../config.js';
import type { DB } from '../../db/schema.js';

/** After the replica could not be reached, reports read from the primary this long before it is tried again. */
export const REPLICA_RETRY_MS = 30_000;

/**
 * The connection report queries, exports and dashboards read from: REPORT_DATABASE_URL (a read
 * replica) when set, else the primary (docs/reports.md). The replica is connected at the first
 * report read and closed with the app; on the embedded database the setting is not used. A replica
 * that cannot be reached never fails a report: the read goes to the primary, a warning is logged, and
 * the replica is tried again after REPLICA_RETRY_MS.
 */
export function reportDatabase(app: Pick<FastifyInstance, 'config' | 'database' | 'addHook' | 'log'>): () => Promise<Kysely<DB>> {
  const url = app.config.reportDatabaseUrl;
  if (!url || app.database.kind !== 'postgres') return () => Promise.resolve(app.database.db);
  let opened: Promise<Database> | undefined;
  let failedAt = 0;
  app.addHook('onClose', async () => {
    if (opened) await (await opened.catch(() => undefined))?.close();
  });
  return async () => {
    if (!opened && Date.now() - failedAt < REPLICA_RETRY_MS) return app.database.db;
    opened ??= connectPostgres(url, 5);
    try {
      return (await opened).db;
    } catch (error) {
      opened = undefined;
      failedAt = Date.now();
      app.log.warn({ err: error }, 'the report database (REPORT_DATABASE_URL) cannot be reached: reports read from the primary');
      return app.database.db;
    }
  };
}

/**
 * The report database for work outside a request (a job printing a scheduled report): `work` gets
 * the same choice as `reportDatabase`, connected at its first use and closed when the work ends; a
 * replica that cannot be reached falls back to the primary with a warning.
 */
export async function withReportDatabase<T>(
  config: Pick<AppConfig, 'databaseUrl' | 'reportDatabaseUrl'>,
  primary: Kysely<DB>,
  logger: Pick<FastifyBaseLogger, 'warn'>,
  work: (reportDb: () => Promise<Kysely<DB>>) => Promise<T>,
): Promise<T> {
  const url = config.reportDatabaseUrl;
  if (!url || !config.databaseUrl) return work(() => Promise.resolve(primary));
  let opened: Promise<Database | undefined> | undefined;
  const reportDb = async () => {
    opened ??= connectPostgres(url, 2).catch((error: unknown) => {
      logger.warn({ err: error }, 'the report database (REPORT_DATABASE_URL) cannot be reached: reports read from the primary');
      return undefined;
    });
    return (await opened)?.db ?? primary;
  };
  try {
    return await work(reportDb);
  } finally {
    if (opened) await (await opened)?.close();
  }
}

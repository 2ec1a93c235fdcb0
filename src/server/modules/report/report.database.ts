import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { connectPostgres, type Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';

/**
 * The connection report queries, exports and dashboards read from: REPORT_DATABASE_URL (a read
 * replica) when set, else the primary (docs/reports.md). The replica is connected at the first
 * report read and closed with the app; on the embedded database the setting is not used.
 */
export function reportDatabase(app: Pick<FastifyInstance, 'config' | 'database' | 'addHook'>): () => Promise<Kysely<DB>> {
  const url = app.config.reportDatabaseUrl;
  if (!url || app.database.kind !== 'postgres') return () => Promise.resolve(app.database.db);
  let opened: Promise<Database> | undefined;
  app.addHook('onClose', async () => {
    if (opened) await (await opened.catch(() => undefined))?.close();
  });
  return async () => {
    opened ??= connectPostgres(url, 5);
    try {
      return (await opened).db;
    } catch (error) {
      opened = undefined;
      throw error;
    }
  };
}

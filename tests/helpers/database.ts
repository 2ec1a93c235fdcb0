import crypto from 'node:crypto';
import pg from 'pg';
import { connectPostgres, openPGlite, type Database } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import { MODULES } from '../../src/server/modules/index.js';

/** True when the suite runs against the real PostgreSQL server (TEST_DATABASE_URL is set). */
export const onRealServer = Boolean(process.env.TEST_DATABASE_URL);

export interface TestDatabase extends Database {
  /** A connection string for the same database, for a second session (real server only). */
  url?: string;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the server named by TEST_DATABASE_URL, dropped again on close.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  let database: TestDatabase;
  if (!adminUrl) {
    database = await openPGlite(undefined);
  } else {
    const name = `wms_test_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
    await withAdminClient(adminUrl, (client) => client.query(`create database ${name}`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const inner = await connectPostgres(url.toString(), 5);
    database = {
      ...inner,
      url: url.toString(),
      async close() {
        await inner.close();
        await withAdminClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
      },
    };
  }
  if (options.migrate !== false) await migrateToLatest(database.db, MODULES);
  return database;
}

/** Runs work on a connection to the server's administrative database (real server only). */
export async function withAdminClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

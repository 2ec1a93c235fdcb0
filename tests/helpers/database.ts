import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectPostgres, openPGlite, type Database } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/install/migrate.js';
import { MODULES } from '../../src/server/modules/index.js';
import { currentTemplate, syncAsAtStart, TEST_ADMIN_PASSWORD, type TemplateStage } from './template.js';

/** True when the suite runs against the real PostgreSQL server (TEST_DATABASE_URL is set). */
export const onRealServer = Boolean(process.env.TEST_DATABASE_URL);

export interface TestDatabase extends Database {
  /** A connection string for the same database, for a second session (real server only). */
  url?: string;
}

/**
 * A fresh database for one test file: in-memory PGlite by default, or a new database on the server
 * named by TEST_DATABASE_URL, dropped again on close. It is migrated unless `migrate: false`, and
 * with `ready: true` also synced and seeded as at a first start (the administrator's password is
 * the tests' own). Both come from this run's templates when there are some for this code; the
 * database is then a copy of one and costs a fraction of making it step by step.
 */
export async function createTestDatabase(options: { migrate?: boolean; ready?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const stage: TemplateStage | undefined = options.migrate === false ? undefined : options.ready ? 'ready' : 'migrated';
  const template = stage ? currentTemplate(adminUrl ? 'postgres' : 'pglite')?.stages[stage] : undefined;
  let database: TestDatabase;
  if (!adminUrl) {
    database = await openPGlite(undefined, template ? { loadDataDir: new Blob([fs.readFileSync(template)]) } : {});
  } else {
    database = await createServerDatabase(adminUrl, template);
  }
  if (template) return database;
  if (stage) await migrateToLatest(database.db, MODULES);
  if (stage === 'ready') await syncAsAtStart(database.db, MODULES, TEST_ADMIN_PASSWORD);
  return database;
}

/** Where a test's server makes a first start, as settings for `loadConfig`, and how to remove it. */
export interface FirstStartPlace {
  env: { DATA_DIR: string; DATABASE_URL?: string };
  /** Drops the database or deletes the data directory; call it once the server has stopped. */
  remove(): Promise<void>;
}

/**
 * A place for a first start of the server on the database under test: on the PostgreSQL run a new
 * empty database of that server (DATABASE_URL), so that run starts on PostgreSQL what the embedded
 * run starts on PGlite; on the embedded run an empty data directory (DATA_DIR). Both begin with
 * nothing in them, so the server migrates, syncs and seeds as on its very first start.
 */
export async function firstStartPlace(prefix = 'wms-first-'): Promise<FirstStartPlace> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    return { env: { DATA_DIR: dataDir }, remove: async () => removeDir() };
  }
  const database = await createServerDatabase(adminUrl);
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url },
    async remove() {
      removeDir();
      await database.close();
    },
  };
}

/**
 * The global set-up names each run (this variable); a test database of the run is named
 * `wms_test_<run>_<random>`, so that the run's end can drop every one of them that is left.
 */
export const TEST_RUN_ENV = 'WMS_TEST_RUN';

/** The name prefix of this run's test databases (see TEST_RUN_ENV); a plain prefix outside a run. */
export function runDatabasePrefix(run = process.env[TEST_RUN_ENV]): string {
  return run ? `wms_test_${run}` : 'wms_test';
}

/** Drops of closed test databases that are still under way, per process. */
const pendingDrops = new Set<Promise<void>>();

/**
 * A new database on the server, empty or a copy of `template`, that is dropped on close. Within a
 * run (TEST_RUN_ENV set) close answers once the connections are closed and the drop goes on beside
 * the next test file: dropping a database waits for the server to remove its files and takes
 * seconds, and nothing connects to it again. The run's end drops whatever a worker left behind.
 */
export async function createServerDatabase(adminUrl: string, template?: string, name = uniqueDatabaseName(runDatabasePrefix())): Promise<TestDatabase> {
  await withAdminClient(adminUrl, (client) => client.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const inner = await connectPostgres(url.toString(), 5);
  return {
    ...inner,
    url: url.toString(),
    async close() {
      await inner.close();
      const drop = withAdminClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined);
      if (!process.env[TEST_RUN_ENV]) return drop;
      const pending = drop.catch(() => undefined).finally(() => pendingDrops.delete(pending));
      pendingDrops.add(pending);
    },
  };
}

/** `<prefix>_<time in base 36>_<random>`: unique on a server that several test runs share. */
export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
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

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';
import { PGliteDialect } from './pglite-dialect.js';
import { PipelinedPostgresDialect } from './pg-driver.js';
import { DEFERRED_MARK, isDeferred } from './pipeline.js';
import { openInterruptiblePGlite } from './pglite-interrupt.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** The server's own version line, as `select version()` reports it. */
  version(): Promise<string>;
  close(): Promise<void>;
}

/** Raised when the database cannot be reached or opened; main prints it as one clear line. */
export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError';
}

// Both drivers answer the same JavaScript types: bigint counts and ids as numbers (ids stay far
// below 2^53), dates as 'YYYY-MM-DD' strings (a Date would shift by the server's time zone),
// numeric as strings for decimal.js.
const INT8 = 20;
const DATE = 1082;
pg.types.setTypeParser(INT8, (value: string) => Number(value));
pg.types.setTypeParser(DATE, (value: string) => value);

/**
 * Appended to a statement that runs on every request or every scan (`PREPARED` below): on the
 * PostgreSQL server such a statement is prepared once per connection and its plan reused, instead
 * of being parsed and planned each time (planning the session lookup takes several times as long
 * as running it). Only fixed statement texts may carry it; the embedded database ignores it.
 */
export const PREPARED_MARK = '/* prepared */';
export const PREPARED = sql.raw(PREPARED_MARK);

/** The statement name of a marked text: one name per text, so two texts never share a name. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `wms_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (statementNames.size < 1000) statementNames.set(text, name);
  }
  return name;
}

/** The text without a trailing `DEFERRED` mark (a deferred write may be prepared too: `${PREPARED}${DEFERRED}`). */
function withoutDeferredMark(text: string): string {
  return isDeferred(text) ? text.slice(0, -DEFERRED_MARK.length).trimEnd() : text;
}

/** Sends the marked statements of a pool's clients as named (prepared) statements; the rest as they come. */
function prepareMarkedStatements(client: pg.PoolClient): void {
  type Query = (...args: unknown[]) => unknown;
  // The client class's own query, looked up at each call (so that a wrapper of the class still sees every statement).
  const query: Query = (...args) => (Object.getPrototypeOf(client) as { query: Query }).query.apply(client, args);
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (args.length <= 2 && typeof text === 'string' && withoutDeferredMark(text).endsWith(PREPARED_MARK)) return query({ name: statementName(text), text, values });
    return query(...args);
  };
}

export async function connectPostgres(url: string, poolSize = 10): Promise<Database> {
  // Pipeline mode: a client may send a statement before the one before it is answered (`pg-driver.ts`).
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000, pipeline: true });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor a client that loses it in the middle of a query (a session ended by the server): the query fails with the error.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    prepareMarkedStatements(client);
  });
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseStartError(`cannot connect to DATABASE_URL (${redactUrl(url)}): ${(error as Error).message}`);
  }
  const db = new Kysely<DB>({ dialect: new PipelinedPostgresDialect(pool) });
  return {
    db,
    kind: 'postgres',
    version: () => serverVersion(db),
    close: () => db.destroy(),
  };
}

/**
 * Opens embedded PGlite in `dataDir`, or in memory when `dataDir` is undefined (tests); an
 * in-memory database may start as a copy of a dump made with `dumpDataDir` (`loadDataDir`). Its
 * statements end at their `statement_timeout` as on a PostgreSQL server (`pglite-interrupt.ts`).
 */
export async function openPGlite(dataDir: string | undefined, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  const parsers = { [DATE]: (value: string) => value };
  let opened: Awaited<ReturnType<typeof openInterruptiblePGlite>>;
  if (dataDir === undefined) {
    opened = await openInterruptiblePGlite({ parsers }, options.loadDataDir);
  } else {
    const clusterDir = await ensureClusterDir(dataDir);
    try {
      opened = await openInterruptiblePGlite({ dataDir: clusterDir, parsers });
    } catch (error) {
      throw new DatabaseStartError(`cannot open the embedded database in ${clusterDir}: ${(error as Error).message}`);
    }
  }
  const { pglite, timer } = opened;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite, timer) });
  return {
    db,
    kind: 'pglite',
    version: () => serverVersion(db),
    async close() {
      await db.destroy();
      await timer.close();
    },
  };
}

/**
 * The cluster is created in a scratch folder and renamed into place only when complete, so a
 * process killed during its very first start leaves no half-made cluster behind: the next start
 * throws the scratch folder away and creates it again.
 */
async function ensureClusterDir(dataDir: string): Promise<string> {
  const clusterDir = path.join(dataDir, 'pgdata');
  if (fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) return clusterDir;
  const scratch = path.join(dataDir, 'pgdata.creating');
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true });
  try {
    const fresh = await PGlite.create({ dataDir: scratch });
    await fresh.close();
  } catch (error) {
    throw new DatabaseStartError(`cannot create the embedded database in ${dataDir}: ${(error as Error).message}`);
  }
  fs.rmSync(clusterDir, { recursive: true, force: true });
  fs.renameSync(scratch, clusterDir);
  return clusterDir;
}

async function serverVersion(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ version: string }>`select version() as version`.execute(db);
  return rows[0].version;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable url)';
  }
}

/**
 * Selection through the page engine against a hand-written Kysely query of the same result: a
 * filter, a sort and one page of 50 rows of a 1,000,000-row table (locations), on the real
 * PostgreSQL server, in a fresh database that is dropped afterwards.
 *
 * The engine is measured twice: the whole call `POST /api/generic/selection` (app.inject, signed
 * in: session, rights, resolution, SQL, JSON) and its selection function `selectPage` alone (the
 * SQL the engine builds), each against the hand-written query, interleaved.
 *
 * Environment: BENCH_DATABASE_URL, else DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres (a server URL whose user may create databases);
 * BENCH_ROWS (default 1000000), BENCH_ITERATIONS (default 60), BENCH_KEEP_DB=1 keeps the database.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { loadPageDefinition, type PageDefinition } from '../../engine/schema/index.js';
import { readTableColumns } from '../../engine/server/catalog.js';
import type { EngineSession } from '../../engine/server/engine-session.js';
import { selectPage } from '../../engine/server/page-rows.js';
import { preparePage } from '../../engine/server/prepared-page.js';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { connectPostgres, redactUrl, type Database } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/install/migrate.js';
import type { DB } from '../../src/server/db/schema.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import { syncShippedDefinitions } from '../../src/server/definitions/definition-sync.js';
import type { BenchReport } from './run.js';
import { MODULES } from '../../src/server/modules/index.js';

export const name = 'selection';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 60);
const WARMUP = 5;
const PAGE_SIZE = 50;
const PAGE = 3;
const ADMIN_PASSWORD = 'Bench!Passw0rd1';

// The query of both sides: storage locations of zone Z07, newest code first, rows 101 to 150.
const CONDITIONS = {
  combinator: 'and' as const,
  rules: [
    { field: 'zone', operator: '=' as const, value: 'Z07' },
    { field: 'location_type', operator: '=' as const, value: 'storage' },
  ],
};
const SORT = [{ field: 'code', direction: 'desc' as const }];

interface Sample {
  keys: Array<string | number>;
  total: number;
}

export async function run(): Promise<BenchReport> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `wms_bench_${Date.now().toString(36)}_${crypto.randomBytes(3).toString('hex')}`;
  await admin(serverUrl, `create database ${dbName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  let database: Database | undefined;
  try {
    database = await connectPostgres(url.toString(), 4);
    const db = database.db;
    // As at start: migrations -> definition sync -> seed.
    await migrateToLatest(db, MODULES);
    await syncShippedDefinitions(db);
    await seedFirstStart(db, ADMIN_PASSWORD, MODULES);
    const session = await adminSession(db);

    const fillStarted = performance.now();
    await fillLocations(db, session.warehouseId!, ROWS);
    const fillMs = performance.now() - fillStarted;

    const page = loadLocationPage();
    const http = await httpSide(database, page);
    const direct = await directSide(database, page, session);
    const hand = (): Promise<Sample> => handWritten(db, session.warehouseId!);
    const sides = [...(http ? [http] : []), direct];

    // Every side must answer the same rows in the same order, or the comparison means nothing.
    const expected = await hand();
    for (const side of sides) {
      const got = await side.select();
      if (got.total !== expected.total || JSON.stringify(got.keys) !== JSON.stringify(expected.keys)) {
        throw new Error(`${side.path} differs: ${got.total} ${JSON.stringify(got.keys.slice(0, 3))}, hand-written ${expected.total} ${JSON.stringify(expected.keys.slice(0, 3))}`);
      }
    }
    for (let i = 0; i < WARMUP; i++) {
      for (const side of sides) await side.select();
      await hand();
    }
    const times = new Map<string, number[]>([...sides.map((side) => [side.path, []] as [string, number[]]), ['hand', []]]);
    // Interleaved, so that a slow moment of the machine hits every side alike.
    for (let i = 0; i < ITERATIONS; i++) {
      for (const side of sides) times.get(side.path)!.push(await timed(() => side.select()));
      times.get('hand')!.push(await timed(hand));
    }
    await http?.close();

    const handMs = times.get('hand')!;
    const measured = (side: EngineSide) => {
      const ms = times.get(side.path)!;
      return {
        path: side.path,
        ...stats(ms),
        ratio: { median: round(median(ms) / median(handMs)), p95: round(percentile(ms, 95) / percentile(handMs, 95)) },
      };
    };
    const figures = {
      database: redactUrl(url.toString()),
      serverVersion: await database.version(),
      rows: ROWS,
      fillMilliseconds: Math.round(fillMs),
      matchingRows: expected.total,
      pageSize: PAGE_SIZE,
      page: PAGE,
      conditions: CONDITIONS,
      sort: SORT,
      iterations: ITERATIONS,
      /** The whole call: HTTP, session, rights, resolution, SQL, JSON (absent when the app has no generic API). */
      engineHttp: http ? measured(http) : null,
      /** The engine's selection function alone: the SQL it builds and runs. */
      engineFunction: measured(direct),
      handWritten: { path: 'kysely', ...stats(handMs) },
    };
    const line = (label: string, f: { medianMs: number; p95Ms: number }) => `${label.padEnd(34)} median ${f.medianMs} ms, p95 ${f.p95Ms} ms`;
    return {
      figures,
      summary: [
        `${ROWS.toLocaleString('en')} locations filled in ${(fillMs / 1000).toFixed(1)} s; ${expected.total.toLocaleString('en')} match the filter; page ${PAGE}, ${PAGE_SIZE} rows a page`,
        ...(figures.engineHttp ? [line('engine, POST /api/generic/selection', figures.engineHttp)] : ['engine HTTP route: not available']),
        line('engine, selectPage', figures.engineFunction),
        line('hand-written Kysely', figures.handWritten),
        ...(figures.engineHttp ? [`ratio HTTP / hand-written: median ${figures.engineHttp.ratio.median}, p95 ${figures.engineHttp.ratio.p95}`] : []),
        `ratio selectPage / hand-written: median ${figures.engineFunction.ratio.median}, p95 ${figures.engineFunction.ratio.p95}`,
      ],
    };
  } finally {
    await database?.close();
    if (process.env.BENCH_KEEP_DB !== '1') await admin(serverUrl, `drop database if exists ${dbName} with (force)`);
  }
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function adminSession(db: Kysely<DB>): Promise<EngineSession> {
  const user = await db.selectFrom('app_user').select(['id', 'login_account']).where('login_account', '=', 'admin').executeTakeFirstOrThrow();
  const project = await db.selectFrom('project').select(['id', 'code', 'organization_id']).orderBy('id').executeTakeFirstOrThrow();
  const warehouse = await db.selectFrom('warehouse').select(['id', 'code']).orderBy('id').executeTakeFirstOrThrow();
  return {
    userId: user.id,
    loginAccount: user.login_account,
    language: 'en',
    organizationId: project.organization_id,
    projectId: project.id,
    projectCode: project.code,
    warehouseId: warehouse.id,
    warehouseCode: warehouse.code,
  };
}

/** Racked locations of one warehouse: 20 zones, five location types, codes A0001-01-1 onwards. */
async function fillLocations(db: Kysely<DB>, warehouseId: number, rows: number): Promise<void> {
  const batch = 250_000;
  for (let start = 1; start <= rows; start += batch) {
    const end = Math.min(rows, start + batch - 1);
    await sql`
      insert into location (warehouse_id, code, location_type, zone, aisle, bay, level, pick_seq, max_pallets, created_by, updated_by)
      select ${warehouseId}::bigint,
             'A' || lpad((g / 400)::text, 4, '0') || '-' || lpad(((g / 4) % 100)::text, 2, '0') || '-' || (g % 4 + 1),
             (array['storage', 'storage', 'storage', 'pick', 'stage'])[g % 5 + 1],
             'Z' || lpad((g % 20)::text, 2, '0'),
             lpad((g / 400)::text, 4, '0'), lpad(((g / 4) % 100)::text, 2, '0'), (g % 4 + 1)::text,
             g, 2, 'bench', 'bench'
      from generate_series(${start}::int, ${end}::int) g
    `.execute(db);
  }
  await sql`analyze location`.execute(db);
}

function loadLocationPage(): PageDefinition {
  const file = path.join(ROOT, 'definitions/masterdata/loa.page.json');
  const result = loadPageDefinition(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!result.ok) throw new Error(`definitions/masterdata/loa.page.json is invalid: ${JSON.stringify(result.problems)}`);
  return result.value;
}

interface EngineSide {
  path: string;
  select(): Promise<Sample>;
  close(): Promise<void>;
}

/** Through `POST /api/generic/selection`, signed in as the administrator; undefined when the app cannot answer it. */
async function httpSide(database: Database, page: PageDefinition): Promise<EngineSide | undefined> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_PASSWORD, DEMO_DATA: 'false' });
  const app = await buildApp({ config, database, logger: false, modules: MODULES });
  await app.ready();
  const body = { moduleCode: page.moduleCode, functionCode: page.functionCode, conditions: CONDITIONS, sort: SORT, page: PAGE, pageSize: PAGE_SIZE };
  const login = await app.inject({ method: 'POST', url: '/api/user/login', payload: { loginAccount: 'admin', password: ADMIN_PASSWORD } });
  const token = login.statusCode === 200 ? (JSON.parse(login.body) as { token?: string }).token : undefined;
  const headers = { authorization: `Bearer ${token}` };
  const probe = token ? await app.inject({ method: 'POST', url: '/api/generic/selection', headers, payload: body }) : login;
  if (probe.statusCode !== 200) {
    console.warn(`the generic API cannot be measured (${probe.statusCode} ${probe.body.slice(0, 200)}); measuring selectPage only`);
    await app.close();
    return undefined;
  }
  return {
    path: 'POST /api/generic/selection',
    async select() {
      const response = await app.inject({ method: 'POST', url: '/api/generic/selection', headers, payload: body });
      if (response.statusCode !== 200) throw new Error(`selection answered ${response.statusCode}: ${response.body}`);
      const answer = JSON.parse(response.body) as { rows: Array<{ _key: string | number }>; total: number };
      return { keys: answer.rows.map((r) => r._key), total: answer.total };
    },
    close: () => app.close(),
  };
}

/** The engine's selection function, as the route runs it, without HTTP and session lookup. */
async function directSide(database: Database, page: PageDefinition, session: EngineSession): Promise<EngineSide> {
  const tables = [page.table.name, ...page.fields.flatMap((f) => (f.foreign ? [f.foreign.table] : []))];
  const prepared = preparePage(page, await readTableColumns(database.db, tables));
  return {
    path: 'engine selectPage',
    async select() {
      const { rows, total } = await selectPage(database.db, prepared, session, { conditions: CONDITIONS, sort: SORT, page: PAGE, pageSize: PAGE_SIZE });
      return { keys: rows.map((r) => r._key), total };
    },
    close: async () => undefined,
  };
}

/** The same page written by hand: same columns, same filter, same order (with the key as tie-break), same count. */
async function handWritten(db: Kysely<DB>, warehouseId: number): Promise<Sample> {
  const filtered = db
    .selectFrom('location')
    .where('warehouse_id', '=', warehouseId)
    .where('zone', '=', 'Z07')
    .where('location_type', '=', 'storage');
  const rows = await filtered
    .select([
      'id as _key', 'code', 'description', 'location_type', 'zone', 'aisle', 'bay', 'level', 'position', 'pick_seq',
      'max_volume_cm3', 'max_weight_kg', 'max_pallets', 'mix_sku', 'mix_lot', 'status', 'updated_at', 'updated_by',
      sql<string>`cast(updated_at as text)`.as('_version'),
    ])
    .orderBy('code', 'desc')
    .orderBy('id', 'asc')
    .limit(PAGE_SIZE)
    .offset((PAGE - 1) * PAGE_SIZE)
    .execute();
  const { total } = await filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return { keys: rows.map((r) => r._key), total: Number(total) };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function stats(values: number[]) {
  return {
    medianMs: round(median(values)),
    p95Ms: round(percentile(values, 95)),
    minMs: round(Math.min(...values)),
    maxMs: round(Math.max(...values)),
  };
}

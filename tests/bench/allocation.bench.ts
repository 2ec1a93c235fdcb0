/**
 * Allocation of sales orders under load, on the real
 * PostgreSQL server in a fresh database that is dropped afterwards: BENCH_ALLOCATION_LINES order
 * lines (default 10,000, ten per order) over 2,000 SKUs allocated by 8 concurrent sessions through
 * the outbound service, in two runs on the same stock: ten orders per transaction (a user's
 * Allocate on a selection of orders, a wave release) and one order per transaction
 * (BENCH_ALLOCATION_ORDERS_PER_CALL, a comma list, chooses the runs), in lines per second, printed beside
 * pgbench's TPC-B-like tps with the same 8 clients on the same server in the same run (pgbench
 * must be on the PATH).
 *
 * Environment: BENCH_DATABASE_URL, else DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres; BENCH_SECONDS (pgbench run, default 10).
 */
import { sql } from 'kysely';
import { connectPostgres, type Database } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/install/migrate.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { applyStockChanges, lotFor, type StockChange } from '../../src/server/modules/inventory/inventory.service.js';
import { allocateOrders } from '../../src/server/modules/outbound/outbound.service.js';
import { outboundFixture } from '../helpers/outbound.js';
import { benchServerUrl, freshDatabase, pgbenchTps } from './pg-bench.js';
import type { BenchReport } from './run.js';
import { MODULES } from '../../src/server/modules/index.js';

export const name = 'allocation';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LINES = Number(process.env.BENCH_ALLOCATION_LINES ?? 10_000);
const SKUS = 2_000;
const LINES_PER_ORDER = 10;
const SESSIONS = 8;
/** Orders per transaction, one run each: a selection of orders (as Allocate on /so and a wave release take them) and one by one. */
const MODES = (process.env.BENCH_ALLOCATION_ORDERS_PER_CALL ?? '10,1')
  .split(',')
  .map((v) => Math.max(1, Math.trunc(Number(v)) || 1));

export async function run(): Promise<BenchReport> {
  const serverUrl = benchServerUrl();
  const target = await freshDatabase(serverUrl);
  const pgbenchTarget = await freshDatabase(serverUrl, '_pgbench');
  const url = target.url;
  const sessions: Database[] = [];
  let database: Database | undefined;
  try {
    database = await connectPostgres(url, 2);
    const db = database.db;
    await migrateToLatest(db, MODULES);
    await seedFirstStart(db, 'Bench!Passw0rd1', MODULES);
    const f = await outboundFixture(db, 'B', SKUS, 4);

    // Stock: two lots of every SKU, each in two locations (one a pick face), 100 each.
    const lots = await inTransaction(db, async (trx) => {
      const out = [];
      for (const skuId of f.skuIds) {
        out.push(await lotFor(trx, f.scope, f.ownerId, skuId, { lotNo: 'A', expiryDate: '2031-01-31' }));
        out.push(await lotFor(trx, f.scope, f.ownerId, skuId, { lotNo: 'B', expiryDate: '2031-06-30' }));
      }
      return out;
    });
    await inTransaction(db, (trx) =>
      applyStockChanges(
        trx,
        f.scope,
        lots.flatMap((lot, i): StockChange[] =>
          [0, 1].map((j) => ({
            key: { ownerId: f.ownerId, skuId: lot.sku_id, lotId: lot.id, locationId: f.locationIds[(i + j) % f.locationIds.length] },
            transType: 'receive',
            onHand: 100,
          })),
        ),
      ),
    );

    // Orders: LINES lines, LINES_PER_ORDER per order, over every SKU; one set per mode.
    const makeOrders = async (prefix: string): Promise<number[]> => {
      const orders = Math.ceil(LINES / LINES_PER_ORDER);
      const headerIds: number[] = [];
      for (let start = 0; start < orders; start += 500) {
        const rows = Array.from({ length: Math.min(500, orders - start) }, (_, i) => ({
          project_id: f.scope.projectId,
          warehouse_id: f.scope.warehouseId,
          order_no: `${prefix}-${start + i}`,
          owner_id: f.ownerId,
          ship_to_address_en: 'Bench',
          required_ship_date: '2030-01-01',
        }));
        headerIds.push(...(await db.insertInto('so_header').values(rows).returning('id').execute()).map((r) => r.id));
      }
      let n = 0;
      for (let start = 0; start < headerIds.length; start += 200) {
        const rows = headerIds.slice(start, start + 200).flatMap((soId) =>
          Array.from({ length: LINES_PER_ORDER }, (_, l) => {
            const i = n++;
            return { project_id: f.scope.projectId, warehouse_id: f.scope.warehouseId, so_id: soId, line_no: l + 1, sku_id: f.skuIds[(i * 7) % SKUS], qty: 1 + (i % 5) };
          }),
        );
        await db.insertInto('so_line').values(rows).execute();
      }
      return headerIds;
    };
    const sets = [];
    for (const perCall of MODES) sets.push({ perCall, headerIds: await makeOrders(`B${perCall}`) });
    // A live database has statistics; the allocation's read does not depend on them, the rest may.
    await sql`analyze`.execute(db);

    for (let i = 0; i < SESSIONS; i += 1) sessions.push(await connectPostgres(url, 1));
    const runs = [];
    for (const { perCall, headerIds } of sets) {
      const queue = [...headerIds];
      let short = 0;
      const started = performance.now();
      await Promise.all(
        sessions.map(async (session) => {
          for (let ids = queue.splice(0, perCall); ids.length > 0; ids = queue.splice(0, perCall)) {
            const soIds = ids;
            const result = await inTransaction(session.db, (trx) => allocateOrders(trx, { ...f.scope, operator: 'bench' }, soIds));
            short += result.shortages.length;
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const allocated = await db.selectFrom('so_header').select('id').where('id', 'in', headerIds).where('status', '=', 'allocated').execute();
      runs.push({ ordersPerCall: perCall, orders: headerIds.length, lines: headerIds.length * LINES_PER_ORDER, seconds, linesPerSecond: (headerIds.length * LINES_PER_ORDER) / seconds, allocatedOrders: allocated.length, short });
    }

    const tps = pgbenchTps(pgbenchTarget.url, SESSIONS, SECONDS);
    return {
      summary: [
        ...runs.map(
          (r) =>
            `allocate ${r.lines} order lines (${r.orders} orders, ${r.ordersPerCall} per transaction${r.ordersPerCall > 1 ? ', as Allocate on a selection and wave release do' : ''}) over ${SKUS} SKUs, ${SESSIONS} sessions: ${r.seconds.toFixed(2)} s, ${r.linesPerSecond.toFixed(0)} lines/s (target <= 2 s), lines/s per pgbench tps ${(r.linesPerSecond / tps).toFixed(2)}; ${r.allocatedOrders} orders allocated, ${r.short} lines short`,
        ),
        `pgbench TPC-B-like, ${SESSIONS} clients, ${SECONDS} s: ${tps.toFixed(0)} tps`,
      ],
      figures: { skus: SKUS, sessions: SESSIONS, runs, pgbenchSeconds: SECONDS, pgbenchTps: tps },
    };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await database?.close();
    await target.drop();
    await pgbenchTarget.drop();
  }
}

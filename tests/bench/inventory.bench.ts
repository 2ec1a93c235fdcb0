/**
 * The inventory service under load, on the real PostgreSQL server in a fresh
 * database that is dropped afterwards:
 * - receipt of 10,000 lines in one transaction (10,000 balance keys and ledger rows);
 * - receipt of an ASN of 10,000 lines through the inbound service the receiving screens call
 *   (lots, stock, receipt lines, putaway tasks with their suggested locations, ASN status);
 * - a mixed workload of 8 sessions (receipts, moves, adjustments, holds, allocations, picks) for
 *   BENCH_SECONDS, in operations per second, printed beside pgbench's TPC-B-like tps with the same
 *   8 clients on the same server in the same run (pgbench must be on the PATH).
 *
 * Environment: BENCH_DATABASE_URL, else DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres; BENCH_SECONDS (default 20), BENCH_LINES (10000).
 */
import { AppError } from '../../src/common/errors.js';
import { connectPostgres, type Database } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/install/migrate.js';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { receiveAsnLines } from '../../src/server/modules/inbound/receiving.service.js';
import {
  adjustStock,
  allocateStock,
  applyStockChanges,
  holdStock,
  lotFor,
  moveStock,
  pickStock,
  receiveStock,
  type BalanceKey,
  type StockScope,
} from '../../src/server/modules/inventory/inventory.service.js';
import { benchServerUrl, freshDatabase, pgbenchTps } from './pg-bench.js';
import type { BenchReport } from './run.js';
import { MODULES } from '../../src/server/modules/index.js';

export const name = 'inventory';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const LINES = Number(process.env.BENCH_LINES ?? 10_000);
const SESSIONS = 8;

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
    await loadDemoData(db, MODULES);
    const project = await db.selectFrom('project').select('id').orderBy('id').executeTakeFirstOrThrow();
    const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
    const scope: StockScope = { projectId: project.id, warehouseId: warehouse.id, operator: 'bench' };
    const skus = await db.selectFrom('sku').select(['id', 'owner_id']).orderBy('id').execute();
    const locations = (await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id).where('location_type', 'in', ['storage', 'pick']).orderBy('id').execute()).map((r) => r.id);

    // 1. Receipt of LINES lines in one transaction.
    const lots = await inTransaction(db, async (trx) => Promise.all(skus.map((s) => lotFor(trx, scope, s.owner_id, s.id, { udf1: 'bench' }))));
    const receiveStarted = performance.now();
    await inTransaction(db, (trx) =>
      applyStockChanges(
        trx,
        scope,
        Array.from({ length: LINES }, (_, i) => {
          const lot = lots[i % lots.length];
          return {
            key: { ownerId: lot.owner_id, skuId: lot.sku_id, lotId: lot.id, locationId: locations[Math.floor(i / lots.length) % locations.length] },
            transType: 'receive' as const,
            onHand: 100,
            reference: { type: 'asn', orderNo: 'BENCH', line: i + 1 },
          };
        }),
      ),
    );
    const receiveMs = performance.now() - receiveStarted;

    // 1b. An ASN of LINES lines received at the dock through the inbound service, in one receipt.
    const owner = await db.selectFrom('owner').select('id').where('project_id', '=', project.id).orderBy('id').executeTakeFirstOrThrow();
    const ownerSkus = skus.filter((s) => s.owner_id === owner.id);
    const dock = await db.selectFrom('location').select('code').where('warehouse_id', '=', warehouse.id).where('location_type', '=', 'dock').orderBy('id').executeTakeFirstOrThrow();
    const asn = await db
      .insertInto('asn')
      .values({ project_id: project.id, warehouse_id: warehouse.id, owner_id: owner.id, remark: 'bench', created_by: 'bench', updated_by: 'bench' })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    const asnLineIds: number[] = [];
    for (let from = 0; from < LINES; from += 1000) {
      const rows = await db
        .insertInto('asn_line')
        .values(
          Array.from({ length: Math.min(1000, LINES - from) }, (_, k) => {
            const i = from + k;
            return { project_id: project.id, asn_id: asn.id, line_no: i + 1, sku_id: ownerSkus[i % ownerSkus.length].id, expected_qty: '12', lot_no: `BL${i % 7}`, created_by: 'bench', updated_by: 'bench' };
          }),
        )
        .returning('id')
        .execute();
      asnLineIds.push(...rows.map((r) => r.id));
    }
    const actor = { projectId: project.id, warehouseId: warehouse.id, login: 'bench' };
    const asnStarted = performance.now();
    const asnResult = await inTransaction(db, (trx) =>
      receiveAsnLines(
        trx,
        actor,
        asn.id,
        asnLineIds.map((asnLineId, i) => ({ asnLineId, qty: i % 10 === 0 ? 6 : 12, holdQty: i % 50 === 0 ? 1 : 0, locationCode: dock.code })),
        'batch',
      ),
    );
    const asnMs = performance.now() - asnStarted;

    // 2. Mixed workload, 8 sessions.
    for (let i = 0; i < SESSIONS; i += 1) sessions.push(await connectPostgres(url, 1));
    const keys: BalanceKey[] = lots.slice(0, 50).flatMap((lot) => locations.slice(0, 10).map((locationId) => ({ ownerId: lot.owner_id, skuId: lot.sku_id, lotId: lot.id, locationId })));
    let done = 0;
    let refused = 0;
    const random = (n: number) => Math.floor(Math.random() * n);
    const deadline = Date.now() + SECONDS * 1000;
    const mixedStarted = performance.now();
    await Promise.all(
      sessions.map(async (session) => {
        while (Date.now() < deadline) {
          const key = keys[random(keys.length)];
          const toLocationId = locations[random(10)];
          const qty = 1 + random(5);
          const op = random(6);
          try {
            await inTransaction(session.db, async (trx) => {
              if (op === 0) await receiveStock(trx, scope, { key, qty });
              else if (op === 1) await moveStock(trx, scope, { from: key, toLocationId, qty });
              else if (op === 2) await adjustStock(trx, scope, { key, qty: random(2) ? qty : -qty });
              else if (op === 3) await holdStock(trx, scope, { key, qty: random(2) ? qty : -qty });
              else if (op === 4) await allocateStock(trx, scope, { key, qty });
              else await pickStock(trx, scope, { from: key, toLocationId, qty });
            });
            done += 1;
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            refused += 1;
          }
        }
      }),
    );
    const mixedSeconds = (performance.now() - mixedStarted) / 1000;
    const opsPerSecond = (done + refused) / mixedSeconds;

    // 3. pgbench TPC-B-like on the same server, same clients.
    const tps = pgbenchTps(pgbenchTarget.url, SESSIONS, SECONDS);

    return {
      summary: [
        `receive ${LINES} lines in one transaction: ${(receiveMs / 1000).toFixed(2)} s (target <= 5 s)`,
        `receive an ASN of ${LINES} lines through the inbound service: ${(asnMs / 1000).toFixed(2)} s, ${(LINES / (asnMs / 1000)).toFixed(0)} lines/s, ASN ${asnResult.status}, ${asnResult.putawayTaskIds.length} putaway tasks (target <= 5 s)`,
        `mixed workload, ${SESSIONS} sessions, ${SECONDS} s: ${opsPerSecond.toFixed(0)} operations/s (${done} applied, ${refused} refused as not enough stock)`,
        `pgbench TPC-B-like, ${SESSIONS} clients, ${SECONDS} s: ${tps.toFixed(0)} tps; ratio ${(opsPerSecond / tps).toFixed(2)} (target >= 0.3)`,
      ],
      figures: { lines: LINES, receiveMs, asnReceiveMs: asnMs, asnLinesPerSecond: LINES / (asnMs / 1000), seconds: SECONDS, sessions: SESSIONS, done, refused, opsPerSecond, pgbenchTps: tps, ratio: opsPerSecond / tps },
    };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await database?.close();
    await target.drop();
    await pgbenchTarget.drop();
  }
}

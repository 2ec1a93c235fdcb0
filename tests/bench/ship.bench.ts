/**
 * Ship confirm of a large load on the real PostgreSQL server, in a fresh database dropped
 * afterwards: the server is started as in production, BENCH_SHIP_ORDERS orders (default 100) are
 * picked and packed through the API into BENCH_SHIP_CARTONS cartons each (default 10, so 1,000
 * closed cartons), the cartons' SSCCs are loaded onto one load with one SSCC file
 * (`/loading/importSscc`), and the load is shipped with one `POST /api/loading/shipConfirm`: one
 * transaction moving every carton's stock out of the warehouse and shipping every order. Printed:
 * the time of the ship confirm (and of the import) beside pgbench's TPC-B-like tps with one client
 * on the same server in the same run (pgbench must be on the PATH).
 *
 * Environment: BENCH_DATABASE_URL, else DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres; BENCH_SECONDS (pgbench run, default 10);
 * BENCH_SHIP_PARALLEL (orders packed at once while setting up, default 8).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/server/config.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { lotFor, receiveStock } from '../../src/server/modules/inventory/inventory.service.js';
import { startServer } from '../../src/server/start.js';
import { outboundFixture } from '../helpers/outbound.js';
import { benchServerUrl, freshDatabase, pgbenchTps } from './pg-bench.js';
import type { BenchReport } from './run.js';

export const name = 'ship';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ORDERS = Number(process.env.BENCH_SHIP_ORDERS ?? 100);
const CARTONS = Number(process.env.BENCH_SHIP_CARTONS ?? 10);
const PARALLEL = Number(process.env.BENCH_SHIP_PARALLEL ?? 8);
const PASSWORD = 'Bench!Passw0rd1';

export async function run(): Promise<BenchReport> {
  const serverUrl = benchServerUrl();
  const target = await freshDatabase(serverUrl);
  const pgbenchTarget = await freshDatabase(serverUrl, '_pgbench');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-ship-bench-'));
  const server = await startServer(
    loadConfig({ DATABASE_URL: target.url, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ADMIN_PASSWORD: PASSWORD, DEMO_DATA: 'false', JOB_SCHEDULER: 'false' }),
  );
  try {
    const base = server.url.replace(/\/$/, '');
    const db = server.database.db;
    const send = async <T>(url: string, body: BodyInit, headers: Record<string, string>, token?: string): Promise<T> => {
      const response = await fetch(`${base}/api${url}`, { method: 'POST', headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) }, body });
      const text = await response.text();
      if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 500)}`);
      return JSON.parse(text) as T;
    };
    const call = <T>(url: string, body: unknown, token?: string) => send<T>(url, JSON.stringify(body), { 'content-type': 'application/json' }, token);
    const token = (await call<{ token: string }>('/user/login', { loginAccount: 'admin', password: PASSWORD })).token;

    // Each order: one line of its own SKU, picked onto a tote, packed one unit a carton.
    const f = await outboundFixture(db, 'SB', ORDERS, 2);
    const skus = await db.selectFrom('sku').select(['id', 'code']).where('id', 'in', f.skuIds).orderBy('id').execute();
    await inTransaction(db, async (trx) => {
      for (const sku of skus) {
        const lot = await lotFor(trx, f.scope, f.ownerId, sku.id, {});
        await receiveStock(trx, f.scope, { key: { ownerId: f.ownerId, skuId: sku.id, lotId: lot.id, locationId: f.locationIds[0] }, qty: CARTONS, reference: { type: 'bench', orderNo: 'RCV' } });
      }
    });
    const ssccs: string[] = [];
    const setupStarted = performance.now();
    const packOrder = async (i: number) => {
      const sku = skus[i];
      const added = await call<{ row: { _key: number } }>(
        '/generic/adding',
        { moduleCode: 'outbound', functionCode: 'so', record: { order_no: `SB-${i}`, owner_id: f.ownerId, ship_to_address_en: '1 Bench Road', required_ship_date: '2030-01-31' } },
        token,
      );
      const soId = added.row._key;
      await call('/so/save/soDetail', { soId, lines: [{ skuCode: sku.code, qty: CARTONS }] }, token);
      await call('/so/header/allocation', { soIds: [soId] }, token);
      await call('/so/pick', { soId }, token);
      const tasks = await db.selectFrom('pick_task as t').innerJoin('location as l', 'l.id', 't.location_id').select(['t.id', 't.qty', 'l.code']).where('t.so_id', '=', soId).where('t.status', '=', 'open').execute();
      for (const task of tasks) await call('/pick/confirm', { taskId: task.id, locationCode: task.code, sku: sku.code, qty: String(task.qty), toLpn: `TOTE-SB-${i}` }, token);
      for (let c = 0; c < CARTONS; c += 1) {
        const opened = await call<{ openCarton: { id: number } }>('/pack/scan/open', { soId }, token);
        await call('/pack/scan/sku', { cartonId: opened.openCarton.id, barcode: sku.code }, token);
        await call('/pack/scan/close', { cartonId: opened.openCarton.id, grossWeight: 1, netWeight: 1, weightUom: 'KG' }, token);
      }
      const packed = await call<{ cartons: Array<{ sscc: string }> }>('/scanPack/closeOrder', { soId }, token);
      ssccs.push(...packed.cartons.map((c) => c.sscc));
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL, ORDERS) }, async () => {
        while (next < ORDERS) await packOrder(next++);
      }),
    );
    const setupSeconds = (performance.now() - setupStarted) / 1000;

    const load = await call<{ id: number; loadNo: string }>('/loading/create', { containerNo: 'BENCH0000001', vessel: 'Bench' }, token);
    const form = new FormData();
    form.append('loadId', String(load.id));
    form.append('file', new Blob([`SSCC\n${ssccs.join('\n')}\n`], { type: 'text/csv' }), 'sscc.csv');
    const importStarted = performance.now();
    const imported = await send<{ rows: number; load: { loadedCartonQty: number } }>('/loading/importSscc', form, {}, token);
    const importMs = performance.now() - importStarted;

    const shipStarted = performance.now();
    const shipped = await call<{ orders: Array<{ status: string }> }>('/loading/shipConfirm', { loadId: load.id }, token);
    const shipMs = performance.now() - shipStarted;
    const ledgerRows = await db.selectFrom('inventory_transaction').select((eb) => eb.fn.countAll<string>().as('n')).where('order_no', '=', load.loadNo).executeTakeFirstOrThrow();
    const figures = {
      orders: ORDERS,
      cartonsPerOrder: CARTONS,
      cartonsLoaded: imported.load.loadedCartonQty,
      ordersShipped: shipped.orders.filter((o) => o.status === 'shipped').length,
      ledgerRows: Number(ledgerRows.n),
      setupSeconds,
      importMs,
      shipConfirmMs: shipMs,
    };
    const tps = pgbenchTps(pgbenchTarget.url, 1, SECONDS);
    return {
      summary: [
        `ship confirm, HTTP POST /api/loading/shipConfirm of one load of ${figures.cartonsLoaded} cartons (${ORDERS} orders x ${CARTONS} cartons, ${figures.ledgerRows} ledger rows, ${figures.ordersShipped} orders shipped) in one transaction: ${shipMs.toFixed(0)} ms`,
        `loading the ${imported.rows} SSCCs with one file, POST /api/loading/importSscc: ${importMs.toFixed(0)} ms (setup: picking and packing through the API took ${setupSeconds.toFixed(1)} s)`,
        `pgbench TPC-B-like, 1 client, ${SECONDS} s: ${tps.toFixed(0)} tps (ship confirm = ${((shipMs / 1000) * tps).toFixed(0)} pgbench transactions of time)`,
      ],
      figures: { ...figures, pgbenchSeconds: SECONDS, pgbenchClients: 1, pgbenchTps: tps },
    };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await target.drop();
    await pgbenchTarget.drop();
  }
}

/**
 * The scan round trip of scan and pack on the real PostgreSQL server, in a fresh database dropped
 * afterwards: the server is started as in production (its own connection pool, listening on a
 * port) and BENCH_PACK_SCANNERS concurrent scanners (default 20) each pack their own picked order,
 * one HTTP `POST /api/pack/scan/sku` per unit (BENCH_PACK_SCANS each, default 40), as a handheld
 * does. Printed: the latency of a scan from request to answer (p50, p95, p99, max) and scans per
 * second, beside pgbench's TPC-B-like tps with as many clients on the same server in the same run
 * (pgbench must be on the PATH).
 *
 * Each scanner has an order of its own (one packer per order, as on a real packing bench), so no
 * two scanners wait on the same order's lock. A scanner scans again as soon as the last scan is
 * answered, after a pause of about BENCH_PACK_PAUSE_MS (default 1000, a fast packer's scan a second;
 * drawn between half and one and a half times it, scanners not in step). With BENCH_PACK_PAUSE_MS=0
 * the bench measures the server saturated instead: without a pause every scanner is always waiting
 * on the server, so a scan's latency is about scanners / scans per second of the whole server.
 *
 * The scanners are HTTP clients on a thread of their own (as handhelds are other machines, their
 * requests and answers do not take the server's event loop). Each first scans BENCH_PACK_WARMUP
 * units (default 5), not measured (connections opened, code compiled, the server's carton orders
 * seen), then all measured scans start together. Also printed: the statements the server sends
 * the database per scan (counted at the driver, begin and commit included), the round trips they
 * take (statements sent together, pipelined, count once) and the CPU time of
 * this process (server and scanner thread) per scan; BENCH_PACK_SHOW_SQL=1 prints each statement with its mean time,
 * BENCH_PACK_PROFILE=<file> writes a CPU profile of the server's process over the measured scans.
 *
 * Environment: BENCH_DATABASE_URL, else DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres; BENCH_SECONDS (pgbench run, default 10).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { loadConfig } from '../../src/server/config.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { lotFor, receiveStock } from '../../src/server/modules/inventory/inventory.service.js';
import { startServer } from '../../src/server/start.js';
import { outboundFixture } from '../helpers/outbound.js';
import { benchServerUrl, freshDatabase, pgbenchTps } from './pg-bench.js';
import type { BenchReport } from './run.js';

export const name = 'pack';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SCANNERS = Number(process.env.BENCH_PACK_SCANNERS ?? 20);
const SCANS = Number(process.env.BENCH_PACK_SCANS ?? 40);
const PAUSE_MS = Number(process.env.BENCH_PACK_PAUSE_MS ?? 1000);
const WARMUP = Number(process.env.BENCH_PACK_WARMUP ?? 5);

/**
 * The scanners, on a thread of their own: the warm-up scans, then (on 'go') the measured scans,
 * answering each scan's latency in ms and the seconds of the measured scans.
 */
const SCANNER_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, token, cartons, scans, warmup, pauseMs } = workerData;
const scan = async (cartonId, barcode) => {
  const response = await fetch(base + '/api/pack/scan/sku', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
    body: JSON.stringify({ cartonId, barcode }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error('/pack/scan/sku answered ' + response.status + ': ' + text);
};
// A scanner's pause is drawn between half and one and a half times BENCH_PACK_PAUSE_MS, and each
// scanner starts at a random point within one pause: people at packing benches do not scan in step.
const pause = () => new Promise((resolve) => setTimeout(resolve, pauseMs * (0.5 + Math.random())));
const pass = (count, latencies) => Promise.all(cartons.map(async ({ cartonId, skuCode }) => {
  if (latencies && pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs * Math.random()));
  for (let s = 0; s < count; s += 1) {
    const t0 = performance.now();
    await scan(cartonId, skuCode);
    if (latencies) latencies.push(performance.now() - t0);
    if (pauseMs > 0) await pause();
  }
}));
(async () => {
  await pass(warmup);
  parentPort.postMessage({ warm: true });
  await new Promise((resolve) => parentPort.once('message', resolve));
  const latencies = [];
  const started = performance.now();
  await pass(scans, latencies);
  parentPort.postMessage({ latencies, seconds: (performance.now() - started) / 1000 });
})().catch((error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
`;
const PASSWORD = 'Bench!Passw0rd1';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Counts the queries every pg client of this process sends until `stop` (the server under test runs
 * in this process), and the round trips among them: a statement sent while its client waits for no
 * other answer starts one; one sent behind another (pipelined) does not. With `show`, keeps the
 * text of the statements with their mean time from sending to answer.
 */
function countStatements(show: boolean): { stop: () => { count: number; roundTrips: number; shown: string[] } } {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let count = 0;
  let roundTrips = 0;
  const inFlight = new WeakMap<object, number>();
  const timed = new Map<string, { n: number; ms: number }>();
  proto.query = function (this: object, ...args: unknown[]) {
    count += 1;
    const waiting = inFlight.get(this) ?? 0;
    if (waiting === 0) roundTrips += 1;
    inFlight.set(this, waiting + 1);
    const result = original.apply(this, args);
    if (result instanceof Promise) {
      const answered = () => inFlight.set(this, Math.max(0, (inFlight.get(this) ?? 1) - 1));
      result.then(answered, answered);
    } else inFlight.set(this, waiting);
    if (show && result instanceof Promise) {
      const first = args[0] as string | { text?: string };
      const text = (typeof first === 'string' ? first : (first?.text ?? '')).replace(/\s+/g, ' ').trim().slice(0, 90);
      const t0 = performance.now();
      const done = () => {
        const entry = timed.get(text) ?? { n: 0, ms: 0 };
        entry.n += 1;
        entry.ms += performance.now() - t0;
        timed.set(text, entry);
      };
      result.then(done, done);
    }
    return result;
  };
  return {
    stop: () => {
      proto.query = original;
      const shown = [...timed.entries()].map(([text, { n, ms }]) => `  ${n} x ${(ms / n).toFixed(2)} ms: ${text}`);
      return { count, roundTrips, shown };
    },
  };
}

export async function run(): Promise<BenchReport> {
  const serverUrl = benchServerUrl();
  const target = await freshDatabase(serverUrl);
  const pgbenchTarget = await freshDatabase(serverUrl, '_pgbench');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-pack-bench-'));
  const server = await startServer(
    loadConfig({ DATABASE_URL: target.url, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ADMIN_PASSWORD: PASSWORD, DEMO_DATA: 'false', JOB_SCHEDULER: 'false' }),
  );
  try {
    const base = server.url.replace(/\/$/, '');
    const db = server.database.db;
    const call = async <T>(url: string, body: unknown, token?: string): Promise<T> => {
      const response = await fetch(`${base}/api${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text}`);
      return JSON.parse(text) as T;
    };
    const token = (await call<{ token: string }>('/user/login', { loginAccount: 'admin', password: PASSWORD })).token;

    // Each scanner's order: one line of its own SKU, picked in full onto a tote, with a carton open.
    const f = await outboundFixture(db, 'PB', SCANNERS, 2);
    const skus = await db.selectFrom('sku').select(['id', 'code']).where('id', 'in', f.skuIds).orderBy('id').execute();
    await inTransaction(db, async (trx) => {
      for (const sku of skus) {
        const lot = await lotFor(trx, f.scope, f.ownerId, sku.id, {});
        await receiveStock(trx, f.scope, { key: { ownerId: f.ownerId, skuId: sku.id, lotId: lot.id, locationId: f.locationIds[0] }, qty: SCANS + WARMUP, reference: { type: 'bench', orderNo: 'RCV' } });
      }
    });
    const cartons: Array<{ cartonId: number; skuCode: string }> = [];
    for (const [i, sku] of skus.entries()) {
      const added = await call<{ row: { _key: number } }>(
        '/generic/adding',
        { moduleCode: 'outbound', functionCode: 'so', record: { order_no: `PB-${i}`, owner_id: f.ownerId, ship_to_address_en: '1 Bench Road', required_ship_date: '2030-01-31' } },
        token,
      );
      const soId = added.row._key;
      await call('/so/save/soDetail', { soId, lines: [{ skuCode: sku.code, qty: SCANS + WARMUP }] }, token);
      await call('/so/header/allocation', { soIds: [soId] }, token);
      await call('/so/pick', { soId }, token);
      const tasks = await db.selectFrom('pick_task as t').innerJoin('location as l', 'l.id', 't.location_id').select(['t.id', 't.qty', 'l.code']).where('t.so_id', '=', soId).where('t.status', '=', 'open').execute();
      for (const task of tasks) await call('/pick/confirm', { taskId: task.id, locationCode: task.code, sku: sku.code, qty: String(task.qty), toLpn: `TOTE-PB-${i}` }, token);
      const opened = await call<{ openCarton: { id: number } }>('/pack/scan/open', { soId }, token);
      cartons.push({ cartonId: opened.openCarton.id, skuCode: sku.code });
    }

    const scanners = new Worker(SCANNER_THREAD, { eval: true, workerData: { base, token, cartons, scans: SCANS, warmup: WARMUP, pauseMs: PAUSE_MS } });
    const answer = () =>
      new Promise<{ warm?: boolean; latencies?: number[]; seconds?: number; error?: string }>((resolve, reject) => {
        scanners.once('message', resolve);
        scanners.once('error', reject);
      });
    const warm = await answer();
    if (warm.error) throw new Error(warm.error);

    // Every statement the server sends while the scanners scan (begin and commit included) is
    // counted at the driver, and the round trips among them (statements sent together count once).
    const counter = countStatements(process.env.BENCH_PACK_SHOW_SQL === '1');
    const profile = process.env.BENCH_PACK_PROFILE ? new Session() : undefined;
    if (profile) {
      profile.connect();
      await profile.post('Profiler.enable');
      await profile.post('Profiler.start');
    }
    const cpuBefore = process.cpuUsage();
    const measured = answer();
    scanners.postMessage('go');
    const done = await measured;
    const cpu = process.cpuUsage(cpuBefore);
    const statements = counter.stop();
    if (profile) {
      const { profile: taken } = await profile.post('Profiler.stop');
      fs.writeFileSync(process.env.BENCH_PACK_PROFILE!, JSON.stringify(taken));
      profile.disconnect();
    }
    await scanners.terminate();
    if (done.error || !done.latencies || done.seconds === undefined) throw new Error(done.error ?? 'the scanners answered nothing');
    const latencies = done.latencies;
    const seconds = done.seconds;
    const orders = new Set((await db.selectFrom('carton').select('so_id').where('id', 'in', cartons.map((c) => c.cartonId)).execute()).map((r) => Number(r.so_id)));
    const packed = await db.selectFrom('carton_line').select((eb) => eb.fn.sum<string>('qty').as('qty')).executeTakeFirstOrThrow();
    latencies.sort((a, b) => a - b);
    const figures = {
      scanners: SCANNERS,
      scansPerScanner: SCANS,
      warmupScansPerScanner: WARMUP,
      ordersPacked: orders.size,
      pauseMs: PAUSE_MS,
      scans: latencies.length,
      seconds,
      scansPerSecond: latencies.length / seconds,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies.at(-1) ?? 0,
      unitsPacked: Number(packed.qty),
      statementsPerScan: statements.count / Math.max(1, latencies.length),
      roundTripsPerScan: statements.roundTrips / Math.max(1, latencies.length),
      processCpuMsPerScan: (cpu.user + cpu.system) / 1000 / Math.max(1, latencies.length),
    };

    const tps = pgbenchTps(pgbenchTarget.url, SCANNERS, SECONDS);
    return {
      summary: [
        `scan and pack, HTTP POST /api/pack/scan/sku, ${SCANNERS} concurrent scanners x ${SCANS} scans (after ${WARMUP} not measured), each scanner packing its own order (${orders.size} orders)${PAUSE_MS > 0 ? `, ${PAUSE_MS / 2} to ${(PAUSE_MS * 3) / 2} ms between a scanner's scans, scanners not in step` : ', no pause between scans'} (${figures.scans} scans measured, ${figures.unitsPacked} units packed): p50 ${figures.p50Ms.toFixed(1)} ms, p95 ${figures.p95Ms.toFixed(1)} ms, p99 ${figures.p99Ms.toFixed(1)} ms (target <= 25 ms), max ${figures.maxMs.toFixed(1)} ms; ${figures.scansPerSecond.toFixed(0)} scans/s in ${seconds.toFixed(2)} s; ${figures.statementsPerScan.toFixed(1)} statements per scan (begin and commit included) in ${figures.roundTripsPerScan.toFixed(1)} round trips; CPU of this process (server and scanner thread) ${figures.processCpuMsPerScan.toFixed(2)} ms per scan`,
        ...statements.shown,
        `pgbench TPC-B-like, ${SCANNERS} clients, ${SECONDS} s: ${tps.toFixed(0)} tps (scans/s per pgbench tps ${(figures.scansPerSecond / tps).toFixed(3)})`,
      ],
      figures: { ...figures, pgbenchSeconds: SECONDS, pgbenchClients: SCANNERS, pgbenchTps: tps },
    };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await target.drop();
    await pgbenchTarget.drop();
  }
}

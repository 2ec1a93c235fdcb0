/**
 * A billing run over a year of one customer on the real PostgreSQL server, in a fresh database
 * dropped afterwards (docs/billing.md): BENCH_BILLING_ROWS ledger rows (default 1,000,000, half
 * receipts and half shipments of 20 SKUs, one order per three rows) and 365 days of storage
 * snapshots, written set-based (INSERT ... SELECT generate_series); a contract charging per unit,
 * carton, order, line, kg and cubic metre on them, per pallet-day on the snapshots, a fixed fee and
 * a minimum charge. Printed: the time of one `POST /api/billing/run` over the year (target 10 s)
 * and of the setup.
 *
 * Environment: BENCH_DATABASE_URL, else DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../src/server/config.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { lotFor, receiveStock } from '../../src/server/modules/inventory/inventory.service.js';
import { startServer } from '../../src/server/start.js';
import { outboundFixture } from '../helpers/outbound.js';
import { benchServerUrl, freshDatabase } from './pg-bench.js';
import type { BenchReport } from './run.js';

export const name = 'billing';

const ROWS = Number(process.env.BENCH_BILLING_ROWS ?? 1_000_000);
const SKUS = 20;
const DAYS = 365;
const PASSWORD = 'Bench!Passw0rd1';
const FROM = '2025-01-01';
const TO = '2025-12-31';

export async function run(): Promise<BenchReport> {
  const serverUrl = benchServerUrl();
  const target = await freshDatabase(serverUrl);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-billing-bench-'));
  const server = await startServer(
    loadConfig({ DATABASE_URL: target.url, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ADMIN_PASSWORD: PASSWORD, DEMO_DATA: 'false', JOB_SCHEDULER: 'false' }),
  );
  try {
    const base = server.url.replace(/\/$/, '');
    const db = server.database.db;
    const call = async <T>(url: string, body: unknown, token?: string): Promise<T> => {
      const response = await fetch(`${base}/api${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
      const text = await response.text();
      if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 500)}`);
      return JSON.parse(text) as T;
    };
    const token = (await call<{ token: string }>('/user/login', { loginAccount: 'admin', password: PASSWORD })).token;

    const setupStarted = performance.now();
    const f = await outboundFixture(db, 'BILL', SKUS, 2);
    await db.updateTable('sku').set({ case_qty: '12', pallet_cases: '40', volume_cm3: '2500', gross_weight_kg: '1.2' }).where('id', 'in', f.skuIds).execute();
    // One balance row per SKU, the template of the generated ledger rows.
    await inTransaction(db, async (trx) => {
      for (const skuId of f.skuIds) {
        const lot = await lotFor(trx, f.scope, f.ownerId, skuId, {});
        await receiveStock(trx, f.scope, { key: { ownerId: f.ownerId, skuId, lotId: lot.id, locationId: f.locationIds[1] }, qty: 1_000_000, reference: { type: 'bench', orderNo: 'OPEN' } });
      }
    });
    const columns = (
      await sql<{ column_name: string }>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'inventory_transaction' and column_name <> 'id' and is_generated = 'NEVER' order by ordinal_position`.execute(db)
    ).rows.map((r) => r.column_name);
    const overridden: Record<string, string> = {
      trans_type: `case when g % 2 = 0 then 'receive' else 'ship' end`,
      trans_time: `${sql.lit(FROM).compile(db).sql}::timestamptz + ((g % ${DAYS}) * interval '1 day') + ((g % 86000) * interval '1 second')`,
      reference_type: `case when g % 2 = 0 then 'asn' else 'so' end`,
      order_no: `'B' || (g / 3)`,
      reference_line: `(g % 3) + 1`,
      qty: `case when g % 2 = 0 then 1 + g % 24 else -(1 + g % 24) end`,
    };
    const select = columns.map((c) => overridden[c] ?? `t.${c}`).join(', ');
    const ledgerStarted = performance.now();
    await sql
      .raw(
        `insert into inventory_transaction (${columns.join(', ')})
         select ${select}
         from generate_series(0, ${ROWS - 1}) g
         join (select *, row_number() over (order by id) - 1 as k from inventory_transaction where owner_id = ${f.ownerId}) t on t.k = g % ${SKUS}`,
      )
      .execute(db);
    const ledgerMs = performance.now() - ledgerStarted;
    await sql
      .raw(
        `insert into storage_snapshot (snapshot_date, project_id, warehouse_id, owner_id, sku_id, location_type, on_hand_qty, location_count, lpn_count, pallet_count, cbm, weight_kg, taken_by)
         select date '${FROM}' + d, ${f.scope.projectId}, ${f.scope.warehouseId}, ${f.ownerId}, s.id, 'storage', 500 + d, 1, 0, 2, (500 + d) * 0.0025, (500 + d) * 1.2, 'bench'
         from generate_series(0, ${DAYS - 1}) d cross join sku s where s.owner_id = ${f.ownerId}`,
      )
      .execute(db);
    await sql`analyze inventory_transaction`.execute(db);
    await sql`analyze storage_snapshot`.execute(db);

    const audit = { created_by: 'bench', updated_by: 'bench' };
    await db.insertInto('currency').values({ code: 'USD', description: 'USD', decimals: 2, ...audit }).onConflict((oc) => oc.column('code').doNothing()).execute();
    const contract = await db
      .insertInto('billing_contract')
      .values({ project_id: f.scope.projectId, contract_no: 'BENCH', owner_id: f.ownerId, currency_code: 'USD', valid_from: FROM, ...audit })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tariffs: Array<[string, string, string, string, string]> = [
      ['INB', 'inbound', 'per_unit', 'received_qty', '0.05'],
      ['INBC', 'inbound', 'per_carton', 'received_qty', '0.4'],
      ['OUT', 'outbound', 'per_unit', 'shipped_qty', '0.06'],
      ['OUTO', 'outbound', 'per_order', 'shipped_qty', '1.5'],
      ['VAS', 'vas', 'per_line', 'shipped_qty', '0.2'],
      ['KG', 'outbound', 'per_kg', 'shipped_qty', '0.01'],
      ['CBM', 'inbound', 'per_cbm', 'received_qty', '3'],
      ['STO', 'storage', 'per_pallet_day', 'on_hand_snapshot', '0.85'],
      ['FIX', 'fixed', 'fixed', 'none', '100'],
      ['MIN', 'minimum', 'fixed', 'none', '500'],
    ];
    for (const [i, [code, type, method, billBase, rate]] of tariffs.entries()) {
      const charge = await db.insertInto('charge_code').values({ project_id: f.scope.projectId, code, description: code, charge_type: type as never, account_code: '4000', ...audit }).returning('id').executeTakeFirstOrThrow();
      await db
        .insertInto('billing_tariff')
        .values({ project_id: f.scope.projectId, contract_id: contract.id, line_no: i + 1, charge_code_id: charge.id, charge_method: method as never, bill_base: billBase as never, rate, valid_from: FROM, ...audit })
        .execute();
    }
    const setupMs = performance.now() - setupStarted;

    const runStarted = performance.now();
    const bill = await call<{ header: { total_amount: string }; lines: unknown[] }>('/billing/run', { ownerId: f.ownerId, billId: 'BENCH-2025', cutoffDate: TO, periodFrom: FROM, periodTo: TO }, token);
    const runMs = performance.now() - runStarted;
    const sources = Number((await sql<{ n: string }>`select count(*)::text as n from billing_line_source`.execute(db)).rows[0].n);
    return {
      summary: [
        `ledger rows ${ROWS.toLocaleString('en')} (written in ${(ledgerMs / 1000).toFixed(1)} s), snapshot days ${DAYS} x ${SKUS} SKUs; setup ${(setupMs / 1000).toFixed(1)} s`,
        `billing run over the year: ${(runMs / 1000).toFixed(2)} s (target <= 10 s), ${bill.lines.length} lines, ${sources.toLocaleString('en')} drill-down rows, total ${bill.header.total_amount}`,
      ],
      figures: { rows: ROWS, days: DAYS, skus: SKUS, setupMs, ledgerMs, runMs, lines: bill.lines.length, sources, total: bill.header.total_amount },
    };
  } finally {
    await server.stop();
    // BENCH_KEEP_DATABASE=1 keeps the database for EXPLAIN ANALYZE of the run's statements; its URL is printed.
    if (process.env.BENCH_KEEP_DATABASE === '1') console.log(`kept database ${target.url}`);
    else await target.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

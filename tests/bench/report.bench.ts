/**
 * A configured report over 1,000,000 ledger rows (inventory_transaction joined to its SKU) with a
 * group total by transaction type, on PostgreSQL:
 * (a) the time of its first page (rows, count and group totals in one sandboxed read). Target: at
 *     most 1 s;
 * (b) its export of 100,000 rows (the most an export holds) as xlsx through the download center, as
 *     the export call starts it in the background: the file's row first, then the streaming writer,
 *     its progress saved on the row as it goes (sampled from another connection, as the download
 *     center reads it), until the row is done with the file.
 * Environment as tests/bench/pg-bench.ts.
 */
import { sql } from 'kysely';
import type { ReportSpec } from '../../src/common/report-api.js';
import { connectPostgres } from '../../src/server/db/database.js';
import { TABLE_FILE_CONTENT_TYPES } from '../../src/server/files/table-file.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import type { SessionUser } from '../../src/server/http/access.js';
import { migrateToLatest } from '../../src/server/install/migrate.js';
import { lotFor, receiveStock } from '../../src/server/modules/inventory/inventory.service.js';
import { MODULES } from '../../src/server/modules/index.js';
import { createBackgroundFile, produceBackgroundFile } from '../../src/server/modules/download/index.js';
import { planExport, runPage } from '../../src/server/modules/report/report.service.js';
import { reportLabels } from '../helpers/report-fixtures.js';
import { benchServerUrl, freshDatabase } from './pg-bench.js';
import type { BenchReport } from './run.js';

export const name = 'report';

const LEDGER_ROWS = 1_000_000;

export async function run(): Promise<BenchReport> {
  const fresh = await freshDatabase(benchServerUrl(), '_report');
  const database = await connectPostgres(fresh.url, 4);
  try {
    const db = database.db;
    await migrateToLatest(db, MODULES);
    const org = await db.insertInto('organization').values({ code: 'ORG', name: 'Org', created_by: 'b', updated_by: 'b' }).returning('id').executeTakeFirstOrThrow();
    const project = await db.insertInto('project').values({ organization_id: org.id, code: 'PRJ', name: 'P', created_by: 'b', updated_by: 'b' }).returning('id').executeTakeFirstOrThrow();
    const warehouse = await db.insertInto('warehouse').values({ organization_id: org.id, code: 'WH', name: 'W', created_by: 'b', updated_by: 'b' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: warehouse.id }).execute();
    const benchUser = await db.insertInto('app_user').values({ login_account: 'bench', display_name: 'bench', password_hash: 'x', is_admin: false, created_by: 'b', updated_by: 'b' }).returning('id').executeTakeFirstOrThrow();
    // One balance received through the inventory service; the history of 1,000,000 ledger rows is
    // then copied from its first row (the ledger is append-only; the balance is not changed).
    await inTransaction(db, async (trx) => {
      const scope = { projectId: project.id, warehouseId: warehouse.id, operator: 'bench' };
      const owner = await trx.insertInto('owner').values({ project_id: project.id, code: 'OW', name: 'Owner' }).returning('id').executeTakeFirstOrThrow();
      for (let i = 0; i < 50; i++) {
        const sku = await trx.insertInto('sku').values({ project_id: project.id, owner_id: owner.id, code: `SKU-${i}`, description: `SKU ${i}` }).returning('id').executeTakeFirstOrThrow();
        const location = await trx.insertInto('location').values({ warehouse_id: warehouse.id, code: `L-${i}`, location_type: 'pick', pick_seq: i }).returning('id').executeTakeFirstOrThrow();
        const lot = await lotFor(trx, scope, owner.id, sku.id, {});
        await receiveStock(trx, scope, { key: { ownerId: owner.id, skuId: sku.id, lotId: lot.id, locationId: location.id }, qty: 1000, reference: { type: 'bench', orderNo: `RCV-${i}` } });
      }
    });
    const started = Date.now();
    await sql`
      with base as (select *, row_number() over (order by id) - 1 as rn from inventory_transaction)
      insert into inventory_transaction (project_id, warehouse_id, balance_id, trans_type, order_no, trans_time, operator, owner_id, sku_id, lot_id, location_id, lpn, qty, before_qty, after_qty)
      select t.project_id, t.warehouse_id, t.balance_id, (array['receive','pick','move','adjust'])[1 + g % 4], 'ORD-' || g, now() - (g || ' seconds')::interval,
        t.operator, t.owner_id, t.sku_id, t.lot_id, t.location_id, t.lpn, 1 + g % 7, 0, 0
      from generate_series(1, ${LEDGER_ROWS - 50}) g
      join base t on t.rn = g % 50
    `.execute(db);
    await sql`analyze inventory_transaction`.execute(db);
    const loadMs = Date.now() - started;
    const spec: ReportSpec = {
      sql: `select t.trans_time, t.trans_type, s.code as sku, t.order_no, t.qty
from inventory_transaction t join sku s on s.id = t.sku_id
where (:sku is null or s.code = :sku)`,
      params: [{ name: 'sku', labels: reportLabels('SKU'), type: 'text' }],
      columns: [
        { name: 'trans_time', labels: reportLabels('Time'), type: 'datetime' },
        { name: 'trans_type', labels: reportLabels('Type'), type: 'text' },
        { name: 'sku', labels: reportLabels('SKU'), type: 'text' },
        { name: 'order_no', labels: reportLabels('Order'), type: 'text' },
        { name: 'qty', labels: reportLabels('Qty'), type: 'number' },
      ],
      grouping: { groupBy: 'trans_type', totals: [{ column: 'qty', aggregate: 'sum' }, { column: 'qty', aggregate: 'count' }] },
    };
    const user: SessionUser = {
      sessionId: 0,
      userId: benchUser.id,
      loginAccount: 'bench',
      displayName: 'bench',
      isAdmin: false,
      organizationId: org.id,
      projectId: project.id,
      projectCode: 'PRJ',
      warehouseId: warehouse.id,
      warehouseCode: 'WH',
      simulatedBy: null,
    };
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const page = await runPage(db, user, spec, 1, { params: {}, page: 1, pageSize: 50 });
      times.push(performance.now() - t0);
      total = page.total;
    }
    const best = Math.min(...times);
    const median = [...times].sort((a, b) => a - b)[2];

    // (b) The export through the download center.
    const exportStarted = performance.now();
    const plan = await planExport(db, user, { spec, code: 'LEDGER', name: reportLabels('Ledger') }, { params: {} }, 'en');
    const fileId = await createBackgroundFile(db, {
      userId: benchUser.id,
      projectId: project.id,
      kind: 'report',
      title: plan.title,
      fileName: 'ledger.xlsx',
      contentType: TABLE_FILE_CONTENT_TYPES.xlsx,
      rowsTotal: plan.total,
      days: 1,
      by: 'bench',
    });
    const reported: Array<{ rows: number; ms: number }> = [];
    const seen: Array<{ rows: number; ms: number }> = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const row = await db.selectFrom('download_file').select(['rows_written', 'status']).where('id', '=', fileId).executeTakeFirstOrThrow();
        const rows = Number(row.rows_written ?? 0);
        if (rows > 0 && rows !== seen.at(-1)?.rows) seen.push({ rows, ms: performance.now() - exportStarted });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const log = { error: (o: unknown, m: string) => console.error(m, o), warn: (o: unknown, m: string) => console.warn(m, o) };
    const outcome = await produceBackgroundFile(
      db,
      fileId,
      (progress) =>
        plan.render('xlsx', (rows) => {
          reported.push({ rows, ms: performance.now() - exportStarted });
          progress(rows);
        }),
      log,
    );
    polling = false;
    await poll;
    const exportMs = performance.now() - exportStarted;
    const stored = await db.selectFrom('download_file').select(['status', 'rows_written', 'size_bytes']).where('id', '=', fileId).executeTakeFirstOrThrow();
    if (!outcome.ok || stored.status !== 'done') throw new Error(`export failed: ${JSON.stringify(outcome)}`);
    const firstProgressMs = reported[0]?.ms ?? exportMs;
    return {
      summary: [
        `ledger rows: ${total.toLocaleString('en')} (loaded in ${(loadMs / 1000).toFixed(1)} s)`,
        `(a) first page with count and group totals: median ${median.toFixed(0)} ms, best ${best.toFixed(0)} ms (target <= 1000 ms)`,
        `(b) xlsx export through the download center: ${Number(stored.rows_written).toLocaleString('en')} rows, ${(Number(stored.size_bytes) / 1024 / 1024).toFixed(1)} MB in ${(exportMs / 1000).toFixed(1)} s ` +
          `(${Math.round(Number(stored.rows_written) / (exportMs / 1000)).toLocaleString('en')} rows/s); first progress after ${firstProgressMs.toFixed(0)} ms, ` +
          `${reported.length} progress reports, ${seen.length} distinct progress values seen by the download center while it ran`,
      ],
      figures: {
        ledgerRows: total,
        firstPageMs: times,
        medianMs: median,
        bestMs: best,
        targetMs: 1000,
        export: { rows: Number(stored.rows_written), bytes: Number(stored.size_bytes), ms: exportMs, firstProgressMs, progressReports: reported.length, progressSeen: seen },
      },
    };
  } finally {
    await database.close();
    await fresh.drop();
  }
}

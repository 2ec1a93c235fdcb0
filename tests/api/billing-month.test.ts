import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/server/db/transaction.js';
import { applyStockChanges, lotFor, type StockScope } from '../../src/server/modules/inventory/inventory.service.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * A scripted month of one customer, billed end to end (docs/billing.md): receipts and shipments
 * written through the inventory service and dated in September 2026, the thirty nightly storage
 * snapshots taken by the inventory job, a VAS charge, a fixed fee and a minimum charge, billed by a
 * run in euros at the rate of the cut-off date. The test's own hand calculation (from its ledger
 * rows and its tariffs, decimal strings only) equals the run to the cent; a second, overlapping
 * period never counts an event twice; refusals leave everything as it was.
 */
let t: TestApp;
let admin: string;
let biller: string;
const tag = Date.now().toString(36).toUpperCase();
const ownerCode = `MOW-${tag}`;
const whCode = `MWH-${tag}`;
let projectId: number;
let ownerId: number;
let scope: StockScope;
let locationId: number;
const skuIds: Record<'A' | 'B', number> = { A: 0, B: 0 };
/** The SKUs' measures, as the test knows them: units a pallet, m3 and kg a unit, units a carton. */
const SKU = {
  A: { caseQty: '10', palletCases: '4', volumeCm3: '3000', lengthCm: null, widthCm: null, heightCm: null, kg: '2' },
  B: { caseQty: '6', palletCases: '5', volumeCm3: null, lengthCm: '10', widthCm: '20', heightCm: '30', kg: '0.5' },
} as const;

/** The month's script: receipts (+) and shipments (-), with their document and day (at 10:00 UTC). */
const EVENTS: Array<{ day: string; sku: 'A' | 'B'; qty: number; doc: string; type: 'receive' | 'ship' }> = [
  { day: '2026-09-02', sku: 'A', qty: 100, doc: 'ASN1', type: 'receive' },
  { day: '2026-09-05', sku: 'B', qty: 36, doc: 'ASN2', type: 'receive' },
  { day: '2026-09-12', sku: 'A', qty: 25, doc: 'SO1', type: 'ship' },
  { day: '2026-09-20', sku: 'A', qty: 40, doc: 'ASN3', type: 'receive' },
  { day: '2026-09-25', sku: 'B', qty: 12, doc: 'SO2', type: 'ship' },
  { day: '2026-09-25', sku: 'A', qty: 10, doc: 'SO2', type: 'ship' },
  // After the cut-off date: the second, overlapping bill's.
  { day: '2026-10-03', sku: 'A', qty: 5, doc: 'ASN4', type: 'receive' },
];

/** The contract's tariffs (USD), charge code suffix -> type, method, base, rate. */
const TARIFFS = {
  INB: { type: 'inbound', method: 'per_carton', base: 'received_qty', rate: '1.25' },
  OUT: { type: 'outbound', method: 'per_unit', base: 'shipped_qty', rate: '0.40' },
  OUTO: { type: 'outbound', method: 'per_order', base: 'shipped_qty', rate: '3.5' },
  VAS: { type: 'vas', method: 'per_line', base: 'shipped_qty', rate: '1.1' },
  STO: { type: 'storage', method: 'per_pallet_day', base: 'on_hand_snapshot', rate: '0.85' },
  STOC: { type: 'storage', method: 'per_cbm', base: 'on_hand_snapshot', rate: '0.2' },
  FIX: { type: 'fixed', method: 'fixed', base: 'none', rate: '50' },
  MIN: { type: 'minimum', method: 'fixed', base: 'none', rate: '300' },
} as const;
type Code = keyof typeof TARIFFS;

const RIGHTS = (['billingMaintance', 'billingLine', 'billingLineSource', 'chargeCode', 'billingContract', 'billingTariff', 'exchangeRate'] as const)
  .flatMap((p) => (['view', 'add', 'edit', 'delete'] as const).map((a) => `billing.${p}:${a}` as const))
  .concat(['billing.billingMaintance:run', 'billing.billingMaintance:confirm', 'billing.billingMaintance:post'] as never[]);

const post = (token: string, url: string, payload: unknown) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown>, headers: { 'x-language': 'en' } });

async function ok<T = Record<string, unknown>>(url: string, payload: unknown, token = biller): Promise<T> {
  const response = await post(token, url, payload);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return json<T>(response);
}

async function refused(url: string, payload: unknown, code: string, message: string) {
  const response = await post(biller, url, payload);
  expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, response.body).toBeLessThan(500);
  expect(json<{ code: string; message: string }>(response)).toMatchObject({ code, message });
}

const add = async (functionCode: string, record: Record<string, unknown>) => Number((await ok<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'billing', functionCode, record })).row._key);

interface Line {
  id: number;
  charge_code: string;
  qty: string;
  amount: string;
  local_amount: string;
  reference: string | null;
}
interface Bill {
  header: { id: number; bill_id: string; status: string; total_amount: string; local_total_amount: string; local_currency_code: string; exchange_rate: string; invoice_no: string | null };
  lines: Line[];
}

/** Runs the storage snapshot job now for one day of the test's warehouse. */
async function snapshotJob(day: string): Promise<void> {
  const added = await ok<{ row: { _key: number } }>(
    '/generic/adding',
    { moduleCode: 'job', functionCode: 'job', record: { name: `snapshot ${tag} ${day}`, handler: 'inventory.storageSnapshot', cron_expression: '0 30 0 * * ?', business_type: 'INV', retry_limit: 0 } },
    admin,
  );
  const jobId = added.row._key;
  for (const [seq, [name, value]] of [
    ['date', day],
    ['warehouse', whCode],
  ].entries()) {
    await t.database.db.insertInto('job_param').values({ job_id: jobId, name, value, seq: seq + 1, created_by: 'test', updated_by: 'test' }).execute();
  }
  const runId = (await ok<{ runId: number }>('/manual/schedule', { id: jobId }, admin)).runId;
  for (let i = 0; i < 300; i += 1) {
    const runs = json<{ items: { id: number; status: string; log: string }[] }>(await injectAs(t.app, admin, { method: 'GET', url: `/api/job/runs?jobId=${jobId}` })).items;
    const found = runs.find((r) => r.id === runId);
    if (found && ['succeeded', 'failed'].includes(found.status)) {
      expect(found.status, found.log).toBe('succeeded');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the snapshot job did not finish');
}

beforeAll(async () => {
  t = await buildTestApp({ JOB_SCHEDULER: 'true' });
  admin = await signIn(t.app);
  const db = t.database.db;
  const org = await db.selectFrom('project').select('organization_id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  // A project and a warehouse (in UTC) of the test's own: its rates, events and snapshots are only its.
  const projectCode = `MP-${tag}`.slice(0, 20);
  projectId = (await db.insertInto('project').values({ organization_id: org.organization_id, code: projectCode, name: 'Month', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()).id;
  const warehouseId = (await db.insertInto('warehouse').values({ organization_id: org.organization_id, code: whCode, name: 'Month', time_zone: 'UTC', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()).id;
  await db.insertInto('project_warehouse').values({ project_id: projectId, warehouse_id: warehouseId }).execute();
  locationId = (await db.insertInto('location').values({ warehouse_id: warehouseId, code: `MLOC-${tag}`, location_type: 'storage', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()).id;
  for (const [code, decimals] of [
    ['USD', 2],
    ['EUR', 2],
  ] as const) {
    await db.insertInto('currency').values({ code, description: code, decimals, created_by: 't', updated_by: 't' }).onConflict((oc) => oc.column('code').doNothing()).execute();
  }
  ownerId = (await db.insertInto('owner').values({ project_id: projectId, code: ownerCode, name: 'Month Customer', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()).id;
  for (const key of ['A', 'B'] as const) {
    const m = SKU[key];
    skuIds[key] = (
      await db
        .insertInto('sku')
        .values({
          project_id: projectId,
          owner_id: ownerId,
          code: `M${key}-${tag}`,
          description: key,
          case_qty: m.caseQty,
          pallet_cases: m.palletCases,
          volume_cm3: m.volumeCm3,
          length_cm: m.lengthCm,
          width_cm: m.widthCm,
          height_cm: m.heightCm,
          gross_weight_kg: m.kg,
          created_by: 't',
          updated_by: 't',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  biller = await createUser(t, { loginAccount: `month-${tag}`, rights: RIGHTS, projectCodes: [projectCode], warehouseCodes: [whCode] });
  scope = { projectId, warehouseId, operator: 'month' };

  // The script through the inventory service, then each ledger row dated on its day (the ledger is
  // append-only: the test lifts the guard as the table owner for the moment).
  const dated: Array<{ id: number; at: string }> = [];
  for (const event of EVENTS) {
    const applied = await inTransaction(db, async (trx) => {
      const lot = await lotFor(trx, scope, ownerId, skuIds[event.sku], { lotNo: `ML-${event.sku}` });
      return applyStockChanges(trx, scope, [
        { key: { ownerId, skuId: skuIds[event.sku], lotId: lot.id, locationId }, transType: event.type, onHand: event.type === 'receive' ? event.qty : -event.qty, reference: { type: event.type === 'receive' ? 'asn' : 'so', orderNo: `${event.doc}-${tag}` } },
      ]);
    });
    dated.push({ id: applied[0].ledgerId, at: `${event.day}T10:00:00Z` });
  }
  await sql`alter table inventory_transaction disable trigger inventory_transaction_append_only`.execute(db);
  for (const d of dated) await sql`update inventory_transaction set trans_time = ${d.at}::timestamptz where id = ${d.id}`.execute(db);
  await sql`alter table inventory_transaction enable trigger inventory_transaction_append_only`.execute(db);

  // The thirty nightly snapshots of September.
  for (let d = 1; d <= 30; d += 1) await snapshotJob(`2026-09-${String(d).padStart(2, '0')}`);

  // Charge codes, the contract in USD and its tariffs, on the engine pages.
  const contractId = await add('billingContract', { contract_no: `MC-${tag}`, owner_id: ownerId, currency_code: 'USD', valid_from: '2026-01-01' });
  for (const [code, tariff] of Object.entries(TARIFFS)) {
    const chargeCodeId = await add('chargeCode', { code: `${code}-${tag}`, description: code, charge_type: tariff.type, account_code: `4100-${code}` });
    await add('billingTariff', { contract_id: contractId, charge_code_id: chargeCodeId, charge_method: tariff.method, bill_base: tariff.base, rate: tariff.rate, valid_from: '2026-01-01' });
  }
  // USD into EUR: the cut-off date's rate, an older one and a later one (neither of which may be used).
  await add('exchangeRate', { from_currency: 'USD', to_currency: 'EUR', rate_date: '2026-09-15', rate: '0.9' });
  await add('exchangeRate', { from_currency: 'USD', to_currency: 'EUR', rate_date: '2026-09-30', rate: '0.917365' });
  await add('exchangeRate', { from_currency: 'USD', to_currency: 'EUR', rate_date: '2026-10-01', rate: '0.95' });
}, 300_000);

afterAll(async () => {
  await t?.close();
});

/** Half-up to cents, as an invoice is written. */
const cents = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/**
 * The hand calculation of the month from the ledger rows of the period and the tariffs: the stock
 * of each day is the ledger's running sum, its pallets and cubic metres from the SKU's measures.
 */
async function handCalculation(from: string, to: string, fx: string) {
  const rows = await t.database.db
    .selectFrom('inventory_transaction')
    .select(['trans_type', 'sku_id', 'qty', 'order_no', 'trans_time'])
    .where('project_id', '=', projectId)
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
  const dayOf = (r: { trans_time: Date }) => r.trans_time.toISOString().slice(0, 10);
  const keyOf = (id: number): 'A' | 'B' => (Number(id) === Number(skuIds.A) ? 'A' : 'B');
  const inPeriod = rows.filter((r) => dayOf(r) >= from && dayOf(r) <= to);
  const received = inPeriod.filter((r) => r.trans_type === 'receive');
  const shipped = inPeriod.filter((r) => r.trans_type === 'ship');
  const abs = (q: string) => new Decimal(q).abs();
  const qty: Record<Code, Decimal> = {
    INB: received.reduce((s, r) => s.plus(abs(r.qty).div(SKU[keyOf(r.sku_id)].caseQty).ceil()), new Decimal(0)),
    OUT: shipped.reduce((s, r) => s.plus(abs(r.qty)), new Decimal(0)),
    OUTO: new Decimal(new Set(shipped.map((r) => r.order_no)).size),
    VAS: new Decimal(shipped.length),
    STO: new Decimal(0),
    STOC: new Decimal(0),
    FIX: new Decimal(1),
    MIN: new Decimal(0),
  };
  for (let day = from; day <= to; day = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) {
    for (const key of ['A', 'B'] as const) {
      const onHand = rows.filter((r) => keyOf(r.sku_id) === key && dayOf(r) <= day).reduce((s, r) => s.plus(r.qty), new Decimal(0));
      if (onHand.isZero()) continue;
      const m = SKU[key];
      qty.STO = qty.STO.plus(onHand.div(new Decimal(m.caseQty).times(m.palletCases)).ceil());
      const cm3 = m.volumeCm3 ? new Decimal(m.volumeCm3) : new Decimal(m.lengthCm).times(m.widthCm).times(m.heightCm);
      qty.STOC = qty.STOC.plus(onHand.times(cm3).div(1_000_000));
    }
  }
  const lines: Array<[string, string, string, string]> = [];
  let total = new Decimal(0);
  for (const code of Object.keys(TARIFFS) as Code[]) {
    if (code === 'MIN' || qty[code].isZero()) continue;
    const amount = cents(qty[code].times(TARIFFS[code].rate));
    total = total.plus(amount);
    lines.push([`${code}-${tag}`, qty[code].toFixed(4), amount.toFixed(2), cents(amount.times(fx)).toFixed(2)]);
  }
  const topUp = new Decimal(TARIFFS.MIN.rate).minus(total);
  if (topUp.gt(0)) {
    lines.push([`MIN-${tag}`, '1.0000', topUp.toFixed(2), cents(topUp.times(fx)).toFixed(2)]);
    total = total.plus(topUp);
  }
  return { lines, total: total.toFixed(2), localTotal: lines.reduce((s, l) => s.plus(l[3]), new Decimal(0)).toFixed(2) };
}

const shape = (bill: Bill) => bill.lines.map((l) => [l.charge_code, new Decimal(l.qty).toFixed(4), new Decimal(l.amount).toFixed(2), new Decimal(l.local_amount).toFixed(2)]);
let september: Bill;

describe('a scripted month of one customer', () => {
  it('keeps thirty nightly snapshots of its stock', async () => {
    const rows = await t.database.db.selectFrom('storage_snapshot').select(['snapshot_date', 'sku_id', 'on_hand_qty', 'pallet_count', 'cbm']).where('owner_id', '=', ownerId).execute();
    // A from the 2nd (29 days), B from the 5th (26 days).
    expect(rows).toHaveLength(29 + 26);
  });

  it('bills it in euros at the rate of the cut-off date, equal to the hand calculation to the cent', async () => {
    september = await ok<Bill>('/billing/run', { ownerId, billId: `SEP-${tag}`, cutoffDate: '2026-09-30', periodFrom: '2026-09-01', periodTo: '2026-09-30', billCurrency: 'EUR' });
    const hand = await handCalculation('2026-09-01', '2026-09-30', '0.917365');
    expect(september.header).toMatchObject({ status: 'draft', local_currency_code: 'EUR', exchange_rate: '0.917365' });
    expect(shape(september)).toEqual(hand.lines);
    expect(new Decimal(september.header.total_amount).toFixed(2)).toBe(hand.total);
    expect(new Decimal(september.header.local_total_amount).toFixed(2)).toBe(hand.localTotal);
    // The minimum charge topped the month up to 300 USD; the VAS charge was counted.
    expect(hand.total).toBe('300.00');
    expect(hand.lines.map((l) => l[0])).toEqual(['INB', 'OUT', 'OUTO', 'VAS', 'STO', 'STOC', 'FIX', 'MIN'].map((c) => `${c}-${tag}`));
    // The figures the script makes, by hand once more: 20 cartons, 47 shipped, 2 orders, 3 lines, 125 pallet-days, 13.599 m3-days.
    expect(hand.lines.slice(0, 6).map((l) => l[1])).toEqual(['20.0000', '47.0000', '2.0000', '3.0000', '125.0000', '13.5990']);
  });

  it('never counts an event twice over an overlapping period', async () => {
    await ok('/billing/confirm', { id: september.header.id });
    const posted = await ok<Bill>('/billing/post', { id: september.header.id });
    expect(posted.header.status).toBe('posted');
    // The same period again counts nothing but tops up to the minimum charge.
    const again = await ok<Bill>('/billing/run', { ownerId, billId: `SEP2-${tag}`, cutoffDate: '2026-09-30', periodFrom: '2026-09-01', periodTo: '2026-09-30' });
    expect(again.lines.map((l) => [l.charge_code, l.amount])).toEqual([[`MIN-${tag}`, '300.00']]);
    // From the 20th to 10 October: only the October receipt (5 of A, one carton) is new.
    const october = await ok<Bill>('/billing/run', { ownerId, billId: `OCT-${tag}`, cutoffDate: '2026-10-10', periodFrom: '2026-09-20', periodTo: '2026-10-10' });
    expect(october.lines.map((l) => [l.charge_code, new Decimal(l.qty).toFixed(4), new Decimal(l.amount).toFixed(2)])).toEqual([
      [`INB-${tag}`, '1.0000', '1.25'],
      [`MIN-${tag}`, '1.0000', '298.75'],
    ]);
    const db = t.database.db;
    const sourcesOf = async (headerId: number) =>
      (
        await db
          .selectFrom('billing_line_source as s')
          .innerJoin('billing_line as l', 'l.id', 's.line_id')
          .select(['l.charge_code_id', 's.source_kind', 's.source_id'])
          .where('l.header_id', '=', headerId)
          .execute()
      ).map((s) => `${s.charge_code_id}|${s.source_kind}|${s.source_id}`);
    const first = new Set(await sourcesOf(september.header.id));
    const second = await sourcesOf(october.header.id);
    expect(first.size).toBeGreaterThan(0);
    expect(second.filter((s) => first.has(s))).toEqual([]);
  });

  it('refuses a missing bill id, a period starting after its end, posting a posted bill and changing a posted line, changing nothing', async () => {
    const db = t.database.db;
    const state = async () => ({
      headers: await db.selectFrom('billing_header').selectAll().where('project_id', '=', projectId).orderBy('id').execute(),
      lines: await db.selectFrom('billing_line').selectAll().where('header_id', '=', september.header.id).orderBy('id').execute(),
      billed: (await db.selectFrom('billing_event_billed').select('source_id').where('project_id', '=', projectId).execute()).length,
    });
    const before = await state();
    const body = { ownerId, billId: `REF-${tag}`, cutoffDate: '2026-09-30', periodFrom: '2026-09-01', periodTo: '2026-09-30' };
    await refused('/billing/run', { ...body, billId: '' }, 'BILL_ID_REQUIRED', 'Enter a bill id.');
    await refused('/billing/run', { ...body, periodFrom: '2026-09-30', periodTo: '2026-09-01' }, 'BILL_PERIOD_INVALID', 'The billing period must start before it ends (from 2026-09-30 to 2026-09-01).');
    await refused('/billing/post', { id: september.header.id }, 'BILL_POSTED_READ_ONLY', `Bill SEP-${tag} is posted and cannot be changed.`);
    const lines = await ok<{ rows: Array<{ _key: number; _version: string }> }>('/generic/tab', { moduleCode: 'billing', functionCode: 'billingMaintance', subPage: 'lines', parentKey: september.header.id, page: 1, pageSize: 100 });
    const line = lines.rows[0];
    // A bill's lines are written by the run only; the posted header is read only too.
    await refused('/generic/updating', { moduleCode: 'billing', functionCode: 'billingLine', key: line._key, version: line._version, record: { amount: '1', qty: '1' } }, 'PAGE_READ_ONLY', 'This page is read-only.');
    const headers = await ok<{ rows: Array<{ _key: number; _version: string }> }>('/generic/selection', { moduleCode: 'billing', functionCode: 'billingMaintance', page: 1, pageSize: 10, conditions: { combinator: 'and', rules: [{ field: 'bill_id', operator: '=', value: `SEP-${tag}` }] } });
    await refused('/generic/updating', { moduleCode: 'billing', functionCode: 'billingMaintance', key: headers.rows[0]._key, version: headers.rows[0]._version, record: { bill_to_name: 'Changed' } }, 'BILL_POSTED_READ_ONLY', `Bill SEP-${tag} is posted and cannot be changed.`);
    expect(await state()).toEqual(before);
  });

  it('gives the invoice of the posted bill as PDF and its lines as xlsx; a draft has no invoice, another project and no right are refused', async () => {
    const get = (token: string, url: string) => injectAs(t.app, token, { method: 'GET', url: `/api${url}`, headers: { 'x-language': 'en' } });
    const posted = await ok<Bill>('/billing/bill', { id: september.header.id });
    const pdf = await get(biller, `/billing/invoice.pdf?id=${september.header.id}`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-invoice-'));
    fs.writeFileSync(path.join(dir, 'invoice.pdf'), pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-layout', path.join(dir, 'invoice.pdf'), '-'], { encoding: 'utf8' });
    expect(text).toContain(String(posted.header.invoice_no));
    expect(text).toContain(`Total: ${posted.header.local_total_amount} EUR`);
    expect(text).toContain(`Total in contract currency: ${posted.header.total_amount} USD`);
    expect(text).toContain(`INB-${tag}`);
    fs.rmSync(dir, { recursive: true, force: true });

    const xlsx = await get(biller, `/billing/lines.xlsx?id=${september.header.id}`);
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const rows = posted.lines.map((_, i) => [sheet.getRow(i + 2).getCell(2).value, sheet.getRow(i + 2).getCell(9).value]);
    expect(rows).toEqual(posted.lines.map((l) => [l.charge_code, Number(l.amount)]));
    expect(sheet.rowCount).toBe(posted.lines.length + 1);

    // A draft has no invoice yet; another project's bill is not found; a user without the page right is refused.
    const draft = await t.database.db.selectFrom('billing_header').select('id').where('project_id', '=', projectId).where('bill_id', '=', `SEP2-${tag}`).executeTakeFirstOrThrow();
    const refusedDraft = await get(biller, `/billing/invoice.pdf?id=${draft.id}`);
    expect(refusedDraft.statusCode).toBe(409);
    expect(json<{ code: string }>(refusedDraft).code).toBe('BILL_NOT_CONFIRMED');
    expect((await get(admin, `/billing/invoice.pdf?id=${september.header.id}`)).statusCode).toBe(404);
    expect((await get(admin, `/billing/lines.xlsx?id=${september.header.id}`)).statusCode).toBe(404);
    const outsider = await createUser(t, { loginAccount: `month-out-${tag}`, rights: ['billing.chargeCode:view'], projectCodes: [`MP-${tag}`.slice(0, 20)], warehouseCodes: [whCode] });
    expect((await get(outsider, `/billing/invoice.pdf?id=${september.header.id}`)).statusCode).toBe(403);
    expect((await get(biller, '/billing/invoice.pdf?id=abc')).statusCode).toBe(400);
  });
});

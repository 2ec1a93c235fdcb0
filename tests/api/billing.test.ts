import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/server/db/transaction.js';
import { applyStockChanges } from '../../src/server/modules/inventory/index.js';
import { buildTestApp, createUser, injectAs, json, type TestApp } from '../helpers/app.js';
import { orderCalls } from '../helpers/outbound.js';

/**
 * 3PL billing through the real server: charge codes, a contract and its tariffs on the engine
 * pages; stock received through the inbound calls, orders entered on the order pages; a billing
 * run whose every tariff method is checked against the known data; drill-down, confirm, post; two
 * overlapping periods never billing an event twice; the run's refusals; another project's owner,
 * contract and bill refused.
 */
let t: TestApp;
let biller: string;
let noRun: string;
let other: string;
const tag = Date.now().toString(36).toUpperCase();
const ownerCode = `BOW-${tag}`;
let ownerId: number;
let projectId: number;
let otherOwnerId: number;
let otherContractId: number;
let otherBillId: number;
let contractId: number;
const skuIds: Record<string, number> = {};
let dockId: number;
const receiveLedgerIds: number[] = [];
const shipLedgerIds: number[] = [];
let soIds: number[] = [];

const day = (shift: number) => {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + shift);
  return date.toISOString().slice(0, 10);
};
const TODAY = day(0);

const BILLING_RIGHTS = (['billingMaintance', 'billingLine', 'billingLineSource', 'chargeCode', 'billingContract', 'billingTariff', 'exchangeRate'] as const).flatMap((p) =>
  (['view', 'add', 'edit', 'delete'] as const).map((a) => `billing.${p}:${a}` as const),
);
const RIGHTS = [
  ...BILLING_RIGHTS,
  'billing.billingMaintance:run',
  'billing.billingMaintance:confirm',
  'billing.billingMaintance:post',
  'inbound.asn:view',
  'inbound.asn:add',
  'inbound.asn:edit',
  'inbound.asnLine:view',
  'inbound.asnLine:add',
  'inbound.asnLine:edit',
  'inbound.asn:receive',
  'outbound:view',
  'outbound:add',
  'outbound:edit',
] as const;

const post = (token: string, url: string, payload: unknown, language = 'en') =>
  injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown>, headers: { 'x-language': language } });

async function ok<T = Record<string, unknown>>(token: string, url: string, payload: unknown): Promise<T> {
  const response = await post(token, url, payload);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return json<T>(response);
}

async function refused(token: string, url: string, payload: unknown, code: string, language = 'en') {
  const response = await post(token, url, payload, language);
  expect(response.statusCode, `${url}: ${response.body}`).not.toBe(200);
  expect(response.statusCode).toBeLessThan(500);
  const body = json<{ code: string; message: string }>(response);
  expect(body.code, response.body).toBe(code);
  return body;
}

const add = async (functionCode: string, record: Record<string, unknown>) =>
  Number((await ok<{ row: { _key: number } }>(biller, '/generic/adding', { moduleCode: 'billing', functionCode, record })).row._key);

interface Bill {
  header: { id: number; bill_id: string; status: string; total_amount: string; currency_code: string; invoice_no: string | null; invoice_date: string | null; bill_to_name: string | null; address1: string | null };
  lines: Array<{ id: number; line_no: number; charge_code: string; qty: string; rate: string; amount: string; reference: string | null; bill_base: string }>;
}

const run = (billId: string, from: string, to: string, cutoff = to) => ok<Bill>(biller, '/billing/run', { ownerId, billId, cutoffDate: cutoff, periodFrom: from, periodTo: to });
const linesOf = (bill: Bill) => bill.lines.map((l) => [l.charge_code, Number(l.qty), Number(l.rate), l.amount, l.reference]);

beforeAll(async () => {
  // The job runner is on for the billing job's run-now.
  t = await buildTestApp({ JOB_SCHEDULER: 'true' });
  const db = t.database.db;
  const project = await db.selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  projectId = project.id;
  const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
  for (const [code, decimals] of [
    ['USD', 2],
    ['JPY', 0],
  ] as const) {
    await db.insertInto('currency').values({ code, description: code, decimals, created_by: 't', updated_by: 't' }).onConflict((oc) => oc.column('code').doNothing()).execute();
  }
  ownerId = (
    await db
      .insertInto('owner')
      .values({ project_id: projectId, code: ownerCode, name: 'Billing Customer', address1: '1 Harbour Road', city: 'Hong Kong', country: 'HK', postal: '999077', created_by: 't', updated_by: 't' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await db.insertInto('partner').values({ project_id: projectId, partner_type: 'supplier', code: `BSUP-${tag}`, name: 'Supplier' }).execute();
  const skus = [
    { code: `BA-${tag}`, case_qty: '10', pallet_cases: '5', volume_cm3: '2000', gross_weight_kg: '1.5' },
    { code: `BB-${tag}`, case_qty: '6', pallet_cases: null, volume_cm3: null, gross_weight_kg: null },
  ];
  for (const sku of skus) {
    skuIds[sku.code] = (
      await db
        .insertInto('sku')
        .values({ project_id: projectId, owner_id: ownerId, description: sku.code, created_by: 't', updated_by: 't', ...sku })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  dockId = (
    await db.insertInto('location').values({ warehouse_id: warehouse.id, code: `BDOCK-${tag}`, location_type: 'dock', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  await db.insertInto('location').values({ warehouse_id: warehouse.id, code: `BPICK-${tag}`, location_type: 'pick', pick_seq: 1, created_by: 't', updated_by: 't' }).execute();

  // Another project with an owner, a contract and a bill of its own.
  const prj2 = await db.insertInto('project').values({ organization_id: project.organization_id, code: `BP2-${tag}`.slice(0, 20), name: 'Other', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('project_warehouse').values({ project_id: prj2.id, warehouse_id: warehouse.id }).execute();
  otherOwnerId = (await db.insertInto('owner').values({ project_id: prj2.id, code: `BOW2-${tag}`, name: 'Other', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()).id;
  otherContractId = (
    await db
      .insertInto('billing_contract')
      .values({ project_id: prj2.id, contract_no: `C2-${tag}`, owner_id: otherOwnerId, currency_code: 'USD', valid_from: '2000-01-01', created_by: 't', updated_by: 't' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  otherBillId = (
    await db
      .insertInto('billing_header')
      .values({ project_id: prj2.id, bill_id: `B2-${tag}`, owner_id: otherOwnerId, contract_id: otherContractId, cutoff_date: TODAY, period_from: day(-1), period_to: TODAY, currency_code: 'USD', local_currency_code: 'USD', created_by: 't', updated_by: 't' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

  biller = await createUser(t, { loginAccount: `biller-${tag}`, rights: [...RIGHTS], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  noRun = await createUser(t, { loginAccount: `looker-${tag}`, rights: ['billing.billingMaintance:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  other = await createUser(t, { loginAccount: `other-${tag}`, rights: [...RIGHTS], projectCodes: [`BP2-${tag}`.slice(0, 20)], warehouseCodes: ['WH1'] });
});

afterAll(async () => {
  await t?.close();
});

describe('charge codes, contract and tariffs', () => {
  it('are kept on the engine pages, refusing a charge method that does not fit its bill base', async () => {
    const codes: Record<string, number> = {};
    for (const [code, type] of [
      ['INB', 'inbound'],
      ['INBC', 'inbound'],
      ['CBM', 'inbound'],
      ['OUT', 'outbound'],
      ['KG', 'vas'],
      ['STO', 'storage'],
      ['ORD', 'outbound'],
      ['LIN', 'outbound'],
      ['FIX', 'fixed'],
      ['MIN', 'minimum'],
    ]) {
      codes[code] = await add('chargeCode', { code: `${code}-${tag}`, description: `${code} charge`, charge_type: type, account_code: `4000-${code}` });
    }
    contractId = await add('billingContract', { contract_no: `C-${tag}`, owner_id: ownerId, currency_code: 'USD', valid_from: '2000-01-01' });
    const tariff = (code: string, record: Record<string, unknown>) => add('billingTariff', { contract_id: contractId, charge_code_id: codes[code], valid_from: '2000-01-01', ...record });
    await tariff('INB', { charge_method: 'per_unit', bill_base: 'received_qty', rate: '0.5', overflow_threshold: '20', overflow_rate: '0.25', bill_unit: 'EA' });
    await tariff('INBC', { charge_method: 'per_carton', bill_base: 'received_qty', rate: '2' });
    await tariff('CBM', { charge_method: 'per_cbm', bill_base: 'received_qty', rate: '10' });
    await tariff('OUT', { charge_method: 'per_unit', bill_base: 'shipped_qty', rate: '1', min_charge: '50' });
    await tariff('KG', { charge_method: 'per_kg', bill_base: 'shipped_qty', rate: '0.1' });
    await tariff('STO', { charge_method: 'per_pallet_day', bill_base: 'on_hand_snapshot', rate: '3' });
    await tariff('ORD', { charge_method: 'per_order', bill_base: 'orders', rate: '4' });
    await tariff('LIN', { charge_method: 'per_line', bill_base: 'lines', rate: '0.75' });
    await tariff('FIX', { charge_method: 'fixed', bill_base: 'none', rate: '100' });
    await tariff('MIN', { charge_method: 'fixed', bill_base: 'none', rate: '1000' });
    const lines = await t.database.db.selectFrom('billing_tariff').select('line_no').where('contract_id', '=', contractId).orderBy('line_no').execute();
    expect(lines.map((l) => l.line_no)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    const bad = (code: string, record: Record<string, unknown>) =>
      refused(biller, '/generic/adding', { moduleCode: 'billing', functionCode: 'billingTariff', record: { contract_id: contractId, charge_code_id: codes[code], valid_from: '2000-01-01', rate: '1', ...record } }, 'TARIFF_INVALID');
    await bad('STO', { charge_method: 'per_order', bill_base: 'on_hand_snapshot' });
    await bad('INB', { charge_method: 'fixed', bill_base: 'none' });
    await bad('FIX', { charge_method: 'per_unit', bill_base: 'received_qty' });
    await bad('INB', { charge_method: 'per_unit', bill_base: 'received_qty', overflow_threshold: '5' });
    await bad('INB', { charge_method: 'per_unit', bill_base: 'received_qty', currency_code: 'JPY' });
    const zh = await refused(biller, '/generic/adding', { moduleCode: 'billing', functionCode: 'billingTariff', record: { contract_id: contractId, charge_code_id: codes.ORD, valid_from: '2000-01-01', rate: '1', charge_method: 'per_unit', bill_base: 'orders' } }, 'TARIFF_INVALID', 'zh');
    expect(zh.message).toContain('计费方式');
  });

  it("refuses a tariff on another project's contract", async () => {
    const code = await t.database.db.selectFrom('charge_code').select('id').where('code', '=', `INB-${tag}`).executeTakeFirstOrThrow();
    const response = await post(biller, '/generic/adding', {
      moduleCode: 'billing',
      functionCode: 'billingTariff',
      record: { contract_id: otherContractId, charge_code_id: code.id, valid_from: '2000-01-01', rate: '1', charge_method: 'per_unit', bill_base: 'received_qty' },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(await t.database.db.selectFrom('billing_tariff').select('id').where('contract_id', '=', otherContractId).execute()).toEqual([]);
  });
});

describe('the billing run', () => {
  beforeAll(async () => {
    const db = t.database.db;
    // Receipts through the inbound calls: 30 of A and 12 of B.
    const asn = await ok<{ id: number }>(biller, '/asn/saveHeader', { ownerCode, supplierCode: `BSUP-${tag}` });
    const detail = await ok<{ lines: { id: number }[] }>(biller, '/asn/saveDetail', {
      asnId: asn.id,
      lines: [
        { skuCode: `BA-${tag}`, expectedQty: 30 },
        { skuCode: `BB-${tag}`, expectedQty: 12 },
      ],
    });
    await ok(biller, '/inbound/batch/receive', { lines: detail.lines.map((l, i) => ({ asnLineId: l.id, qty: i === 0 ? 30 : 12, locationCode: `BDOCK-${tag}` })) });
    const received = await db.selectFrom('inventory_transaction').select(['id', 'lot_id', 'sku_id']).where('owner_id', '=', ownerId).where('trans_type', '=', 'receive').orderBy('id').execute();
    expect(received).toHaveLength(2);
    receiveLedgerIds.push(...received.map((r) => Number(r.id)));
    // A shipment of 5 of A leaves the dock (the ledger's `ship` row, as the outbound area writes it).
    const lotA = received.find((r) => Number(r.sku_id) === skuIds[`BA-${tag}`])!.lot_id;
    const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
    const shipped = await inTransaction(db, (trx) =>
      applyStockChanges(trx, { projectId, warehouseId: warehouse.id, operator: 'shipper' }, [
        { key: { ownerId, skuId: skuIds[`BA-${tag}`], lotId: lotA, locationId: dockId }, transType: 'ship', onHand: -5, reference: { type: 'so', orderNo: `SHIP-${tag}` } },
      ]),
    );
    shipLedgerIds.push(shipped[0].ledgerId);
    // Two orders entered on the order pages: 2 lines and 1 line.
    const orders = orderCalls(t.app, biller, db);
    soIds = [
      await orders.enter(`BSO1-${tag}`, ownerId, [
        { skuCode: `BA-${tag}`, qty: 1 },
        { skuCode: `BB-${tag}`, qty: 1 },
      ]),
      await orders.enter(`BSO2-${tag}`, ownerId, [{ skuCode: `BA-${tag}`, qty: 2 }]),
    ];
    // The storage snapshot of three days, as the nightly job writes it: 2, 3 and (no pallets counted: 30 of A at 50 a pallet) 1 pallet.
    const snapshot = (shift: number, skuCode: string, qty: number, pallets: number) => ({
      snapshot_date: day(shift),
      project_id: projectId,
      warehouse_id: warehouse.id,
      owner_id: ownerId,
      sku_id: skuIds[skuCode],
      on_hand_qty: qty,
      location_count: 1,
      lpn_count: 0,
      pallet_count: pallets,
      taken_by: 'test',
    });
    await db
      .insertInto('storage_snapshot')
      .values([snapshot(-2, `BA-${tag}`, 30, 2), snapshot(-1, `BB-${tag}`, 12, 3), snapshot(0, `BA-${tag}`, 30, 0)])
      .execute();
  });

  it('computes every tariff method on the known data, with the bill-to of the customer', async () => {
    const bill = await run(`BILL1-${tag}`, day(-3), TODAY);
    expect(bill.header).toMatchObject({ status: 'draft', currency_code: 'USD', bill_to_name: 'Billing Customer', address1: '1 Harbour Road' });
    expect(linesOf(bill)).toEqual([
      // 42 received: 20 at 0.5, the 22 above the overflow threshold at 0.25.
      [`INB-${tag}`, 20, 0.5, '10.00', null],
      [`INB-${tag}`, 22, 0.25, '5.50', 'overflow'],
      // Cartons: 30/10 = 3 of A, 12/6 = 2 of B.
      [`INBC-${tag}`, 5, 2, '10.00', null],
      // 30 of A at 2000 cm3 = 0.06 m3 (B has no volume).
      [`CBM-${tag}`, 0.06, 10, '0.60', null],
      // 5 shipped at 1 = 5, raised to the tariff's minimum of 50.
      [`OUT-${tag}`, 5, 1, '50.00', 'minimum'],
      // 5 shipped x 1.5 kg.
      [`KG-${tag}`, 7.5, 0.1, '0.75', null],
      // 2 + 3 + 1 pallet-days.
      [`STO-${tag}`, 6, 3, '18.00', null],
      [`ORD-${tag}`, 2, 4, '8.00', null],
      [`LIN-${tag}`, 3, 0.75, '2.25', null],
      [`FIX-${tag}`, 1, 100, '100.00', null],
      // 205.10 so far: topped up to the minimum charge of 1000.
      [`MIN-${tag}`, 1, 794.9, '794.90', 'minimum'],
    ]);
    expect(bill.header.total_amount).toBe('1000.00');
    expect(bill.lines.reduce((sum, l) => sum.plus(l.amount), new Decimal(0)).toFixed(2)).toBe('1000.00');
  });

  it('rounds amounts to the decimals of the contract currency', async () => {
    const inb = await t.database.db.selectFrom('charge_code').select('id').where('code', '=', `INB-${tag}`).executeTakeFirstOrThrow();
    const yen = await add('billingContract', { contract_no: `CJ-${tag}`, owner_id: ownerId, currency_code: 'JPY', valid_from: '2000-01-01', active: false });
    await add('billingTariff', { contract_id: yen, charge_code_id: inb.id, charge_method: 'per_unit', bill_base: 'received_qty', rate: '0.333', valid_from: '2000-01-01' });
    // An inactive contract is not billed.
    await refused(biller, '/billing/run', { ownerId, billId: `BILLJ-${tag}`, cutoffDate: TODAY, periodFrom: day(-3), periodTo: TODAY, contractId: yen }, 'BILL_NO_CONTRACT');
    await t.database.db.updateTable('billing_contract').set({ active: true }).where('id', '=', yen).execute();
    const bill = json<Bill>(await post(biller, '/billing/run', { ownerId, billId: `BILLJ-${tag}`, cutoffDate: TODAY, periodFrom: day(-3), periodTo: TODAY, contractId: yen }));
    // 42 x 0.333 = 13.986, in yen 14.
    expect(linesOf(bill)).toEqual([[`INB-${tag}`, 42, 0.333, '14', null]]);
    expect(bill.header).toMatchObject({ currency_code: 'JPY', total_amount: '14' });
    await t.database.db.updateTable('billing_contract').set({ active: false }).where('id', '=', yen).execute();
    await ok(biller, '/generic/deletion', { moduleCode: 'billing', functionCode: 'billingMaintance', rows: [{ key: bill.header.id, version: (await ok<{ rows: Array<{ _key: number; _version: string }> }>(biller, '/generic/selection', { moduleCode: 'billing', functionCode: 'billingMaintance', page: 1, pageSize: 100, conditions: { combinator: 'and', rules: [{ field: 'bill_id', operator: '=', value: `BILLJ-${tag}` }] } })).rows[0]._version }] });
    expect(await t.database.db.selectFrom('billing_line').select('id').where('header_id', '=', bill.header.id).execute()).toEqual([]);
  });

  it('keeps what each line counted for the drill-down', async () => {
    const bill = json<Bill>(await post(biller, '/billing/run', { ownerId, billId: `BILL1-${tag}`, cutoffDate: TODAY, periodFrom: day(-3), periodTo: TODAY }));
    const sourcesOf = async (code: string) => {
      const line = bill.lines.find((l) => l.charge_code === `${code}-${tag}` && l.reference !== 'overflow')!;
      return (await ok<{ sources: Array<{ source_kind: string; source_id: string; source_day: string | null; qty: string }> }>(biller, '/billing/line/sources', { lineId: line.id })).sources;
    };
    expect((await sourcesOf('INB')).map((s) => [s.source_kind, Number(s.source_id), Number(s.qty)])).toEqual([
      ['ledger', receiveLedgerIds[0], 30],
      ['ledger', receiveLedgerIds[1], 12],
    ]);
    expect((await sourcesOf('OUT')).map((s) => [s.source_kind, Number(s.source_id)])).toEqual([['ledger', shipLedgerIds[0]]]);
    expect((await sourcesOf('STO')).map((s) => [s.source_kind, s.source_day, Number(s.qty)])).toEqual([
      ['snapshot', day(-2), 2],
      ['snapshot', day(-1), 3],
      ['snapshot', TODAY, 1],
    ]);
    expect((await sourcesOf('LIN')).map((s) => [s.source_kind, Number(s.source_id), Number(s.qty)])).toEqual([
      ['order', soIds[0], 2],
      ['order', soIds[1], 1],
    ]);
    // The bill page's drill-down tab lists them too.
    const tab = await ok<{ rows: unknown[] }>(biller, '/generic/tab', { moduleCode: 'billing', functionCode: 'billingMaintance', subPage: 'sources', parentKey: bill.header.id, page: 1, pageSize: 100 });
    expect(tab.rows.length).toBeGreaterThanOrEqual(2 + 2 + 1 + 1 + 3 + 2 + 2 + 1);
  });

  it('replaces the draft when run again, and a cut-off date before the period end leaves later days out', async () => {
    const db = t.database.db;
    const again = await run(`BILL1-${tag}`, day(-3), TODAY, day(-1));
    const header = await db.selectFrom('billing_header').select(['id']).where('bill_id', '=', `BILL1-${tag}`).execute();
    expect(header).toHaveLength(1);
    expect(Number(header[0].id)).toBe(Number(again.header.id));
    // Only the snapshot days up to the cut-off remain; the receipts of today are left out.
    expect(again.lines.map((l) => l.charge_code)).not.toContain(`INB-${tag}`);
    expect(again.lines.find((l) => l.charge_code === `STO-${tag}`)?.qty).toBe('5.0000');
    const lines = await db.selectFrom('billing_line').select('id').where('header_id', '=', again.header.id).execute();
    expect(lines).toHaveLength(again.lines.length);
    await run(`BILL1-${tag}`, day(-3), TODAY);
  });

  it('never bills an event twice over overlapping periods', async () => {
    const first = await ok<Bill>(biller, '/billing/bill', { id: (await t.database.db.selectFrom('billing_header').select('id').where('bill_id', '=', `BILL1-${tag}`).executeTakeFirstOrThrow()).id });
    // A draft over an overlapping period counts the same events while the first is not confirmed...
    const overlapping = await run(`BILL2-${tag}`, day(-1), day(1));
    expect(overlapping.lines.map((l) => l.charge_code)).toContain(`INB-${tag}`);
    const confirmed = await ok<Bill>(biller, '/billing/confirm', { id: first.header.id });
    expect(confirmed.header.status).toBe('confirmed');
    // ...and cannot be confirmed once the first is: its events are billed.
    const refusal = await refused(biller, '/billing/confirm', { id: overlapping.header.id }, 'BILL_EVENTS_ALREADY_BILLED');
    expect(refusal.message).toContain(`BILL2-${tag}`);
    // Run again, it leaves out everything the first bill billed.
    const rerun = await run(`BILL2-${tag}`, day(-1), day(1));
    const codes = rerun.lines.map((l) => l.charge_code);
    for (const code of ['INB', 'INBC', 'CBM', 'OUT', 'KG', 'STO', 'ORD', 'LIN']) expect(codes).not.toContain(`${code}-${tag}`);
    // The fixed fee is billed once a calendar month.
    expect(codes.includes(`FIX-${tag}`)).toBe(day(-1).slice(0, 7) !== day(-3).slice(0, 7));
    await ok(biller, '/billing/confirm', { id: rerun.header.id });
    const billed = await t.database.db.selectFrom('billing_event_billed').select(['source_kind', 'source_id', 'header_id']).where('project_id', '=', projectId).execute();
    expect(billed.filter((b) => Number(b.header_id) === Number(rerun.header.id) && b.source_kind !== 'period')).toEqual([]);
    // A confirmed bill id is not run again.
    await refused(biller, '/billing/run', { ownerId, billId: `BILL1-${tag}`, cutoffDate: TODAY, periodFrom: day(-3), periodTo: TODAY }, 'BILL_ID_TAKEN');
  });

  it('posts a confirmed bill with an invoice number and date; a posted bill is read only', async () => {
    const db = t.database.db;
    const id = (await db.selectFrom('billing_header').select('id').where('bill_id', '=', `BILL1-${tag}`).executeTakeFirstOrThrow()).id;
    // The sales order of the shipment the bill counted, delivered (entered long ago, so no run counts it as an order itself);
    // of the two orders the bill counted, the first is delivered and the second still new.
    const shipOrder = await orderCalls(t.app, biller, db).enter(`SHIP-${tag}`, ownerId, [{ skuCode: `BA-${tag}`, qty: 5 }]);
    await db.updateTable('so_header').set({ status: 'delivered', created_at: new Date('2000-01-01T00:00:00Z') }).where('id', '=', shipOrder).execute();
    await db.updateTable('so_header').set({ status: 'delivered' }).where('id', '=', soIds[0]).execute();
    const posted = await ok<Bill & { billedOrders: string[] }>(biller, '/billing/post', { id });
    expect(posted.header.status).toBe('posted');
    // Delivered orders the bill charged are billed; an order whose status does not allow it stays as it is.
    expect(posted.billedOrders.sort()).toEqual([`BSO1-${tag}`, `SHIP-${tag}`]);
    const statuses = await db.selectFrom('so_header').select(['id', 'status']).where('id', 'in', [shipOrder, ...soIds]).orderBy('id').execute();
    expect(Object.fromEntries(statuses.map((r) => [Number(r.id), r.status]))).toEqual({ [soIds[0]]: 'billed', [soIds[1]]: 'new', [shipOrder]: 'billed' });
    expect(posted.header.invoice_no).toMatch(/^INV\d{6}\d{5}$/);
    expect(posted.header.invoice_date).toBe(TODAY);
    await refused(biller, '/billing/post', { id }, 'BILL_POSTED_READ_ONLY');
    await refused(biller, '/billing/confirm', { id }, 'BILL_NOT_DRAFT');
    const view = await ok<{ rows: Array<{ _key: number; _version: string }> }>(biller, '/generic/selection', { moduleCode: 'billing', functionCode: 'billingMaintance', page: 1, pageSize: 100, conditions: { combinator: 'and', rules: [{ field: 'bill_id', operator: '=', value: `BILL1-${tag}` }] } });
    const row = view.rows.find((r) => Number(r._key) === Number(id))!;
    await refused(biller, '/generic/updating', { moduleCode: 'billing', functionCode: 'billingMaintance', key: id, version: row._version, record: { bill_to_name: 'Changed' } }, 'BILL_POSTED_READ_ONLY');
    await refused(biller, '/generic/deletion', { moduleCode: 'billing', functionCode: 'billingMaintance', rows: [{ key: id, version: row._version }] }, 'BILL_NOT_DRAFT');
    await refused(biller, '/generic/adding', { moduleCode: 'billing', functionCode: 'billingMaintance', record: { bill_to_name: 'x', exchange_rate: '1' } }, 'BILL_MADE_BY_RUN');
  });
});

describe('two bills confirmed at once', () => {
  it('bills a newly received event on one of them only', async () => {
    const asn = await ok<{ id: number }>(biller, '/asn/saveHeader', { ownerCode, supplierCode: `BSUP-${tag}` });
    const detail = await ok<{ lines: { id: number }[] }>(biller, '/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: `BB-${tag}`, expectedQty: 6 }] });
    await ok(biller, '/inbound/batch/receive', { lines: [{ asnLineId: detail.lines[0].id, qty: 6, locationCode: `BDOCK-${tag}` }] });
    const first = await run(`BILLC1-${tag}`, day(-3), TODAY);
    const second = await run(`BILLC2-${tag}`, day(-1), day(1));
    for (const bill of [first, second]) expect(linesOf(bill)).toContainEqual([`INB-${tag}`, 6, 0.5, '3.00', null]);
    const answers = await Promise.all([first, second].map((bill) => post(biller, '/billing/confirm', { id: bill.header.id })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(json<{ code: string }>(answers.find((a) => a.statusCode === 409)!).code).toBe('BILL_EVENTS_ALREADY_BILLED');
    const statuses = await t.database.db.selectFrom('billing_header').select('status').where('id', 'in', [first.header.id, second.header.id]).execute();
    expect(statuses.map((r) => r.status).sort()).toEqual(['confirmed', 'draft']);
    // The new receipt is billed once under each charge code it was counted by: units and cartons (B has no volume to charge).
    const ledger = await t.database.db.selectFrom('inventory_transaction').select('id').where('owner_id', '=', ownerId).where('trans_type', '=', 'receive').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const billed = await t.database.db.selectFrom('billing_event_billed').select(['charge_code_id']).where('source_kind', '=', 'ledger').where('source_id', '=', ledger.id).execute();
    expect(billed).toHaveLength(2);
  });
});

describe('cancelling a confirmed bill', () => {
  it('takes it back to draft before posting, its events released so a new run bills them', async () => {
    const db = t.database.db;
    const asn = await ok<{ id: number }>(biller, '/asn/saveHeader', { ownerCode, supplierCode: `BSUP-${tag}` });
    const detail = await ok<{ lines: { id: number }[] }>(biller, '/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: `BB-${tag}`, expectedQty: 4 }] });
    await ok(biller, '/inbound/batch/receive', { lines: [{ asnLineId: detail.lines[0].id, qty: 4, locationCode: `BDOCK-${tag}` }] });
    const first = await run(`BILLX1-${tag}`, day(-3), TODAY);
    expect(linesOf(first)).toContainEqual([`INB-${tag}`, 4, 0.5, '2.00', null]);
    await refused(biller, '/billing/cancel', { id: first.header.id }, 'BILL_NOT_CONFIRMED');
    await ok(biller, '/billing/confirm', { id: first.header.id });
    const billedOf = async (headerId: number) => (await db.selectFrom('billing_event_billed').select('source_id').where('header_id', '=', headerId).execute()).length;
    expect(await billedOf(first.header.id)).toBeGreaterThan(0);
    // While it is confirmed, another run leaves the receipt out.
    expect((await run(`BILLX2-${tag}`, day(-3), TODAY)).lines.map((l) => l.charge_code)).not.toContain(`INB-${tag}`);
    // A caller without the confirm right may not cancel.
    expect((await post(noRun, '/billing/cancel', { id: first.header.id })).statusCode).toBe(403);
    const cancelled = await ok<Bill & { released: number }>(biller, '/billing/cancel', { id: first.header.id });
    expect(cancelled.header.status).toBe('draft');
    expect(cancelled.released).toBeGreaterThan(0);
    expect(await billedOf(first.header.id)).toBe(0);
    // The other draft, run again, now counts the receipt and can be confirmed; the cancelled one cannot any more.
    const second = await run(`BILLX2-${tag}`, day(-3), TODAY);
    expect(linesOf(second)).toContainEqual([`INB-${tag}`, 4, 0.5, '2.00', null]);
    await ok(biller, '/billing/confirm', { id: second.header.id });
    await refused(biller, '/billing/confirm', { id: first.header.id }, 'BILL_EVENTS_ALREADY_BILLED');
    // Through the page's button; a posted bill is not cancelled.
    const answer = await ok<{ messageCode: string }>(biller, '/generic/behavior', { moduleCode: 'billing', functionCode: 'billingMaintance', behaviour: 'cancel', keys: [second.header.id], inputs: {} });
    expect(answer.messageCode).toBe('billing.result.cancelled');
    expect((await db.selectFrom('billing_header').select('status').where('id', '=', second.header.id).executeTakeFirstOrThrow()).status).toBe('draft');
    await ok(biller, '/billing/confirm', { id: second.header.id });
    await ok(biller, '/billing/post', { id: second.header.id });
    await refused(biller, '/billing/cancel', { id: second.header.id }, 'BILL_POSTED_READ_ONLY');
    await refused(other, '/billing/cancel', { id: first.header.id }, 'NO_RECORD');
  });
});

describe('a bill in another currency', () => {
  type FxBill = { header: Bill['header'] & { local_currency_code: string; local_total_amount: string; exchange_rate: string }; lines: Array<Bill['lines'][number] & { local_amount: string }> };
  const fxRun = (billId: string, billCurrency: string, from: number, cutoff = from) =>
    post(biller, '/billing/run', { ownerId, billId, cutoffDate: day(cutoff), periodFrom: day(from), periodTo: day(from + 1), billCurrency });

  beforeAll(async () => {
    const db = t.database.db;
    await db.insertInto('currency').values({ code: 'EUR', description: 'EUR', decimals: 2, created_by: 't', updated_by: 't' }).onConflict((oc) => oc.column('code').doNothing()).execute();
    const rate = (to: string, shift: number, value: string) => ({ project_id: projectId, from_currency: 'USD', to_currency: to, rate_date: day(shift), rate: value, created_by: 't', updated_by: 't' });
    await db
      .insertInto('exchange_rate')
      .values([rate('JPY', 30, '140'), rate('JPY', 41, '160'), rate('EUR', 30, '1.234565')])
      .execute();
    // The rate of day 40 is entered on the exchange rate page; a second rate of the pair on that day is refused.
    await add('exchangeRate', { from_currency: 'USD', to_currency: 'JPY', rate_date: day(40), rate: '149.123456' });
    const twice = await post(biller, '/generic/adding', { moduleCode: 'billing', functionCode: 'exchangeRate', record: { from_currency: 'USD', to_currency: 'JPY', rate_date: day(40), rate: '150' } });
    expect(twice.statusCode, twice.body).toBeGreaterThanOrEqual(400);
    expect(twice.statusCode).toBeLessThan(500);
  });

  it('takes the latest rate on or before the cut-off date, each line rounded to the bill currency decimals', async () => {
    // Days 40 and 41 hold nothing but the fixed fee (100.00 USD) and the minimum charge's top-up to 1000 (900.00 USD).
    const yen = json<FxBill>(await fxRun(`FXJ-${tag}`, 'JPY', 40));
    expect(yen.header).toMatchObject({ currency_code: 'USD', total_amount: '1000.00', local_currency_code: 'JPY', exchange_rate: '149.123456' });
    // 100 x 149.123456 = 14912.3456 -> 14912; 900 x 149.123456 = 134211.1104 -> 134211 (yen have no decimals).
    expect(yen.lines.map((l) => [l.charge_code, l.amount, l.local_amount])).toEqual([
      [`FIX-${tag}`, '100.00', '14912'],
      [`MIN-${tag}`, '900.00', '134211'],
    ]);
    expect(yen.header.local_total_amount).toBe('149123');
    // The rate of day 30 is the only one of the pair, so the latest on or before day 40: 100 x 1.234565 = 123.4565 -> 123.46; 900 x 1.234565 = 1111.1085 -> 1111.11.
    const euro = json<FxBill>(await fxRun(`FXE-${tag}`, 'EUR', 40, 40));
    expect(euro.header).toMatchObject({ local_currency_code: 'EUR', exchange_rate: '1.234565', local_total_amount: '1234.57' });
    expect(euro.lines.map((l) => l.local_amount)).toEqual(['123.46', '1111.11']);
    // The contract's own currency: rate 1, the same amounts.
    const dollars = json<FxBill>(await fxRun(`FXU-${tag}`, '', 40));
    expect(dollars.header).toMatchObject({ local_currency_code: 'USD', exchange_rate: '1.000000', local_total_amount: '1000.00' });
    expect(dollars.lines.map((l) => l.local_amount)).toEqual(['100.00', '900.00']);
  });

  it('refuses a bill currency without a rate on or before the cut-off date, and one not in the currency list', async () => {
    const missing = await fxRun(`FXM-${tag}`, 'EUR', 20);
    expect(missing.statusCode).toBe(409);
    expect(json<{ code: string; message: string }>(missing)).toMatchObject({ code: 'BILL_RATE_MISSING', message: `No exchange rate from USD to EUR dated on or before ${day(20)}: enter one on the exchange rate page.` });
    const unknown = await fxRun(`FXX-${tag}`, 'XXQ', 40);
    expect(json<{ code: string }>(unknown).code).toBe('BILL_CURRENCY_UNKNOWN');
    expect(await t.database.db.selectFrom('billing_header').select('id').where('bill_id', 'in', [`FXM-${tag}`, `FXX-${tag}`]).execute()).toEqual([]);
  });
});

describe('the billing job', () => {
  let jobToken: string | undefined;
  const jobUser = async () =>
    (jobToken ??= await createUser(t, { loginAccount: `bill-jobs-${tag}`, rights: ['job.job:view', 'job.job:add', 'job.job:edit', 'job.job:run'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] }));

  /** Makes a job of the class in the session's project with these parameters, runs it now and answers the finished run. */
  async function runJob(params: Record<string, string>): Promise<{ status: string; log: string }> {
    const admin = await jobUser();
    const added = await post(admin, '/generic/adding', { moduleCode: 'job', functionCode: 'job', record: { name: `billing ${params.billId} ${Date.now()}`, handler: 'billing.run', cron_expression: '0 30 0 1 * ?', business_type: 'BILL', retry_limit: 0 } });
    expect(added.statusCode, added.body).toBe(200);
    const jobId = json<{ row: { _key: number } }>(added).row._key;
    let seq = 0;
    for (const [name, value] of Object.entries(params)) {
      seq += 1;
      await t.database.db.insertInto('job_param').values({ job_id: jobId, name, value, seq, created_by: 'test', updated_by: 'test' }).execute();
    }
    const runId = (await ok<{ runId: number }>(admin, '/manual/schedule', { id: jobId })).runId;
    for (let i = 0; i < 600; i += 1) {
      const runs = json<{ items: { id: number; status: string; log: string }[] }>(await injectAs(t.app, admin, { method: 'GET', url: `/api/job/runs?jobId=${jobId}` })).items;
      const found = runs.find((r) => r.id === runId);
      if (found && ['succeeded', 'failed'].includes(found.status)) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the billing job did not finish');
  }

  it('runs billing as a job, each line in the log; a refusal fails the run with its reason', async () => {
    const done = await runJob({ owner: ownerCode, billId: `JOB1-${tag}`, from: day(5), to: day(6) });
    expect(done.status, done.log).toBe('succeeded');
    expect(done.log).toContain(`bill JOB1-${tag}:`);
    expect(done.log).toContain(`MIN-${tag}`);
    const header = await t.database.db.selectFrom('billing_header').select(['status', 'cutoff_date']).where('bill_id', '=', `JOB1-${tag}`).executeTakeFirstOrThrow();
    expect(header.status).toBe('draft');
    const failed = await runJob({ owner: ownerCode, billId: `JOB2-${tag}`, from: day(6), to: day(5) });
    expect(failed.status).toBe('failed');
    expect(failed.log).toContain('BILL_PERIOD_INVALID');
    const unknown = await runJob({ owner: 'NO-SUCH-OWNER', billId: `JOB3-${tag}`, from: day(5), to: day(6) });
    expect(unknown.status).toBe('failed');
    expect(unknown.log).toContain('no owner has the code "NO-SUCH-OWNER"');
  });
});

describe('refusals', () => {
  it('checks the bill id, the period and the cut-off date, in the caller language', async () => {
    const body = { ownerId, billId: `BILL9-${tag}`, cutoffDate: TODAY, periodFrom: day(-3), periodTo: TODAY };
    await refused(biller, '/billing/run', { ...body, billId: '  ' }, 'BILL_ID_REQUIRED');
    const zh = await refused(biller, '/billing/run', { ...body, billId: '' }, 'BILL_ID_REQUIRED', 'zh');
    expect(zh.message).toBe('请输入账单号。');
    await refused(biller, '/billing/run', { ...body, periodFrom: TODAY, periodTo: TODAY }, 'BILL_PERIOD_INVALID');
    await refused(biller, '/billing/run', { ...body, periodFrom: TODAY, periodTo: day(-3) }, 'BILL_PERIOD_INVALID');
    await refused(biller, '/billing/run', { ...body, periodFrom: '2026-02-30' }, 'BILL_PERIOD_INVALID');
    await refused(biller, '/billing/run', { ...body, cutoffDate: day(-4) }, 'BILL_CUTOFF_INVALID');
    await refused(biller, '/billing/run', { ...body, cutoffDate: 'soon' }, 'BILL_CUTOFF_INVALID');
    expect(await t.database.db.selectFrom('billing_header').select('id').where('bill_id', '=', `BILL9-${tag}`).execute()).toEqual([]);
  });

  it("refuses another project's owner, contract and bill, and a caller without the run right", async () => {
    const body = { ownerId, billId: `BILL8-${tag}`, cutoffDate: TODAY, periodFrom: day(-3), periodTo: TODAY };
    await refused(biller, '/billing/run', { ...body, ownerId: otherOwnerId }, 'NO_RECORD');
    await refused(biller, '/billing/run', { ...body, contractId: otherContractId }, 'BILL_NO_CONTRACT');
    await refused(biller, '/billing/confirm', { id: otherBillId }, 'NO_RECORD');
    await refused(biller, '/billing/bill', { id: otherBillId }, 'NO_RECORD');
    // The other project's user sees nothing of this one.
    const mine = (await t.database.db.selectFrom('billing_header').select('id').where('bill_id', '=', `BILL2-${tag}`).executeTakeFirstOrThrow()).id;
    await refused(other, '/billing/bill', { id: mine }, 'NO_RECORD');
    await refused(other, '/billing/run', body, 'NO_RECORD');
    const forbidden = await post(noRun, '/billing/run', body);
    expect(forbidden.statusCode).toBe(403);
    expect(await t.database.db.selectFrom('billing_header').select('id').where('bill_id', '=', `BILL8-${tag}`).execute()).toEqual([]);
  });

  it('runs billing from the bill page form', async () => {
    const answer = await ok<{ messageCode: string; result: { billId: string } }>(biller, '/generic/behavior', {
      moduleCode: 'billing',
      functionCode: 'billingMaintance',
      behaviour: 'run',
      keys: [],
      inputs: { ownerCode, billId: `BILL3-${tag}`, cutoffDate: day(2), periodFrom: day(2), periodTo: day(3) },
    });
    expect(answer.result.billId).toBe(`BILL3-${tag}`);
    // Registered as every run is, for every server's progress.
    const run = await t.database.db.selectFrom('billing_run').select(['status', 'percent', 'header_id']).where('bill_id', '=', `BILL3-${tag}`).executeTakeFirstOrThrow();
    expect(run).toMatchObject({ status: 'done', percent: 100 });
    expect(run.header_id).not.toBeNull();
  });
});

import fs from 'node:fs';
import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { onRealServer } from '../helpers/database.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Order entry around the sales order through the real server: lines,
 * look-ups, manual allocation with the allocation qty required and never above what is available,
 * split, the all-or-nothing order and store-arrival imports, export, the maintenance list,
 * pre-sales orders confirmed into sales orders and shipment orders. Every refusal leaves nothing
 * changed.
 */
let t: TestApp;
let admin: string;
let viewer: string;
let otherWarehouse: string;
let f: OutboundFixture;
let ownerCode: string;
let seq = 0;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, 'D', 10);
  ownerCode = 'OW-D';
  const db = t.database.db;
  const project = await db.selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const wh2 = await db.insertInto('warehouse').values({ organization_id: project.organization_id, code: 'WH2', name: 'Second', nav_layout: null }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: wh2.id }).execute();
  viewer = await createUser(t, { loginAccount: 'so-viewer', rights: ['outbound.so:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  otherWarehouse = await createUser(t, { loginAccount: 'so-wh2', rights: ['outbound.so:view', 'outbound.so:edit', 'outbound.so:allocate', 'outbound.shipmentOrder:view', 'outbound.shipmentOrder:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH2'] });
});

afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown> });
const gen = (functionCode: string, url: string, payload: Record<string, unknown>, token = admin) => post(`/generic/${url}`, { moduleCode: 'outbound', functionCode, ...payload }, token);
const sku = (i: number) => `SKU-D-${i}`;

async function newOrder(lines: Array<{ sku: number; qty: number; lotNo?: string }>): Promise<{ id: number; orderNo: string }> {
  seq += 1;
  const orderNo = `DOC-${seq}`;
  const added = await gen('so', 'adding', { record: { order_no: orderNo, owner_id: f.ownerId, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-01-31' } });
  expect(added.statusCode, added.body).toBe(200);
  const id = json<{ row: { _key: number } }>(added).row._key;
  if (lines.length) {
    const saved = await post('/so/save/soDetail', { soId: id, lines: lines.map((l) => ({ skuCode: sku(l.sku), qty: l.qty, lotNo: l.lotNo ?? null })) });
    expect(saved.statusCode, saved.body).toBe(200);
  }
  return { id, orderNo };
}

async function linesOf(soId: number) {
  return t.database.db.selectFrom('so_line').select(['id', 'line_no', 'sku_id', 'qty', 'allocated_qty', 'lot_no', 'required_date']).where('so_id', '=', soId).orderBy('line_no').execute();
}

async function status(soId: number) {
  return (await t.database.db.selectFrom('so_header').select('status').where('id', '=', soId).executeTakeFirstOrThrow()).status;
}

async function balances() {
  return t.database.db.selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty']).orderBy('id').execute();
}

async function expectLedgerAgrees() {
  for (const row of await ledgerAgreement(t.database.db)) {
    expect(new Decimal(row.ledger_allocated).equals(row.allocated_qty), `allocated of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
  }
}

function refused(response: { statusCode: number; body: string }, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(json(response as never)).toMatchObject({ code });
}

function multipart(url: string, fileName: string, content: Buffer, token = admin, fields: Record<string, string> = {}) {
  const boundary = '----soDocuments';
  const parts = [
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  return injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

async function xlsx(header: string[], rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('orders');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('order lines', () => {
  it('adds and saves lines of a new order; every bad line listed and nothing written', async () => {
    const order = await newOrder([]);
    const created = await post('/so/create/soDetail', { soId: order.id, skuCode: sku(0), qty: 3 });
    expect(created.statusCode, created.body).toBe(200);
    const [line] = await linesOf(order.id);
    expect(line).toMatchObject({ line_no: 1, qty: expect.stringMatching(/^3(\.0+)?$/) });

    // Quantities are refused by the request's rule, every one at once, before any line is looked at.
    const badQty = await post('/so/save/soDetail', { soId: order.id, lines: [{ id: line.id, skuCode: sku(0), qty: 0 }, { skuCode: 'NO-SUCH', qty: 1 }, { skuCode: sku(1), qty: -2 }] });
    expect(badQty.statusCode).toBe(400);
    expect(json<{ details: { field: string; code: string }[] }>(badQty).details.map((d) => `${d.field}:${d.code}`)).toEqual(['lines[0].qty:QTY_NOT_POSITIVE', 'lines[2].qty:QTY_NOT_POSITIVE']);
    const bad = await post('/so/save/soDetail', { soId: order.id, lines: [{ id: line.id, skuCode: 'NO-SUCH-2', qty: 4 }, { skuCode: 'NO-SUCH', qty: 1 }, { skuCode: sku(1), qty: 2 }] });
    expect(bad.statusCode).toBe(400);
    expect(json<{ details: { field: string; code: string }[] }>(bad).details.map((d) => `${d.field}:${d.code}`)).toEqual(['lines[0].skuCode:INVALID_SKU', 'lines[1].skuCode:INVALID_SKU']);
    expect(await linesOf(order.id)).toEqual([line]);

    const saved = await post('/so/save/soDetail', { soId: order.id, lines: [{ id: line.id, skuCode: sku(0), qty: 5 }, { skuCode: sku(1), qty: 2, requiredDate: '2030-02-01' }] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await linesOf(order.id)).map((l) => [l.line_no, Number(l.qty)])).toEqual([
      [1, 5],
      [2, 2],
    ]);
    const deleted = await post('/so/save/soDetail', { soId: order.id, lines: [], deleteLineIds: [line.id] });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await linesOf(order.id)).map((l) => l.line_no)).toEqual([2]);
  });

  it('refuses lines of an order that is not new, another warehouse and a caller without the edit right', async () => {
    await stock(t.database.db, f, f.skuIds[2], f.locationIds[1], 10);
    const order = await newOrder([{ sku: 2, qty: 1 }]);
    expect((await post('/so/header/allocation', { soIds: [order.id] })).statusCode).toBe(200);
    expect(await status(order.id)).toBe('allocated');
    const before = await linesOf(order.id);
    refused(await post('/so/create/soDetail', { soId: order.id, skuCode: sku(2), qty: 1 }), 409, 'ORDER_STATUS_ERROR');
    refused(await post('/so/create/soDetail', { soId: order.id, skuCode: sku(2), qty: 1 }, viewer), 403, 'FORBIDDEN');
    refused(await post('/so/save/soDetail', { soId: order.id, lines: [] }, otherWarehouse), 404, 'NO_RECORD');
    refused(await post('/so/balance', { soId: order.id }, otherWarehouse), 404, 'NO_RECORD');
    expect((await post('/so/create/soDetail', { soId: order.id, skuCode: sku(2), qty: 'x' })).statusCode).toBe(400);
    expect(await linesOf(order.id)).toEqual(before);
    // Unallocate by order gives the stock back.
    expect((await post('/so/header/allocation', { soIds: [order.id], unallocate: true })).statusCode).toBe(200);
    expect(await status(order.id)).toBe('new');
    await expectLedgerAgrees();
  });
});

describe('look-ups', () => {
  it('finds SKUs of the order owner with what is available, and availability per line', async () => {
    await stock(t.database.db, f, f.skuIds[3], f.locationIds[1], 4);
    await stock(t.database.db, f, f.skuIds[3], f.locationIds[2], 6, {}, 6);
    const order = await newOrder([{ sku: 3, qty: 7 }]);
    const skus = json<{ skus: { code: string; available: string }[] }>(await post('/so/sku', { soId: order.id, text: 'SKU-D-3' }, viewer)).skus;
    expect(skus.map((s) => [s.code, Number(s.available)])).toEqual([[sku(3), 4]]);
    expect(json<{ skus: unknown[] }>(await post('/so/sku', { ownerCode, text: 'SKU-D' })).skus).toHaveLength(10);
    refused(await post('/so/sku', { ownerCode: 'NOBODY', text: 'x' }), 404, 'NO_RECORD');
    const balance = json<{ lines: { open: string; available: string; short: string }[] }>(await post('/so/balance', { soId: order.id }, viewer));
    expect(balance.lines.map((l) => [Number(l.open), Number(l.available), Number(l.short)])).toEqual([[7, 4, 3]]);
  });
});

describe('allocation by line and by hand', () => {
  it('allocates a line by its rules through /so/detail/allocation', async () => {
    await stock(t.database.db, f, f.skuIds[4], f.locationIds[1], 5);
    const order = await newOrder([
      { sku: 4, qty: 2 },
      { sku: 4, qty: 9 },
    ]);
    const [first, second] = await linesOf(order.id);
    const result = json<{ shortages: unknown[] }>(await post('/so/detail/allocation', { lineIds: [first.id] }));
    expect(result.shortages).toEqual([]);
    expect((await linesOf(order.id)).map((l) => Number(l.allocated_qty))).toEqual([2, 0]);
    expect(await status(order.id)).toBe('partial_allocated');
    const short = json<{ shortages: { short: string }[] }>(await post('/so/detail/allocation', { lineIds: [second.id] }));
    expect(short.shortages.map((s) => Number(s.short))).toEqual([6]);
    refused(await post('/so/detail/allocation', { lineIds: [second.id] }, viewer), 403, 'FORBIDDEN');
    await expectLedgerAgrees();
  });

  it('lists candidates without held or expired stock; the allocation qty is required and never above available', async () => {
    const good = await stock(t.database.db, f, f.skuIds[5], f.locationIds[1], 5, { lotNo: 'G', expiryDate: '2031-01-01' });
    await stock(t.database.db, f, f.skuIds[5], f.locationIds[2], 3, { lotNo: 'H' }, 3);
    await stock(t.database.db, f, f.skuIds[5], f.locationIds[3], 8, { lotNo: 'X', expiryDate: '2020-01-01' });
    const order = await newOrder([{ sku: 5, qty: 10 }]);
    const [line] = await linesOf(order.id);
    const found = json<{ open: string; candidates: { balance_id: number; lot_id: number; available: string }[] }>(await post('/so/findAllocation', { lineId: line.id }, viewer));
    expect(Number(found.open)).toBe(10);
    expect(found.candidates.map((c) => [c.lot_id, Number(c.available)])).toEqual([[good, 5]]);
    const balanceId = found.candidates[0].balance_id;
    const heldOrExpired = (await t.database.db.selectFrom('inventory_balance').select('id').where('sku_id', '=', f.skuIds[5]).where('id', '!=', balanceId).execute()).map((b) => b.id);
    const before = await balances();

    const missing = await post('/so/manualAllocation', { lineId: line.id, allocations: [{ balanceId }] });
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'allocations[0].qty', code: 'ALLOCATION_QTY_REQUIRED' }] });
    refused(await post('/so/manualAllocation', { lineId: line.id, allocations: [] }), 400, 'VALIDATION_FAILED');
    refused(await post('/so/manualAllocation', { lineId: line.id, allocations: [{ balanceId, qty: 0 }] }), 400, 'QTY_NOT_POSITIVE');
    refused(await post('/so/manualAllocation', { lineId: line.id, allocations: [{ balanceId, qty: 6 }] }), 409, 'INSUFFICIENT_INVENTORY');
    for (const other of heldOrExpired) refused(await post('/so/manualAllocation', { lineId: line.id, allocations: [{ balanceId: other, qty: 1 }] }), 409, 'INSUFFICIENT_INVENTORY');
    refused(await post('/so/manualAllocation', { lineId: line.id, allocations: [{ balanceId, qty: 1 }] }, viewer), 403, 'FORBIDDEN');
    refused(await post('/so/manualAllocation', { lineId: line.id, allocations: [{ balanceId, qty: 1 }] }, otherWarehouse), 404, 'NO_RECORD');
    expect(await balances()).toEqual(before);
    expect(Number((await linesOf(order.id))[0].allocated_qty)).toBe(0);

    const done = await post('/so/manualAllocation', { lineId: line.id, allocations: [{ balanceId, qty: '4' }] });
    expect(done.statusCode, done.body).toBe(200);
    expect(json(done)).toMatchObject({ status: 'partial_allocated' });
    expect(Number((await linesOf(order.id))[0].allocated_qty)).toBe(4);
    refused(await post('/so/manualAllocation', { lineId: line.id, allocations: [{ balanceId, qty: 2 }] }), 409, 'INSUFFICIENT_INVENTORY');
    // What was allocated by hand is given back exactly by unallocation.
    expect((await post('/so/detail/allocation', { lineIds: [line.id], unallocate: true })).statusCode).toBe(200);
    expect(Number((await balances()).find((b) => b.id === balanceId)!.allocated_qty)).toBe(0);
    await expectLedgerAgrees();
  });

  it.runIf(onRealServer)('never allocates above available when many sessions allocate the same balance by hand', async () => {
    await stock(t.database.db, f, f.skuIds[6], f.locationIds[1], 10);
    const orders = await Promise.all(Array.from({ length: 8 }, () => newOrder([{ sku: 6, qty: 3 }])));
    const lineIds = await Promise.all(orders.map(async (o) => (await linesOf(o.id))[0].id));
    const balanceId = json<{ candidates: { balance_id: number }[] }>(await post('/so/findAllocation', { lineId: lineIds[0] })).candidates[0].balance_id;
    const answers = await Promise.all(lineIds.map((lineId) => post('/so/manualAllocation', { lineId, allocations: [{ balanceId, qty: 3 }] })));
    const accepted = answers.filter((a) => a.statusCode === 200).length;
    expect(accepted).toBe(3);
    for (const a of answers.filter((x) => x.statusCode !== 200)) expect(json(a)).toMatchObject({ code: 'INSUFFICIENT_INVENTORY' });
    const row = (await balances()).find((b) => b.id === balanceId)!;
    expect(Number(row.allocated_qty)).toBe(9);
    await expectLedgerAgrees();
  });
});

describe('split of an order line', () => {
  it('needs from- and to-values, refuses duplicates and a wrong from-value, then splits', async () => {
    const order = await newOrder([{ sku: 7, qty: 10, lotNo: 'A1' }]);
    const [line] = await linesOf(order.id);
    const split = (changes: unknown[], qty: unknown = 4) => post('/so/split', { lineId: line.id, qty, changes });
    refused(await split([{ field: 'lot_no', fromValue: 'A1', toValue: '' }]), 400, 'SPLIT_VALUE_REQUIRED');
    refused(await split([{ field: 'lot_no', fromValue: 'A1', toValue: 'B' }, { field: 'lot_no', fromValue: 'A1', toValue: 'C' }]), 400, 'SPLIT_DUPLICATE_FIELD');
    refused(await split([{ field: 'lot_no', fromValue: 'ZZ', toValue: 'B' }]), 409, 'SPLIT_NOT_ALLOWED');
    refused(await split([{ field: 'sku_id', fromValue: '1', toValue: '2' }]), 409, 'SPLIT_NOT_ALLOWED');
    refused(await split([{ field: 'lot_no', fromValue: 'A1', toValue: 'B' }], 10), 409, 'SPLIT_NOT_ALLOWED');
    expect(await linesOf(order.id)).toEqual([line]);
    const done = await split([
      { field: 'lot_no', fromValue: 'A1', toValue: 'B2' },
      { field: 'required_date', fromValue: '', toValue: '2030-03-01' },
    ]);
    expect(done.statusCode).toBe(400);
    const ok = await split([{ field: 'lot_no', fromValue: 'A1', toValue: 'B2' }]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await linesOf(order.id)).map((l) => [l.line_no, Number(l.qty), l.lot_no])).toEqual([
      [1, 6, 'A1'],
      [2, 4, 'B2'],
    ]);
  });
});

describe('import and export of orders', () => {
  const header = ['Order no', 'Owner', 'Ship-to name', 'Address (English)', 'Address (Chinese)', 'Ship date', 'SKU', 'Qty', 'UOM'];

  it('imports orders all or none, listing every bad row', async () => {
    const countOrders = async () => (await t.database.db.selectFrom('so_header').select('id').where('order_no', 'like', 'IMP-%').execute()).length;
    const bad = await multipart(
      '/so/import',
      'orders.xlsx',
      await xlsx(header, [
        ['IMP-1', ownerCode, 'Shop 1', '1 Road', '', '2030-01-31', sku(0), 2, 'EA'],
        ['IMP-1', ownerCode, 'Shop 1', '1 Road', '', '2030-01-31', 'NO-SUCH', 1, 'EA'],
        ['IMP-2', ownerCode, 'Shop 2', '', '', '2030-01-31', sku(1), 0, 'EA'],
        ['IMP-3', ownerCode, 'Shop 3', '3 Road', '', '2030-01-31', sku(2), 1, 'EA'],
      ]),
    );
    expect(bad.statusCode, bad.body).toBe(400);
    const body = json<{ code: string; details: { field: string; code: string; params: { row: number } }[] }>(bad);
    expect(body.code).toBe('IMPORT_REJECTED');
    expect([...new Set(body.details.map((d) => d.params.row))].sort()).toEqual([3, 4]);
    expect(body.details.map((d) => d.code).sort()).toEqual(['ADDRESS_CHINESE_REQUIRED', 'INVALID_SKU', 'QTY_NOT_POSITIVE']);
    expect(await countOrders()).toBe(0);
    refused(await multipart('/so/import', 'orders.xlsx', await xlsx(header, [['IMP-1', ownerCode, 'S', '1 Road', '', '', sku(0), 1, '']]), viewer), 403, 'FORBIDDEN');
    refused(await multipart('/so/import', 'orders.pdf', Buffer.from('x')), 400, 'IMPORT_FILE_INVALID');

    const good = await multipart(
      '/so/import',
      'orders.xlsx',
      await xlsx(header, [
        ['IMP-1', ownerCode, 'Shop 1', '1 Road', '', '2030-01-31', sku(0), 2, 'EA'],
        ['IMP-1', ownerCode, 'Shop 1', '1 Road', '', '2030-01-31', sku(1), 1, ''],
        ['IMP-2', ownerCode, 'Shop 2', '', '上海市1号', '2030-01-31', sku(1), 5, 'EA'],
      ]),
    );
    expect(good.statusCode, good.body).toBe(200);
    expect(json(good)).toEqual({ orders: 2, lines: 3 });
    expect(await countOrders()).toBe(2);
    const again = await multipart('/so/import', 'orders.csv', Buffer.from(`${header.join(',')}\r\nIMP-2,${ownerCode},S,1 Road,,,${sku(1)},1,EA\r\n`));
    expect(json(again)).toMatchObject({ code: 'IMPORT_REJECTED', details: [{ code: 'FIELD_NOT_UNIQUE' }] });
  });

  it('imports order headers through the engine with the /so page field map: every bad row listed, nothing written', async () => {
    const fields = { moduleCode: 'outbound', functionCode: 'so', fieldMap: 'default' };
    const head = ['Order no', 'Owner', 'Customer order no', 'Ship-to name', 'Address (English)', 'Address (Chinese)', 'Carrier', 'Ship date'];
    const count = async () => (await t.database.db.selectFrom('so_header').select('id').where('order_no', 'like', 'ENG-%').execute()).length;
    const bad = await multipart(
      '/generic/import',
      'so.xlsx',
      await xlsx(head, [
        ['ENG-1', ownerCode, '', 'Shop', '1 Road', '', 'DHL', '2030-01-31'],
        ['ENG-2', ownerCode, '', 'Shop', '上海路', '', 'DHL', '2030-01-31'],
        ['ENG-3', 'NOBODY', '', 'Shop', '3 Road', '', 'DHL', '2030-01-31'],
      ]),
      admin,
      fields,
    );
    expect(bad.statusCode, bad.body).toBe(400);
    const body = json<{ code: string; details: { params: { row: number } }[] }>(bad);
    expect(body.code).toBe('IMPORT_REJECTED');
    expect([...new Set(body.details.map((d) => d.params.row))].sort()).toEqual([3, 4]);
    expect(await count()).toBe(0);
    const good = await multipart('/generic/import', 'so.xlsx', await xlsx(head, [['ENG-1', ownerCode, '', 'Shop', '1 Road', '', 'DHL', '2030-01-31']]), admin, fields);
    expect(good.statusCode, good.body).toBe(200);
    expect(await count()).toBe(1);
  });

  it('streams the orders as xlsx and csv', async () => {
    const x = await post('/so/export', {}, viewer);
    expect(x.statusCode).toBe(200);
    expect(x.headers['content-type']).toMatch(/spreadsheetml/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(x.rawPayload as unknown as ArrayBuffer);
    const lineCount = (await t.database.db.selectFrom('so_line').select('id').execute()).length;
    expect(workbook.worksheets[0].rowCount).toBe(lineCount + 1);
    const csv = await post('/so/export', { format: 'csv', status: 'new' }, viewer);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toContain('Order no');
    expect(csv.body).toContain('IMP-1');
    expect((await post('/so/export', { status: 'nonsense' })).statusCode).toBe(400);
  });

  it('imports store-arrival times all or none', async () => {
    const arrivalOf = async (orderNo: string) => (await t.database.db.selectFrom('so_header').select('store_arrival_at').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).store_arrival_at;
    const cancelled = await newOrder([]);
    expect((await gen('so', 'behavior', { behaviour: 'cancel', keys: [cancelled.id], inputs: {} })).statusCode).toBe(200);
    const bad = await multipart('/so/importStoreArrival', 'arrival.xlsx', await xlsx(['Order no', 'Arrival'], [['IMP-1', '2030-02-01 09:30'], ['NOPE', '2030-02-01'], [cancelled.orderNo, 'tomorrow']]));
    expect(bad.statusCode, bad.body).toBe(400);
    const details = json<{ details: { params: { row: number }; code: string }[] }>(bad).details;
    expect(details.map((d) => `${d.params.row}:${d.code}`)).toEqual(['3:NO_RECORD', '4:ORDER_STATUS_ERROR', '4:FIELD_TYPE']);
    expect(await arrivalOf('IMP-1')).toBeNull();
    const good = await multipart('/so/importStoreArrival', 'arrival.xlsx', await xlsx(['Order no', 'Arrival'], [['IMP-1', '2030-02-01 09:30'], ['IMP-2', new Date(Date.UTC(2030, 1, 2, 8, 0))]]));
    expect(good.statusCode, good.body).toBe(200);
    expect((await arrivalOf('IMP-1'))?.toISOString()).toBe('2030-02-01T09:30:00.000Z');
    expect((await arrivalOf('IMP-2'))?.toISOString()).toBe('2030-02-02T08:00:00.000Z');
  });
});

describe('maintenance list', () => {
  it('adds, lists and deletes entries; an order under maintenance is left alone', async () => {
    const order = await newOrder([{ sku: 8, qty: 1 }]);
    refused(await post('/so/addMaintenanceList', { entries: [{ orderNo: 'NOPE' }] }), 400, 'VALIDATION_FAILED');
    refused(await post('/so/addMaintenanceList', { entries: [{ orderNo: order.orderNo, skuCode: sku(8) }] }), 400, 'VALIDATION_FAILED');
    refused(await post('/so/addMaintenanceList', { entries: [{ orderNo: order.orderNo }] }, viewer), 403, 'FORBIDDEN');
    expect(json<{ entries: unknown[] }>(await post('/so/getMaintenanceList', {}, viewer)).entries).toEqual([]);
    const added = await post('/so/addMaintenanceList', { entries: [{ orderNo: order.orderNo, reason: 'address check' }, { skuCode: sku(9) }] });
    expect(json(added)).toEqual({ added: 2 });
    const entries = json<{ entries: { id: number; order_no: string | null; sku_code: string | null }[] }>(await post('/so/getMaintenanceList', {}, viewer)).entries;
    expect(entries.map((e) => e.order_no ?? e.sku_code)).toEqual([order.orderNo, sku(9)]);
    expect(json<{ entries: unknown[] }>(await post('/so/getMaintenanceList', {}, otherWarehouse)).entries).toEqual([]);
    const before = await linesOf(order.id);
    refused(await post('/so/create/soDetail', { soId: order.id, skuCode: sku(8), qty: 1 }), 409, 'ORDER_UNDER_MAINTENANCE');
    const other = await newOrder([]);
    refused(await post('/so/create/soDetail', { soId: other.id, skuCode: sku(9), qty: 1 }), 409, 'ORDER_UNDER_MAINTENANCE');
    expect(await linesOf(order.id)).toEqual(before);
    refused(await post('/so/deleteMaintenanceList', { ids: [entries[0].id] }, otherWarehouse), 404, 'NO_RECORD');
    expect(json(await post('/so/deleteMaintenanceList', { ids: entries.map((e) => e.id) }))).toEqual({ deleted: 2 });
    expect((await post('/so/create/soDetail', { soId: order.id, skuCode: sku(8), qty: 1 })).statusCode).toBe(200);
  });
});

describe('pre-sales orders and shipment orders', () => {
  it('confirms a pre-sales order into a sales order once', async () => {
    const added = await gen('pso', 'adding', { record: { pso_no: 'PSO-1', owner_id: f.ownerId, ship_to_address_en: '9 Quay', required_ship_date: '2030-04-01' } });
    expect(added.statusCode, added.body).toBe(200);
    const psoId = json<{ row: { _key: number } }>(added).row._key;
    refused(await gen('pso', 'behavior', { behaviour: 'confirm', keys: [psoId], inputs: {} }), 409, 'DOCUMENT_NO_LINES');
    expect((await gen('psoDetail', 'adding', { record: { pso_id: psoId, sku_id: f.skuIds[1], qty: '3' } })).statusCode).toBe(200);
    refused(await gen('psoDetail', 'adding', { record: { pso_id: psoId, sku_id: 999999, qty: '3' } }), 400, 'VALIDATION_FAILED');
    const confirmed = await gen('pso', 'behavior', { behaviour: 'confirm', keys: [psoId], inputs: {} });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const so = await t.database.db.selectFrom('so_header').selectAll().where('order_no', '=', 'PSO-1').executeTakeFirstOrThrow();
    expect(so).toMatchObject({ status: 'new', ship_to_address_en: '9 Quay', owner_id: f.ownerId });
    expect((await linesOf(so.id)).map((l) => [l.sku_id, Number(l.qty)])).toEqual([[f.skuIds[1], 3]]);
    const pso = await t.database.db.selectFrom('pso_header').select(['status', 'so_id']).where('id', '=', psoId).executeTakeFirstOrThrow();
    expect(pso).toEqual({ status: 'confirmed', so_id: so.id });
    refused(await gen('pso', 'behavior', { behaviour: 'confirm', keys: [psoId], inputs: {} }), 409, 'ORDER_STATUS_ERROR');
    refused(await gen('psoDetail', 'adding', { record: { pso_id: psoId, sku_id: f.skuIds[1], qty: '1' } }), 409, 'ORDER_STATUS_ERROR');
    expect((await t.database.db.selectFrom('so_header').select('id').where('order_no', '=', 'PSO-1').execute()).length).toBe(1);
  });

  it('groups orders on an open shipment order', async () => {
    const added = await gen('shipmentOrder', 'adding', { record: { shipment_no: 'SHP-1', carrier_code: 'DHL', shipment_reference: 'REF-1', expected_delivery_date: '2030-05-02', gateway: 'HKG', service: 'EXPRESS', service_provider: 'DHL Express', battery: 'none' } });
    expect(added.statusCode, added.body).toBe(200);
    const shipmentId = json<{ row: { _key: number } }>(added).row._key;
    const a = await newOrder([]);
    const b = await newOrder([]);
    refused(await post('/so/addOrderToShipmentId', { shipmentOrderId: shipmentId, soIds: [a.id] }, viewer), 403, 'FORBIDDEN');
    refused(await post('/so/addOrderToShipmentId', { shipmentOrderId: shipmentId, soIds: [a.id] }, otherWarehouse), 404, 'NO_RECORD');
    expect(json(await post('/so/addOrderToShipmentId', { shipmentOrderId: shipmentId, soIds: [a.id, b.id] }))).toEqual({ added: 2 });
    const found = json<{ status: string; orders: { order_no: string }[] }>(await post('/so/findShipmentReference', { shipmentNo: 'SHP-1' }));
    expect(found.orders.map((o) => o.order_no)).toEqual([a.orderNo, b.orderNo]);
    refused(await post('/so/findShipmentReference', { shipmentNo: 'NOPE' }), 404, 'NO_RECORD');
  });
});

describe('the project-generic order page /proj_ge', () => {
  it('ships a default page of the project\'s orders until the project publishes its own, then the project\'s definition', async () => {
    const view = () => injectAs(t.app, admin, { method: 'GET', url: '/api/generic/module/view?moduleCode=outbound&functionCode=proj_ge' });
    const shipped = await view();
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.body).toContain('outbound.page.proj_ge');
    const before = await newOrder([]);
    const listed = json<{ rows: Array<{ order_no: string; status: string }> }>(await gen('proj_ge', 'selection', { page: 1, pageSize: 100 })).rows;
    expect(listed.find((r) => r.order_no === before.orderNo)).toMatchObject({ status: 'new' });
    const menu = await t.database.db.selectFrom('sys_module').select(['right_name', 'route']).where('code', '=', 'proj_ge').executeTakeFirstOrThrow();
    expect(menu.right_name).toBe('outbound.proj_ge');
    const so = JSON.parse(fs.readFileSync('definitions/outbound/so.page.json', 'utf8')) as Record<string, unknown> & { fields: Array<{ name: string }> };
    const content = {
      schemaVersion: 2,
      moduleCode: 'outbound',
      functionCode: 'proj_ge',
      titleCode: 'outbound.page.so',
      genericName: 'Orders of this project',
      status: 'draft',
      paging: true,
      pageSize: 20,
      table: { name: 'so_header' },
      scope: 'warehouse',
      readOnly: true,
      versionField: null,
      defaultSort: [{ field: 'order_no', direction: 'asc' }],
      fields: so.fields.filter((f) => ['order_no', 'owner_id', 'status'].includes(f.name)),
    };
    const draft = await injectAs(t.app, admin, { method: 'PUT', url: '/api/generic/draft', payload: { moduleCode: 'outbound', functionCode: 'proj_ge', content } });
    expect(draft.statusCode, draft.body).toBe(200);
    const published = await injectAs(t.app, admin, { method: 'POST', url: '/api/generic/publish', payload: { moduleCode: 'outbound', functionCode: 'proj_ge' } });
    expect(published.statusCode, published.body).toBe(200);
    const stored = await t.database.db
      .selectFrom('page_definition')
      .select(['project_id', 'status'])
      .where('module_code', '=', 'outbound')
      .where('function_code', '=', 'proj_ge')
      .where('status', '=', 'published')
      .where('project_id', 'is not', null)
      .execute();
    expect(stored.map((r) => r.project_id)).toEqual([f.scope.projectId]);
    const own = await view();
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('Orders of this project');
    const order = await newOrder([]);
    const rows = json<{ rows: Array<{ order_no: string }> }>(await gen('proj_ge', 'selection', { page: 1, pageSize: 100 })).rows;
    expect(rows.map((r) => r.order_no)).toContain(order.orderNo);
  });
});

describe('lot attributes and minimum shelf life', () => {
  let lm: OutboundFixture;
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    lm = await outboundFixture(t.database.db, 'LM', 2);
  });

  async function lmOrder(line: Record<string, unknown>): Promise<{ id: number; lineId: number }> {
    seq += 1;
    const added = await gen('so', 'adding', { record: { order_no: `LM-${seq}`, owner_id: lm.ownerId, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-01-31' } });
    const id = json<{ row: { _key: number } }>(added).row._key;
    const saved = await post('/so/save/soDetail', { soId: id, lines: [{ skuCode: 'SKU-LM-0', ...line }] });
    expect(saved.statusCode, saved.body).toBe(200);
    return { id, lineId: Number((await linesOf(id))[0].id) };
  }

  const heldLots = async (soId: number) =>
    (await t.database.db.selectFrom('so_allocation as a').innerJoin('inventory_balance as b', 'b.id', 'a.balance_id').select(['b.lot_id', 'a.qty']).where('a.so_id', '=', soId).execute()).map((r) => [r.lot_id, Number(r.qty)]);

  it('allocates, lists and counts only lots whose attributes the line asks for, against FEFO', async () => {
    const sooner = await stock(t.database.db, lm, lm.skuIds[0], lm.locationIds[1], 10, { lotNo: 'P', expiryDate: inDays(200), udf1: 'PLAIN' });
    const organic = await stock(t.database.db, lm, lm.skuIds[0], lm.locationIds[2], 4, { lotNo: 'Q', expiryDate: inDays(400), udf1: 'ORGANIC', udf2: 'HALAL' });
    await t.database.db.insertInto('so_rule').values({ project_id: lm.scope.projectId, owner_id: lm.ownerId, sku_id: null, strategy: 'fefo', min_shelf_life_days: 0 }).execute();

    const order = await lmOrder({ qty: 6, udf1: ' ORGANIC ', udf2: 'HALAL' });
    expect(await t.database.db.selectFrom('so_line').select(['udf1', 'udf2', 'udf3']).where('so_id', '=', order.id).executeTakeFirstOrThrow()).toEqual({ udf1: 'ORGANIC', udf2: 'HALAL', udf3: null });
    const balance = json<{ lines: { available: string; short: string }[] }>(await post('/so/balance', { soId: order.id }));
    expect(balance.lines.map((l) => [Number(l.available), Number(l.short)])).toEqual([[4, 2]]);
    const found = json<{ candidates: { lot_id: number }[] }>(await post('/so/findAllocation', { lineId: order.lineId }));
    expect(found.candidates.map((c) => c.lot_id)).toEqual([organic]);

    const result = json<{ shortages: { short: string }[] }>(await post('/so/header/allocation', { soIds: [order.id] }));
    expect(result.shortages.map((s) => Number(s.short))).toEqual([2]);
    expect(await heldLots(order.id)).toEqual([[organic, 4]]);
    expect(await status(order.id)).toBe('partial_allocated');

    // The same SKU without attributes takes the earliest expiry.
    const plain = await lmOrder({ qty: 3 });
    expect((await post('/so/header/allocation', { soIds: [plain.id] })).statusCode).toBe(200);
    expect(await heldLots(plain.id)).toEqual([[sooner, 3]]);
    await expectLedgerAgrees();
  });

  it('keeps lots below the rule minimum shelf life out of manual allocation, candidates and availability', async () => {
    const short = await stock(t.database.db, lm, lm.skuIds[1], lm.locationIds[1], 5, { lotNo: 'S', expiryDate: inDays(10) });
    const long = await stock(t.database.db, lm, lm.skuIds[1], lm.locationIds[2], 5, { lotNo: 'L', expiryDate: inDays(100) });
    await t.database.db.insertInto('so_rule').values({ project_id: lm.scope.projectId, owner_id: lm.ownerId, sku_id: lm.skuIds[1], strategy: 'fefo', min_shelf_life_days: 30 }).execute();
    const order = await lmOrder({ skuCode: 'SKU-LM-1', qty: 8 });
    const balance = json<{ lines: { available: string }[] }>(await post('/so/balance', { soId: order.id }));
    expect(balance.lines.map((l) => Number(l.available))).toEqual([5]);
    const found = json<{ candidates: { lot_id: number }[] }>(await post('/so/findAllocation', { lineId: order.lineId }));
    expect(found.candidates.map((c) => c.lot_id)).toEqual([long]);

    const shortBalance = await t.database.db.selectFrom('inventory_balance').select('id').where('lot_id', '=', short).executeTakeFirstOrThrow();
    const before = await balances();
    refused(await post('/so/manualAllocation', { lineId: order.lineId, allocations: [{ balanceId: shortBalance.id, qty: 1 }] }), 409, 'INSUFFICIENT_INVENTORY');
    expect(await balances()).toEqual(before);
    expect(await heldLots(order.id)).toEqual([]);

    const longBalance = await t.database.db.selectFrom('inventory_balance').select('id').where('lot_id', '=', long).executeTakeFirstOrThrow();
    expect((await post('/so/manualAllocation', { lineId: order.lineId, allocations: [{ balanceId: longBalance.id, qty: 5 }] })).statusCode).toBe(200);
    expect(await heldLots(order.id)).toEqual([[long, 5]]);
    await expectLedgerAgrees();
  });

  it('imports the lot attributes a line asks for', async () => {
    const header = ['Order no', 'Owner', 'Address (English)', 'Ship date', 'SKU', 'Qty', 'Lot attribute 1', 'Lot attribute 3'];
    const imported = await multipart('/so/import', 'orders.xlsx', await xlsx(header, [['LM-IMP', 'OW-LM', '1 Road', '2030-01-31', 'SKU-LM-0', 2, 'ORGANIC', 'EXPORT']]));
    expect(imported.statusCode, imported.body).toBe(200);
    const line = await t.database.db.selectFrom('so_line as l').innerJoin('so_header as h', 'h.id', 'l.so_id').select(['l.udf1', 'l.udf2', 'l.udf3']).where('h.order_no', '=', 'LM-IMP').executeTakeFirstOrThrow();
    expect(line).toEqual({ udf1: 'ORGANIC', udf2: null, udf3: 'EXPORT' });
  });

  it('splits a line into one that asks for another lot attribute', async () => {
    const order = await lmOrder({ qty: 5, udf3: 'EXPORT' });
    const split = await post('/so/split', { lineId: order.lineId, qty: 2, changes: [{ field: 'udf3', fromValue: 'EXPORT', toValue: 'LOCAL' }] });
    expect(split.statusCode, split.body).toBe(200);
    const lines = await t.database.db.selectFrom('so_line').select(['qty', 'udf3']).where('so_id', '=', order.id).orderBy('line_no').execute();
    expect(lines.map((l) => [Number(l.qty), l.udf3])).toEqual([
      [3, 'EXPORT'],
      [2, 'LOCAL'],
    ]);
  });
});

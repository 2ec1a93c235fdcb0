import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * One quantity rule for every route that takes a quantity: a JSON number or a numeric text, above
 * 0 (a count or a short pick may be 0), at most four decimals and at most 10^12. Anything else is
 * refused with a field error before the database sees it, never rounded to something else and
 * never answered 500. And a refusal of the database itself (a stale pick task breaking a check) is
 * a 4xx with a clear code, nothing changed.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let sku: string;
let from: string;
let to: string;
let dock: string;

interface Refusal {
  code: string;
  message: string;
  details?: Array<{ field: string; code: string; message: string; params?: Record<string, unknown> }>;
}

const post = (url: string, payload: unknown, language = 'en') =>
  injectAs(t.app, admin, { method: 'POST', url: `/api${url}`, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', 'x-language': language } });

async function ok<T = Record<string, unknown>>(url: string, payload: unknown): Promise<T> {
  const response = await post(url, payload);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return json<T>(response);
}

/** Every quantity column the routes below may write, and the ledger's size. */
async function state() {
  const db = t.database.db;
  return {
    balances: await db.selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty']).orderBy('id').execute(),
    ledger: (await db.selectFrom('inventory_transaction').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
    asnLines: await db.selectFrom('asn_line').select(['id', 'expected_qty', 'received_qty', 'putaway_qty']).orderBy('id').execute(),
    cartons: (await db.selectFrom('asn_carton').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
    tasks: await db.selectFrom('putaway_task').select(['id', 'qty', 'status']).orderBy('id').execute(),
    soLines: await db.selectFrom('so_line').select(['id', 'qty', 'allocated_qty', 'picked_qty']).orderBy('id').execute(),
    picks: await db.selectFrom('pick_task').select(['id', 'qty', 'picked_qty', 'status']).orderBy('id').execute(),
  };
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, 'QR', 2, 4);
  sku = 'SKU-QR-0';
  [, from, to, dock] = ['L-QR-0', 'L-QR-1', 'L-QR-2', 'L-QR-3'];
  await stock(t.database.db, f, f.skuIds[0], f.locationIds[1], 100);
});
afterAll(() => t?.close());

/** Values that are no quantity of a route, with the field code each is refused with. */
const REFUSED: Array<[unknown, string]> = [
  [1e308, 'FIELD_RANGE'],
  [-1e308, 'QTY_NOT_POSITIVE'],
  [1e13, 'FIELD_RANGE'],
  ['10000000000000', 'FIELD_RANGE'],
  [1e-7, 'FIELD_DECIMALS'],
  ['0.00001', 'FIELD_DECIMALS'],
  ['1.23456', 'FIELD_DECIMALS'],
  [1.23456, 'FIELD_DECIMALS'],
  [true, 'FIELD_TYPE'],
  [false, 'FIELD_TYPE'],
  ['1e3', 'FIELD_TYPE'],
  ['abc', 'FIELD_TYPE'],
  ['', 'FIELD_TYPE'],
  ['Infinity', 'FIELD_TYPE'],
  [[], 'FIELD_TYPE'],
  [{}, 'FIELD_TYPE'],
  [-1, 'QTY_NOT_POSITIVE'],
  ['-1', 'QTY_NOT_POSITIVE'],
  [0, 'QTY_NOT_POSITIVE'],
];

function expectQuantityRefusal(response: LightMyRequestResponse, field: string, code: string) {
  expect(response.statusCode, response.body).toBe(400);
  const body = json<Refusal>(response);
  expect(body.details, response.body).toEqual([expect.objectContaining({ field, code })]);
  expect(body.code).toBe(code === 'QTY_NOT_POSITIVE' ? 'QTY_NOT_POSITIVE' : 'VALIDATION_FAILED');
  // The field's own text names the field (or, for the sign, says what a quantity must be).
  expect(body.details![0].message).toMatch(code === 'QTY_NOT_POSITIVE' ? /above 0/ : new RegExp(field.replace(/[[\].]/g, '\\$&')));
}

describe('the handheld move', () => {
  it('refuses every value that is no quantity, nothing moved', async () => {
    const before = await state();
    for (const [qty, code] of REFUSED) {
      const response = await post('/inventory/handheld/move', { fromLocation: from, sku, qty, toLocation: to });
      expectQuantityRefusal(response, 'qty', code);
    }
    const missing = await post('/inventory/handheld/move', { fromLocation: from, sku, qty: null, toLocation: to });
    expect(missing.statusCode, missing.body).toBe(400);
    expect(await state()).toEqual(before);
  });

  it('moves exactly what was sent, as a number or as its text', async () => {
    await ok('/inventory/handheld/move', { fromLocation: from, sku, qty: '1.2345', toLocation: to });
    await ok('/inventory/handheld/move', { fromLocation: from, sku, qty: 0.5, toLocation: to });
    const at = await t.database.db.selectFrom('inventory_balance').select('on_hand_qty').where('location_id', '=', f.locationIds[2]).executeTakeFirstOrThrow();
    expect(Number(at.on_hand_qty)).toBe(1.7345);
  });

  it('names the field and its limit in the language of the caller', async () => {
    const en = json<Refusal>(await post('/inventory/handheld/move', { fromLocation: from, sku, qty: '1.23456', toLocation: to }));
    const zh = json<Refusal>(await post('/inventory/handheld/move', { fromLocation: from, sku, qty: '1.23456', toLocation: to }, 'zh'));
    expect(en.details![0]).toMatchObject({ field: 'qty', code: 'FIELD_DECIMALS', params: { max: 4 }, message: 'qty has too many decimals (at most 4).' });
    // The handheld shows only the answer's message: it is the field's own text.
    expect(en).toMatchObject({ code: 'VALIDATION_FAILED', message: 'qty has too many decimals (at most 4).' });
    expect(zh.message).toBe(zh.details![0].message);
    expect(zh.details![0].message).not.toBe(en.details![0].message);
    expect(zh.details![0].message).toContain('qty');
  });
});

describe('inbound quantities', () => {
  let asnId: number;
  let lineId: number;

  beforeAll(async () => {
    const asn = await ok<{ id: number }>('/asn/saveHeader', { ownerCode: 'OW-QR' });
    asnId = asn.id;
    const detail = await ok<{ lines: { id: number }[] }>('/asn/saveDetail', { asnId, lines: [{ skuCode: sku, expectedQty: 10 }] });
    lineId = detail.lines[0].id;
  });

  it('refuses an ASN line quantity that is no quantity instead of rounding it, nothing stored', async () => {
    const before = await state();
    for (const [qty, code] of REFUSED) {
      expectQuantityRefusal(await post('/asn/saveDetail', { asnId, lines: [{ id: lineId, skuCode: sku, expectedQty: qty }] }), 'lines[0].expectedQty', code);
      expectQuantityRefusal(await post('/asn/saveDetail', { asnId, lines: [{ skuCode: sku, expectedQty: qty }] }), 'lines[0].expectedQty', code);
      expectQuantityRefusal(
        await post('/asn/saveDetail', { asnId, lines: [{ id: lineId, skuCode: sku, expectedQty: 10, cartons: [{ containerId: 'C-QR', cartonId: 'CT-QR', qty }] }] }),
        'lines[0].cartons[0].qty',
        code,
      );
    }
    expect(await state()).toEqual(before);
  });

  it('refuses a received quantity that is no quantity, and a damage or hold quantity below 0 or not a quantity', async () => {
    const before = await state();
    for (const [qty, code] of REFUSED) {
      expectQuantityRefusal(await post('/inbound/batch/receive', { lines: [{ asnLineId: lineId, qty, locationCode: dock }] }), 'lines[0].qty', code);
    }
    // No damage or hold is 0, null or an empty text; the rest of the rule holds.
    for (const [qty, code] of REFUSED.filter(([q]) => q !== 0 && q !== '')) {
      expectQuantityRefusal(await post('/inbound/batch/receive', { lines: [{ asnLineId: lineId, qty: 5, holdQty: qty, locationCode: dock }] }), 'lines[0].holdQty', code);
    }
    expect(await state()).toEqual(before);
  });

  it('refuses a putaway quantity of five decimals with a field error, not a 500', async () => {
    const received = await ok<{ receipts: { putawayTaskIds: number[] }[] }>('/inbound/batch/receive', { lines: [{ asnLineId: lineId, qty: 4, damageQty: 0, locationCode: dock }] });
    const [taskId] = received.receipts[0].putawayTaskIds;
    const before = await state();
    for (const [qty, code] of REFUSED) {
      expectQuantityRefusal(await post('/putaway/confirm', { taskId, locationCode: to, reason: 'test', qty }), 'qty', code);
    }
    expect(await state()).toEqual(before);
    await ok('/putaway/confirm', { taskId, locationCode: to, reason: 'test', qty: '1.5' });
  });
});

describe('quantities on the engine pages', () => {
  /** What the line pages may not store: beyond 10^12, not a number, rounded, or not above 0. */
  const ODD: unknown[] = [1e13, '10000000000000', 1e308, true, '1.23456', 1.23456, 1e-7, '1e3', 'abc', -1, 0];

  it('refuses an ASN line or order line quantity that breaks the rule, nothing written', async () => {
    const asn = await ok<{ id: number }>('/asn/saveHeader', { ownerCode: 'OW-QR' });
    const order = await ok<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: 'QR-PAGE', owner_id: f.ownerId, ship_to_address_en: '1 Road', required_ship_date: '2030-01-31' },
    });
    const before = await state();
    for (const value of ODD) {
      const asnLine = await post('/generic/adding', { moduleCode: 'inbound', functionCode: 'asnLine', record: { asn_id: asn.id, sku_id: f.skuIds[0], expected_qty: value } });
      expect(asnLine.statusCode, `asnLine ${JSON.stringify(value)}: ${asnLine.body}`).toBe(400);
      const soLine = await post('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: order.row._key, sku_id: f.skuIds[0], qty: value } });
      expect(soLine.statusCode, `soDetail ${JSON.stringify(value)}: ${soLine.body}`).toBe(400);
    }
    expect(await state()).toEqual(before);
    await ok('/generic/adding', { moduleCode: 'inbound', functionCode: 'asnLine', record: { asn_id: asn.id, sku_id: f.skuIds[0], expected_qty: '1000000000000' } });
  });
});

describe('quantities of an order import', () => {
  it('refuses a quantity cell by the same rule, with its own code, nothing imported', async () => {
    const before = await state();
    const boundary = 'qr-boundary';
    const rows = ['1.23456', '10000000000000', 'abc', '0'].map((qty, i) => `QR-IMP-${i},OW-QR,Shop,1 Road,2030-02-10,${sku},${qty}`);
    const csv = `Order no,Owner,Ship-to name,Address (English),Ship date,SKU,Qty\r\n${rows.join('\r\n')}\r\n`;
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="orders.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    const response = await injectAs(t.app, admin, { method: 'POST', url: '/api/so/import', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(response.statusCode, response.body).toBe(400);
    const details = json<Refusal>(response).details ?? [];
    expect(details.filter((d) => d.field.endsWith(': qty')).map((d) => d.code)).toEqual(['FIELD_DECIMALS', 'FIELD_RANGE', 'FIELD_TYPE', 'QTY_NOT_POSITIVE']);
    expect(await state()).toEqual(before);
  });
});

describe('a stale pick task', () => {
  it('answers the database refusal as a 4xx with a clear code, nothing changed', async () => {
    const db = t.database.db;
    const orders = orderCalls(t.app, admin, db);
    const soId = await orders.enter('QR-STALE', f.ownerId, [{ skuCode: sku, qty: 3 }]);
    await orders.allocate(soId);
    await ok('/so/pick', { soId });
    const task = await db.selectFrom('pick_task').select(['id', 'qty', 'location_id', 'so_line_id']).where('so_id', '=', soId).executeTakeFirstOrThrow();
    // The line no longer holds what the task was made for (as when the allocation was undone elsewhere).
    await db.updateTable('so_line').set({ allocated_qty: '0' }).where('id', '=', task.so_line_id).execute();
    const location = await db.selectFrom('location').select('code').where('id', '=', task.location_id).executeTakeFirstOrThrow();
    const before = await state();
    const response = await post('/pick/confirm', { taskId: task.id, locationCode: location.code, sku, qty: 3, toLpn: 'TOTE-QR' });
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(json<Refusal>(response).message).not.toMatch(/constraint|violates/);
    expect(await state()).toEqual(before);
  });
});

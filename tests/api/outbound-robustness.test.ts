import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Outbound routes from outside: every route of so-documents.routes.ts and wave.routes.ts called with
 * a well-formed body where one value at a time is odd (impossible calendar dates, quantities with
 * five decimals, huge or negative ids, unicode, empty and 101-long selections) answers a 4xx or a
 * 2xx, never a 500; the refusals found that way leave the database as it was.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let soId: number;
let lineId: number;
let waveId: number;
let taskId: number;
let newSo: number;
let newLine: number;
let freeSo: number;

const call = (url: string, payload: unknown, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown> });
const gen = (functionCode: string, url: string, payload: Record<string, unknown>, token = admin) =>
  injectAs(t.app, token, { method: 'POST', url: `/api/generic/${url}`, payload: { moduleCode: 'outbound', functionCode, ...payload } });

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, 'RB', 2);
  await stock(t.database.db, f, f.skuIds[0], f.locationIds[0], 50);
  const added = await gen('so', 'adding', { record: { order_no: 'RB-1', owner_id: f.ownerId, ship_to_address_en: '1 Road', required_ship_date: '2030-02-15' } });
  soId = json<{ row: { _key: number } }>(added).row._key;
  const l = await gen('soDetail', 'adding', { record: { so_id: soId, sku_id: f.skuIds[0], qty: '2' } });
  lineId = json<{ row: { _key: number } }>(l).row._key;
  const w = await call('/so/wave/save', { orderIds: [soId] });
  waveId = json<{ waveId: number }>(w).waveId;
  await call('/wave/release', { waveId });
  const n = await gen('so', 'adding', { record: { order_no: 'RB-2', owner_id: f.ownerId, ship_to_address_en: '1 Road', required_ship_date: '2030-02-15' } });
  newSo = json<{ row: { _key: number } }>(n).row._key;
  newLine = json<{ row: { _key: number } }>(await gen('soDetail', 'adding', { record: { so_id: newSo, sku_id: f.skuIds[0], qty: '2' } })).row._key;
  freeSo = json<{ row: { _key: number } }>(await gen('so', 'adding', { record: { order_no: 'RB-3', owner_id: f.ownerId, ship_to_address_en: '1 Road', required_ship_date: '2030-02-15' } })).row._key;
  taskId = Number((await t.database.db.selectFrom('pick_task').select('id').where('so_id', '=', soId).executeTakeFirstOrThrow()).id);
});
afterAll(() => t?.close());

const BAD: unknown[] = ['2030-02-30', '9999-99-99', '0000-00-00', 99999999999.9999, '99999999999.9999', 1e12, -1e12, '0.00001', 1.00001, 9007199254740991, 'ü𝄞漢字', 'x'.repeat(100), '', ' ', null, -1, 0, 1.5];

describe('odd values on every outbound route', () => {
  it('never answer a 500', async () => {
    const base: Array<[string, Record<string, unknown>]> = [
      ['/so/create/soDetail', { soId, skuCode: 'SKU-RB-0', qty: 1, lotNo: 'x', expiryFrom: '2030-01-01', expiryTo: '2030-01-02', requiredDate: '2030-01-01', uom: 'EA', udf1: 'a' }],
      ['/so/save/soDetail', { soId, lines: [{ id: lineId, skuCode: 'SKU-RB-0', qty: 1, expiryFrom: '2030-01-01', requiredDate: '2030-01-01' }], deleteLineIds: [] }],
      ['/so/split', { lineId, qty: 1, changes: [{ field: 'lot_no', fromValue: null, toValue: 'x' }] }],
      ['/so/create/soDetail', { soId: newSo, skuCode: 'SKU-RB-0', qty: 1, lotNo: 'x', expiryFrom: '2030-01-01', expiryTo: '2030-01-02', requiredDate: '2030-01-01', uom: 'EA', udf1: 'a' }],
      ['/so/save/soDetail', { soId: newSo, lines: [{ id: newLine, skuCode: 'SKU-RB-0', qty: 1, expiryFrom: '2030-01-01', requiredDate: '2030-01-01' }], deleteLineIds: [] }],
      ['/so/split', { lineId: newLine, qty: 1, changes: [{ field: 'required_date', fromValue: null, toValue: '2030-01-01' }] }],
      ['/so/split', { lineId: newLine, qty: 1, changes: [{ field: 'lot_no', fromValue: null, toValue: 'x' }] }],
      ['/so/wave/save', { orderIds: [freeSo], carrierCode: 'X', shipDateFrom: '2030-01-01', shipDateTo: '2030-01-02', ownerId: f.ownerId, zone: 'A' }],
      ['/so/sku', { soId, ownerCode: 'OW-RB', text: 'SKU', limit: 5 }],
      ['/so/balance', { soId }],
      ['/so/header/allocation', { soIds: [soId], unallocate: false }],
      ['/so/detail/allocation', { lineIds: [lineId], unallocate: false }],
      ['/so/findAllocation', { lineId }],
      ['/so/manualAllocation', { lineId, allocations: [{ balanceId: 1, qty: 1 }] }],
      ['/so/cancelCloseCheck', { soIds: [soId] }],
      ['/so/checkPartialPack', { soIds: [soId] }],
      ['/so/export', { format: 'csv' }],
      ['/so/addMaintenanceList', { entries: [{ orderNo: 'RB-1', skuCode: 'SKU-RB-0', reason: 'r' }] }],
      ['/so/deleteMaintenanceList', { ids: [1] }],
      ['/so/addOrderToShipmentId', { shipmentOrderId: 1, soIds: [soId] }],
      ['/so/findShipmentReference', { shipmentNo: 'X' }],
      ['/so/wave', { carrierCode: 'X', shipDateFrom: '2030-01-01', shipDateTo: '2030-01-02', ownerId: f.ownerId, zone: 'A' }],
      ['/so/wave/save', { waveId, orderIds: [soId], carrierCode: 'X', shipDateFrom: '2030-01-01', shipDateTo: '2030-01-02', ownerId: f.ownerId, zone: 'A' }],
      ['/wave/list', { status: 'new' }],
      ['/wave/release', { waveId }],
      ['/wave/unwave', { orderIds: [soId] }],
      ['/wave/batchUpdateRef', { waveIds: [waveId], reference: 'r' }],
      ['/so/pick', { soId }],
      ['/pick/tasks', { waveId, soId, openOnly: true }],
      ['/pick/confirm', { taskId, locationCode: 'L-RB-0', sku: 'SKU-RB-0', qty: 1, toLpn: 'x', toLocationCode: 'y', shortReason: 'z', reallocate: false }],
      ['/pick/unpick', { taskId }],
    ];
    const failures: string[] = [];
    const check = async (url: string, body: unknown) => {
      const r = await call(url, body);
      if (r.statusCode >= 500) failures.push(`${url} ${JSON.stringify(body).slice(0, 200)} -> ${r.statusCode} ${r.body.slice(0, 200)}`);
    };
    for (const [url, body] of base) {
      await check(url, body);
      for (const key of Object.keys(body)) {
        for (const v of BAD) {
          const value = Array.isArray(body[key]) ? ((body[key] as unknown[]).length && typeof (body[key] as unknown[])[0] === 'object' ? (body[key] as Record<string, unknown>[]).flatMap((o) => Object.keys(o).map((k) => [{ ...o, [k]: v }])) : [[v]]) : [v];
          for (const vv of value) await check(url, { ...body, [key]: vv });
        }
        if (Array.isArray(body[key])) { await check(url, { ...body, [key]: [] }); await check(url, { ...body, [key]: Array.from({ length: 101 }, (_, i) => i + 1) }); }
      }
    }
    for (const q of ['waveId=1', 'soId=1', '', `waveId=${waveId}&soId=${soId}`, 'waveId=9007199254740991', `soId=${soId}`]) {
      const r = await injectAs(t.app, admin, { method: 'GET', url: `/api/pick/list.pdf?${q}` });
      if (r.statusCode >= 500) failures.push(`pdf ${q} -> ${r.statusCode} ${r.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);
});

const db = () => t.database.db;
async function state() {
  return {
    lines: await db().selectFrom('so_line').select(['id', 'so_id', 'qty', 'expiry_from', 'required_date', 'allocated_qty', 'picked_qty']).orderBy('id').execute(),
    waves: await db().selectFrom('wave').select(['id', 'status', 'owner_id', 'ship_date_from']).orderBy('id').execute(),
    tasks: await db().selectFrom('pick_task').select(['id', 'status', 'qty', 'picked_qty']).orderBy('id').execute(),
    balances: await db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty']).orderBy('id').execute(),
    headers: await db().selectFrom('so_header').select(['id', 'status', 'wave_id']).orderBy('id').execute(),
  };
}

describe('refusals of impossible dates, five-decimal quantities and unknown owners', () => {
  it('refuses 2030-02-30 on order lines, splits and wave filters as a field error, nothing changed', async () => {
    const before = await state();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/so/create/soDetail', { soId: newSo, skuCode: 'SKU-RB-0', qty: 1, requiredDate: '2030-02-30' }, 'requiredDate'],
      ['/so/save/soDetail', { soId: newSo, lines: [{ id: newLine, skuCode: 'SKU-RB-0', qty: 1, expiryTo: '2030-13-01' }] }, 'lines[0].expiryTo'],
      ['/so/wave', { shipDateFrom: '2030-02-30' }, 'shipDateFrom'],
      ['/so/wave/save', { orderIds: [freeSo], shipDateTo: '0000-00-00' }, 'shipDateTo'],
    ];
    for (const [url, body, field] of cases) {
      const response = await call(url, body);
      expect(response.statusCode, `${url} ${response.body}`).toBe(400);
      expect(json(response)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field, code: 'FIELD_TYPE' }] });
    }
    // A split to an impossible date (from the line's current date).
    const { required_date: was } = await db().selectFrom('so_line').select('required_date').where('id', '=', newLine).executeTakeFirstOrThrow();
    await db().updateTable('so_line').set({ required_date: '2030-01-01' }).where('id', '=', newLine).execute();
    const split = await call('/so/split', { lineId: newLine, qty: 1, changes: [{ field: 'required_date', fromValue: '2030-01-01', toValue: '2031-02-29' }] });
    expect(split.statusCode, split.body).toBe(400);
    expect(json(split)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'changes[0].toValue', code: 'FIELD_TYPE' }] });
    await db().updateTable('so_line').set({ required_date: was }).where('id', '=', newLine).execute();
    expect(await state()).toEqual(before);
    // A real leap day is a date.
    const leap = await call('/so/wave', { shipDateFrom: '2032-02-29' });
    expect(leap.statusCode, leap.body).toBe(200);
  });

  it('refuses quantities with more than four decimals instead of rounding them away, nothing changed', async () => {
    const before = await state();
    const location = await db().selectFrom('location').select('code').where('id', '=', f.locationIds[0]).executeTakeFirstOrThrow();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/so/save/soDetail', { soId: newSo, lines: [{ id: newLine, skuCode: 'SKU-RB-0', qty: '0.00001' }] }, 'lines[0].qty'],
      ['/so/create/soDetail', { soId: newSo, skuCode: 'SKU-RB-0', qty: 1.00001 }, 'qty'],
      ['/so/split', { lineId: newLine, qty: 0.00001, changes: [{ field: 'lot_no', fromValue: 'a', toValue: 'b' }] }, 'qty'],
      ['/so/manualAllocation', { lineId: newLine, allocations: [{ balanceId: 1, qty: '0.99999' }] }, 'allocations[0].qty'],
      ['/pick/confirm', { taskId, locationCode: location.code, sku: 'SKU-RB-0', qty: 1.99999 }, 'qty'],
    ];
    for (const [url, body, field] of cases) {
      const response = await call(url, body);
      expect(response.statusCode, `${url} ${response.body}`).toBe(400);
      expect(json(response)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field, code: 'FIELD_DECIMALS', params: { max: 4 } }] });
    }
    expect(await state()).toEqual(before);
  });

  it('refuses a wave for an owner that is not of the project, no wave made', async () => {
    const before = await state();
    const response = await call('/so/wave/save', { orderIds: [freeSo], ownerId: 9007199254740991 });
    expect(response.statusCode, response.body).toBe(400);
    expect(json(response)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'ownerId', code: 'FIELD_FOREIGN' }] });
    expect(await state()).toEqual(before);
  });
});

describe('order import with odd cells', () => {
  const upload = (url: string, csv: string) => {
    const boundary = 'rb-boundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="orders.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    return injectAs(t.app, admin, { method: 'POST', url: `/api${url}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body });
  };

  it('refuses an impossible ship date, a NUL in a text and odd quantities row by row, nothing imported', async () => {
    const before = await state();
    const head = 'Order no,Owner,Ship-to name,Address (English),Ship date,SKU,Qty\r\n';
    const cases: Array<[string, string]> = [
      [`${head}IMP-1,OW-RB,Shop,1 Road,2030-02-30,SKU-RB-0,1\r\n`, 'requiredShipDate'],
      [`${head}IMP-2,OW-RB,Sh\u0000op,1 Road,2030-02-10,SKU-RB-0,1\r\n`, 'shipToName'],
      [`${head}IMP-3,OW-RB,Shop,1 Road,2030-02-10,SKU-RB-0,0.00001\r\n`, 'qty'],
    ];
    for (const [csv, field] of cases) {
      const response = await upload('/so/import', csv);
      expect(response.statusCode, response.body).toBe(400);
      expect(JSON.stringify(json(response))).toContain(field);
    }
    const arrival = await upload('/so/importStoreArrival', 'Order no,Arrival\r\nRB-1,2030-02-30 10:00:00\r\nRB-1\u0000,2030-02-10 10:00:00\r\n');
    expect(arrival.statusCode, arrival.body).toBe(400);
    expect(json<{ details: Array<{ field: string; code: string }> }>(arrival).details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'row 2: arrival', code: 'FIELD_TYPE' }), expect.objectContaining({ field: 'row 3: orderNo', code: 'FIELD_TYPE' })]),
    );
    expect(await state()).toEqual(before);
  });
});

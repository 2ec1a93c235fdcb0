import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * The outbound pages that were "not yet available": consignments (orders of one consignee grouped
 * for one delivery, added by number and taken off again) and the delivery order summary (per order
 * ordered, picked, packed, loaded, shipped and delivered quantity, read only, filterable).
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let skuCode: string;
const RUN = `${Date.now().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>) => injectAs(t.app, admin, { method: 'POST', url: `/api${url}`, payload });
const gen = (functionCode: string, action: string, payload: Record<string, unknown>) => call(`/generic/${action}`, { moduleCode: 'outbound', functionCode, ...payload });

async function ok<T>(url: string, payload: Record<string, unknown>): Promise<T> {
  const response = await call(url, payload);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(db(), `SP${RUN}`, 1);
  skuCode = (await db().selectFrom('sku').select('code').where('id', '=', f.skuIds[0]).executeTakeFirstOrThrow()).code;
});

afterAll(async () => {
  await t?.close();
});

describe('consignments', () => {
  it('groups orders of its consignee, refuses another consignee and takes orders off', async () => {
    const orders = orderCalls(t.app, admin, db());
    const mine = await orders.enterOnPages({ order_no: `SOCN-A-${RUN}`, owner_id: f.ownerId, ship_to_name: 'Harbour Store' }, []);
    const other = await orders.enterOnPages({ order_no: `SOCN-B-${RUN}`, owner_id: f.ownerId, ship_to_name: 'Hill Store' }, []);
    const added = await ok<{ row: { _key: number; status: string } }>('/generic/adding', { moduleCode: 'outbound', functionCode: 'consignment', record: { consignment_no: `CN-${RUN}`, consignee_name: ' harbour store ', delivery_date: '2030-03-01' } });
    expect(added.row.status).toBe('open');
    const id = Number(added.row._key);

    const wrong = await gen('consignment', 'behavior', { behaviour: 'addOrders', keys: [id], inputs: { orderNos: `SOCN-A-${RUN} SOCN-B-${RUN}` } });
    expect(wrong.statusCode).toBe(409);
    expect(json<{ code: string; message: string }>(wrong)).toMatchObject({ code: 'CONSIGNEE_MISMATCH' });
    expect(json<{ message: string }>(wrong).message).toContain(`SOCN-B-${RUN}`);
    expect((await db().selectFrom('so_header').select('consignment_id').where('id', 'in', [mine, other]).execute()).every((o) => o.consignment_id === null)).toBe(true);

    const right = await gen('consignment', 'behavior', { behaviour: 'addOrders', keys: [id], inputs: { orderNos: `SOCN-A-${RUN}` } });
    expect(right.statusCode, right.body).toBe(200);
    const tab = json<{ rows: Array<{ _key: number }> }>(await gen('consignmentSo', 'selection', { page: 1, pageSize: 100, parent: { code: 'orders', key: id } }));
    expect(tab.rows.map((r) => Number(r._key))).toContain(mine);

    const removed = await gen('consignmentSo', 'behavior', { behaviour: 'removeFromConsignment', keys: [mine], inputs: {} });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await db().selectFrom('so_header').select('consignment_id').where('id', '=', mine).executeTakeFirstOrThrow()).consignment_id).toBeNull();
  });
});

describe('delivery order summary', () => {
  it('lists per order what was ordered, picked and packed, and is read only', async () => {
    await stock(db(), f, f.skuIds[0], f.locationIds[0], 5);
    const orders = orderCalls(t.app, admin, db());
    const orderNo = `SOSUM-${RUN}`;
    const soId = await orders.enter(orderNo, f.ownerId, [{ skuCode, qty: 5 }]);
    await orders.allocate(soId);
    expect((await call('/so/pick', { soId })).statusCode).toBe(200);
    await orders.pickSku(soId, f.skuIds[0], skuCode, `TOTE-SP-${RUN}`);
    await ok('/scanPack', { orderNo });
    const carton = (await ok<{ openCarton: { id: number } }>('/pack/scan/open', { soId })).openCarton;
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCode, qty: 3 });

    const read = await gen('deliveryOrderSum', 'selection', { page: 1, pageSize: 100, rules: [{ field: 'owner_id', op: 'eq', value: f.ownerId }] });
    expect(read.statusCode, read.body).toBe(200);
    const row = json<{ rows: Array<Record<string, unknown>> }>(read).rows.find((r) => r.order_no === orderNo);
    expect(row).toBeDefined();
    expect(Number(row!.ordered_qty)).toBe(5);
    expect(Number(row!.picked_qty)).toBe(5);
    expect(Number(row!.packed_qty)).toBe(3);
    expect(Number(row!.shipped_qty)).toBe(0);
    expect(row!.status).toBe('picked');

    const write = await gen('deliveryOrderSum', 'adding', { record: { order_no: 'X' } });
    expect(write.statusCode).toBeGreaterThanOrEqual(400);
    expect(write.statusCode).toBeLessThan(500);
  });
});

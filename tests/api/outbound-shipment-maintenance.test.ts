import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Shipment orders with the fields a parcel carrier needs, orders added by number and removed, the
 * maintenance list page, the wave list's reference update and the create wave preview, through the
 * real server. Every refusal is in the caller's language and leaves nothing changed.
 */
let t: TestApp;
let admin: string;
let shipmentClerk: string;
let shipmentViewer: string;
let maintainer: string;
let waveClerk: string;
let otherWarehouse: string;
let f: OutboundFixture;
let seq = 0;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, 'SM', 4);
  const db = t.database.db;
  const project = await db.selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const wh2 = await db.insertInto('warehouse').values({ organization_id: project.organization_id, code: 'WH2', name: 'Second', nav_layout: null }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: wh2.id }).execute();
  const wh1 = { projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] };
  shipmentClerk = await createUser(t, { loginAccount: 'sm-clerk', rights: ['outbound.shipmentOrder:view', 'outbound.shipmentOrder:add', 'outbound.shipmentOrder:edit', 'outbound.shipmentOrderSo:view'], ...wh1 });
  shipmentViewer = await createUser(t, { loginAccount: 'sm-viewer', rights: ['outbound.shipmentOrder:view', 'outbound.shipmentOrderSo:view'], ...wh1 });
  maintainer = await createUser(t, { loginAccount: 'sm-maint', rights: ['outbound.soMaintenance:view', 'outbound.so:view', 'outbound.so:edit'], ...wh1 });
  waveClerk = await createUser(t, { loginAccount: 'sm-wave', rights: ['outbound.wave:view', 'outbound.wave:edit'], ...wh1 });
  otherWarehouse = await createUser(t, {
    loginAccount: 'sm-wh2',
    rights: ['outbound.shipmentOrder:view', 'outbound.shipmentOrder:edit', 'outbound.shipmentOrderSo:view', 'outbound.soMaintenance:view', 'outbound.so:view', 'outbound.so:edit', 'outbound.wave:view', 'outbound.wave:edit'],
    projectCodes: ['PRJ1'],
    warehouseCodes: ['WH2'],
  });
});

afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, token = admin, language = 'en') =>
  injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown>, headers: { 'x-language': language } });
const gen = (functionCode: string, url: string, payload: Record<string, unknown>, token = admin, language = 'en') => post(`/generic/${url}`, { moduleCode: 'outbound', functionCode, ...payload }, token, language);

function refused(response: { statusCode: number; body: string }, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(json(response as never)).toMatchObject({ code });
}

async function newOrder(extra: Record<string, unknown> = {}): Promise<{ id: number; orderNo: string }> {
  seq += 1;
  const orderNo = `SM-${seq}`;
  const added = await gen('so', 'adding', { record: { order_no: orderNo, owner_id: f.ownerId, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-01-31', ...extra } });
  expect(added.statusCode, added.body).toBe(200);
  return { id: json<{ row: { _key: number } }>(added).row._key, orderNo };
}

const complete = { shipment_reference: 'REF-9', expected_delivery_date: '2030-06-01', gateway: 'HKG', service: 'EXPRESS', service_provider: 'DHL Express', battery: 'lithium_ion' };

async function newShipment(no: string, token = shipmentClerk): Promise<number> {
  const added = await gen('shipmentOrder', 'adding', { record: { shipment_no: no, carrier_code: 'DHL', ...complete } }, token);
  expect(added.statusCode, added.body).toBe(200);
  return json<{ row: { _key: number } }>(added).row._key;
}

const shipmentOf = async (soId: number) => (await t.database.db.selectFrom('so_header').select('shipment_order_id').where('id', '=', soId).executeTakeFirstOrThrow()).shipment_order_id;
const shipmentCount = async () => (await t.database.db.selectFrom('shipment_order').select('id').execute()).length;

describe('shipment order fields', () => {
  it.each([
    ['shipment_reference'],
    ['expected_delivery_date'],
    ['gateway'],
    ['service'],
    ['service_provider'],
    ['battery'],
  ])('refuses a shipment order without %s, in the caller language, and adds nothing', async (field) => {
    const before = await shipmentCount();
    const record: Record<string, unknown> = { shipment_no: `SHP-MISS-${field}`, ...complete };
    delete record[field];
    const response = await gen('shipmentOrder', 'adding', { record }, shipmentClerk, 'zh');
    refused(response, 400, 'VALIDATION_FAILED');
    const body = json<{ message: string; details: Array<{ field: string; code: string }> }>(response);
    expect(body.details).toContainEqual(expect.objectContaining({ field, code: 'FIELD_REQUIRED' }));
    expect(body.message).not.toMatch(/^[\x20-\x7e]*$/);
    expect(await shipmentCount()).toBe(before);
  });

  it('refuses clearing a required field or an unknown battery content on update; the row stays as it was', async () => {
    const id = await newShipment('SHP-UPD');
    const row = json<{ rows: Array<{ _key: number; _version: string }> }>(await gen('shipmentOrder', 'selection', { page: 1, pageSize: 100 }, shipmentClerk)).rows.find((r) => r._key === id)!;
    refused(await gen('shipmentOrder', 'updating', { key: id, version: row._version, record: { gateway: '' } }, shipmentClerk), 400, 'VALIDATION_FAILED');
    refused(await gen('shipmentOrder', 'updating', { key: id, version: row._version, record: { battery: 'alkaline' } }, shipmentClerk), 400, 'VALIDATION_FAILED');
    const stored = await t.database.db.selectFrom('shipment_order').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ gateway: 'HKG', battery: 'lithium_ion', shipment_reference: 'REF-9', service: 'EXPRESS', service_provider: 'DHL Express' });
  });
});

describe('orders of a shipment order', () => {
  it('adds orders by their numbers, all or none, only with the edit right', async () => {
    const shipmentId = await newShipment('SHP-ADD');
    const a = await newOrder();
    const b = await newOrder();
    const add = (orderNos: string, token = shipmentClerk) => gen('shipmentOrder', 'behavior', { behaviour: 'addOrders', keys: [shipmentId], inputs: { orderNos } }, token);
    refused(await add(`${a.orderNo}, ${b.orderNo}`, shipmentViewer), 403, 'FORBIDDEN');
    const unknown = await add(`${a.orderNo} NOPE-1`);
    refused(unknown, 400, 'VALIDATION_FAILED');
    expect(json<{ details: Array<{ message: string }> }>(unknown).details[0].message).toContain('NOPE-1');
    expect(await shipmentOf(a.id)).toBeNull();
    refused(await add(' , '), 400, 'VALIDATION_FAILED');
    const added = await add(`${a.orderNo}, ${b.orderNo}\n${a.orderNo}`);
    expect(added.statusCode, added.body).toBe(200);
    expect(json(added)).toMatchObject({ messageCode: 'outbound.shipmentOrder.ordersAdded', messageParams: { count: 2 } });
    expect([await shipmentOf(a.id), await shipmentOf(b.id)]).toEqual([shipmentId, shipmentId]);
    const listed = json<{ rows: Array<{ _key: number; shipment_order_id: number | null }> }>(await gen('shipmentOrderSo', 'selection', { page: 1, pageSize: 100 }, shipmentViewer)).rows;
    expect(listed.filter((r) => r.shipment_order_id === shipmentId).map((r) => r._key).sort()).toEqual([a.id, b.id].sort());
  });

  it('removes orders from an open shipment order only; other orders and warehouses are refused', async () => {
    const shipmentId = await newShipment('SHP-REM');
    const other = await newShipment('SHP-REM-2');
    const a = await newOrder();
    const b = await newOrder();
    const c = await newOrder();
    expect((await post('/so/addOrderToShipmentId', { shipmentOrderId: shipmentId, soIds: [a.id, b.id] }, shipmentClerk)).statusCode).toBe(200);
    expect((await post('/so/addOrderToShipmentId', { shipmentOrderId: other, soIds: [c.id] }, shipmentClerk)).statusCode).toBe(200);
    refused(await post('/so/removeOrderFromShipmentId', { shipmentOrderId: shipmentId, soIds: [a.id] }, shipmentViewer), 403, 'FORBIDDEN');
    refused(await post('/so/removeOrderFromShipmentId', { shipmentOrderId: shipmentId, soIds: [a.id] }, otherWarehouse), 404, 'NO_RECORD');
    refused(await post('/so/removeOrderFromShipmentId', { shipmentOrderId: shipmentId, soIds: [a.id, c.id] }, shipmentClerk), 404, 'NO_RECORD');
    expect(await shipmentOf(a.id)).toBe(shipmentId);
    const removed = await gen('shipmentOrderSo', 'behavior', { behaviour: 'removeFromShipment', keys: [a.id], inputs: {} }, shipmentClerk);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(json(removed)).toMatchObject({ messageCode: 'outbound.shipmentOrder.ordersRemoved', messageParams: { count: 1 } });
    expect([await shipmentOf(a.id), await shipmentOf(b.id), await shipmentOf(c.id)]).toEqual([null, shipmentId, other]);
    refused(await gen('shipmentOrderSo', 'behavior', { behaviour: 'removeFromShipment', keys: [b.id], inputs: {} }, shipmentViewer), 403, 'FORBIDDEN');
    await t.database.db.updateTable('shipment_order').set({ status: 'closed' }).where('id', '=', shipmentId).execute();
    refused(await post('/so/removeOrderFromShipmentId', { shipmentOrderId: shipmentId, soIds: [b.id] }, shipmentClerk), 409, 'ORDER_STATUS_ERROR');
    expect(await shipmentOf(b.id)).toBe(shipmentId);
  });
});

describe('the maintenance list page', () => {
  it('lists, adds and deletes entries of the warehouse with the order right', async () => {
    const order = await newOrder();
    const add = (inputs: Record<string, unknown>, token = maintainer) => gen('soMaintenance', 'behavior', { behaviour: 'add', keys: [], inputs }, token);
    refused(await add({ orderNo: 'NOPE' }), 400, 'VALIDATION_FAILED');
    refused(await add({ orderNo: order.orderNo, skuCode: 'SKU-SM-1' }), 400, 'VALIDATION_FAILED');
    refused(await add({}), 400, 'VALIDATION_FAILED');
    refused(await add({ orderNo: order.orderNo }, shipmentClerk), 403, 'FORBIDDEN');
    const added = await add({ orderNo: order.orderNo, reason: 'address check' });
    expect(added.statusCode, added.body).toBe(200);
    expect((await add({ skuCode: 'SKU-SM-2' })).statusCode).toBe(200);
    const rows = json<{ rows: Array<{ _key: number; reason: string | null; _labels?: Record<string, string> }> }>(await gen('soMaintenance', 'selection', { page: 1, pageSize: 100 }, maintainer)).rows;
    expect(rows.map((r) => r._labels?.so_id ?? r._labels?.sku_id).sort()).toEqual([order.orderNo, 'SKU-SM-2'].sort());
    expect(json<{ rows: unknown[] }>(await gen('soMaintenance', 'selection', { page: 1, pageSize: 100 }, otherWarehouse)).rows).toEqual([]);
    refused(await gen('soMaintenance', 'behavior', { behaviour: 'delete', keys: rows.map((r) => r._key), inputs: {} }, otherWarehouse), 404, 'NO_RECORD');
    const deleted = await gen('soMaintenance', 'behavior', { behaviour: 'delete', keys: rows.map((r) => r._key), inputs: {} }, maintainer);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(json(deleted)).toMatchObject({ messageCode: 'outbound.maintenance.deleted', messageParams: { count: 2 } });
    expect(await t.database.db.selectFrom('so_maintenance').select('id').execute()).toEqual([]);
  });
});

describe('waves', () => {
  it('sets the reference of the selected waves with the wave edit right, all or none', async () => {
    const a = await newOrder({ carrier_code: 'REFW' });
    const b = await newOrder({ carrier_code: 'REFW' });
    const w1 = json<{ waveId: number }>(await post('/so/wave/save', { orderIds: [a.id] }, waveClerk)).waveId;
    const w2 = json<{ waveId: number }>(await post('/so/wave/save', { orderIds: [b.id] }, waveClerk)).waveId;
    const update = (keys: number[], reference: string, token = waveClerk) => gen('wave', 'behavior', { behaviour: 'batchUpdateRef', keys, inputs: { reference } }, token);
    refused(await update([w1, w2], 'X', otherWarehouse), 404, 'NO_RECORD');
    const done = await update([w1, w2], ' TRUCK-9 ');
    expect(done.statusCode, done.body).toBe(200);
    expect(json(done)).toMatchObject({ messageCode: 'outbound.wave.referenceUpdated', messageParams: { count: 2, reference: 'TRUCK-9' } });
    const refs = await t.database.db.selectFrom('wave').select(['id', 'reference']).where('id', 'in', [w1, w2]).orderBy('id').execute();
    expect(refs.map((r) => r.reference)).toEqual(['TRUCK-9', 'TRUCK-9']);
    refused(await update([w1], 'Y', shipmentClerk), 403, 'FORBIDDEN');
  });

  it('previews the orders a new wave would take, with consignee, lines and qty, and offers owners and carriers by code and name', async () => {
    const order = await newOrder({ carrier_code: 'PREV', ship_to_name: 'Harbour Shop' });
    const preview = json<{ rows: Array<{ id: number; order_no: string; consignee: string | null; line_count: number; qty: string }> }>(await post('/so/wave', { carrierCode: 'PREV' }, waveClerk));
    expect(preview.rows).toEqual([expect.objectContaining({ id: order.id, order_no: order.orderNo, consignee: 'Harbour Shop', line_count: 0 })]);
    const options = json<{ owners: Array<{ id: number; code: string; name: string }>; carriers: Array<{ code: string; name: string | null }> }>(await post('/so/wave/filterOptions', {}, waveClerk));
    expect(options.owners).toContainEqual({ id: f.ownerId, code: 'OW-SM', name: 'Owner SM' });
    expect(options.carriers).toContainEqual({ code: 'PREV', name: null });
    refused(await post('/so/wave/filterOptions', {}, shipmentClerk), 403, 'FORBIDDEN');
  });
});

import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryOrder, RoutesAnswer, TmsRoute } from '../../src/common/transport-api.js';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * Transport through the real server: delivery orders are saved, found, imported from a sheet (all
 * rows or none, every bad row answered with its number) and made from shipped sales orders; routes
 * get a vehicle and driver of the warehouse, stops added in order, sorted, split, merged, taken off;
 * a confirmed route refuses every change until unconfirmed; over-capacity is reported and the
 * distance measured. Another project finds none of it.
 */
let t: TestApp;
let admin: string;
let warehouseId: number;
let vehicleId: number;
let driverId: number;
const RUN = `${Date.now().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
const db = () => t.database.db;

const call = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload, headers: { 'x-language': 'en' } });
const get = (url: string, token = admin) => injectAs(t.app, token, { method: 'GET', url: `/api${url}`, headers: { 'x-language': 'en' } });

async function ok<T = Record<string, unknown>>(url: string, payload: Record<string, unknown>, token = admin): Promise<T> {
  const response = await call(url, payload, token);
  expect(response.statusCode, `${url} ${response.body}`).toBe(200);
  return json<T>(response);
}

async function refused(url: string, payload: Record<string, unknown>, status: number, code: string, token = admin) {
  const response = await call(url, payload, token);
  expect(response.statusCode, `${url} ${response.body}`).toBe(status);
  const body = json<{ code: string; message: string }>(response);
  expect(body.code).toBe(code);
  return body;
}

function multipart(file: { name: string; content: Buffer }) {
  const boundary = '----tms-test-boundary';
  const parts = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-language': 'en' } };
}

async function sheet(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('DO');
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const newDo = (n: number, extra: Record<string, unknown> = {}) =>
  ok<DeliveryOrder>('/tms/saveTmsDoHeader', { doNo: `DO-${RUN}-${n}`, customerName: `Customer ${n}`, city: 'Bangkok', latitude: 13.7 + n / 100, longitude: 100.5 + n / 100, weightKg: '100', volumeM3: '1.5', palletCount: 1, ...extra });
const newRoute = (extra: Record<string, unknown> = {}) => ok<TmsRoute>('/tms/saveRoute', { routeDate: '2030-03-01', vehicleId, driverId, ...extra });
const routeOf = async (id: number) => (await ok<RoutesAnswer>('/tms/getRoutes', { ids: [id] })).routes[0];
const statusOf = async (id: number) => (await db().selectFrom('tms_do_header').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  warehouseId = Number((await db().selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id);
  const vehicle = await db()
    .insertInto('vehicle')
    .values({ warehouse_id: warehouseId, plate_no: `V-${RUN}`, capacity_weight_kg: '250', capacity_volume_m3: '10', created_by: 't', updated_by: 't' })
    .returning('id')
    .executeTakeFirstOrThrow();
  vehicleId = Number(vehicle.id);
  await sql`update vehicle set capacity_pallets = 2 where id = ${vehicleId}`.execute(db());
  const driver = await db().insertInto('driver').values({ warehouse_id: warehouseId, code: `D-${RUN}`, name: 'Somchai', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow();
  driverId = Number(driver.id);
});

afterAll(async () => {
  await t?.close();
});

describe('delivery orders', () => {
  it('are saved, numbered when no number is given, found, changed and deleted while unplanned', async () => {
    const a = await newDo(1, { windowFrom: '2030-03-01T08:00:00.000Z', windowTo: '2030-03-01T12:00:00.000Z' });
    expect(a).toMatchObject({ doNo: `DO-${RUN}-1`, status: 'unplanned', weightKg: '100', volumeM3: '1.5', palletCount: 1, latitude: 13.71, routeId: null });
    const numbered = await ok<DeliveryOrder>('/tms/saveTmsDoHeader', { customerName: `Numbered ${RUN}` });
    expect(numbered.doNo).toMatch(/^DO\d{6}\d{5}$/);
    const found = json<{ rows: DeliveryOrder[] }>(await get(`/tms/findDeliveries?q=${encodeURIComponent(`Numbered ${RUN}`)}`));
    expect(found.rows.map((r) => r.id)).toEqual([numbered.id]);
    const unplanned = json<{ rows: DeliveryOrder[] }>(await get('/tms/getTmsDoHeaders?status=unplanned'));
    expect(unplanned.rows.map((r) => r.id)).toEqual(expect.arrayContaining([a.id, numbered.id]));
    expect((await ok<DeliveryOrder>('/tms/saveTmsDoHeader', { id: a.id, customerName: 'Renamed' })).customerName).toBe('Renamed');
    await refused('/tms/saveTmsDoHeader', { doNo: `DO-${RUN}-1`, customerName: 'Twice' }, 400, 'VALIDATION_FAILED');
    await refused('/tms/saveTmsDoHeader', { customerName: 'Late', windowFrom: '2030-03-01T12:00:00.000Z', windowTo: '2030-03-01T08:00:00.000Z' }, 400, 'VALIDATION_FAILED');
    await refused('/tms/saveTmsDoHeader', { customerName: 'Far', latitude: 91 }, 400, 'VALIDATION_FAILED');
    expect(await ok('/tms/deleteTmsDoHeader', { id: numbered.id })).toEqual({ deleted: 1 });
    await refused('/tms/deleteTmsDoHeader', { id: numbered.id }, 404, 'NO_RECORD');
    expect((await get('/tms/getTmsDoHeaders?status=nonsense')).statusCode).toBe(400);
  });

  it('are imported from a sheet: every bad row answered with its number and nothing saved, then all of a good one', async () => {
    const header = ['DO No', 'Customer', 'City', 'Latitude', 'Longitude', 'Weight kg', 'Volume m3', 'Pallets'];
    const bad = await sheet([header, [`IMP-${RUN}-1`, 'Alpha', 'Bangkok', 13.75, 100.5, 10, 1, 1], [`IMP-${RUN}-2`, '', 'Bangkok', 13.7, 100.6, 10, 1, 1], [`IMP-${RUN}-3`, 'Gamma', 'Bangkok', 123, 100.6, 'heavy', 1, 1], [`IMP-${RUN}-1`, 'Dup', 'X', '', '', '', '', '']]);
    const before = await db().selectFrom('tms_do_header').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const upload = (content: Buffer) => injectAs(t.app, admin, { method: 'POST', url: '/api/tms/importTmsDoHeaders', ...multipart({ name: 'orders.xlsx', content }) });
    const refusedImport = await upload(bad);
    expect(refusedImport.statusCode, refusedImport.body).toBe(400);
    const body = json<{ code: string; message: string; details: Array<{ field: string; code: string; message: string }> }>(refusedImport);
    expect(body.code).toBe('TMS_IMPORT_REJECTED');
    expect(body.details.map((d) => [d.field, d.code])).toEqual([
      ['row 3', 'TMS_ROW_REQUIRED'],
      ['row 4', 'TMS_ROW_INVALID'],
      ['row 4', 'TMS_ROW_INVALID'],
      ['row 5', 'TMS_ROW_DUPLICATE'],
    ]);
    expect(body.details[0].message).toBe('Row 3: customer is required.');
    expect((await db().selectFrom('tms_do_header').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n).toBe(before.n);
    const good = await upload(await sheet([header, [`IMP-${RUN}-1`, 'Alpha', 'Bangkok', 13.75, 100.5, 10, 1, 1], [`IMP-${RUN}-2`, 'Beta', 'Bangkok', 13.7, 100.6, 10.5, 1, 2]]));
    expect(good.statusCode, good.body).toBe(200);
    expect(json<{ imported: number }>(good).imported).toBe(2);
    const rows = json<{ rows: DeliveryOrder[] }>(await get(`/tms/findDeliveries?q=IMP-${RUN}`)).rows;
    expect(rows.map((r) => [r.doNo, r.weightKg, r.palletCount, r.status]).sort()).toEqual([
      [`IMP-${RUN}-1`, '10', 1, 'unplanned'],
      [`IMP-${RUN}-2`, '10.5', 2, 'unplanned'],
    ]);
    expect((await upload(Buffer.from('not a sheet'))).statusCode).toBeLessThan(500);
    const boundary = '----tms-test-boundary';
    const noFile = await injectAs(t.app, admin, { method: 'POST', url: '/api/tms/importTmsDoHeaders', payload: Buffer.from(`--${boundary}--\r\n`), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-language': 'en' } });
    expect(noFile.statusCode, noFile.body).toBe(400);
    expect(json(noFile)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'file', code: 'FIELD_REQUIRED' }] });
  });

  it('are made from shipped sales orders once each', async () => {
    const project = await db().selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const owner = await db().insertInto('owner').values({ project_id: project.id, code: `OW-TMS-${RUN}`, name: 'Owner' }).returning(['id', 'project_id']).executeTakeFirstOrThrow();
    const so = await db()
      .insertInto('so_header')
      .values({ project_id: owner.project_id, warehouse_id: warehouseId, order_no: `SO-TMS-${RUN}`, owner_id: owner.id, status: 'shipped', ship_to_name: 'Shop A', ship_to_address_en: '1 Road, Chiang Mai', created_by: 't', updated_by: 't' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Its cartons: 12.5 kg and 10 lb on one pallet, and 500 g on none.
    const location = await db().insertInto('location').values({ warehouse_id: warehouseId, code: `LOC-TMS-${RUN}`, location_type: 'stage', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow();
    const stamp = { project_id: owner.project_id, warehouse_id: warehouseId, created_by: 't', updated_by: 't' };
    const pallet = await db()
      .insertInto('pallet')
      .values({ ...stamp, pallet_no: `PT-TMS-${RUN}`, sscc: `39${Date.now()}`.padEnd(18, '0').slice(0, 18), location_id: location.id, so_id: Number(so.id) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('carton')
      .values([
        { ...stamp, so_id: Number(so.id), carton_no: `CT-TMS-${RUN}-1`, gross_weight: '12.5', weight_uom: 'KG', pallet_id: pallet.id },
        { ...stamp, so_id: Number(so.id), carton_no: `CT-TMS-${RUN}-2`, gross_weight: '10', weight_uom: 'LB', pallet_id: pallet.id },
        { ...stamp, so_id: Number(so.id), carton_no: `CT-TMS-${RUN}-3`, gross_weight: '500', weight_uom: 'G', pallet_id: null },
      ])
      .execute();
    const made = await ok<{ created: number; doNos: string[] }>('/tms/createFromShippedOrders', { soIds: [Number(so.id)] });
    expect(made.created).toBe(1);
    const [row] = json<{ rows: DeliveryOrder[] }>(await get(`/tms/findDeliveries?q=SO-TMS-${RUN}`)).rows;
    expect(row).toMatchObject({ customerName: 'Shop A', soNo: `SO-TMS-${RUN}`, city: 'Chiang Mai', status: 'unplanned' });
    // 12.5 + 10 x 0.45359237 + 0.5 kg, to the gram; one pallet.
    expect([row.weightKg, row.palletCount]).toEqual(['17.536', 1]);
    expect((await ok<{ created: number }>('/tms/createFromShippedOrders', { soIds: [Number(so.id)] })).created).toBe(0);
  });
});

describe('routes', () => {
  it('take stops in order, sort, split, merge and take them off; capacity and distance are shown', async () => {
    const [a, b, c, d] = [await newDo(11), await newDo(12), await newDo(13), await newDo(14)];
    const choices = json<{ vehicles: Array<{ id: number }>; drivers: Array<{ id: number }> }>(await get('/tms/choices'));
    expect(choices.vehicles.map((v) => v.id)).toContain(vehicleId);
    expect(choices.drivers.map((v) => v.id)).toContain(driverId);
    const route = await newRoute();
    expect(route.routeNo).toMatch(/^RT\d{6}\d{4}$/);
    expect(route).toMatchObject({ status: 'open', vehiclePlate: `V-${RUN}`, driverName: 'Somchai', capacity: { weightKg: '250', volumeM3: '10', pallets: 2 } });
    let r = await ok<TmsRoute>('/tms/addOrdersToRoute', { routeId: route.id, doIds: [a.id, b.id] });
    r = await ok<TmsRoute>('/tms/addOrdersToRoute', { routeId: route.id, doIds: [c.id], position: 0 });
    expect(r.stops.map((s) => s.id)).toEqual([c.id, a.id, b.id]);
    expect(r.load).toEqual({ weightKg: '300', volumeM3: '4.5', pallets: 3 });
    expect(r.over).toEqual(['weight', 'pallets']);
    expect(r.distanceKm).toBeGreaterThan(0);
    expect(await statusOf(a.id)).toBe('planned');
    await refused('/tms/saveTmsDoHeader', { id: a.id, customerName: 'Changed' }, 409, 'TMS_DO_LOCKED');
    await refused('/tms/deleteTmsDoHeader', { id: a.id }, 409, 'TMS_DO_LOCKED');
    r = await ok<TmsRoute>('/tms/sortWay', { routeId: route.id, doIds: [a.id, b.id, c.id] });
    expect(r.stops.map((s) => s.id)).toEqual([a.id, b.id, c.id]);
    await refused('/tms/sortWay', { routeId: route.id, doIds: [a.id, b.id] }, 409, 'TMS_STOPS_MISMATCH');
    await refused('/tms/splitRoute', { routeId: route.id, doId: a.id }, 409, 'TMS_SPLIT_AT_FIRST');
    const split = await ok<{ route: TmsRoute; newRoute: TmsRoute }>('/tms/splitRoute', { routeId: route.id, doId: b.id });
    expect(split.route.stops.map((s) => s.id)).toEqual([a.id]);
    expect(split.newRoute.stops.map((s) => s.id)).toEqual([b.id, c.id]);
    expect(split.newRoute).toMatchObject({ routeDate: '2030-03-01', vehicleId, driverId });
    await ok('/tms/addOrdersToRoute', { routeId: split.newRoute.id, doIds: [d.id] });
    // A stop dragged from one route onto another moves.
    await ok('/tms/addOrdersToRoute', { routeId: route.id, doIds: [d.id] });
    expect((await routeOf(split.newRoute.id)).stops.map((s) => s.id)).toEqual([b.id, c.id]);
    await refused('/tms/mergeRoute', { routeId: route.id, fromRouteId: route.id }, 409, 'TMS_MERGE_SAME');
    const merged = await ok<TmsRoute>('/tms/mergeRoute', { routeId: route.id, fromRouteId: split.newRoute.id });
    expect(merged.stops.map((s) => s.id)).toEqual([a.id, d.id, b.id, c.id]);
    expect(await routeOf(split.newRoute.id)).toBeUndefined();
    const off = await ok<TmsRoute>('/tms/removeOrderFromRoute', { routeId: route.id, doId: d.id });
    expect(off.stops.map((s) => s.id)).toEqual([a.id, b.id, c.id]);
    expect(await statusOf(d.id)).toBe('unplanned');
    await refused('/tms/removeOrderFromRoute', { routeId: route.id, doId: d.id }, 409, 'TMS_DO_NOT_ON_ROUTE');
  });

  it('is read-only once confirmed, until unconfirmed', async () => {
    const [a, b, c] = [await newDo(21), await newDo(22), await newDo(23)];
    const route = await newRoute();
    const other = await newRoute();
    await refused('/tms/comfirmRoute', { routeId: route.id }, 409, 'TMS_ROUTE_EMPTY');
    await ok('/tms/addOrdersToRoute', { routeId: route.id, doIds: [a.id, b.id] });
    await ok('/tms/addOrdersToRoute', { routeId: other.id, doIds: [c.id] });
    const confirmed = await ok<TmsRoute>('/tms/comfirmRoute', { routeId: route.id });
    expect(confirmed.status).toBe('confirmed');
    expect(await statusOf(a.id)).toBe('confirmed');
    const refusal = await refused('/tms/addOrdersToRoute', { routeId: route.id, doIds: [(await newDo(24)).id] }, 409, 'TMS_ROUTE_CONFIRMED');
    expect(refusal.message).toContain(route.routeNo);
    await refused('/tms/sortWay', { routeId: route.id, doIds: [b.id, a.id] }, 409, 'TMS_ROUTE_CONFIRMED');
    await refused('/tms/removeOrderFromRoute', { routeId: route.id, doId: a.id }, 409, 'TMS_ROUTE_CONFIRMED');
    await refused('/tms/splitRoute', { routeId: route.id, doId: b.id }, 409, 'TMS_ROUTE_CONFIRMED');
    await refused('/tms/mergeRoute', { routeId: other.id, fromRouteId: route.id }, 409, 'TMS_ROUTE_CONFIRMED');
    // Moving its stop away to another route is a change of the confirmed route too.
    await refused('/tms/addOrdersToRoute', { routeId: other.id, doIds: [a.id] }, 409, 'TMS_ROUTE_CONFIRMED');
    await refused('/tms/deleteRoute', { id: route.id }, 409, 'TMS_ROUTE_CONFIRMED');
    await refused('/tms/saveRoute', { id: route.id, routeDate: '2030-03-02' }, 409, 'TMS_ROUTE_CONFIRMED');
    await refused('/tms/comfirmRoute', { routeId: route.id }, 409, 'TMS_ROUTE_CONFIRMED');
    expect((await routeOf(route.id)).stops.map((s) => s.id)).toEqual([a.id, b.id]);
    expect((await ok<TmsRoute>('/tms/uncomfirmRoute', { routeId: route.id })).status).toBe('open');
    await refused('/tms/uncomfirmRoute', { routeId: route.id }, 409, 'TMS_ROUTE_NOT_CONFIRMED');
    expect(await statusOf(a.id)).toBe('planned');
    expect((await ok<TmsRoute>('/tms/sortWay', { routeId: route.id, doIds: [b.id, a.id] })).stops.map((s) => s.id)).toEqual([b.id, a.id]);
    expect(await ok('/tms/deleteRoute', { id: route.id })).toEqual({ deleted: 1 });
    expect(await statusOf(a.id)).toBe('unplanned');
  });

  it("refuses another warehouse's vehicle", async () => {
    const wh2 = await db().selectFrom('warehouse').select('id').where('id', '!=', warehouseId).executeTakeFirst();
    if (!wh2) return;
    const foreign = await db().insertInto('vehicle').values({ warehouse_id: wh2.id, plate_no: `VX-${RUN}`, created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow();
    await refused('/tms/saveRoute', { routeDate: '2030-03-01', vehicleId: Number(foreign.id) }, 400, 'VALIDATION_FAILED');
  });
});

describe('another project and rights', () => {
  it("finds none of this project's delivery orders and routes", async () => {
    const org = await db().selectFrom('project').select('organization_id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const code = `PRJ-TMS-${RUN}`;
    await db().insertInto('project').values({ organization_id: org.organization_id, code, name: `Project ${code}` }).execute();
    const rights = ['transport.tmsOrder:view', 'transport.tmsOrder:add', 'transport.tmsOrder:edit', 'transport.tmsOrder:delete', 'transport.doOrders:view', 'transport.doOrders:edit'] as const;
    const { token } = await createUserAccount(t, { loginAccount: `tms-other-${RUN.toLowerCase()}`, rights: [...rights], projectCodes: [code], warehouseCodes: ['WH1'] });
    const mine = await newDo(31);
    const route = await newRoute();
    const theirs = await ok<TmsRoute>('/tms/saveRoute', { routeDate: '2030-03-01' }, token);
    expect(json<{ rows: DeliveryOrder[] }>(await get(`/tms/findDeliveries?q=${RUN}`, token)).rows).toEqual([]);
    expect((await ok<RoutesAnswer>('/tms/getRoutes', { ids: [route.id] }, token)).routes).toEqual([]);
    await refused('/tms/saveTmsDoHeader', { id: mine.id, customerName: 'X' }, 404, 'NO_RECORD', token);
    await refused('/tms/deleteTmsDoHeader', { id: mine.id }, 404, 'NO_RECORD', token);
    await refused('/tms/addOrdersToRoute', { routeId: theirs.id, doIds: [mine.id] }, 404, 'NO_RECORD', token);
    await refused('/tms/addOrdersToRoute', { routeId: route.id, doIds: [mine.id] }, 404, 'NO_RECORD', token);
    await refused('/tms/comfirmRoute', { routeId: route.id }, 404, 'NO_RECORD', token);
    await refused('/tms/mergeRoute', { routeId: theirs.id, fromRouteId: route.id }, 404, 'NO_RECORD', token);
    await refused('/tms/deleteRoute', { id: route.id }, 404, 'NO_RECORD', token);
    expect(await statusOf(mine.id)).toBe('unplanned');
  });

  it('lets the view right look and refuses it changes', async () => {
    const { token } = await createUserAccount(t, { loginAccount: `tms-viewer-${RUN.toLowerCase()}`, rights: ['transport.tmsOrder:view', 'transport.doOrders:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    expect((await call('/tms/getRoutes', {}, token)).statusCode).toBe(200);
    await refused('/tms/saveRoute', { routeDate: '2030-03-01' }, 403, 'FORBIDDEN', token);
    await refused('/tms/saveTmsDoHeader', { customerName: 'X' }, 403, 'FORBIDDEN', token);
    await refused('/tms/comfirmRoute', { routeId: 1 }, 403, 'FORBIDDEN', token);
  });
});

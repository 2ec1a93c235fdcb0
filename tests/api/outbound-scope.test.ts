import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Outbound from an attacker's seat: a user of another warehouse (WH2) or of another project, with
 * every outbound right, guessing the ids of WH1's orders, lines, waves and pick tasks; and a user
 * of WH1 with only view rights trying the calls that change something. Every call is refused or
 * answers nothing of WH1, and the database stays as it was.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let soId: number;
let lineId: number;
let newSo: number;
let waveId: number;
let taskId: number;
let balanceId: number;
let otherWarehouse: string;
let otherProject: string;
let viewer: string;

const ALL_RIGHTS = ['outbound:view', 'outbound:add', 'outbound:edit', 'outbound:delete', 'outbound.so:allocate', 'outbound.so:cancel', 'outbound.so:close', 'outbound.pso:confirm', 'outbound.wave:release', 'outbound.pick:confirm'] as const;
const VIEW_RIGHTS = ['outbound:view'] as const;

const call = (url: string, payload: unknown, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown> });
const gen = (functionCode: string, url: string, payload: Record<string, unknown>, token = admin) => call(`/generic/${url}`, { moduleCode: 'outbound', functionCode, ...payload }, token);
const db = () => t.database.db;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(db(), 'SC', 2);
  await stock(db(), f, f.skuIds[0], f.locationIds[0], 50);
  const project = await db().selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const wh2 = await db().insertInto('warehouse').values({ organization_id: project.organization_id, code: 'WH2', name: 'Second', nav_layout: null }).returning('id').executeTakeFirstOrThrow();
  await db().insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: wh2.id }).execute();
  const prj2 = await db().insertInto('project').values({ organization_id: project.organization_id, code: 'PRJ2', name: 'Other' }).returning('id').executeTakeFirstOrThrow();
  await db().insertInto('project_warehouse').values({ project_id: prj2.id, warehouse_id: f.scope.warehouseId }).execute();
  otherWarehouse = await createUser(t, { loginAccount: 'sc-wh2', rights: [...ALL_RIGHTS], projectCodes: ['PRJ1'], warehouseCodes: ['WH2'] });
  otherProject = await createUser(t, { loginAccount: 'sc-prj2', rights: [...ALL_RIGHTS], projectCodes: ['PRJ2'], warehouseCodes: ['WH1'] });
  viewer = await createUser(t, { loginAccount: 'sc-viewer', rights: [...VIEW_RIGHTS], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });

  soId = json<{ row: { _key: number } }>(await gen('so', 'adding', { record: { order_no: 'SC-1', owner_id: f.ownerId, ship_to_address_en: '1 Road', required_ship_date: '2030-02-15', carrier_code: 'SCC' } })).row._key;
  lineId = json<{ row: { _key: number } }>(await gen('soDetail', 'adding', { record: { so_id: soId, sku_id: f.skuIds[0], qty: '4' } })).row._key;
  newSo = json<{ row: { _key: number } }>(await gen('so', 'adding', { record: { order_no: 'SC-2', owner_id: f.ownerId, ship_to_address_en: '1 Road', required_ship_date: '2030-02-15', carrier_code: 'SCN' } })).row._key;
  await gen('soDetail', 'adding', { record: { so_id: newSo, sku_id: f.skuIds[0], qty: '1' } });
  waveId = json<{ waveId: number }>(await call('/so/wave/save', { orderIds: [soId] })).waveId;
  expect((await call('/wave/release', { waveId })).statusCode).toBe(200);
  taskId = Number((await db().selectFrom('pick_task').select('id').where('so_id', '=', soId).executeTakeFirstOrThrow()).id);
  balanceId = Number((await db().selectFrom('inventory_balance').select('id').where('sku_id', '=', f.skuIds[0]).executeTakeFirstOrThrow()).id);
});
afterAll(() => t?.close());

async function state() {
  return {
    headers: await db().selectFrom('so_header').select(['id', 'status', 'wave_id', 'updated_at']).orderBy('id').execute(),
    lines: await db().selectFrom('so_line').select(['id', 'qty', 'allocated_qty', 'picked_qty']).orderBy('id').execute(),
    waves: await db().selectFrom('wave').select(['id', 'status', 'reference']).orderBy('id').execute(),
    tasks: await db().selectFrom('pick_task').select(['id', 'status', 'picked_qty']).orderBy('id').execute(),
    balances: await db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty']).orderBy('id').execute(),
    maintenance: await db().selectFrom('so_maintenance').selectAll().execute(),
  };
}

/** The outbound calls that change something, with WH1's ids. */
function writes(): Array<[string, Record<string, unknown>]> {
  return [
    ['/so/create/soDetail', { soId: newSo, skuCode: 'SKU-SC-0', qty: 1 }],
    ['/so/save/soDetail', { soId: newSo, lines: [], deleteLineIds: [] }],
    ['/so/split', { lineId, qty: 1, changes: [{ field: 'lot_no', fromValue: 'a', toValue: 'b' }] }],
    ['/so/header/allocation', { soIds: [newSo] }],
    ['/so/header/allocation', { soIds: [soId], unallocate: true }],
    ['/so/detail/allocation', { lineIds: [lineId], unallocate: true }],
    ['/so/manualAllocation', { lineId, allocations: [{ balanceId, qty: 1 }] }],
    ['/so/addMaintenanceList', { entries: [{ orderNo: 'SC-1', reason: 'x' }] }],
    ['/so/wave/save', { orderIds: [newSo] }],
    ['/so/wave/save', { waveId, orderIds: [newSo] }],
    ['/wave/release', { waveId }],
    ['/wave/unwave', { orderIds: [soId] }],
    ['/wave/batchUpdateRef', { waveIds: [waveId], reference: 'mine' }],
    ['/so/pick', { soId }],
    ['/pick/confirm', { taskId, locationCode: 'L-SC-0', sku: 'SKU-SC-0', qty: 1 }],
    ['/pick/unpick', { taskId }],
  ];
}

function reads(): Array<[string, Record<string, unknown>]> {
  return [
    ['/so/balance', { soId }],
    ['/so/findAllocation', { lineId }],
    ['/so/cancelCloseCheck', { soIds: [soId] }],
    ['/so/checkPartialPack', { soIds: [soId] }],
    ['/so/sku', { soId, text: 'SKU' }],
    ['/pick/tasks', { waveId }],
    ['/pick/tasks', { soId }],
    ['/so/pick', { soId }],
  ];
}

const GENERIC_PAGES = ['so', 'soDetail', 'soAllocation', 'wave', 'pickTask', 'pso', 'psoDetail', 'shipmentOrder', 'shipmentOrderSo'];

describe('a user of another warehouse or project guessing ids', () => {
  for (const [who, token] of [['WH2', () => otherWarehouse], ['PRJ2', () => otherProject]] as const) {
    it(`${who}: every outbound write with WH1's ids is refused, nothing changed`, async () => {
      const before = await state();
      const leaks: string[] = [];
      for (const [url, body] of writes()) {
        const response = await call(url, body, token());
        if (response.statusCode < 400 || response.statusCode >= 500) leaks.push(`${url} -> ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
      // The engine's writes with WH1's keys: a line added to WH1's order, the order changed or deleted.
      const view = json<{ rows: Array<{ _key: number; _version: string }> }>(await gen('so', 'selection', { page: 1, pageSize: 100 })).rows.find((r) => r._key === newSo)!;
      for (const [url, functionCode, body] of [
        ['adding', 'soDetail', { record: { so_id: newSo, sku_id: f.skuIds[0], qty: '1' } }],
        ['updating', 'so', { key: newSo, version: view._version, record: { ship_to_name: 'taken' } }],
        ['updating', 'soDetail', { key: lineId, version: '1', record: { qty: '9' } }],
        ['deletion', 'so', { keys: [newSo] }],
        ['deletion', 'soDetail', { keys: [lineId] }],
      ] as const) {
        const response = await gen(functionCode, url, body, token());
        if (response.statusCode < 400 || response.statusCode >= 500) leaks.push(`${url} ${functionCode} -> ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
      for (const [behaviour, functionCode, keys] of [['allocate', 'so', [newSo]], ['cancel', 'so', [newSo]], ['release', 'wave', [waveId]], ['unwave', 'wave', [waveId]], ['allocateLines', 'soDetail', [lineId]]] as const) {
        const response = await gen(functionCode, 'behavior', { behaviour, keys }, token());
        if (response.statusCode < 400 || response.statusCode >= 500) leaks.push(`behaviour ${behaviour} -> ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
      expect(leaks).toEqual([]);
      expect(await state()).toEqual(before);
    });

    it(`${who}: reads, the pick list, exports and engine pages answer nothing of WH1`, async () => {
      const leaks: string[] = [];
      for (const [url, body] of reads()) {
        const response = await call(url, body, token());
        const text = response.body;
        if (response.statusCode >= 500 || (response.statusCode < 400 && /SC-1|SKU-SC|L-SC/.test(text))) leaks.push(`${url} -> ${response.statusCode} ${text.slice(0, 160)}`);
      }
      for (const q of [`waveId=${waveId}`, `soId=${soId}`]) {
        const response = await injectAs(t.app, token(), { method: 'GET', url: `/api/pick/list.pdf?${q}` });
        if (response.statusCode < 400 || response.statusCode >= 500) leaks.push(`pdf ${q} -> ${response.statusCode}`);
      }
      const exported = await call('/so/export', { format: 'csv' }, token());
      if (/SC-1/.test(exported.body)) leaks.push('so export');
      const wl = await call('/wave/list', {}, token());
      if (/WV|SCC/.test(wl.body) && json<{ rows?: unknown[] }>(wl).rows?.length) leaks.push(`wave list ${wl.body.slice(0, 160)}`);
      for (const functionCode of GENERIC_PAGES) {
        const sel = await gen(functionCode, 'selection', { page: 1, pageSize: 100 }, token());
        if (sel.statusCode === 200 && json<{ rows: unknown[] }>(sel).rows.length > 0) leaks.push(`selection ${functionCode}: ${sel.body.slice(0, 160)}`);
        const exp = await gen(functionCode, 'export', {}, token());
        if (exp.statusCode >= 500) leaks.push(`export ${functionCode} -> ${exp.statusCode}`);
      }
      for (const [functionCode, subPage, parentKey] of [['so', 'soDetail', soId], ['so', 'soAllocation', soId], ['wave', 'orders', waveId], ['wave', 'tasks', waveId]] as const) {
        const tab = await gen(functionCode, 'tab', { subPage, parentKey, page: 1, pageSize: 100 }, token());
        if (tab.statusCode === 200 && json<{ rows: unknown[] }>(tab).rows.length > 0) leaks.push(`tab ${functionCode}/${subPage}: ${tab.body.slice(0, 160)}`);
        if (tab.statusCode >= 500) leaks.push(`tab ${functionCode}/${subPage} -> ${tab.statusCode}`);
      }
      // Owners and SKUs are of the project: a user of its other warehouse may choose them, one of another project not.
      const dropdowns = who === 'PRJ2' ? ([['so', 'owner_id'], ['soDetail', 'sku_id'], ['so', 'wave_id']] as const) : ([['so', 'wave_id']] as const);
      for (const [functionCode, field] of dropdowns) {
        const dd = await gen(functionCode, 'dropdown', { field }, token());
        if (dd.statusCode >= 500 || (dd.statusCode === 200 && /OW-SC|SKU-SC|WV/.test(dd.body))) leaks.push(`dropdown ${functionCode}.${field}: ${dd.statusCode} ${dd.body.slice(0, 160)}`);
      }
      expect(leaks).toEqual([]);
    });
  }
});

describe('a second warehouse of the project', () => {
  it('numbers its first wave of the day apart from the first warehouse\'s waves', async () => {
    const first = await db().selectFrom('wave').select('wave_no').where('id', '=', waveId).executeTakeFirstOrThrow();
    const added = await gen('so', 'adding', { record: { order_no: 'SC-WH2', owner_id: f.ownerId, ship_to_address_en: '2 Road', required_ship_date: '2030-02-15' } }, otherWarehouse);
    expect(added.statusCode, added.body).toBe(200);
    const wh2Order = json<{ row: { _key: number } }>(added).row._key;
    const saved = await call('/so/wave/save', { orderIds: [wh2Order] }, otherWarehouse);
    expect(saved.statusCode, saved.body).toBe(200);
    const answer = json<{ waveId: number; waveNo: string }>(saved);
    expect(answer.waveNo).not.toBe(first.wave_no);
    expect((await db().selectFrom('so_header').select('wave_id').where('id', '=', wh2Order).executeTakeFirstOrThrow()).wave_id).toBe(answer.waveNo);
    // The orders of WH1's wave are still only WH1's.
    const tab = json<{ rows: Array<{ order_no: string }> }>(await gen('wave', 'tab', { subPage: 'orders', parentKey: waveId, page: 1, pageSize: 100 }));
    expect(tab.rows.map((r) => r.order_no)).toEqual(['SC-1']);
  });
});

describe('a WH1 user with only view rights', () => {
  it('cannot allocate, release, pick, unwave, cancel or create a wave; nothing changed', async () => {
    const before = await state();
    const leaks: string[] = [];
    for (const [url, body] of writes()) {
      const response = await call(url, body, viewer);
      if (response.statusCode !== 403) leaks.push(`${url} -> ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    for (const [behaviour, functionCode, keys] of [['allocate', 'so', [newSo]], ['cancel', 'so', [newSo]], ['close', 'so', [newSo]], ['delete', 'so', [newSo]], ['release', 'wave', [waveId]], ['unwave', 'wave', [waveId]], ['batchUpdateRef', 'wave', [waveId]], ['allocateLines', 'soDetail', [lineId]], ['unallocateLines', 'soDetail', [lineId]]] as const) {
      const response = await gen(functionCode, 'behavior', { behaviour, keys, inputs: behaviour === 'batchUpdateRef' ? { reference: 'SCN' } : {} }, viewer);
      if (response.statusCode !== 403) leaks.push(`behaviour ${functionCode}.${behaviour} -> ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    expect(leaks).toEqual([]);
    expect(await state()).toEqual(before);
  });
});

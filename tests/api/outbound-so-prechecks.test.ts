import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, outboundSnapshot, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * The read-only pre-checks of the sales order through the real server:
 * /so/cancelCloseCheck tells per order whether cancel and close are allowed by the status table
 * and what they would undo; /so/checkPartialPack tells per order ordered against picked qty and
 * whether packing now would ship less than ordered. Orders in new, allocated, partly picked, picked
 * and cancelled states; neither call changes anything, refused or not.
 */
let t: TestApp;
let admin: string;
let otherWarehouse: string;
let noRight: string;
let f: OutboundFixture;
let seq = 0;
const ids = { fresh: 0, allocated: 0, partlyPicked: 0, picked: 0, cancelled: 0 };
let waveNo = '';

const post = (url: string, payload: unknown, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown> });
const gen = (functionCode: string, url: string, payload: Record<string, unknown>) => post(`/generic/${url}`, { moduleCode: 'outbound', functionCode, ...payload });
const db = () => t.database.db;

const orders = () => orderCalls(t.app, admin, db());
const newOrder = (lines: Array<{ sku: number; qty: number }>) => orders().enter(`PRE-${++seq}`, f.ownerId, lines.map((l) => ({ skuCode: `SKU-PC-${l.sku}`, qty: l.qty })));
const allocate = (soId: number) => orders().allocate(soId);
/** Picks every open task of the order for this SKU in full, onto a tote at the staging location. */
const pickSku = (soId: number, skuIndex: number) => orders().pickSku(soId, f.skuIds[skuIndex], `SKU-PC-${skuIndex}`, `TOTE-PC-${soId}`);
/** Everything a pre-check must leave as it was. */
const snapshot = () => outboundSnapshot(db(), Object.values(ids));

const status = async (soId: number) => (await db().selectFrom('so_header').select('status').where('id', '=', soId).executeTakeFirstOrThrow()).status;

function refused(response: { statusCode: number; body: string }, statusCode: number, code: string) {
  expect(response.statusCode, response.body).toBe(statusCode);
  expect(json(response as never)).toMatchObject({ code });
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(db(), 'PC', 4);
  const project = await db().selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const wh2 = await db().insertInto('warehouse').values({ organization_id: project.organization_id, code: 'WH2', name: 'Second', nav_layout: null }).returning('id').executeTakeFirstOrThrow();
  await db().insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: wh2.id }).execute();
  await db().insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: 'STAGE-PC', location_type: 'stage' }).execute();
  otherWarehouse = await createUser(t, { loginAccount: 'pre-wh2', rights: ['outbound.so:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH2'] });
  noRight = await createUser(t, { loginAccount: 'pre-wave', rights: ['outbound.wave:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });

  for (const sku of [0, 1, 2]) await stock(db(), f, f.skuIds[sku], f.locationIds[1], 20);
  ids.fresh = await newOrder([{ sku: 0, qty: 2 }]);
  ids.allocated = await newOrder([{ sku: 0, qty: 3 }]);
  await allocate(ids.allocated);
  // Partly picked, on a wave: the first line picked in full, the second allocated with an open task.
  ids.partlyPicked = await newOrder([
    { sku: 0, qty: 4 },
    { sku: 1, qty: 2 },
  ]);
  const wave = json<{ waveId: number; waveNo: string }>(await post('/so/wave/save', { orderIds: [ids.partlyPicked] }));
  waveNo = wave.waveNo;
  expect((await post('/wave/release', { waveId: wave.waveId })).statusCode).toBe(200);
  await pickSku(ids.partlyPicked, 0);
  // Picked in full outside a wave.
  ids.picked = await newOrder([{ sku: 2, qty: 2 }]);
  await allocate(ids.picked);
  expect((await post('/so/pick', { soId: ids.picked })).statusCode).toBe(200);
  await pickSku(ids.picked, 2);
  ids.cancelled = await newOrder([{ sku: 0, qty: 1 }]);
  await allocate(ids.cancelled);
  expect((await gen('so', 'behavior', { behaviour: 'cancel', keys: [ids.cancelled], inputs: {} })).statusCode).toBe(200);

  expect(await Promise.all(Object.values(ids).map(status))).toEqual(['new', 'allocated', 'partial_picked', 'picked', 'cancelled']);
});

afterAll(async () => {
  await t?.close();
});

interface EndCheck {
  soId: number;
  orderNo: string;
  status: string;
  cancel: { allowed: boolean; reason: { code: string; message: string } | null };
  close: { allowed: boolean; reason: { code: string; message: string } | null };
  allocatedQty: string;
  pickedQty: string;
  openTasks: number;
  waveNo: string | null;
  lines: Array<{ lineNo: number; qty: string; allocatedQty: string; pickedQty: string }>;
}

interface PackCheck {
  soId: number;
  status: string;
  partial: boolean;
  nothingPicked: boolean;
  reason: { code: string; message: string } | null;
  lines: Array<{ lineNo: number; skuCode: string; ordered: string; picked: string; short: string }>;
}

const STATUS_TEXT = "Status error: the order's status does not allow this action.";

describe('/so/cancelCloseCheck', () => {
  it('tells per order whether cancel and close are allowed and what they would undo, changing nothing', async () => {
    const before = await snapshot();
    const response = await post('/so/cancelCloseCheck', { soIds: Object.values(ids) });
    expect(response.statusCode, response.body).toBe(200);
    const orders = json<{ orders: EndCheck[] }>(response).orders;
    expect(orders.map((o) => o.soId)).toEqual(Object.values(ids));
    const facts = orders.map((o) => ({ status: o.status, cancel: o.cancel.allowed, close: o.close.allowed, allocated: Number(o.allocatedQty), picked: Number(o.pickedQty), openTasks: o.openTasks, waveNo: o.waveNo }));
    expect(facts).toEqual([
      { status: 'new', cancel: true, close: true, allocated: 0, picked: 0, openTasks: 0, waveNo: null },
      { status: 'allocated', cancel: true, close: true, allocated: 3, picked: 0, openTasks: 0, waveNo: null },
      { status: 'partial_picked', cancel: false, close: true, allocated: 2, picked: 4, openTasks: 1, waveNo },
      { status: 'picked', cancel: false, close: true, allocated: 0, picked: 2, openTasks: 0, waveNo: null },
      { status: 'cancelled', cancel: false, close: false, allocated: 0, picked: 0, openTasks: 0, waveNo: null },
    ]);
    const [fresh, , partly, picked, cancelled] = orders;
    expect(fresh.cancel.reason).toBeNull();
    expect(partly.cancel.reason).toEqual({ code: 'ORDER_STATUS_ERROR', message: STATUS_TEXT, params: expect.objectContaining({ status: 'partial_picked' }) });
    expect(picked.cancel.reason).toMatchObject({ code: 'ORDER_STATUS_ERROR' });
    expect(cancelled.close.reason).toMatchObject({ code: 'ORDER_STATUS_ERROR', message: STATUS_TEXT });
    expect(partly.lines.map((l) => [l.lineNo, Number(l.qty), Number(l.allocatedQty), Number(l.pickedQty)])).toEqual([
      [1, 4, 0, 4],
      [2, 2, 2, 0],
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('agrees with what cancel then does: refused where it said so, and releases the allocated qty it told', async () => {
    const [check] = json<{ orders: EndCheck[] }>(await post('/so/cancelCloseCheck', { soIds: [ids.allocated] })).orders;
    const allocatedOf = async () => (await db().selectFrom('inventory_balance').select('allocated_qty').where('sku_id', '=', f.skuIds[0]).where('location_id', '=', f.locationIds[1]).executeTakeFirstOrThrow()).allocated_qty;
    const allocatedBefore = new Decimal(await allocatedOf());

    const before = await snapshot();
    const refusedCancel = await gen('so', 'behavior', { behaviour: 'cancel', keys: [ids.partlyPicked], inputs: {} });
    expect(json(refusedCancel)).toMatchObject({ code: 'ORDER_STATUS_ERROR', message: STATUS_TEXT });
    expect(await snapshot()).toEqual(before);

    expect((await gen('so', 'behavior', { behaviour: 'cancel', keys: [ids.allocated], inputs: {} })).statusCode).toBe(200);
    expect(allocatedBefore.minus(await allocatedOf()).toString()).toBe(new Decimal(check.allocatedQty).toString());
    const [after] = json<{ orders: EndCheck[] }>(await post('/so/cancelCloseCheck', { soIds: [ids.allocated] })).orders;
    expect(after).toMatchObject({ status: 'cancelled', cancel: { allowed: false }, close: { allowed: false } });
    expect(Number(after.allocatedQty)).toBe(0);
  });
});

describe('/so/checkPartialPack', () => {
  it('gives ordered against picked per line, partial and nothing picked, changing nothing', async () => {
    const before = await snapshot();
    const soIds = [ids.fresh, ids.partlyPicked, ids.picked, ids.cancelled];
    const response = await post('/so/checkPartialPack', { soIds });
    expect(response.statusCode, response.body).toBe(200);
    const orders = json<{ orders: PackCheck[] }>(response).orders;
    expect(orders.map((o) => [o.soId, o.status, o.partial, o.nothingPicked, o.reason?.code ?? null])).toEqual([
      [ids.fresh, 'new', true, true, null],
      [ids.partlyPicked, 'partial_picked', true, false, null],
      [ids.picked, 'picked', false, false, null],
      [ids.cancelled, 'cancelled', true, true, 'ORDER_STATUS_ERROR'],
    ]);
    const lines = (o: PackCheck) => o.lines.map((l) => [l.lineNo, l.skuCode, Number(l.ordered), Number(l.picked), Number(l.short)]);
    expect(lines(orders[1])).toEqual([
      [1, 'SKU-PC-0', 4, 4, 0],
      [2, 'SKU-PC-1', 2, 0, 2],
    ]);
    expect(lines(orders[2])).toEqual([[1, 'SKU-PC-2', 2, 2, 0]]);
    expect(orders[3].reason?.message).toBe(STATUS_TEXT);
    expect(await snapshot()).toEqual(before);
  });

  it('an allocated order not picked yet: partial and nothing picked', async () => {
    const order = await newOrder([{ sku: 1, qty: 1 }]);
    await allocate(order);
    const [check] = json<{ orders: PackCheck[] }>(await post('/so/checkPartialPack', { soIds: [order] })).orders;
    expect(check).toMatchObject({ status: 'allocated', partial: true, nothingPicked: true, reason: null });
  });
});

describe('refusals of both pre-checks', () => {
  const paths = ['/so/cancelCloseCheck', '/so/checkPartialPack'];

  it('an order of another warehouse, or an unknown one, is not found', async () => {
    const before = await snapshot();
    for (const path of paths) {
      refused(await post(path, { soIds: [ids.fresh] }, otherWarehouse), 404, 'NO_RECORD');
      refused(await post(path, { soIds: [ids.fresh, 987654321] }), 404, 'NO_RECORD');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('bad input is refused with 400 and a code', async () => {
    const before = await snapshot();
    for (const path of paths) {
      for (const body of [{}, { soIds: [] }, { soIds: ['x'] }, { soIds: [0] }, { soIds: [ids.fresh], extra: 1 }, { soIds: Array.from({ length: 101 }, (_, i) => i + 1) }]) {
        const response = await post(path, body);
        expect(response.statusCode, `${path} ${JSON.stringify(body)}: ${response.body}`).toBe(400);
        expect(json<{ code: string }>(response).code).toEqual(expect.any(String));
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a caller without the order view right is refused', async () => {
    const before = await snapshot();
    for (const path of paths) refused(await post(path, { soIds: [ids.fresh] }, noRight), 403, 'FORBIDDEN');
    expect(await snapshot()).toEqual(before);
  });
});

import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Unwave on the /wave page through the real server: the page's unwave behaviour takes every order
 * of the selected waves off them (open tasks cancelled, allocation kept), needs the release verb,
 * is not enabled once a wave is partly picked, and is refused by the server, nothing changed, when
 * an order of the wave is picked although the wave still shows new.
 */
let t: TestApp;
let admin: string;
let clerk: string;
let f: OutboundFixture;
let seq = 0;

const post = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });
const gen = (functionCode: string, url: string, payload: Record<string, unknown>, token = admin) => post(`/generic/${url}`, { moduleCode: 'outbound', functionCode, ...payload }, token);
const unwave = (waveIds: number[], token = admin) => gen('wave', 'behavior', { behaviour: 'unwave', keys: waveIds, inputs: {} }, token);
const db = () => t.database.db;

async function newOrder(skuIndex: number, qty: number): Promise<number> {
  seq += 1;
  const added = await gen('so', 'adding', { record: { order_no: `UW-${seq}`, owner_id: f.ownerId, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-02-15' } });
  expect(added.statusCode, added.body).toBe(200);
  const soId = json<{ row: { _key: number } }>(added).row._key;
  const line = await gen('soDetail', 'adding', { record: { so_id: soId, sku_id: f.skuIds[skuIndex], qty: String(qty) } });
  expect(line.statusCode, line.body).toBe(200);
  return soId;
}

async function newWave(orderIds: number[]): Promise<{ waveId: number; waveNo: string }> {
  const saved = await post('/so/wave/save', { orderIds });
  expect(saved.statusCode, saved.body).toBe(200);
  return json<{ waveId: number; waveNo: string }>(saved);
}

const order = (id: number) => db().selectFrom('so_header').select(['status', 'wave_id']).where('id', '=', id).executeTakeFirstOrThrow();
const wave = (id: number) => db().selectFrom('wave').select(['status', 'order_count', 'allocated_qty']).where('id', '=', id).executeTakeFirstOrThrow();
const tasksOf = (soId: number) => db().selectFrom('pick_task').select(['status']).where('so_id', '=', soId).orderBy('id').execute();

async function snapshot() {
  return {
    orders: await db().selectFrom('so_header').select(['id', 'status', 'wave_id', 'updated_at']).orderBy('id').execute(),
    lines: await db().selectFrom('so_line').select(['id', 'allocated_qty', 'picked_qty']).orderBy('id').execute(),
    tasks: await db().selectFrom('pick_task').select(['id', 'status', 'picked_qty']).orderBy('id').execute(),
    waves: await db().selectFrom('wave').select(['id', 'status', 'order_count', 'allocated_qty', 'picked_qty']).orderBy('id').execute(),
    balances: await db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty']).orderBy('id').execute(),
  };
}

async function pickAll(soId: number, skuIndex: number) {
  const tasks = await db().selectFrom('pick_task').select(['id', 'qty', 'location_id']).where('so_id', '=', soId).where('status', '=', 'open').execute();
  expect(tasks.length).toBeGreaterThan(0);
  for (const task of tasks) {
    const location = await db().selectFrom('location').select('code').where('id', '=', task.location_id).executeTakeFirstOrThrow();
    const picked = await post('/pick/confirm', { taskId: task.id, locationCode: location.code, sku: `SKU-UW-${skuIndex}`, qty: new Decimal(task.qty).toString(), toLpn: `TOTE-UW-${soId}` });
    expect(picked.statusCode, picked.body).toBe(200);
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(db(), 'UW', 4);
  await db().insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: 'STAGE-UW', location_type: 'stage' }).execute();
  for (const sku of [0, 1, 2, 3]) await stock(db(), f, f.skuIds[sku], f.locationIds[1], 20);
  clerk = await createUser(t, { loginAccount: 'unwave-clerk', rights: ['outbound:view', 'outbound:add', 'outbound:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
});

afterAll(async () => {
  await t?.close();
});

describe('unwave on the /wave page', () => {
  it('takes every order of a new wave off it', async () => {
    const a = await newOrder(0, 2);
    const b = await newOrder(0, 3);
    const { waveId } = await newWave([a, b]);
    const done = await unwave([waveId]);
    expect(done.statusCode, done.body).toBe(200);
    expect(json(done)).toMatchObject({ messageCode: 'outbound.wave.unwaved', messageParams: { count: 2 } });
    expect((await order(a)).wave_id).toBeNull();
    expect((await order(b)).wave_id).toBeNull();
    expect((await wave(waveId)).order_count).toBe(0);
    // Free again: the orders may go on another wave.
    expect((await post('/so/wave/save', { orderIds: [a, b] })).statusCode).toBe(200);
  });

  it('takes the orders off a released wave: open tasks cancelled, allocation kept', async () => {
    const c = await newOrder(1, 4);
    const { waveId } = await newWave([c]);
    expect((await post('/wave/release', { waveId })).statusCode).toBe(200);
    expect((await order(c)).status).toBe('allocated');
    expect((await tasksOf(c)).map((x) => x.status)).toEqual(['open']);
    const done = await unwave([waveId]);
    expect(done.statusCode, done.body).toBe(200);
    expect(await order(c)).toEqual({ status: 'allocated', wave_id: null });
    expect((await tasksOf(c)).map((x) => x.status)).toEqual(['cancelled']);
    expect(await wave(waveId)).toMatchObject({ order_count: 0, allocated_qty: '0.0000' });
    for (const row of await ledgerAgreement(db())) expect(new Decimal(row.ledger_allocated).equals(row.allocated_qty)).toBe(true);
  });

  it('needs the release verb beside the wave view right; nothing changed', async () => {
    const d = await newOrder(0, 1);
    const { waveId } = await newWave([d]);
    const before = await snapshot();
    const refused = await unwave([waveId], clerk);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('is not enabled on a partly picked wave; nothing changed', async () => {
    const e = await newOrder(2, 2);
    const g = await newOrder(2, 3);
    const { waveId } = await newWave([e, g]);
    expect((await post('/wave/release', { waveId })).statusCode).toBe(200);
    await pickAll(e, 2);
    expect((await wave(waveId)).status).toBe('partial_picked');
    const before = await snapshot();
    const refused = await unwave([waveId]);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(json(refused)).toMatchObject({ code: 'BEHAVIOUR_NOT_ENABLED' });
    expect(await snapshot()).toEqual(before);
  });

  it('is refused with the order status message once an order of a new wave is picked; nothing changed', async () => {
    const h = await newOrder(3, 2);
    const k = await newOrder(3, 1);
    const { waveId } = await newWave([h, k]);
    // Picked outside the wave's release: allocated and picked through its own tasks.
    expect((await post('/so/header/allocation', { soIds: [h] })).statusCode).toBe(200);
    expect((await post('/so/pick', { soId: h })).statusCode).toBe(200);
    await pickAll(h, 3);
    expect((await order(h)).status).toBe('picked');
    expect((await wave(waveId)).status).toBe('new');
    const before = await snapshot();
    const refused = await unwave([waveId]);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(json(refused)).toMatchObject({ code: 'ORDER_STATUS_ERROR', message: "Status error: the order's status does not allow this action." });
    expect(await snapshot()).toEqual(before);
    expect((await order(k)).wave_id).not.toBeNull();
  });

  it('refuses a wave without orders left and an unknown wave; nothing changed', async () => {
    const m = await newOrder(0, 1);
    const { waveId } = await newWave([m]);
    expect((await unwave([waveId])).statusCode).toBe(200);
    const before = await snapshot();
    const empty = await unwave([waveId]);
    expect(json(empty)).toMatchObject({ code: 'DOCUMENT_NO_LINES' });
    const unknown = await unwave([987654321]);
    expect(unknown.statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });
});

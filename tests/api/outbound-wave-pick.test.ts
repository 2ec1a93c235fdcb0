import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gs1CheckDigit } from '../../src/common/gs1.js';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Waves and picking through the real server: orders chosen by filters within the selection cap,
 * "a wave id already exists on the order", release allocating by the rules and creating pick tasks
 * by zone and location sequence, the pick list only after allocation, confirm, over-pick, short
 * pick and unpick through the inventory service, unwave. Every refusal leaves the database as it
 * was, which the tests check there.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let stageId: number;
let orderSeq = 0;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, 'WV', 8);
  const db = t.database.db;
  // Zones: the pick face and the first reserve location in zone A, the others in zone B.
  await db.updateTable('location').set({ zone: 'A' }).where('id', 'in', [f.locationIds[0], f.locationIds[1]]).execute();
  await db.updateTable('location').set({ zone: 'B' }).where('id', 'in', [f.locationIds[2], f.locationIds[3]]).execute();
  stageId = (await db.insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: 'STAGE-WV', location_type: 'stage' }).returning('id').executeTakeFirstOrThrow()).id;
  await db.insertInto('so_rule').values({ project_id: f.scope.projectId, owner_id: f.ownerId, sku_id: null, strategy: 'fefo', min_shelf_life_days: 0, pick_face_first: false }).execute();
});

afterAll(async () => {
  await t?.close();
});

const call = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });
const gen = (functionCode: string, url: string, payload: Record<string, unknown>, token = admin) =>
  injectAs(t.app, token, { method: 'POST', url: `/api/generic/${url}`, payload: { moduleCode: 'outbound', functionCode, ...payload } });

const newOrder = (lines: Array<{ skuId: number; qty: number }>, header: Record<string, unknown> = {}) =>
  orderCalls(t.app, admin, t.database.db).enterOnPages({ order_no: `SOW-${++orderSeq}`, owner_id: f.ownerId, required_ship_date: '2030-02-15', carrier_code: 'WVC', ...header }, lines);

const db = () => t.database.db;
const order = (id: number) => db().selectFrom('so_header').select(['status', 'order_no', 'wave_id']).where('id', '=', id).executeTakeFirstOrThrow();
const orderLines = (soId: number) => db().selectFrom('so_line').select(['id', 'qty', 'allocated_qty', 'picked_qty']).where('so_id', '=', soId).orderBy('line_no').execute();
const wave = (id: number) => db().selectFrom('wave').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const tasksOf = (soId: number) => db().selectFrom('pick_task').selectAll().where('so_id', '=', soId).orderBy('id').execute();
const balances = (skuId: number) =>
  db().selectFrom('inventory_balance').select(['id', 'location_id', 'lpn', 'on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty']).where('sku_id', '=', skuId).orderBy('id').execute();
const ledgerCount = async () => Number((await db().selectFrom('inventory_transaction').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** Everything a refused call must leave as it was. */
async function snapshot(skuId: number, soIds: number[]) {
  return {
    balances: await balances(skuId),
    ledger: await ledgerCount(),
    orders: await Promise.all(soIds.map(order)),
    lines: await Promise.all(soIds.map(orderLines)),
    tasks: await Promise.all(soIds.map(tasksOf)),
    allocations: await db().selectFrom('so_allocation').select(['so_line_id', 'balance_id', 'qty']).where('so_id', 'in', soIds).orderBy('id').execute(),
    waves: await db().selectFrom('wave').select(['id', 'status', 'order_count', 'allocated_qty', 'picked_qty', 'reference']).orderBy('id').execute(),
  };
}

async function expectLedgerAgrees() {
  for (const row of await ledgerAgreement(db())) {
    expect(new Decimal(row.ledger_allocated).equals(row.allocated_qty), `allocated of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
  }
}

function locationCode(id: number): Promise<string> {
  return db().selectFrom('location').select('code').where('id', '=', id).executeTakeFirstOrThrow().then((r) => r.code);
}

function skuCode(id: number): Promise<string> {
  return db().selectFrom('sku').select('code').where('id', '=', id).executeTakeFirstOrThrow().then((r) => r.code);
}

describe('choosing orders for a wave', () => {
  it('filters by carrier, ship date and owner and never answers more than 100 orders', async () => {
    const project = f.scope.projectId;
    const rows = Array.from({ length: 105 }, (_, i) => ({
      project_id: project,
      warehouse_id: f.scope.warehouseId,
      order_no: `CAP-${i}`,
      owner_id: f.ownerId,
      carrier_code: 'CAPPED',
      required_ship_date: '2031-01-01',
      ship_to_address_en: 'x',
    }));
    await db().insertInto('so_header').values(rows).execute();
    const capped = json<{ rows: unknown[]; capped: boolean; cap: number }>(await call('/so/wave', { carrierCode: 'CAPPED' }));
    expect(capped.rows).toHaveLength(100);
    expect(capped).toMatchObject({ capped: true, cap: 100 });
    const none = json<{ rows: unknown[] }>(await call('/so/wave', { carrierCode: 'CAPPED', shipDateTo: '2030-12-31' }));
    expect(none.rows).toHaveLength(0);

    // Putting more than 100 orders on a wave is refused before anything is written.
    const ids = (await db().selectFrom('so_header').select('id').where('carrier_code', '=', 'CAPPED').execute()).map((r) => r.id);
    const before = await db().selectFrom('wave').select('id').execute();
    const refused = await call('/so/wave/save', { orderIds: ids });
    expect(refused.statusCode).toBe(400);
    expect(await db().selectFrom('wave').select('id').execute()).toEqual(before);
    expect(await db().selectFrom('so_header').select('id').where('carrier_code', '=', 'CAPPED').where('wave_id', 'is not', null).execute()).toEqual([]);
    await db().deleteFrom('so_header').where('carrier_code', '=', 'CAPPED').execute();
  });

  it('filters by zone: only orders with available stock in the zone', async () => {
    await stock(db(), f, f.skuIds[7], f.locationIds[3], 5);
    const inB = await newOrder([{ skuId: f.skuIds[7], qty: 1 }], { carrier_code: 'ZONE' });
    const b = json<{ rows: Array<{ id: number }> }>(await call('/so/wave', { carrierCode: 'ZONE', zone: 'B' }));
    const a = json<{ rows: Array<{ id: number }> }>(await call('/so/wave', { carrierCode: 'ZONE', zone: 'A' }));
    expect(b.rows.map((r) => r.id)).toEqual([inB]);
    expect(a.rows).toEqual([]);
  });
});

describe('waves, release and picking', () => {
  let soA: number;
  let soB: number;
  let waveId: number;
  const sku = () => f.skuIds[0];

  it('puts two orders on a new wave and refuses an order already on a wave, nothing changed', async () => {
    // Two lots of SKU 0: the later expiry in zone A (pick face), the earlier in zone B; FEFO takes the earlier first.
    await stock(db(), f, sku(), f.locationIds[0], 10, { lotNo: 'LATE', expiryDate: '2031-06-30' });
    await stock(db(), f, sku(), f.locationIds[2], 4, { lotNo: 'EARLY', expiryDate: '2030-06-30' });
    soA = await newOrder([{ skuId: sku(), qty: 6 }], { carrier_code: 'WAVE1' });
    soB = await newOrder([{ skuId: sku(), qty: 3 }], { carrier_code: 'WAVE1' });
    const candidates = json<{ rows: Array<{ id: number }> }>(await call('/so/wave', { carrierCode: 'WAVE1', ownerId: f.ownerId, shipDateFrom: '2030-02-01', shipDateTo: '2030-02-28' }));
    expect(candidates.rows.map((r) => r.id)).toEqual([soA, soB]);
    const saved = await call('/so/wave/save', { orderIds: [soA, soB], carrierCode: 'WAVE1' });
    expect(saved.statusCode, saved.body).toBe(200);
    const answer = json<{ waveId: number; waveNo: string; orders: number }>(saved);
    waveId = answer.waveId;
    expect(answer.waveNo).toMatch(/^WV\d{6}\d{4}$/);
    expect((await order(soA)).wave_id).toBe(answer.waveNo);
    expect(await wave(waveId)).toMatchObject({ status: 'new', order_count: 2, line_count: 2, carrier_code: 'WAVE1' });

    const before = await snapshot(sku(), [soA, soB]);
    const again = await call('/so/wave/save', { orderIds: [soB] });
    expect(again.statusCode).toBe(409);
    expect(json(again)).toMatchObject({ code: 'WAVE_ID_EXISTS', message: 'A wave id already exists on the order.' });
    expect(await snapshot(sku(), [soA, soB])).toEqual(before);
    // The order page refuses changing the wave id too.
    const view = json<{ rows: Array<{ _key: number; _version: string }> }>(await gen('so', 'selection', { page: 1, pageSize: 100 })).rows.find((r) => r._key === soB)!;
    const edit = await gen('so', 'updating', { key: soB, version: view._version, record: { wave_id: 'OTHER' } });
    expect(json(edit)).toMatchObject({ code: 'WAVE_ID_EXISTS' });
    expect((await order(soB)).wave_id).toBe(answer.waveNo);
  });

  it('refuses the pick list before allocation ("allocate first"), nothing written', async () => {
    const response = await injectAs(t.app, admin, { method: 'GET', url: `/api/pick/list.pdf?waveId=${waveId}` });
    expect(response.statusCode).toBe(409);
    expect(json(response)).toMatchObject({ code: 'PRINT_NOT_ALLOWED', message: 'Not allowed to print: allocate or scan-pack first.' });
    const byOrder = await injectAs(t.app, admin, { method: 'GET', url: `/api/pick/list.pdf?soId=${soA}` });
    expect(json(byOrder)).toMatchObject({ code: 'PRINT_NOT_ALLOWED' });
  });

  it('needs the release verb beside the wave right', async () => {
    const clerk = await createUser(t, { loginAccount: 'wave-clerk', rights: ['outbound:view', 'outbound:add', 'outbound:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const before = await snapshot(sku(), [soA, soB]);
    const refused = await call('/wave/release', { waveId }, clerk);
    expect(refused.statusCode).toBe(403);
    expect(await snapshot(sku(), [soA, soB])).toEqual(before);
  });

  it('release allocates every order by its rule (FEFO) and creates pick tasks by zone and location sequence', async () => {
    const released = await call('/wave/release', { waveId });
    expect(released.statusCode, released.body).toBe(200);
    expect(json(released)).toMatchObject({ status: 'released', tasks: 3, allocation: { shortages: [] } });
    expect((await order(soA)).status).toBe('allocated');
    expect((await order(soB)).status).toBe('allocated');
    // FEFO: order A takes the 4 of the early lot in zone B, then 2 of the late lot; order B 3 of the late lot.
    const tasks = json<{ tasks: Array<{ order_no: string; zone: string; lot_no: string; qty: string }>; zones: Array<{ zone: string }> }>(await call('/pick/tasks', { waveId }));
    expect(tasks.zones.map((z) => z.zone)).toEqual(['A', 'B']);
    expect(tasks.tasks.map((x) => [x.zone, x.lot_no, Number(x.qty)])).toEqual([
      ['A', 'LATE', 2],
      ['A', 'LATE', 3],
      ['B', 'EARLY', 4],
    ]);
    expect(await wave(waveId)).toMatchObject({ status: 'released', allocated_qty: '9.0000', picked_qty: '0.0000' });
    // Releasing again creates no second task for the same allocation.
    expect(json(await call('/wave/release', { waveId }))).toMatchObject({ tasks: 0 });
    await expectLedgerAgrees();
  });

  it('prints the pick list as a PDF after allocation', async () => {
    const response = await injectAs(t.app, admin, { method: 'GET', url: `/api/pick/list.pdf?waveId=${waveId}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses a wrong location, a wrong SKU and picking more than allocated, nothing changed', async () => {
    const [task] = await tasksOf(soA).then((rows) => rows.filter((r) => Number(r.location_id) === f.locationIds[2]));
    const location = await locationCode(f.locationIds[2]);
    const code = await skuCode(sku());
    const before = await snapshot(sku(), [soA, soB]);
    const wrongLocation = await call('/pick/confirm', { taskId: task.id, locationCode: await locationCode(f.locationIds[0]), sku: code, qty: 1, toLpn: 'TOTE-1' });
    expect(json(wrongLocation)).toMatchObject({ code: 'PICK_WRONG_LOCATION' });
    const wrongSku = await call('/pick/confirm', { taskId: task.id, locationCode: location, sku: await skuCode(f.skuIds[1]), qty: 1, toLpn: 'TOTE-1' });
    expect(json(wrongSku)).toMatchObject({ code: 'INVALID_SKU' });
    const over = await call('/pick/confirm', { taskId: task.id, locationCode: location, sku: code, qty: 5, toLpn: 'TOTE-1' });
    expect(over.statusCode).toBe(409);
    expect(json(over)).toMatchObject({ code: 'OVER_PICK', message: 'Not allowed to pick more than allocated: 4 left to pick.' });
    const zero = await call('/pick/confirm', { taskId: task.id, locationCode: location, sku: code, qty: 0, toLpn: 'TOTE-1' });
    expect(json(zero)).toMatchObject({ code: 'QTY_NOT_POSITIVE' });
    expect(await snapshot(sku(), [soA, soB])).toEqual(before);
  });

  it('confirms a pick scanned by GS1 barcode: allocated becomes picked on the tote at the staging location', async () => {
    const gtin13 = '0950110153101';
    const gtin = gtin13 + gs1CheckDigit(gtin13);
    await db().insertInto('sku_upc').values({ project_id: f.scope.projectId, sku_id: sku(), upc: gtin.slice(1) }).execute();
    const [task] = (await tasksOf(soA)).filter((r) => Number(r.location_id) === f.locationIds[2]);
    const ledgerBefore = await ledgerCount();
    const picked = await call('/pick/confirm', { taskId: task.id, locationCode: await locationCode(f.locationIds[2]), sku: `(01)${gtin}(10)EARLY`, qty: 4, toLpn: 'TOTE-1' });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(json(picked)).toMatchObject({ taskStatus: 'picked', orderStatus: 'partial_picked', waveStatus: 'partial_picked' });
    expect(await ledgerCount()).toBe(ledgerBefore + 2);
    const rows = await balances(sku());
    const source = rows.find((r) => Number(r.location_id) === f.locationIds[2])!;
    const staged = rows.find((r) => Number(r.location_id) === stageId && r.lpn === 'TOTE-1')!;
    expect(source).toMatchObject({ on_hand_qty: '0.0000', allocated_qty: '0.0000' });
    expect(staged).toMatchObject({ on_hand_qty: '4.0000', picked_qty: '4.0000' });
    expect((await orderLines(soA))[0]).toMatchObject({ allocated_qty: '2.0000', picked_qty: '4.0000' });
    await expectLedgerAgrees();
  });

  it('a short pick gives the rest back to available; the order and the wave follow', async () => {
    const [taskA] = (await tasksOf(soA)).filter((r) => r.status === 'open');
    const location = await locationCode(f.locationIds[0]);
    const code = await skuCode(sku());
    const availableBefore = (await balances(sku())).find((r) => Number(r.location_id) === f.locationIds[0])!;
    const short = await call('/pick/confirm', { taskId: taskA.id, locationCode: location, sku: code, qty: 1, toLpn: 'TOTE-1', shortReason: 'Damaged' });
    expect(short.statusCode, short.body).toBe(200);
    expect(json(short)).toMatchObject({ taskStatus: 'short', shortQty: '1', orderStatus: 'partial_picked' });
    const after = (await balances(sku())).find((r) => Number(r.location_id) === f.locationIds[0])!;
    expect(new Decimal(after.allocated_qty).toNumber()).toBe(new Decimal(availableBefore.allocated_qty).toNumber() - 2);
    expect(new Decimal(after.on_hand_qty).toNumber()).toBe(new Decimal(availableBefore.on_hand_qty).toNumber() - 1);
    expect((await orderLines(soA))[0]).toMatchObject({ allocated_qty: '0.0000', picked_qty: '5.0000' });
    expect((await tasksOf(soA)).find((x) => x.id === taskA.id)).toMatchObject({ status: 'short', reason: 'Damaged', picked_qty: '1.0000' });
    const reasons = await db().selectFrom('inventory_transaction').select(['trans_type', 'reason']).where('trans_type', '=', 'unallocate').where('reason', '=', 'Damaged').execute();
    expect(reasons).toHaveLength(1);

    const [taskB] = await tasksOf(soB);
    const full = await call('/pick/confirm', { taskId: taskB.id, locationCode: location, sku: code, qty: 3, toLpn: 'TOTE-2' });
    expect(json(full)).toMatchObject({ taskStatus: 'picked', orderStatus: 'picked', waveStatus: 'picked' });
    expect(await wave(waveId)).toMatchObject({ status: 'picked', picked_qty: '8.0000', allocated_qty: '0.0000' });
    // A closed task refuses another confirm.
    expect((await call('/pick/confirm', { taskId: taskB.id, locationCode: location, sku: code, qty: 1, toLpn: 'TOTE-2' })).statusCode).toBe(409);
    await expectLedgerAgrees();
  });

  it('unpick puts the picked stock back, allocated again, and the statuses go back', async () => {
    const [taskB] = await tasksOf(soB);
    const ledgerBefore = await ledgerCount();
    const undone = await call('/pick/unpick', { taskId: taskB.id });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(json(undone)).toMatchObject({ taskStatus: 'open', orderStatus: 'allocated', waveStatus: 'partial_picked' });
    expect(await ledgerCount()).toBe(ledgerBefore + 2);
    expect((await orderLines(soB))[0]).toMatchObject({ allocated_qty: '3.0000', picked_qty: '0.0000' });
    expect((await balances(sku())).find((r) => Number(r.location_id) === stageId && r.lpn === 'TOTE-2')).toMatchObject({ on_hand_qty: '0.0000', picked_qty: '0.0000' });
    const again = await call('/pick/unpick', { taskId: taskB.id });
    expect(json(again)).toMatchObject({ code: 'NO_PICKED_STOCK' });
    await expectLedgerAgrees();
  });

  it('unwave refuses an order with picked stock and takes off one without, its open tasks cancelled', async () => {
    const before = await snapshot(sku(), [soA, soB]);
    const refused = await call('/wave/unwave', { orderIds: [soA] });
    expect(json(refused)).toMatchObject({ code: 'ORDER_STATUS_ERROR' });
    expect(await snapshot(sku(), [soA, soB])).toEqual(before);

    const done = await call('/wave/unwave', { orderIds: [soB] });
    expect(done.statusCode, done.body).toBe(200);
    expect((await order(soB)).wave_id).toBeNull();
    expect((await tasksOf(soB)).map((x) => x.status)).toEqual(['cancelled']);
    expect(await wave(waveId)).toMatchObject({ order_count: 1, status: 'picked' });
    // It keeps its allocation and may go on another wave.
    expect((await order(soB)).status).toBe('allocated');
    expect((await call('/so/wave/save', { orderIds: [soB] })).statusCode).toBe(200);
  });

  it('/so/pick makes the tasks of an allocated order outside a wave; /wave/batchUpdateRef sets references', async () => {
    await stock(db(), f, f.skuIds[2], f.locationIds[1], 5);
    const so = await newOrder([{ skuId: f.skuIds[2], qty: 2 }], { carrier_code: 'SOLO' });
    expect((await gen('so', 'behavior', { behaviour: 'allocate', keys: [so], inputs: {} })).statusCode).toBe(200);
    const answer = json<{ created: number; tasks: Array<{ wave_id: number | null; location_code: string }> }>(await call('/so/pick', { soId: so }));
    expect(answer.created).toBe(1);
    expect(answer.tasks).toHaveLength(1);
    expect(answer.tasks[0].wave_id).toBeNull();
    expect(json(await call('/so/pick', { soId: so }))).toMatchObject({ created: 0 });

    const updated = await call('/wave/batchUpdateRef', { waveIds: [waveId], reference: 'TRUCK-7' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await wave(waveId)).reference).toBe('TRUCK-7');
    expect(json(await call('/wave/batchUpdateRef', { waveIds: [waveId, 987654321], reference: 'X' }))).toMatchObject({ code: 'NO_RECORD' });
    expect((await wave(waveId)).reference).toBe('TRUCK-7');
  });

  it('shows waves in progress and open pick tasks on the home page', async () => {
    const response = await injectAs(t.app, admin, { method: 'GET', url: '/api/home/summary' });
    const { work } = json<{ work: Array<{ kind: string; total: number; byStatus: Array<{ status: string; count: number }> }> }>(response);
    const waves = work.find((w) => w.kind === 'wave')!;
    const picks = work.find((w) => w.kind === 'pick')!;
    const openWaves = await db().selectFrom('wave').select('id').where('status', 'not in', ['picked', 'cancelled']).execute();
    const openTasks = await db().selectFrom('pick_task').select('id').where('status', '=', 'open').execute();
    expect(waves.total).toBe(openWaves.length);
    expect(picks.total).toBe(openTasks.length);
    expect(picks.total).toBeGreaterThan(0);
  });

  it('confirms a task once when several sessions confirm it at the same time', async () => {
    await stock(db(), f, f.skuIds[3], f.locationIds[1], 6);
    const so = await newOrder([{ skuId: f.skuIds[3], qty: 6 }], { carrier_code: 'RACE' });
    const saved = json<{ waveId: number }>(await call('/so/wave/save', { orderIds: [so] }));
    expect((await call('/wave/release', { waveId: saved.waveId })).statusCode).toBe(200);
    const [task] = await tasksOf(so);
    const location = await locationCode(f.locationIds[1]);
    const code = await skuCode(f.skuIds[3]);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => call('/pick/confirm', { taskId: task.id, locationCode: location, sku: code, qty: 6, toLpn: `RACE-${i}` })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.statusCode !== 200)) expect(json(a)).toMatchObject({ code: 'PICK_TASK_CLOSED' });
    const rows = await balances(f.skuIds[3]);
    expect(rows.reduce((n, r) => n + Number(r.picked_qty), 0)).toBe(6);
    expect(rows.reduce((n, r) => n + Number(r.on_hand_qty), 0)).toBe(6);
    expect((await orderLines(so))[0]).toMatchObject({ allocated_qty: '0.0000', picked_qty: '6.0000' });
    await expectLedgerAgrees();
  });
});

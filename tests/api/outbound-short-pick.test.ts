import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * A short pick that looks for the rest elsewhere (a reason, the remaining quantity unallocated or
 * allocated again), through the real server: the rest is given back from the
 * short location, what the picker did not find there is held, the line is allocated again from
 * other stock with pick tasks for what was found, and what was not found stays unallocated. The
 * ledger agrees with the balances afterwards; every refusal leaves the database as it was.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let orderSeq = 0;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, 'SP', 7);
  await t.database.db.insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: 'STAGE-SP', location_type: 'stage' }).execute();
});

afterAll(async () => {
  await t?.close();
});

const call = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });
const gen = (functionCode: string, url: string, payload: Record<string, unknown>) =>
  injectAs(t.app, admin, { method: 'POST', url: `/api/generic/${url}`, payload: { moduleCode: 'outbound', functionCode, ...payload } });

const newOrder = (lines: Array<{ skuId: number; qty: number }>) =>
  orderCalls(t.app, admin, t.database.db).enterOnPages({ order_no: `SOSP-${++orderSeq}`, owner_id: f.ownerId, required_ship_date: '2030-02-15', carrier_code: 'SPC' }, lines);

const db = () => t.database.db;
const order = (id: number) => db().selectFrom('so_header').select(['status', 'order_no', 'wave_id']).where('id', '=', id).executeTakeFirstOrThrow();
const orderLines = (soId: number) => db().selectFrom('so_line').select(['id', 'sku_id', 'qty', 'allocated_qty', 'picked_qty']).where('so_id', '=', soId).orderBy('line_no').execute();
const tasksOf = (soId: number) => db().selectFrom('pick_task').selectAll().where('so_id', '=', soId).orderBy('id').execute();
const balanceAt = (skuId: number, locationId: number) =>
  db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty']).where('sku_id', '=', skuId).where('location_id', '=', locationId).where('lpn', '=', '').executeTakeFirstOrThrow();
const ledgerCount = async () => Number((await db().selectFrom('inventory_transaction').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const locationCode = (id: number) => db().selectFrom('location').select('code').where('id', '=', id).executeTakeFirstOrThrow().then((r) => r.code);
const skuCode = (id: number) => db().selectFrom('sku').select('code').where('id', '=', id).executeTakeFirstOrThrow().then((r) => r.code);
const n = (value: Decimal.Value) => new Decimal(value).toNumber();

/** Everything a refused call must leave as it was. */
async function snapshot(soIds: number[]) {
  return {
    balances: await db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty']).orderBy('id').execute(),
    ledger: await ledgerCount(),
    orders: await Promise.all(soIds.map(order)),
    lines: await Promise.all(soIds.map(orderLines)),
    tasks: await Promise.all(soIds.map(tasksOf)),
    allocations: await db().selectFrom('so_allocation').select(['so_line_id', 'balance_id', 'qty']).where('so_id', 'in', soIds).orderBy('id').execute(),
    waves: await db().selectFrom('wave').select(['id', 'status', 'allocated_qty', 'picked_qty']).orderBy('id').execute(),
  };
}

async function expectLedgerAgrees() {
  for (const row of await ledgerAgreement(db())) {
    expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_allocated).equals(row.allocated_qty), `allocated of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_picked).equals(row.picked_qty), `picked of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_held).equals(row.held_qty), `held of balance ${row.id}`).toBe(true);
  }
}

async function confirmBody(task: { id: number; location_id: number; sku_id: number }, body: Record<string, unknown>) {
  return { taskId: task.id, locationCode: await locationCode(Number(task.location_id)), sku: await skuCode(Number(task.sku_id)), toLpn: 'TOTE-SP', ...body };
}

interface ShortAnswer {
  taskStatus: string;
  shortQty: string;
  reallocatedQty: string;
  newTaskIds: number[];
  heldQty: string;
  orderStatus: string;
  waveStatus: string | null;
}

describe('short pick that looks for the rest elsewhere', () => {
  it('finds the rest in another location and makes a pick task there; the short stock is held, not taken again', async () => {
    const sku = f.skuIds[0];
    // 8 in the pick face (5 for the order, 3 free), 6 in reserve: allocation takes the pick face first.
    await stock(db(), f, sku, f.locationIds[0], 8);
    await stock(db(), f, sku, f.locationIds[2], 6);
    const so = await newOrder([{ skuId: sku, qty: 5 }]);
    expect((await gen('so', 'behavior', { behaviour: 'allocate', keys: [so], inputs: {} })).statusCode).toBe(200);
    expect(json(await call('/so/pick', { soId: so }))).toMatchObject({ created: 1 });
    const [task] = await tasksOf(so);
    expect(Number(task.location_id)).toBe(f.locationIds[0]);
    const listed = json<{ tasks: Array<{ id: number; other_available: string }> }>(await call('/pick/tasks', { soId: so, openOnly: true })).tasks;
    expect(n(listed.find((x) => x.id === task.id)!.other_available)).toBe(6);

    const ledgerBefore = await ledgerCount();
    const response = await call('/pick/confirm', await confirmBody(task, { qty: 2, shortReason: 'Not found', reallocate: true }));
    expect(response.statusCode, response.body).toBe(200);
    const answer = json<ShortAnswer>(response);
    expect(answer).toMatchObject({ taskStatus: 'short', shortQty: '3', reallocatedQty: '3', heldQty: '6', orderStatus: 'partial_picked', waveStatus: null });
    expect(answer.newTaskIds).toHaveLength(1);

    // The new task is in the reserve location, for the 3 not found; the short task keeps what was picked.
    const tasks = await tasksOf(so);
    const made = tasks.find((x) => x.id === answer.newTaskIds[0])!;
    expect(made).toMatchObject({ status: 'open', qty: '3.0000', picked_qty: '0.0000', wave_id: null });
    expect(Number(made.location_id)).toBe(f.locationIds[2]);
    expect(tasks.find((x) => x.id === task.id)).toMatchObject({ status: 'short', picked_qty: '2.0000', reason: 'Not found' });

    // The pick face: 2 picked away, 6 left on hand, all held; nothing of it allocated again.
    expect(await balanceAt(sku, f.locationIds[0])).toMatchObject({ on_hand_qty: '6.0000', allocated_qty: '0.0000', held_qty: '6.0000' });
    expect(await balanceAt(sku, f.locationIds[2])).toMatchObject({ on_hand_qty: '6.0000', allocated_qty: '3.0000', held_qty: '0.0000' });
    expect((await orderLines(so))[0]).toMatchObject({ allocated_qty: '3.0000', picked_qty: '2.0000' });
    const allocations = await db().selectFrom('so_allocation').select(['balance_id', 'qty']).where('so_id', '=', so).execute();
    expect(allocations).toEqual([{ balance_id: (await balanceAt(sku, f.locationIds[2])).id, qty: '3.0000' }]);
    // Ledger: pick out and in, unallocate, hold (with the reason), allocate.
    expect(await ledgerCount()).toBe(ledgerBefore + 5);
    const hold = await db().selectFrom('inventory_transaction').select(['reason', 'held_change']).where('trans_type', '=', 'hold').where('balance_id', '=', (await balanceAt(sku, f.locationIds[0])).id).execute();
    expect(hold).toEqual([{ reason: 'Not found', held_change: '6.0000' }]);
    await expectLedgerAgrees();

    // Picking the new task completes the order.
    const done = await call('/pick/confirm', await confirmBody(made, { qty: 3 }));
    expect(json(done)).toMatchObject({ taskStatus: 'picked', orderStatus: 'picked' });
    await expectLedgerAgrees();
  });

  it('with no other stock the rest stays unallocated and the order partial picked; the short stock is not allocated again', async () => {
    const [skuA, skuB] = [f.skuIds[1], f.skuIds[2]];
    await stock(db(), f, skuA, f.locationIds[1], 4);
    await stock(db(), f, skuB, f.locationIds[3], 2);
    const so = await newOrder([
      { skuId: skuB, qty: 2 },
      { skuId: skuA, qty: 4 },
    ]);
    const saved = json<{ waveId: number }>(await call('/so/wave/save', { orderIds: [so] }));
    expect((await call('/wave/release', { waveId: saved.waveId })).statusCode).toBe(200);
    const tasks = await tasksOf(so);
    const taskB = tasks.find((x) => Number(x.sku_id) === skuB)!;
    const taskA = tasks.find((x) => Number(x.sku_id) === skuA)!;
    // The order is partial picked before the short pick.
    expect(json(await call('/pick/confirm', await confirmBody(taskB, { qty: 2 })))).toMatchObject({ orderStatus: 'partial_picked' });

    const response = await call('/pick/confirm', await confirmBody(taskA, { qty: 1, shortReason: 'Empty', reallocate: true }));
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toMatchObject({ taskStatus: 'short', shortQty: '3', reallocatedQty: '0', newTaskIds: [], heldQty: '3', orderStatus: 'partial_picked', waveStatus: 'picked' });
    expect(await balanceAt(skuA, f.locationIds[1])).toMatchObject({ on_hand_qty: '3.0000', allocated_qty: '0.0000', held_qty: '3.0000' });
    const lineA = (await orderLines(so)).find((l) => Number(l.sku_id) === skuA)!;
    expect(lineA).toMatchObject({ allocated_qty: '0.0000', picked_qty: '1.0000' });
    expect((await tasksOf(so)).filter((x) => x.status === 'open')).toEqual([]);
    expect((await order(so)).status).toBe('partial_picked');
    await expectLedgerAgrees();
  });

  it('on a wave, finds part of the rest: a task on the wave for what was found, the rest unallocated', async () => {
    const [sku, other] = [f.skuIds[3], f.skuIds[4]];
    await stock(db(), f, other, f.locationIds[1], 1);
    await stock(db(), f, sku, f.locationIds[0], 3);
    await stock(db(), f, sku, f.locationIds[2], 4);
    const so = await newOrder([
      { skuId: other, qty: 1 },
      { skuId: sku, qty: 5 },
    ]);
    const saved = json<{ waveId: number }>(await call('/so/wave/save', { orderIds: [so] }));
    expect((await call('/wave/release', { waveId: saved.waveId })).statusCode).toBe(200);
    const tasks = await tasksOf(so);
    const first = tasks.find((x) => Number(x.sku_id) === other)!;
    const face = tasks.find((x) => Number(x.sku_id) === sku && Number(x.location_id) === f.locationIds[0])!;
    expect(face.qty).toBe('3.0000');
    expect(json(await call('/pick/confirm', await confirmBody(first, { qty: 1 })))).toMatchObject({ orderStatus: 'partial_picked' });

    // Nothing found at the pick face: the 3 are looked for elsewhere; the reserve has 2 more free.
    const response = await call('/pick/confirm', await confirmBody(face, { qty: 0, shortReason: 'Empty', reallocate: true }));
    expect(response.statusCode, response.body).toBe(200);
    const answer = json<ShortAnswer>(response);
    expect(answer).toMatchObject({ taskStatus: 'short', shortQty: '3', reallocatedQty: '2', heldQty: '3', orderStatus: 'partial_picked', waveStatus: 'partial_picked' });
    expect(answer.newTaskIds).toHaveLength(1);
    const made = (await tasksOf(so)).find((x) => x.id === answer.newTaskIds[0])!;
    expect(made).toMatchObject({ status: 'open', qty: '2.0000', wave_id: saved.waveId });
    expect(Number(made.location_id)).toBe(f.locationIds[2]);
    expect(await balanceAt(sku, f.locationIds[0])).toMatchObject({ on_hand_qty: '3.0000', allocated_qty: '0.0000', held_qty: '3.0000' });
    expect(await balanceAt(sku, f.locationIds[2])).toMatchObject({ on_hand_qty: '4.0000', allocated_qty: '4.0000' });
    const line = (await orderLines(so)).find((l) => Number(l.sku_id) === sku)!;
    expect(line).toMatchObject({ qty: '5.0000', allocated_qty: '4.0000', picked_qty: '0.0000' });
    const wave = await db().selectFrom('wave').select(['status', 'allocated_qty', 'picked_qty']).where('id', '=', saved.waveId).executeTakeFirstOrThrow();
    expect(wave).toEqual({ status: 'partial_picked', allocated_qty: '4.0000', picked_qty: '1.0000' });
    await expectLedgerAgrees();
  });

  it('two short picks of the same SKU at the same time never take the same stock twice', async () => {
    const sku = f.skuIds[6];
    for (const location of [f.locationIds[1], f.locationIds[2], f.locationIds[3]]) await stock(db(), f, sku, location, 3);
    const orders = [await newOrder([{ skuId: sku, qty: 3 }]), await newOrder([{ skuId: sku, qty: 3 }])];
    expect((await gen('so', 'behavior', { behaviour: 'allocate', keys: orders, inputs: {} })).statusCode).toBe(200);
    const tasks = [];
    for (const so of orders) {
      await call('/so/pick', { soId: so });
      tasks.push((await tasksOf(so))[0]);
    }
    const shorted = new Set(tasks.map((x) => Number(x.location_id)));
    expect(shorted.size).toBe(2);
    const free = [f.locationIds[1], f.locationIds[2], f.locationIds[3]].find((id) => !shorted.has(id))!;

    const answers = await Promise.all(tasks.map(async (task) => call('/pick/confirm', await confirmBody(task, { qty: 0, shortReason: 'Empty', reallocate: true }))));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    // Only the 3 free in the third location can be found, by one order or split between both.
    const found = answers.map((a) => json<ShortAnswer>(a));
    expect(found.reduce((sum, a) => sum + n(a.reallocatedQty), 0)).toBe(3);
    const open = (await Promise.all(orders.map(tasksOf))).flat().filter((x) => x.status === 'open');
    expect(open.every((x) => Number(x.location_id) === free)).toBe(true);
    expect(open.reduce((sum, x) => sum + n(x.qty), 0)).toBe(3);
    for (const location of shorted) expect(await balanceAt(sku, location)).toMatchObject({ on_hand_qty: '3.0000', allocated_qty: '0.0000', held_qty: '3.0000' });
    expect(await balanceAt(sku, free)).toMatchObject({ on_hand_qty: '3.0000', allocated_qty: '3.0000', held_qty: '0.0000' });
    await expectLedgerAgrees();
  });

  it('refuses a bad reallocate, a reallocate without a short reason, an over-pick and a picker without the right, nothing changed', async () => {
    const sku = f.skuIds[5];
    await stock(db(), f, sku, f.locationIds[1], 4);
    await stock(db(), f, sku, f.locationIds[3], 4);
    const so = await newOrder([{ skuId: sku, qty: 3 }]);
    expect((await gen('so', 'behavior', { behaviour: 'allocate', keys: [so], inputs: {} })).statusCode).toBe(200);
    await call('/so/pick', { soId: so });
    const [task] = await tasksOf(so);
    const before = await snapshot([so]);

    const notBoolean = await call('/pick/confirm', await confirmBody(task, { qty: 1, shortReason: 'Empty', reallocate: 'yes' }));
    expect(notBoolean.statusCode).toBe(400);
    const noReason = await call('/pick/confirm', await confirmBody(task, { qty: 1, reallocate: true }));
    expect(noReason.statusCode).toBe(400);
    expect(json(noReason)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'shortReason', code: 'FIELD_REQUIRED' }] });
    const blankReason = await call('/pick/confirm', await confirmBody(task, { qty: 1, shortReason: '  ', reallocate: true }));
    expect(json(blankReason)).toMatchObject({ code: 'VALIDATION_FAILED' });
    const over = await call('/pick/confirm', await confirmBody(task, { qty: 4, shortReason: 'Empty', reallocate: true }));
    expect(json(over)).toMatchObject({ code: 'OVER_PICK' });
    const wrongPlace = await call('/pick/confirm', { ...(await confirmBody(task, { qty: 1, shortReason: 'Empty', reallocate: true })), locationCode: await locationCode(f.locationIds[3]) });
    expect(json(wrongPlace)).toMatchObject({ code: 'PICK_WRONG_LOCATION' });
    const viewer = await createUser(t, { loginAccount: 'short-viewer', rights: ['outbound:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const forbidden = await call('/pick/confirm', await confirmBody(task, { qty: 1, shortReason: 'Empty', reallocate: true }), viewer);
    expect(forbidden.statusCode).toBe(403);
    expect(await snapshot([so])).toEqual(before);

    // Without reallocate the rest is given back as before, nothing held.
    const back = await call('/pick/confirm', await confirmBody(task, { qty: 1, shortReason: 'Empty', reallocate: false }));
    expect(json(back)).toMatchObject({ taskStatus: 'short', shortQty: '2', reallocatedQty: '0', newTaskIds: [], heldQty: '0', orderStatus: 'partial_picked' });
    expect(await balanceAt(sku, Number(task.location_id))).toMatchObject({ held_qty: '0.0000', allocated_qty: '0.0000' });
    await expectLedgerAgrees();
  });
});

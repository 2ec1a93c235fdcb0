import Decimal from 'decimal.js';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as endStaleTasks } from '../../src/server/modules/outbound/migrations/0200_end_stale_pick_tasks.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderInvariantViolations } from '../helpers/order-invariant.js';
import { orderCalls, outboundFixture, outboundSnapshot, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Pick tasks never outlive the allocation they were made from: unallocating, cancelling, closing or
 * deleting an order cancels (or, for what was already picked on them, shorts) the open tasks it
 * undoes in the same transaction, and confirming a task re-checks, under lock, that the order may
 * still be picked and that the line still holds the task's stock at the task's balance row. A task
 * that no longer matches is refused with a clear code and nothing changes; it never takes another
 * order's stock nor ends in a 500. After every scenario the stock and order-level invariant holds.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let seq = 0;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, 'ST', 8);
  await t.database.db.insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: 'STAGE-ST', location_type: 'stage' }).execute();
});

afterAll(async () => {
  await t?.close();
});

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>) => injectAs(t.app, admin, { method: 'POST', url: `/api${url}`, payload });
const behave = (behaviour: string, keys: number[]) => call('/generic/behavior', { moduleCode: 'outbound', functionCode: 'so', behaviour, keys, inputs: {} });
const newOrder = (lines: Array<{ skuId: number; qty: number }>) =>
  orderCalls(t.app, admin, db()).enterOnPages({ order_no: `STALE-${++seq}`, owner_id: f.ownerId, required_ship_date: '2030-03-01' }, lines);
const tasksOf = (soId: number) => db().selectFrom('pick_task').selectAll().where('so_id', '=', soId).orderBy('id').execute();
const task = (id: number) => db().selectFrom('pick_task').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const orderStatus = async (soId: number) => (await db().selectFrom('so_header').select('status').where('id', '=', soId).executeTakeFirstOrThrow()).status;
const code = async (table: 'location' | 'sku', id: number) => (await db().selectFrom(table).select('code').where('id', '=', id).executeTakeFirstOrThrow()).code;

/** Confirms `qty` of the task (all it has left when absent), onto a tote at the staging location. */
async function confirm(taskId: number, body: Record<string, unknown> = {}) {
  const row = await task(taskId);
  const left = new Decimal(row.qty).minus(row.picked_qty).toString();
  return call('/pick/confirm', { taskId, locationCode: await code('location', Number(row.location_id)), sku: await code('sku', Number(row.sku_id)), qty: left, toLpn: `TOTE-ST-${taskId}`, ...body });
}

async function makeTasks(soId: number): Promise<number[]> {
  const response = await call('/so/pick', { soId });
  expect(response.statusCode, response.body).toBe(200);
  return (await tasksOf(soId)).filter((x) => x.status === 'open').map((x) => Number(x.id));
}

async function expectAllocated(soId: number) {
  const response = await behave('allocate', [soId]);
  expect(response.statusCode, response.body).toBe(200);
}

async function expectInvariant() {
  expect(await orderInvariantViolations(db())).toEqual([]);
}

describe('tasks of an undone allocation', () => {
  it("a task of an unallocated order is cancelled with it and cannot take the stock another order holds now", async () => {
    const sku = f.skuIds[0];
    // 10 units at two locations: the pick face is taken first.
    await stock(db(), f, sku, f.locationIds[0], 5);
    await stock(db(), f, sku, f.locationIds[1], 5);
    const a = await newOrder([{ skuId: sku, qty: 5 }]);
    await expectAllocated(a);
    const [oldTask] = await makeTasks(a);
    expect(Number((await task(oldTask)).location_id)).toBe(f.locationIds[0]);
    const unallocated = await behave('unallocate', [a]);
    expect(unallocated.statusCode, unallocated.body).toBe(200);

    // C takes A's old location, A the other one.
    const c = await newOrder([{ skuId: sku, qty: 5 }]);
    await expectAllocated(c);
    await expectAllocated(a);

    const stale = await confirm(oldTask);
    expect(stale.statusCode, stale.body).toBe(409);
    expect(json(stale)).toMatchObject({ code: 'PICK_TASK_CLOSED' });
    expect(await task(oldTask)).toMatchObject({ status: 'cancelled', picked_qty: '0.0000' });
    await expectInvariant();

    // Both orders pick what they hold.
    const [taskC] = await makeTasks(c);
    expect(Number((await task(taskC)).location_id)).toBe(f.locationIds[0]);
    const pickedC = await confirm(taskC);
    expect(pickedC.statusCode, pickedC.body).toBe(200);
    const newTasksA = await makeTasks(a);
    expect(newTasksA).toHaveLength(1);
    expect(Number((await task(newTasksA[0])).location_id)).toBe(f.locationIds[1]);
    const pickedA = await confirm(newTasksA[0]);
    expect(pickedA.statusCode, pickedA.body).toBe(200);
    expect([await orderStatus(a), await orderStatus(c)]).toEqual(['picked', 'picked']);
    const committed = await sql<{ n: string }>`select sum(allocated_qty + picked_qty + held_qty) as n from inventory_balance where sku_id = ${sku}`.execute(db());
    expect(new Decimal(committed.rows[0].n).toNumber()).toBe(10);
    await expectInvariant();
  });

  it('cancelling an order cancels its open task: confirming it is refused with a clear code, not a 500', async () => {
    const sku = f.skuIds[1];
    await stock(db(), f, sku, f.locationIds[0], 6);
    const so = await newOrder([{ skuId: sku, qty: 4 }]);
    await expectAllocated(so);
    const [taskId] = await makeTasks(so);
    const cancelled = await behave('cancel', [so]);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // Another order holds the same stock now.
    const other = await newOrder([{ skuId: sku, qty: 4 }]);
    await expectAllocated(other);
    const before = await outboundSnapshot(db(), [so, other]);
    const refused = await confirm(taskId);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(json(refused)).toMatchObject({ code: 'PICK_TASK_CLOSED' });
    expect(await outboundSnapshot(db(), [so, other])).toEqual(before);
    expect(await task(taskId)).toMatchObject({ status: 'cancelled' });
    await expectInvariant();
  });

  it('closing a partly picked order shorts its partly picked task and cancels the untouched one', async () => {
    const [skuA, skuB] = [f.skuIds[2], f.skuIds[3]];
    await stock(db(), f, skuA, f.locationIds[0], 6);
    await stock(db(), f, skuB, f.locationIds[1], 6);
    const so = await newOrder([
      { skuId: skuA, qty: 4 },
      { skuId: skuB, qty: 3 },
    ]);
    await expectAllocated(so);
    const [taskA, taskB] = await makeTasks(so);
    const partly = await confirm(taskA, { qty: 1 });
    expect(partly.statusCode, partly.body).toBe(200);
    expect(json(partly)).toMatchObject({ taskStatus: 'open', orderStatus: 'partial_picked' });
    const closed = await behave('close', [so]);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await task(taskA)).toMatchObject({ status: 'short', picked_qty: '1.0000' });
    expect(await task(taskB)).toMatchObject({ status: 'cancelled', picked_qty: '0.0000' });
    for (const id of [taskA, taskB]) expect(json(await confirm(id, { qty: 1 }))).toMatchObject({ code: 'PICK_TASK_CLOSED' });
    await expectInvariant();
  });

  it('unallocating some lines cancels only their tasks; the other line is still picked', async () => {
    const [skuA, skuB] = [f.skuIds[4], f.skuIds[5]];
    await stock(db(), f, skuA, f.locationIds[2], 5);
    await stock(db(), f, skuB, f.locationIds[2], 5);
    const so = await newOrder([
      { skuId: skuA, qty: 2 },
      { skuId: skuB, qty: 2 },
    ]);
    await expectAllocated(so);
    const [taskA, taskB] = await makeTasks(so);
    const lineA = Number((await task(taskA)).so_line_id);
    const undone = await call('/so/detail/allocation', { lineIds: [lineA], unallocate: true });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await task(taskA)).toMatchObject({ status: 'cancelled' });
    expect(await task(taskB)).toMatchObject({ status: 'open' });
    expect(json(await confirm(taskA))).toMatchObject({ code: 'PICK_TASK_CLOSED' });
    const picked = await confirm(taskB);
    expect(picked.statusCode, picked.body).toBe(200);
    expect(json(picked)).toMatchObject({ orderStatus: 'partial_picked' });
    await expectInvariant();
  });

  it("unallocating an order of a released wave cancels its tasks; the wave follows and a new release makes new ones", async () => {
    const sku = f.skuIds[6];
    await stock(db(), f, sku, f.locationIds[3], 8);
    const so = await newOrder([{ skuId: sku, qty: 3 }]);
    const { waveId } = json<{ waveId: number }>(await call('/so/wave/save', { orderIds: [so] }));
    expect((await call('/wave/release', { waveId })).statusCode).toBe(200);
    const [first] = (await tasksOf(so)).map((x) => Number(x.id));
    const listed = await call('/wave/list', {});
    expect(json<{ rows: Array<{ id: number; open_tasks: number }> }>(listed).rows.find((w) => w.id === waveId)).toMatchObject({ open_tasks: 1 });
    expect((await behave('unallocate', [so])).statusCode).toBe(200);
    expect(await task(first)).toMatchObject({ status: 'cancelled' });
    const wave = await db().selectFrom('wave').select(['status', 'allocated_qty']).where('id', '=', waveId).executeTakeFirstOrThrow();
    expect(wave).toEqual({ status: 'released', allocated_qty: '0.0000' });
    await expectInvariant();
    const again = await call('/wave/release', { waveId });
    expect(json(again)).toMatchObject({ tasks: 1 });
    const [next] = (await tasksOf(so)).filter((x) => x.status === 'open').map((x) => Number(x.id));
    const picked = await confirm(next);
    expect(json(picked)).toMatchObject({ taskStatus: 'picked', orderStatus: 'picked', waveStatus: 'picked' });
    await expectInvariant();
  });
});

describe('confirming a task that no longer matches its allocation', () => {
  it('refuses a task whose line no longer holds its stock (left open by an earlier version), nothing changed', async () => {
    const sku = f.skuIds[7];
    await stock(db(), f, sku, f.locationIds[0], 5);
    await stock(db(), f, sku, f.locationIds[1], 5);
    const a = await newOrder([{ skuId: sku, qty: 5 }]);
    await expectAllocated(a);
    const [oldTask] = await makeTasks(a);
    expect((await behave('unallocate', [a])).statusCode).toBe(200);
    const c = await newOrder([{ skuId: sku, qty: 5 }]);
    await expectAllocated(c);
    await expectAllocated(a);
    // Data written before tasks were cancelled with their allocation: the old task still open.
    await db().updateTable('pick_task').set({ status: 'open' }).where('id', '=', oldTask).execute();

    const before = await outboundSnapshot(db(), [a, c]);
    const refused = await confirm(oldTask);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(json(refused)).toMatchObject({ code: 'PICK_TASK_STALE' });
    const short = await confirm(oldTask, { qty: 0, shortReason: 'Not there', reallocate: true });
    expect(json(short)).toMatchObject({ code: 'PICK_TASK_STALE' });
    expect(await outboundSnapshot(db(), [a, c])).toEqual(before);
    await db().updateTable('pick_task').set({ status: 'cancelled' }).where('id', '=', oldTask).execute();

    // A task that claims more than its line still holds there is refused too.
    const [taskC] = await makeTasks(c);
    await db().updateTable('so_allocation').set({ qty: '4' }).where('so_id', '=', c).execute();
    const over = await confirm(taskC, { qty: 1 });
    expect(json(over)).toMatchObject({ code: 'PICK_TASK_STALE' });
    await db().updateTable('so_allocation').set({ qty: '5' }).where('so_id', '=', c).execute();
    expect((await confirm(taskC)).statusCode).toBe(200);
  });

  it('refuses an open task of an ended order (left by an earlier version) with the status error, nothing changed', async () => {
    const sku = f.skuIds[1];
    const so = await newOrder([{ skuId: sku, qty: 1 }]);
    await expectAllocated(so);
    const [taskId] = await makeTasks(so);
    expect((await behave('cancel', [so])).statusCode).toBe(200);
    await db().updateTable('pick_task').set({ status: 'open' }).where('id', '=', taskId).execute();
    const before = await outboundSnapshot(db(), [so]);
    const refused = await confirm(taskId);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(json(refused)).toMatchObject({ code: 'ORDER_STATUS_ERROR' });
    expect(await outboundSnapshot(db(), [so])).toEqual(before);
    await db().updateTable('pick_task').set({ status: 'cancelled' }).where('id', '=', taskId).execute();
  });
});

describe('open tasks left by earlier versions', () => {
  it('the upgrade ends the tasks of ended orders and of given-back allocations, keeps the covered ones, and the waves follow', async () => {
    const sku = f.skuIds[5];
    await stock(db(), f, sku, f.locationIds[3], 12);
    const [gone, ended, kept] = [await newOrder([{ skuId: sku, qty: 2 }]), await newOrder([{ skuId: sku, qty: 3 }]), await newOrder([{ skuId: sku, qty: 4 }])];
    const { waveId } = json<{ waveId: number }>(await call('/so/wave/save', { orderIds: [gone, ended, kept] }));
    expect((await call('/wave/release', { waveId })).statusCode).toBe(200);
    const [taskGone] = (await tasksOf(gone)).map((x) => Number(x.id));
    const [taskEnded] = (await tasksOf(ended)).map((x) => Number(x.id));
    const [taskKept] = (await tasksOf(kept)).map((x) => Number(x.id));
    expect((await confirm(taskEnded, { qty: 1 })).statusCode).toBe(200);
    expect((await behave('unallocate', [gone])).statusCode).toBe(200);
    expect((await behave('close', [ended])).statusCode).toBe(200);
    // As an earlier version left them: both tasks still open, the wave still partly picked.
    await db().updateTable('pick_task').set({ status: 'open' }).where('id', 'in', [taskGone, taskEnded]).execute();
    await db().updateTable('wave').set({ status: 'partial_picked' }).where('id', '=', waveId).execute();
    expect((await orderInvariantViolations(db())).length).toBeGreaterThan(0);

    // Migrations are written against an untyped database.
    await endStaleTasks(db() as unknown as Kysely<unknown>);
    expect(await task(taskGone)).toMatchObject({ status: 'cancelled' });
    expect(await task(taskEnded)).toMatchObject({ status: 'short', picked_qty: '1.0000' });
    expect(await task(taskKept)).toMatchObject({ status: 'open' });
    expect((await db().selectFrom('wave').select('status').where('id', '=', waveId).executeTakeFirstOrThrow()).status).toBe('partial_picked');
    await expectInvariant();
    expect((await confirm(taskKept)).statusCode).toBe(200);
    expect((await db().selectFrom('wave').select('status').where('id', '=', waveId).executeTakeFirstOrThrow()).status).toBe('picked');
  });
});

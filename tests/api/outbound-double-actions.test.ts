import Decimal from 'decimal.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderInvariantViolations } from '../helpers/order-invariant.js';
import { outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * A warehouse shift's double clicks and races through the real server (run it on PostgreSQL with
 * TEST_DATABASE_URL for real concurrent sessions): Release clicked twice at once, two pickers
 * confirming the same task at once, an order put on two waves at once, allocation clicked twice.
 * Exactly the work of one call is done; the other is refused or finds nothing left to do.
 */
let t: TestApp;
let admin: string;
let picker: string;
let f: OutboundFixture;
let seq = 0;

const call = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });
const gen = (functionCode: string, url: string, payload: Record<string, unknown>) => call(`/generic/${url}`, { moduleCode: 'outbound', functionCode, ...payload });
const db = () => t.database.db;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  picker = await createUser(t, { loginAccount: 'dbl-picker', rights: ['outbound:view', 'outbound.pick:confirm'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  f = await outboundFixture(db(), 'DB', 3);
  for (const sku of f.skuIds) await stock(db(), f, sku, f.locationIds[0], 20);
  await db().insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: 'STAGE-DB', location_type: 'stage' }).execute();
});
afterAll(() => t?.close());
// Whatever won each race, stock, orders, allocation records and pick tasks still agree.
afterEach(async () => {
  expect(await orderInvariantViolations(db())).toEqual([]);
});

async function newOrder(skuId: number, qty: number): Promise<number> {
  seq += 1;
  const added = await gen('so', 'adding', { record: { order_no: `DBL-${seq}`, owner_id: f.ownerId, ship_to_address_en: '1 Road', required_ship_date: '2030-02-15' } });
  expect(added.statusCode, added.body).toBe(200);
  const soId = json<{ row: { _key: number } }>(added).row._key;
  const line = await gen('soDetail', 'adding', { record: { so_id: soId, sku_id: skuId, qty: String(qty) } });
  expect(line.statusCode, line.body).toBe(200);
  return soId;
}

async function expectLedgerAgrees() {
  for (const row of await ledgerAgreement(db())) {
    expect(new Decimal(row.ledger_allocated).equals(row.allocated_qty), `allocated of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
  }
}

const balance = (skuId: number) => db().selectFrom('inventory_balance').select(['on_hand_qty', 'allocated_qty', 'picked_qty']).where('sku_id', '=', skuId).where('location_id', '=', f.locationIds[0]).executeTakeFirstOrThrow();

describe('double clicks and races of a shift', () => {
  it('Release clicked twice at once allocates and makes the pick tasks once', async () => {
    const soId = await newOrder(f.skuIds[0], 5);
    const waveId = json<{ waveId: number }>(await call('/so/wave/save', { orderIds: [soId] })).waveId;
    const answers = await Promise.all([call('/wave/release', { waveId }), call('/wave/release', { waveId })]);
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    expect(answers.map((a) => json<{ tasks: number }>(a).tasks).sort()).toEqual([0, 1]);
    const tasks = await db().selectFrom('pick_task').select(['qty', 'status']).where('so_id', '=', soId).execute();
    expect(tasks).toEqual([{ qty: '5.0000', status: 'open' }]);
    expect(await balance(f.skuIds[0])).toMatchObject({ allocated_qty: '5.0000' });
    const line = await db().selectFrom('so_line').select(['allocated_qty']).where('so_id', '=', soId).executeTakeFirstOrThrow();
    expect(line.allocated_qty).toBe('5.0000');
    await expectLedgerAgrees();
  });

  it('two pickers confirming the same task at once pick it once; the other is refused', async () => {
    const soId = await newOrder(f.skuIds[1], 4);
    expect((await call('/so/header/allocation', { soIds: [soId] })).statusCode).toBe(200);
    const tasks = json<{ tasks: Array<{ id: number }> }>(await call('/so/pick', { soId }));
    const taskId = tasks.tasks[0].id;
    const location = await db().selectFrom('location').select('code').where('id', '=', f.locationIds[0]).executeTakeFirstOrThrow();
    const body = { taskId, locationCode: location.code, sku: 'SKU-DB-1', qty: 4 };
    const answers = await Promise.all([call('/pick/confirm', body), call('/pick/confirm', body, picker)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const task = await db().selectFrom('pick_task').select(['status', 'picked_qty']).where('id', '=', taskId).executeTakeFirstOrThrow();
    expect(task).toEqual({ status: 'picked', picked_qty: '4.0000' });
    const b = await balance(f.skuIds[1]);
    expect(b).toMatchObject({ on_hand_qty: '16.0000', allocated_qty: '0.0000' });
    const line = await db().selectFrom('so_line').select(['allocated_qty', 'picked_qty']).where('so_id', '=', soId).executeTakeFirstOrThrow();
    expect(line).toEqual({ allocated_qty: '0.0000', picked_qty: '4.0000' });
    await expectLedgerAgrees();
  });

  it('an order put on two new waves at once lands on one; the other wave is not left behind', async () => {
    const soId = await newOrder(f.skuIds[2], 1);
    const wavesBefore = (await db().selectFrom('wave').select('id').execute()).length;
    const answers = await Promise.all([call('/so/wave/save', { orderIds: [soId] }), call('/so/wave/save', { orderIds: [soId] })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await db().selectFrom('wave').select('id').execute()).length).toBe(wavesBefore + 1);
  });

  it('allocation clicked twice at once allocates the order once', async () => {
    const soId = await newOrder(f.skuIds[2], 3);
    const before = await balance(f.skuIds[2]);
    const answers = await Promise.all([call('/so/header/allocation', { soIds: [soId] }), call('/so/header/allocation', { soIds: [soId] })]);
    for (const a of answers) expect(a.statusCode, a.body).toBeLessThan(500);
    const after = await balance(f.skuIds[2]);
    expect(new Decimal(after.allocated_qty).minus(before.allocated_qty).toString()).toBe('3');
    expect((await db().selectFrom('so_line').select('allocated_qty').where('so_id', '=', soId).executeTakeFirstOrThrow()).allocated_qty).toBe('3.0000');
    await expectLedgerAgrees();
  });

  it('a pick confirmed while the order is unwaved: one of them wins, the other is refused, stock and order agree', async () => {
    for (let round = 0; round < 3; round += 1) {
      const soId = await newOrder(f.skuIds[0], 1);
      const waveId = json<{ waveId: number }>(await call('/so/wave/save', { orderIds: [soId] })).waveId;
      expect((await call('/wave/release', { waveId })).statusCode).toBe(200);
      const task = await db().selectFrom('pick_task').select('id').where('so_id', '=', soId).where('status', '=', 'open').executeTakeFirstOrThrow();
      const location = await db().selectFrom('location').select('code').where('id', '=', f.locationIds[0]).executeTakeFirstOrThrow();
      const [pick, unwave] = await Promise.all([
        call('/pick/confirm', { taskId: Number(task.id), locationCode: location.code, sku: 'SKU-DB-0', qty: 1 }, picker),
        call('/wave/unwave', { orderIds: [soId] }),
      ]);
      expect(pick.statusCode, pick.body).toBeLessThan(500);
      expect(unwave.statusCode, unwave.body).toBeLessThan(500);
      const order = await db().selectFrom('so_header').select(['status', 'wave_id']).where('id', '=', soId).executeTakeFirstOrThrow();
      const after = await db().selectFrom('pick_task').select(['status', 'picked_qty']).where('id', '=', task.id).executeTakeFirstOrThrow();
      if (pick.statusCode === 200) {
        expect(after).toEqual({ status: 'picked', picked_qty: '1.0000' });
        expect(order.wave_id).not.toBeNull();
        expect(unwave.statusCode).toBe(409);
      } else {
        expect(unwave.statusCode, unwave.body).toBe(200);
        expect(after.status).toBe('cancelled');
        expect(order.wave_id).toBeNull();
      }
    }
    await expectLedgerAgrees();
  });

  it('a pick confirmed while its order is unallocated or cancelled: one wins, the task never outlives the allocation', async () => {
    const location = await db().selectFrom('location').select('code').where('id', '=', f.locationIds[0]).executeTakeFirstOrThrow();
    for (let round = 0; round < 4; round += 1) {
      const soId = await newOrder(f.skuIds[2], 2);
      expect((await call('/so/header/allocation', { soIds: [soId] })).statusCode).toBe(200);
      const taskId = json<{ tasks: Array<{ id: number }> }>(await call('/so/pick', { soId })).tasks[0].id;
      const undo = round % 2 === 0 ? call('/so/header/allocation', { soIds: [soId], unallocate: true }) : gen('so', 'behavior', { behaviour: 'cancel', keys: [soId], inputs: {} });
      const [pick, undone] = await Promise.all([call('/pick/confirm', { taskId, locationCode: location.code, sku: 'SKU-DB-2', qty: 2, toLpn: `RACE-UN-${round}` }, picker), undo]);
      const task = await db().selectFrom('pick_task').select(['status', 'picked_qty']).where('id', '=', taskId).executeTakeFirstOrThrow();
      if (pick.statusCode === 200) {
        expect(undone.statusCode, undone.body).toBe(409);
        expect(task).toEqual({ status: 'picked', picked_qty: '2.0000' });
      } else {
        expect(undone.statusCode, undone.body).toBe(200);
        expect(json(pick)).toMatchObject({ code: 'PICK_TASK_CLOSED' });
        expect(task).toEqual({ status: 'cancelled', picked_qty: '0.0000' });
      }
    }
    await expectLedgerAgrees();
  });
});

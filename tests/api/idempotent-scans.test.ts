import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeIdempotencyKeys } from '../../src/server/area-kit/idempotency.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Idempotent scans (docs/handheld.md): a scan call sent again with its `Idempotency-Key` applies
 * once, also when both arrive at once (run with TEST_DATABASE_URL for real concurrent sessions);
 * the key with another body is refused; without a key a call works as before.
 */
let t: TestApp;
let admin: string;
let picker: string;
let f: OutboundFixture;
const tag = `IK${Date.now().toString(36).toUpperCase()}`;
const db = () => t.database.db;

const post = (url: string, payload: Record<string, unknown>, key?: string, token = admin) =>
  injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload, headers: key === undefined ? {} : { 'idempotency-key': key } });

let orderSeq = 0;
/** An allocated order of one line of `qty` of the first SKU, and its open pick task. */
async function openTask(qty: number) {
  orderSeq += 1;
  const orders = orderCalls(t.app, admin, db());
  const soId = await orders.enter(`${tag}-${orderSeq}`, f.ownerId, [{ skuCode: `SKU-${tag}-0`, qty }]);
  await orders.allocate(soId);
  expect((await post('/so/pick', { soId })).statusCode).toBe(200);
  const task = await db().selectFrom('pick_task').select(['id', 'location_id']).where('so_id', '=', soId).where('status', '=', 'open').executeTakeFirstOrThrow();
  const location = await db().selectFrom('location').select('code').where('id', '=', task.location_id).executeTakeFirstOrThrow();
  return { soId, taskId: task.id, locationCode: location.code };
}

const pickBody = (task: { taskId: number; locationCode: string }, qty: number) => ({ taskId: task.taskId, locationCode: task.locationCode, sku: `SKU-${tag}-0`, qty, toLpn: `TOTE-${tag}` });
const picked = async (taskId: number) => (await db().selectFrom('pick_task').select('picked_qty').where('id', '=', taskId).executeTakeFirstOrThrow()).picked_qty;
/** The ledger's size (this file's database is its own). */
const ledgerRows = async () => (await db().selectFrom('inventory_transaction').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  picker = await createUser(t, { loginAccount: `ik-picker-${tag.toLowerCase()}`, rights: ['outbound:view', 'outbound.pick:confirm'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  f = await outboundFixture(db(), tag, 1);
  await stock(db(), f, f.skuIds[0], f.locationIds[0], 500);
});
afterAll(() => t?.close());

describe('idempotent scans', () => {
  it('the same key twice applies the pick once and answers the first answer again', async () => {
    const task = await openTask(5);
    const before = await ledgerRows();
    const key = randomUUID();
    const first = await post('/pick/confirm', pickBody(task, 2), key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await post('/pick/confirm', pickBody(task, 2), key);
    expect(again.statusCode, again.body).toBe(200);
    expect(json(again)).toEqual(json(first));
    expect(await picked(task.taskId)).toBe('2.0000');
    const after = await ledgerRows();
    expect(after).toBeGreaterThan(before);
    // A third time, with the body's keys in another order: still the same request.
    const body = pickBody(task, 2);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect((await post('/pick/confirm', reordered, key)).statusCode).toBe(200);
    expect(await ledgerRows()).toBe(after);
    expect(await picked(task.taskId)).toBe('2.0000');
  });

  it('the same key sent four times at once applies the pick once', async () => {
    const task = await openTask(6);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 4 }, () => post('/pick/confirm', pickBody(task, 3), key)));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    for (const answer of answers) expect(json(answer)).toEqual(json(answers[0]));
    expect(await picked(task.taskId)).toBe('3.0000');
    const rows = await db().selectFrom('idempotency_key').select(['status']).where('key', '=', key).execute();
    expect(rows).toEqual([{ status: 200 }]);
  });

  it('the same key with another body is refused, in the caller language, and applies nothing', async () => {
    const task = await openTask(5);
    const key = randomUUID();
    expect((await post('/pick/confirm', pickBody(task, 1), key)).statusCode).toBe(200);
    const other = await post('/pick/confirm', pickBody(task, 2), key);
    expect(other.statusCode, other.body).toBe(409);
    expect(json<{ code: string; message: string }>(other)).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringContaining('different scan') });
    // Another scan route with the same key is another request too.
    const elsewhere = await post('/putaway/confirm', { taskId: task.taskId, locationCode: task.locationCode }, key);
    expect(elsewhere.statusCode, elsewhere.body).toBe(409);
    expect(json<{ code: string }>(elsewhere).code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await picked(task.taskId)).toBe('1.0000');
  });

  it('a key is the user own: another picker with the same key scans for himself', async () => {
    const task = await openTask(5);
    const key = randomUUID();
    expect((await post('/pick/confirm', pickBody(task, 1), key)).statusCode).toBe(200);
    const theirs = await post('/pick/confirm', pickBody(task, 1), key, picker);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(await picked(task.taskId)).toBe('2.0000');
  });

  it('without a key every call applies, as before', async () => {
    const task = await openTask(5);
    expect((await post('/pick/confirm', pickBody(task, 1))).statusCode).toBe(200);
    expect((await post('/pick/confirm', pickBody(task, 1))).statusCode).toBe(200);
    expect(await picked(task.taskId)).toBe('2.0000');
  });

  it('a refused scan leaves its key free, and a malformed key is refused before anything', async () => {
    const task = await openTask(2);
    const key = randomUUID();
    const over = await post('/pick/confirm', pickBody(task, 5), key);
    expect(over.statusCode, over.body).toBe(409);
    expect(await db().selectFrom('idempotency_key').select('key').where('key', '=', key).execute()).toEqual([]);
    expect((await post('/pick/confirm', pickBody(task, 2), key)).statusCode).toBe(200);
    for (const bad of ['', 'x'.repeat(101), 'a b', 'é']) {
      const answer = await post('/pick/confirm', pickBody(task, 1), bad);
      expect(answer.statusCode, `${bad}: ${answer.body}`).toBe(400);
    }
  });

  it('a handheld move sent twice with its key moves once', async () => {
    const fromCode = (await db().selectFrom('location').select('code').where('id', '=', f.locationIds[1]).executeTakeFirstOrThrow()).code;
    const toCode = (await db().selectFrom('location').select('code').where('id', '=', f.locationIds[2]).executeTakeFirstOrThrow()).code;
    await stock(db(), f, f.skuIds[0], f.locationIds[1], 10);
    const key = randomUUID();
    const body = { fromLocation: fromCode, sku: `SKU-${tag}-0`, qty: 4, toLocation: toCode };
    const answers = await Promise.all([post('/inventory/handheld/move', body, key), post('/inventory/handheld/move', body, key)]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(json<{ docNo: string }>(answers[0]).docNo).toBe(json<{ docNo: string }>(answers[1]).docNo);
    const at = await db().selectFrom('inventory_balance').select('on_hand_qty').where('location_id', '=', f.locationIds[2]).where('sku_id', '=', f.skuIds[0]).executeTakeFirstOrThrow();
    expect(at.on_hand_qty).toBe('4.0000');
  });

  it('keys older than a day are removed by the purge, newer ones stay', async () => {
    const old = randomUUID();
    const fresh = randomUUID();
    await db()
      .insertInto('idempotency_key')
      .values([
        { user_id: 1, key: old, request_hash: 'h', response: null, created_at: sql<Date>`now() - interval '25 hours'` },
        { user_id: 1, key: fresh, request_hash: 'h', response: null, created_at: sql<Date>`now() - interval '23 hours'` },
      ])
      .execute();
    // Asked to keep less than a day, it still keeps a day.
    expect(await purgeIdempotencyKeys(db(), 1)).toBeGreaterThanOrEqual(1);
    const left = await db().selectFrom('idempotency_key').select('key').where('key', 'in', [old, fresh]).execute();
    expect(left.map((row) => row.key)).toEqual([fresh]);
    expect(t.app.areas.job('job.purgeIdempotencyKeys')).toBeDefined();
  });
});

import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/server/db/transaction.js';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { lotFor, receiveStock } from '../../src/server/modules/inventory/inventory.service.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Sales orders and allocation through the real server: the status table,
 * cancel and delete rules, the address rule, FEFO, held and expired stock, shortages and
 * unallocation giving back exactly what was taken.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let orderSeq = 0;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, 'T', 8);
});

afterAll(async () => {
  await t?.close();
});

const gen = (functionCode: string, url: string, payload: Record<string, unknown>, token = admin) =>
  injectAs(t.app, token, { method: 'POST', url: `/api/generic/${url}`, payload: { moduleCode: 'outbound', functionCode, ...payload } });

async function newOrder(lines: Array<{ skuId: number; qty: number; lotNo?: string }>, header: Record<string, unknown> = {}): Promise<number> {
  orderSeq += 1;
  const added = await gen('so', 'adding', {
    record: { order_no: `SO-${orderSeq}`, owner_id: f.ownerId, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-01-31', carrier_code: 'DHL', ...header },
  });
  expect(added.statusCode, added.body).toBe(200);
  const soId = json<{ row: { _key: number } }>(added).row._key;
  for (const line of lines) {
    const response = await gen('soDetail', 'adding', { record: { so_id: soId, sku_id: line.skuId, qty: String(line.qty), lot_no: line.lotNo ?? null } });
    expect(response.statusCode, response.body).toBe(200);
  }
  return soId;
}

const behave = (functionCode: string, behaviour: string, keys: number[], token = admin) => gen(functionCode, 'behavior', { behaviour, keys, inputs: {} }, token);

async function order(id: number) {
  return t.database.db.selectFrom('so_header').select(['status', 'order_no']).where('id', '=', id).executeTakeFirstOrThrow();
}

async function lines(soId: number) {
  return t.database.db.selectFrom('so_line').select(['id', 'line_no', 'qty', 'allocated_qty']).where('so_id', '=', soId).orderBy('line_no').execute();
}

async function allocationsOf(soId: number) {
  return t.database.db
    .selectFrom('so_allocation as a')
    .innerJoin('inventory_balance as b', 'b.id', 'a.balance_id')
    .innerJoin('lot as l', 'l.id', 'b.lot_id')
    .select(['a.balance_id', 'a.qty', 'l.expiry_date', 'l.lot_no', 'b.location_id'])
    .where('a.so_id', '=', soId)
    .orderBy('a.id')
    .execute();
}

async function available(skuId: number): Promise<number> {
  const rows = await t.database.db.selectFrom('inventory_balance').select(['on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty']).where('sku_id', '=', skuId).execute();
  return rows.reduce((sum, r) => sum + Number(r.on_hand_qty) - Number(r.allocated_qty) - Number(r.picked_qty) - Number(r.held_qty), 0);
}

async function expectLedgerAgrees() {
  for (const row of await ledgerAgreement(t.database.db)) {
    expect(new Decimal(row.ledger_allocated).equals(row.allocated_qty), `allocated of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
  }
}

describe('sales order statuses', () => {
  it('starts new, refuses cancelling a cancelled order and changing its lines', async () => {
    const id = await newOrder([{ skuId: f.skuIds[7], qty: 1 }]);
    expect((await order(id)).status).toBe('new');
    const cancelled = await behave('so', 'cancel', [id]);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await order(id)).status).toBe('cancelled');
    const again = await behave('so', 'cancel', [id]);
    expect(again.statusCode).toBe(409);
    expect(json(again)).toMatchObject({ code: 'ORDER_STATUS_ERROR' });
    const addLine = await gen('soDetail', 'adding', { record: { so_id: id, sku_id: f.skuIds[7], qty: '1' } });
    expect(json(addLine)).toMatchObject({ code: 'ORDER_STATUS_ERROR' });
    expect(await lines(id)).toHaveLength(1);
    expect((await behave('so', 'close', [id])).statusCode).toBe(409);
    expect((await order(id)).status).toBe('cancelled');
  });

  it('deletes only a new order', async () => {
    await stock(t.database.db, f, f.skuIds[6], f.locationIds[1], 5);
    const allocatedOrder = await newOrder([{ skuId: f.skuIds[6], qty: 2 }]);
    expect((await behave('so', 'allocate', [allocatedOrder])).statusCode).toBe(200);
    expect((await order(allocatedOrder)).status).toBe('allocated');
    const refused = await behave('so', 'delete', [allocatedOrder]);
    expect(refused.statusCode).toBe(409);
    expect((await order(allocatedOrder)).status).toBe('allocated');
    const view = json<{ rows: Array<{ _key: number; _version: string }> }>(await gen('so', 'selection', { page: 1, pageSize: 100 })).rows.find((r) => r._key === allocatedOrder)!;
    const hardDelete = await gen('so', 'deletion', { rows: [{ key: view._key, version: view._version }] });
    expect(json(hardDelete)).toMatchObject({ code: 'DELETE_CANCEL_NOT_ALLOWED' });

    const fresh = await newOrder([{ skuId: f.skuIds[6], qty: 1 }]);
    expect((await behave('so', 'delete', [fresh])).statusCode).toBe(200);
    expect((await order(fresh)).status).toBe('deleted');
    expect(json(await behave('so', 'allocate', [fresh]))).toMatchObject({ code: 'ORDER_STATUS_ERROR' });
  });

  it('keeps the ship-to address rule: English only, Chinese only, Chinese required without English', async () => {
    const add = (record: Record<string, unknown>) =>
      gen('so', 'adding', { record: { order_no: `SO-A${(orderSeq += 1)}`, owner_id: f.ownerId, required_ship_date: '2030-01-31', ship_to_address_en: null, ...record } });
    expect(json(await add({ ship_to_address_en: '上海路1号' }))).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'ship_to_address_en', code: 'ADDRESS_ENGLISH_ONLY' }] });
    expect(json(await add({ ship_to_address_cn: 'Shanghai road' }))).toMatchObject({ details: [{ field: 'ship_to_address_cn', code: 'ADDRESS_CHINESE_ONLY' }] });
    expect(json(await add({}))).toMatchObject({ details: [{ field: 'ship_to_address_cn', code: 'ADDRESS_CHINESE_REQUIRED' }] });
    expect((await add({ ship_to_address_cn: '上海市浦东新区1号' })).statusCode).toBe(200);
  });

  it('needs the allocate verb beside the page right', async () => {
    const clerk = await createUser(t, { loginAccount: 'so-clerk', rights: ['outbound:view', 'outbound:add', 'outbound:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const id = await newOrder([{ skuId: f.skuIds[6], qty: 1 }]);
    const refused = await behave('so', 'allocate', [id], clerk);
    expect(refused.statusCode).toBe(403);
    expect((await order(id)).status).toBe('new');
  });
});

describe('allocation', () => {
  it('FEFO takes the earliest expiry; expired stock and stock inside the minimum shelf life are never taken', async () => {
    const sku = f.skuIds[0];
    await t.database.db.insertInto('so_rule').values({ project_id: f.scope.projectId, owner_id: f.ownerId, sku_id: sku, strategy: 'fefo', min_shelf_life_days: 30 }).execute();
    const soon = new Date(Date.now() + 10 * 86400000).toISOString().slice(0, 10);
    await stock(t.database.db, f, sku, f.locationIds[1], 10, { lotNo: 'LATE', expiryDate: '2031-06-30' });
    await stock(t.database.db, f, sku, f.locationIds[2], 10, { lotNo: 'EARLY', expiryDate: '2030-03-31' });
    await stock(t.database.db, f, sku, f.locationIds[3], 10, { lotNo: 'EXPIRED', expiryDate: '2020-01-01' });
    await stock(t.database.db, f, sku, f.locationIds[3], 10, { lotNo: 'SOON', expiryDate: soon });
    const id = await newOrder([{ skuId: sku, qty: 12 }]);
    const response = await behave('so', 'allocate', [id]);
    expect(response.statusCode, response.body).toBe(200);
    expect(json<{ result: { shortages: unknown[] } }>(response).result.shortages).toEqual([]);
    const taken = await allocationsOf(id);
    expect(taken.map((a) => [a.lot_no, Number(a.qty)])).toEqual([
      ['EARLY', 10],
      ['LATE', 2],
    ]);
    expect((await order(id)).status).toBe('allocated');
    await expectLedgerAgrees();
  });

  it('never allocates held stock, and leaves a shortage and partial allocated when asked for more than available', async () => {
    const sku = f.skuIds[1];
    await stock(t.database.db, f, sku, f.locationIds[1], 10, {}, 6);
    const id = await newOrder([
      { skuId: sku, qty: 7 },
      { skuId: f.skuIds[2], qty: 1 },
    ]);
    const response = await behave('so', 'allocate', [id]);
    expect(response.statusCode, response.body).toBe(200);
    const { result } = json<{ result: { shortages: Array<{ lineNo: number; short: string; allocated: string }> } }>(response);
    expect(result.shortages).toEqual([
      expect.objectContaining({ lineNo: 1, allocated: '4', short: '3' }),
      expect.objectContaining({ lineNo: 2, allocated: '0', short: '1' }),
    ]);
    expect((await order(id)).status).toBe('partial_allocated');
    const row = await t.database.db.selectFrom('inventory_balance').select(['on_hand_qty', 'allocated_qty', 'held_qty']).where('sku_id', '=', sku).executeTakeFirstOrThrow();
    expect([Number(row.on_hand_qty), Number(row.allocated_qty), Number(row.held_qty)]).toEqual([10, 4, 6]);
    await expectLedgerAgrees();
  });

  it('takes the pick face first, and unallocating by line and by order gives back exactly what was taken', async () => {
    const sku = f.skuIds[3];
    await stock(t.database.db, f, sku, f.locationIds[2], 5);
    await stock(t.database.db, f, sku, f.locationIds[0], 3);
    const id = await newOrder([
      { skuId: sku, qty: 4 },
      { skuId: sku, qty: 2 },
    ]);
    expect((await behave('so', 'allocate', [id])).statusCode).toBe(200);
    const held = await allocationsOf(id);
    expect(held[0]).toMatchObject({ location_id: f.locationIds[0] });
    expect(await available(sku)).toBe(2);
    const [first, second] = await lines(id);
    expect([Number(first.allocated_qty), Number(second.allocated_qty)]).toEqual([4, 2]);

    const byLine = await behave('soDetail', 'unallocateLines', [second.id]);
    expect(byLine.statusCode, byLine.body).toBe(200);
    expect(await available(sku)).toBe(4);
    expect((await order(id)).status).toBe('partial_allocated');
    expect((await behave('soDetail', 'allocateLines', [second.id])).statusCode).toBe(200);
    expect((await order(id)).status).toBe('allocated');

    const byOrder = await behave('so', 'unallocate', [id]);
    expect(byOrder.statusCode, byOrder.body).toBe(200);
    expect(await available(sku)).toBe(8);
    expect(await allocationsOf(id)).toEqual([]);
    expect((await order(id)).status).toBe('new');
    // Cancelling an allocated order gives its stock back too.
    expect((await behave('so', 'allocate', [id])).statusCode).toBe(200);
    expect(await available(sku)).toBe(2);
    expect((await behave('so', 'cancel', [id])).statusCode).toBe(200);
    expect(await available(sku)).toBe(8);
    await expectLedgerAgrees();
  });

  it('takes a whole pallet that fits the need before loose stock, unless the rule says otherwise', async () => {
    const onPallet = async (sku: number, locationId: number, lpn: string, qty: number) =>
      inTransaction(t.database.db, async (trx) => {
        const lot = await lotFor(trx, f.scope, f.ownerId, sku, { lotNo: 'P' });
        await receiveStock(trx, f.scope, { key: { ownerId: f.ownerId, skuId: sku, lotId: lot.id, locationId, lpn }, qty, reference: { type: 'test', orderNo: 'RCV' } });
      });
    const [palletSku, looseSku] = [f.skuIds[4], f.skuIds[5]];
    await t.database.db
      .insertInto('so_rule')
      .values({ project_id: f.scope.projectId, owner_id: f.ownerId, sku_id: looseSku, strategy: 'fifo', pick_face_first: true, full_pallet_first: false })
      .execute();
    for (const sku of [palletSku, looseSku]) {
      await stock(t.database.db, f, sku, f.locationIds[0], 10);
      await onPallet(sku, f.locationIds[1], `P-${sku}-6`, 6);
      await onPallet(sku, f.locationIds[2], `P-${sku}-20`, 20);
    }
    const id = await newOrder([
      { skuId: palletSku, qty: 8 },
      { skuId: looseSku, qty: 8 },
    ]);
    expect((await behave('so', 'allocate', [id])).statusCode).toBe(200);
    const held = await t.database.db
      .selectFrom('so_allocation as a')
      .innerJoin('inventory_balance as b', 'b.id', 'a.balance_id')
      .select(['b.sku_id', 'b.lpn', 'a.qty'])
      .where('a.so_id', '=', id)
      .orderBy('b.sku_id')
      .orderBy('b.lpn')
      .execute();
    // The 6-pallet fits 8 and goes whole, the rest from the pick face; the 20-pallet does not fit.
    expect(held.filter((h) => Number(h.sku_id) === palletSku).map((h) => [h.lpn, Number(h.qty)])).toEqual([
      ['', 2],
      [`P-${palletSku}-6`, 6],
    ]);
    // Without the rule's flag the pick face comes first and covers the line.
    expect(held.filter((h) => Number(h.sku_id) === looseSku).map((h) => [h.lpn, Number(h.qty)])).toEqual([['', 8]]);
    expect((await order(id)).status).toBe('allocated');
    await expectLedgerAgrees();
  });
});

describe('home page', () => {
  it("shows the warehouse's open orders by status, leaving out cancelled, deleted and closed ones", async () => {
    const response = await injectAs(t.app, admin, { method: 'GET', url: '/api/home/summary' });
    expect(response.statusCode).toBe(200);
    const orders = json<{ work: Array<{ kind: string; available: boolean; total: number; byStatus: Array<{ status: string; count: number }> }> }>(response).work.find((w) => w.kind === 'order')!;
    const rows = await t.database.db.selectFrom('so_header').select('status').where('status', 'not in', ['cancelled', 'deleted', 'closed']).execute();
    expect(orders.available).toBe(true);
    expect(orders.total).toBe(rows.length);
    expect(orders.total).toBeGreaterThan(0);
    for (const { status, count } of orders.byStatus) expect(count).toBe(rows.filter((r) => r.status === status).length);
    expect(orders.byStatus.map((s) => s.status)).not.toContain('cancelled');
  });
});

import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gs1CheckDigit } from '../../src/common/gs1.js';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { cartonLabelOf } from '../../src/server/modules/packing/index.js';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * SSCCs of cartons, pallets and the cancelling of a check-complete, through the real server: a
 * carton gets a valid, unique SSCC as it closes; a pallet gets its own (extension digit 1) and
 * takes closed cartons of one order only; cancelling a check-complete does what its two answers
 * say, the stock going back where it came from with balance and ledger agreeing. Every refusal
 * leaves the database as it was, and another project's cartons, pallets and orders are not found.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let skuCodes: string[];
let orderSeq = 0;
const RUN = Math.random().toString(36).slice(2, 7).toUpperCase();
const TOTE = `TOTE-${RUN}`;
const STAGE = `STAGE-PL-${RUN}`;
const EAN = (() => {
  const twelve = `40${String(Date.now()).slice(-10)}`;
  return twelve + gs1CheckDigit(twelve);
})();

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, `PL${RUN}`, 2);
  skuCodes = (await db().selectFrom('sku').select('code').where('id', 'in', f.skuIds).orderBy('id').execute()).map((r) => r.code);
  await db().insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: STAGE, location_type: 'stage' }).execute();
  await db().insertInto('sku_upc').values({ project_id: f.scope.projectId, sku_id: f.skuIds[0], upc: EAN, uom: 'EA', qty: 1 }).execute();
});

afterAll(async () => {
  await t?.close();
});

interface Carton {
  id: number;
  cartonNo: string;
  status: string;
  sscc: string | null;
}
interface Pack {
  order: { id: number; orderNo: string; status: string };
  cartons: Carton[];
  openCarton: Carton | null;
}
interface Pallet {
  id: number;
  palletNo: string;
  sscc: string;
  soId: number | null;
  status: string;
  cartons: Array<{ id: number; cartonNo: string; sscc: string | null }>;
}

async function ok<T = Pack>(url: string, payload: Record<string, unknown>, token = admin): Promise<T> {
  const response = await call(url, payload, token);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
}

/** A picked order of these lines (SKU index, qty), its stock received first at the pick face. */
async function pickedOrder(lines: Array<[number, number]>): Promise<{ soId: number; orderNo: string }> {
  const orders = orderCalls(t.app, admin, db());
  for (const [sku, qty] of lines) await stock(db(), f, f.skuIds[sku], f.locationIds[0], qty);
  const orderNo = `SOPL-${RUN}-${++orderSeq}`;
  const soId = await orders.enter(orderNo, f.ownerId, lines.map(([sku, qty]) => ({ skuCode: skuCodes[sku], qty })));
  await orders.allocate(soId);
  expect((await call('/so/pick', { soId })).statusCode).toBe(200);
  for (const [sku] of lines) await orders.pickSku(soId, f.skuIds[sku], skuCodes[sku], TOTE);
  return { soId, orderNo };
}

/** Packs each line's whole qty into its own carton and closes it; answers the closed cartons. */
async function packedOrder(lines: Array<[number, number]>, checkComplete = true): Promise<{ soId: number; orderNo: string; cartons: Carton[] }> {
  const order = await pickedOrder(lines);
  await ok('/scanPack', { orderNo: order.orderNo });
  for (const [sku, qty] of lines) {
    const carton = (await ok('/pack/scan/open', { soId: order.soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[sku], qty });
    await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });
  }
  const answer = checkComplete ? await ok('/scanPack/closeOrder', { soId: order.soId }) : await ok('/scanPack', { orderNo: order.orderNo });
  return { ...order, cartons: answer.cartons };
}

/** What a refused call must leave as it was. */
async function snapshot() {
  return {
    balances: await db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty']).orderBy('id').execute(),
    ledger: (await db().selectFrom('inventory_transaction').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
    orders: await db().selectFrom('so_header').select(['id', 'status', 'updated_at']).orderBy('id').execute(),
    tasks: await db().selectFrom('pick_task').select(['id', 'status', 'picked_qty']).orderBy('id').execute(),
    cartons: await db().selectFrom('carton').selectAll().orderBy('id').execute(),
    cartonLines: await db().selectFrom('carton_line').selectAll().orderBy('id').execute(),
    pallets: await db().selectFrom('pallet').selectAll().orderBy('id').execute(),
  };
}

async function refused(url: string, payload: Record<string, unknown>, status: number, code: string, token = admin): Promise<string> {
  const before = await snapshot();
  const response = await call(url, payload, token);
  expect(response.statusCode, response.body).toBe(status);
  const body = json<{ code: string; message: string }>(response);
  expect(body.code).toBe(code);
  expect(await snapshot()).toEqual(before);
  return body.message;
}

async function expectLedgerAgrees() {
  for (const row of await ledgerAgreement(db(), f.scope.projectId)) {
    expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_allocated).equals(row.allocated_qty), `allocated of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_picked).equals(row.picked_qty), `picked of balance ${row.id}`).toBe(true);
  }
}

/** On-hand, allocated and picked of a SKU per location code and licence plate (rows that hold something). */
async function stockOf(skuIndex: number) {
  const rows = await db()
    .selectFrom('inventory_balance as b')
    .innerJoin('location as l', 'l.id', 'b.location_id')
    .select(['l.code', 'b.lpn', 'b.on_hand_qty', 'b.allocated_qty', 'b.picked_qty'])
    .where('b.sku_id', '=', f.skuIds[skuIndex])
    .where('b.on_hand_qty', '>', '0')
    .orderBy('l.code')
    .orderBy('b.lpn')
    .execute();
  return rows.map((r) => ({ at: `${r.code}/${r.lpn}`, onHand: Number(r.on_hand_qty), allocated: Number(r.allocated_qty), picked: Number(r.picked_qty) }));
}

const isValidSscc = (s: string) => /^[0-9]{18}$/.test(s) && gs1CheckDigit(s.slice(0, 17)) === s[17];

describe('SSCC per carton', () => {
  it('gives a carton no SSCC while open and a valid one (extension digit 0) as it closes; every carton its own', async () => {
    const order = await pickedOrder([[0, 4]]);
    await ok('/scanPack', { orderNo: order.orderNo });
    const open = (await ok('/pack/scan/open', { soId: order.soId })).openCarton!;
    expect(open.sscc).toBeNull();
    await ok('/pack/scan/sku', { cartonId: open.id, barcode: EAN, qty: 2 });
    const closed = (await ok('/pack/scan/close', { cartonId: open.id, grossWeight: 1, netWeight: 1, weightUom: 'KG' })).cartons.find((c) => c.id === open.id)!;
    expect(isValidSscc(closed.sscc!)).toBe(true);
    expect(closed.sscc![0]).toBe('0');
    const second = (await ok('/pack/scan/open', { soId: order.soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: second.id, barcode: EAN, qty: 2 });
    const both = (await ok('/pack/scan/close', { cartonId: second.id, grossWeight: 1, netWeight: 1, weightUom: 'KG' })).cartons;
    expect(both.map((c) => isValidSscc(c.sscc!))).toEqual([true, true]);
    expect(new Set(both.map((c) => c.sscc)).size).toBe(2);
    // No two cartons of the database share one.
    const all = await db().selectFrom('carton').select('sscc').where('sscc', 'is not', null).execute();
    expect(new Set(all.map((r) => r.sscc)).size).toBe(all.length);
  });

  it('the database refuses a second carton with an SSCC already given', async () => {
    const { cartons } = await packedOrder([[0, 1]], false);
    const other = await packedOrder([[0, 1]], false);
    await expect(db().updateTable('carton').set({ sscc: cartons[0].sscc }).where('id', '=', other.cartons[0].id).execute()).rejects.toThrow();
  });

  it("answers a closed carton's label by carton number or SSCC: ship-to, order, carton x of y, GTIN and qty of a one-SKU carton", async () => {
    const order = await packedOrder([
      [0, 3],
      [1, 2],
    ]);
    const scope = { projectId: f.scope.projectId, warehouseId: f.scope.warehouseId };
    const first = await cartonLabelOf(db(), scope, order.cartons[0].sscc!);
    expect(first).toMatchObject({ sscc: order.cartons[0].sscc, orderNo: order.orderNo, cartonNo: 1, cartonCount: 2, content: { gtin: EAN.padStart(14, '0'), qty: 3 } });
    expect(first.shipTo.lines.length).toBeGreaterThan(0);
    const second = await cartonLabelOf(db(), scope, order.cartons[1].cartonNo);
    expect(second).toMatchObject({ cartonNo: 2, cartonCount: 2, content: { qty: 2 } });
    expect(second.content?.gtin).toBeUndefined();
    await expect(cartonLabelOf(db(), { ...scope, projectId: scope.projectId + 100000 }, order.cartons[0].sscc!)).rejects.toMatchObject({ code: 'NO_RECORD' });
  });
});

describe('pallets', () => {
  it('makes a pallet with its number and its own SSCC (extension digit 1) at a location; the location is required and must exist', async () => {
    const pallet = await ok<Pallet>('/pallet/create', { locationCode: STAGE, palletType: 'EUR', length: 120, width: 80, height: 150 });
    expect(pallet.palletNo).toMatch(/^PL/);
    expect(isValidSscc(pallet.sscc)).toBe(true);
    expect(pallet.sscc[0]).toBe('1');
    expect(pallet).toMatchObject({ status: 'open', soId: null, cartons: [] });
    const other = await ok<Pallet>('/pallet/create', { locationCode: STAGE });
    expect(other.sscc).not.toBe(pallet.sscc);
    await refused('/pallet/create', { locationCode: '' }, 400, 'VALIDATION_FAILED');
    await refused('/pallet/create', { locationCode: `NOPE-${RUN}` }, 400, 'VALIDATION_FAILED');
    await refused('/pallet/create', { locationCode: STAGE, weightUom: 'TON' }, 400, 'VALIDATION_FAILED');
  });

  it('takes closed cartons of one order by carton number or SSCC, refuses the rest with their messages and changes nothing, and closes', async () => {
    const order = await packedOrder([
      [0, 2],
      [1, 2],
    ]);
    const pallet = await ok<Pallet>('/pallet/create', { locationCode: STAGE });
    const onIt = await ok<Pallet>('/pallet/addCarton', { palletId: pallet.id, carton: order.cartons[0].sscc });
    expect(onIt).toMatchObject({ soId: order.soId, cartons: [{ id: order.cartons[0].id }] });
    await ok<Pallet>('/pallet/addCarton', { palletId: pallet.id, carton: order.cartons[1].cartonNo });

    // Again: already on this pallet.
    const again = await refused('/pallet/addCarton', { palletId: pallet.id, carton: order.cartons[0].cartonNo }, 409, 'CARTON_ON_PALLET');
    expect(again).toContain(order.cartons[0].cartonNo);
    // A carton of another order: an SSCC holds no mixed-pack orders.
    const other = await packedOrder([[0, 1]]);
    expect(await refused('/pallet/addCarton', { palletId: pallet.id, carton: other.cartons[0].cartonNo }, 409, 'SSCC_MIXED_PACK')).toMatch(/mixed/i);
    // An open carton.
    const openOrder = await pickedOrder([[0, 1]]);
    await ok('/scanPack', { orderNo: openOrder.orderNo });
    const open = (await ok('/pack/scan/open', { soId: openOrder.soId })).openCarton!;
    const otherPallet = await ok<Pallet>('/pallet/create', { locationCode: STAGE });
    await refused('/pallet/addCarton', { palletId: otherPallet.id, carton: open.cartonNo }, 409, 'CARTON_OPEN');
    // Unknown carton, unknown pallet.
    await refused('/pallet/addCarton', { palletId: pallet.id, carton: `NONE-${RUN}` }, 404, 'NO_RECORD');
    await refused('/pallet/addCarton', { palletId: 987654321, carton: order.cartons[0].cartonNo }, 404, 'NO_RECORD');
    await refused('/pallet/addCarton', { palletId: pallet.id, carton: '' }, 400, 'VALIDATION_FAILED');
    // Off the pallet only what is on it.
    await refused('/pallet/removeCarton', { palletId: otherPallet.id, carton: order.cartons[0].cartonNo }, 409, 'CARTON_NOT_ON_PALLET');
    // Cancelling the check-complete may not take cartons off a pallet behind its back.
    await refused('/so/cancelCheckComplete', { soId: order.soId, removeCartons: true, moveStockBack: false }, 409, 'CARTON_ON_PALLET');

    const off = await ok<Pallet>('/pallet/removeCarton', { palletId: pallet.id, carton: order.cartons[1].sscc });
    expect(off.cartons.map((c) => c.id)).toEqual([order.cartons[0].id]);
    const emptied = await ok<Pallet>('/pallet/removeCarton', { palletId: pallet.id, carton: order.cartons[0].sscc });
    // An empty pallet takes any order again.
    expect(emptied).toMatchObject({ soId: null, cartons: [] });
    await refused('/pallet/close', { palletId: pallet.id }, 409, 'PALLET_EMPTY');
    await ok<Pallet>('/pallet/addCarton', { palletId: pallet.id, carton: other.cartons[0].sscc });
    const closed = await ok<Pallet>('/pallet/close', { palletId: pallet.id, grossWeight: 25, weightUom: 'KG' });
    expect(closed).toMatchObject({ status: 'closed', grossWeight: '25', soId: other.soId });
    await refused('/pallet/addCarton', { palletId: pallet.id, carton: order.cartons[0].cartonNo }, 409, 'PALLET_CLOSED');
    await refused('/pallet/removeCarton', { palletId: pallet.id, carton: other.cartons[0].cartonNo }, 409, 'PALLET_CLOSED');
    expect((await ok<Pallet>('/pallet/detail', { palletId: pallet.id })).cartons.map((c) => c.id)).toEqual([other.cartons[0].id]);
  });
});

describe('cancel check-complete', () => {
  it('yes/yes: removes every packed carton and moves the stock back to where it was picked from, allocated again; balance and ledger agree', async () => {
    const before0 = await stockOf(0);
    const order = await packedOrder([
      [0, 3],
      [1, 2],
    ]);
    expect(order.cartons).toHaveLength(2);
    const stockBefore = await stockOf(0);
    expect(stockBefore.some((s) => s.at.endsWith(`/${order.cartons[0].cartonNo}`))).toBe(true);
    const answer = await ok<{ order: { status: string }; removedCartons: string[]; unpacked: string; movedBack: boolean }>('/so/cancelCheckComplete', {
      soId: order.soId,
      removeCartons: true,
      moveStockBack: true,
    });
    expect(answer).toMatchObject({ order: { status: 'allocated' }, removedCartons: order.cartons.map((c) => c.cartonNo), unpacked: '5', movedBack: true });
    expect(await db().selectFrom('carton').select('id').where('so_id', '=', order.soId).execute()).toEqual([]);
    // A removed carton the server packed into before takes no scan: it is gone, not of its old order.
    await refused('/pack/scan/sku', { cartonId: order.cartons[0].id, barcode: skuCodes[0] }, 404, 'NO_RECORD');
    // The three units picked for the order are back at the pick face, allocated to it again; nothing stays on the tote or the cartons.
    const after = await stockOf(0);
    const face = (rows: typeof after) => rows.find((r) => r.at === `L-PL${RUN}-0/`);
    expect(face(after)!.onHand).toBe((face(before0)?.onHand ?? 0) + 3);
    expect(face(after)!.allocated).toBe((face(before0)?.allocated ?? 0) + 3);
    expect(after.filter((r) => r.at.endsWith(`/${TOTE}`) || order.cartons.some((c) => r.at.endsWith(`/${c.cartonNo}`)))).toEqual(before0.filter((r) => r.at.endsWith(`/${TOTE}`)));
    const lines = await db().selectFrom('so_line').select(['picked_qty', 'allocated_qty']).where('so_id', '=', order.soId).orderBy('line_no').execute();
    expect(lines.map((l) => [Number(l.picked_qty), Number(l.allocated_qty)])).toEqual([
      [0, 3],
      [0, 2],
    ]);
    await expectLedgerAgrees();
    // Cancelled once, there is no check-complete left to cancel.
    await refused('/so/cancelCheckComplete', { soId: order.soId, removeCartons: false, moveStockBack: false }, 409, 'ORDER_STATUS_ERROR');
  });

  it('no/no: the cartons stay closed with their stock, the order is picked again and may be packed on', async () => {
    const order = await packedOrder([[0, 2]]);
    const stockBefore = await stockOf(0);
    const answer = await ok<{ order: { status: string }; removedCartons: string[] }>('/so/cancelCheckComplete', { soId: order.soId, removeCartons: false, moveStockBack: false });
    expect(answer).toMatchObject({ order: { status: 'picked' }, removedCartons: [] });
    expect(await stockOf(0)).toEqual(stockBefore);
    const cartons = await db().selectFrom('carton').select(['status', 'sscc']).where('so_id', '=', order.soId).execute();
    expect(cartons).toEqual([{ status: 'closed', sscc: order.cartons[0].sscc }]);
    expect((await ok('/scanPack', { orderNo: order.orderNo })).order.status).toBe('picked');
    await expectLedgerAgrees();
  });

  it('yes/no: the cartons go, their stock back where picking put it, still picked', async () => {
    const order = await packedOrder([[1, 2]]);
    const answer = await ok<{ order: { status: string } }>('/so/cancelCheckComplete', { soId: order.soId, removeCartons: true, moveStockBack: false });
    expect(answer.order.status).toBe('picked');
    const onCarton = await db().selectFrom('inventory_balance').select('on_hand_qty').where('lpn', '=', order.cartons[0].cartonNo).execute();
    expect(onCarton.every((r) => Number(r.on_hand_qty) === 0)).toBe(true);
    await expectLedgerAgrees();
  });

  it('refuses moving stock back without removing the cartons, an order not check-completed, and a partial check-complete before scan-pack', async () => {
    const order = await packedOrder([[0, 1]]);
    await refused('/so/cancelCheckComplete', { soId: order.soId, removeCartons: false, moveStockBack: true }, 400, 'VALIDATION_FAILED');
    const picked = await pickedOrder([[0, 1]]);
    await refused('/so/cancelCheckComplete', { soId: picked.soId, removeCartons: true, moveStockBack: true }, 409, 'ORDER_STATUS_ERROR');
    await refused('/so/cancelCheckComplete', { soId: order.soId, removeCartons: 'yes', moveStockBack: true }, 400, 'VALIDATION_FAILED');

    // Partly packed and checked complete: scan-pack and /so/checkPartialPack say to cancel it first.
    const partial = await pickedOrder([
      [0, 1],
      [1, 1],
    ]);
    await ok('/scanPack', { orderNo: partial.orderNo });
    const carton = (await ok('/pack/scan/open', { soId: partial.soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 1 });
    await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 1, netWeight: 1, weightUom: 'KG' });
    expect((await ok('/scanPack/closeOrder', { soId: partial.soId })).order.status).toBe('partial_packed');
    const message = await refused('/scanPack', { orderNo: partial.orderNo }, 409, 'PACK_CANCEL_CHECK_COMPLETE_FIRST');
    expect(message).toContain(partial.orderNo);
    const [check] = (await ok<{ orders: Array<{ partialCheckComplete: boolean; reason: { code: string; message: string } | null }> }>('/so/checkPartialPack', { soIds: [partial.soId] })).orders;
    expect(check).toMatchObject({ partialCheckComplete: true, reason: { code: 'PACK_CANCEL_CHECK_COMPLETE_FIRST' } });
    await ok('/so/cancelCheckComplete', { soId: partial.soId, removeCartons: false, moveStockBack: false });
    expect((await ok('/scanPack', { orderNo: partial.orderNo })).order.status).toBe('picked');
  });
});

describe('another project', () => {
  it("finds none of this project's cartons, pallets and orders, and changes nothing", async () => {
    const org = await db().selectFrom('project').select('organization_id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const code = `PRJ-PL-${RUN}`;
    await db().insertInto('project').values({ organization_id: org.organization_id, code, name: `Project ${code}` }).execute();
    const { token } = await createUserAccount(t, {
      loginAccount: `pl-other-${RUN.toLowerCase()}`,
      rights: ['packing.pack:view', 'packing.pack:edit', 'packing.pallet:view', 'packing.pallet:edit', 'packing.cmg:view'],
      projectCodes: [code],
      warehouseCodes: ['WH1'],
    });
    const order = await packedOrder([[0, 1]]);
    const pallet = await ok<Pallet>('/pallet/create', { locationCode: STAGE });
    const theirs = await ok<Pallet>('/pallet/create', { locationCode: STAGE }, token);
    await refused('/pallet/detail', { palletId: pallet.id }, 404, 'NO_RECORD', token);
    await refused('/pallet/addCarton', { palletId: pallet.id, carton: order.cartons[0].cartonNo }, 404, 'NO_RECORD', token);
    await refused('/pallet/addCarton', { palletId: theirs.id, carton: order.cartons[0].cartonNo }, 404, 'NO_RECORD', token);
    await refused('/pallet/addCarton', { palletId: theirs.id, carton: order.cartons[0].sscc }, 404, 'NO_RECORD', token);
    await refused('/pallet/removeCarton', { palletId: pallet.id, carton: order.cartons[0].cartonNo }, 404, 'NO_RECORD', token);
    await refused('/pallet/close', { palletId: pallet.id }, 404, 'NO_RECORD', token);
    await refused('/so/cancelCheckComplete', { soId: order.soId, removeCartons: true, moveStockBack: true }, 404, 'NO_RECORD', token);
    // And this project's caller finds none of theirs.
    await refused('/pallet/detail', { palletId: theirs.id }, 404, 'NO_RECORD');
  });

  it('refuses a caller without the pallet rights', async () => {
    const { token } = await createUserAccount(t, { loginAccount: `pl-viewer-${RUN.toLowerCase()}`, rights: ['packing.pallet:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const pallet = await ok<Pallet>('/pallet/create', { locationCode: STAGE });
    expect((await call('/pallet/detail', { palletId: pallet.id }, token)).statusCode).toBe(200);
    await refused('/pallet/create', { locationCode: STAGE }, 403, 'FORBIDDEN', token);
    await refused('/so/cancelCheckComplete', { soId: 1, removeCartons: false, moveStockBack: false }, 403, 'FORBIDDEN', token);
  });
});

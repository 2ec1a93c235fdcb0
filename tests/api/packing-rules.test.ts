import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * The rules of scan-pack through the real server, each refusal with its own code and leaving the
 * database as it was (no ledger row, no carton or carton line change, no order status change): over
 * pack and over remove, an unknown SKU, a wrong barcode format, a closed carton, an empty carton
 * unpacked, the anti-counterfeit code (required unless a gift, packed once in the warehouse), the
 * woolen collar barcode, a carton card still on an open carton, a carton of another order appended
 * to by its SSCC, blank location and SSCC inputs, and reopening a closed carton to append to it.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let skuCodes: string[];
let orderSeq = 0;
const run = `${Date.now()}`.slice(-7);
const TOTE = 'TOTE-PR';

/** SKU indexes of the fixture by what they carry. */
const PLAIN = 0;
const OTHER = 1;
const CODED = 2;
const GIFT = 3;
const COLLAR = 4;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, 'PR', 5);
  skuCodes = (await db().selectFrom('sku').select('code').where('id', 'in', f.skuIds).orderBy('id').execute()).map((r) => r.code);
  await db().updateTable('sku').set({ anti_counterfeit: true }).where('id', '=', f.skuIds[CODED]).execute();
  await db().updateTable('sku').set({ anti_counterfeit: true, gift: true }).where('id', '=', f.skuIds[GIFT]).execute();
  await db().updateTable('sku').set({ collar_barcode: 'WC-*-A' }).where('id', '=', f.skuIds[COLLAR]).execute();
  await db().insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: `STAGE-PR-${run}`, location_type: 'stage' }).execute();
});

afterAll(async () => {
  await t?.close();
});

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });

interface Carton {
  id: number;
  cartonNo: string;
  status: string;
  sscc: string | null;
  cardId: string | null;
  lines: Array<{ skuCode: string; qty: string }>;
}
interface Pack {
  order: { id: number; orderNo: string; status: string };
  openCarton: Carton | null;
  cartons: Carton[];
}

/** A picked order of these lines (SKU index, qty), its stock received first at the pick face. */
async function pickedOrder(lines: Array<[number, number]>): Promise<{ soId: number; orderNo: string }> {
  const orders = orderCalls(t.app, admin, db());
  for (const [sku, qty] of lines) await stock(db(), f, f.skuIds[sku], f.locationIds[0], qty);
  const orderNo = `SOPR-${run}-${++orderSeq}`;
  const soId = await orders.enter(orderNo, f.ownerId, lines.map(([sku, qty]) => ({ skuCode: skuCodes[sku], qty })));
  await orders.allocate(soId);
  expect((await call('/so/pick', { soId })).statusCode).toBe(200);
  for (const [sku] of lines) await orders.pickSku(soId, f.skuIds[sku], skuCodes[sku], TOTE);
  return { soId, orderNo };
}

async function ok<T = Pack>(url: string, payload: Record<string, unknown>): Promise<T> {
  const response = await call(url, payload);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
}

/** What a refused call must leave as it was. */
async function snapshot() {
  return {
    balances: await db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty']).orderBy('id').execute(),
    ledger: (await db().selectFrom('inventory_transaction').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
    orders: await db().selectFrom('so_header').select(['id', 'status', 'updated_at']).orderBy('id').execute(),
    cartons: await db().selectFrom('carton').selectAll().orderBy('id').execute(),
    cartonLines: await db().selectFrom('carton_line').selectAll().orderBy('id').execute(),
    pallets: await db().selectFrom('pallet').selectAll().orderBy('id').execute(),
  };
}

/** The call is refused with this status and code (and field, when given), and nothing changed. */
async function refused(url: string, payload: Record<string, unknown>, status: number, code: string, field?: string) {
  const before = await snapshot();
  const response = await call(url, payload);
  expect(response.statusCode, response.body).toBe(status);
  const body = json<{ code: string; message: string; details?: Array<{ field: string }> }>(response);
  expect(body.code).toBe(code);
  expect(body.message).not.toBe(code);
  if (field) expect(body.details?.map((d) => d.field)).toContain(field);
  expect(await snapshot()).toEqual(before);
}

const close = (cartonId: number) => ok('/pack/scan/close', { cartonId, grossWeight: 2, netWeight: 1, weightUom: 'KG' });

describe('scan-pack rules', () => {
  it('refuses over pack, over scan and over remove, unknown SKUs, wrong barcodes and a closed carton', async () => {
    const { soId } = await pickedOrder([[PLAIN, 3]]);
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[PLAIN], qty: 2 });
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[PLAIN], qty: 2 }, 409, 'OVERPACK_NOT_ALLOWED');
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[PLAIN] });
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[PLAIN] }, 409, 'OVERPACK_NOT_ALLOWED');
    await refused('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[PLAIN], qty: 4 }, 409, 'NOT_ENOUGH_TO_REMOVE');
    await refused('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[OTHER] }, 409, 'NOT_ENOUGH_TO_REMOVE');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: `NO-SUCH-${run}` }, 400, 'INVALID_SKU');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: '(01)12345' }, 400, 'BARCODE_FORMAT');
    await close(carton.id);
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[PLAIN] }, 409, 'CARTON_CLOSED');
    await refused('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[PLAIN] }, 409, 'CARTON_CLOSED');
  });

  it('refuses taking anything out of an empty carton with its own code', async () => {
    const { soId } = await pickedOrder([[PLAIN, 1]]);
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    await refused('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[PLAIN] }, 409, 'PACK_CARTON_EMPTY');
    await refused('/pack/scan/remove', { cartonId: carton.id, barcode: `NO-SUCH-${run}` }, 409, 'PACK_CARTON_EMPTY');
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[PLAIN] });
    await ok('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[PLAIN] });
    await refused('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[PLAIN] }, 409, 'PACK_CARTON_EMPTY');
  });

  it('asks the anti-counterfeit code of each unit unless the item is a gift, keeps it on the carton line, and packs a code once in the warehouse', async () => {
    const { soId } = await pickedOrder([
      [CODED, 3],
      [GIFT, 1],
    ]);
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[CODED] }, 400, 'PACK_ANTI_COUNTERFEIT_REQUIRED', 'antiCounterfeitCode');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[CODED], antiCounterfeitCode: '   ' }, 400, 'PACK_ANTI_COUNTERFEIT_REQUIRED');
    // One code names one unit.
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[CODED], qty: 2, antiCounterfeitCode: `AC-${run}-9` }, 400, 'VALIDATION_FAILED', 'qty');
    const code = `AC-${run}-1`;
    const packed = await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[CODED], antiCounterfeitCode: ` ${code} ` });
    expect(packed.cartons[0].lines).toEqual([expect.objectContaining({ skuCode: skuCodes[CODED], qty: '1' })]);
    const lines = await db().selectFrom('carton_line').select(['anti_counterfeit_code', 'qty']).where('carton_id', '=', carton.id).execute();
    expect(lines.map((l) => l.anti_counterfeit_code)).toEqual([code]);
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[CODED], antiCounterfeitCode: code }, 409, 'PACK_ANTI_COUNTERFEIT_USED');
    // Another carton of another order: the code is still packed in the warehouse.
    const other = await pickedOrder([[CODED, 1]]);
    const otherCarton = (await ok('/pack/scan/open', { soId: other.soId })).openCarton!;
    await refused('/pack/scan/sku', { cartonId: otherCarton.id, barcode: skuCodes[CODED], antiCounterfeitCode: code }, 409, 'PACK_ANTI_COUNTERFEIT_USED');
    // A second unit with its own code is a line of its own.
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[CODED], antiCounterfeitCode: `AC-${run}-2` });
    expect((await db().selectFrom('carton_line').select('id').where('carton_id', '=', carton.id).execute()).length).toBe(2);
    // A gift needs no code, even when its SKU is marked for one.
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[GIFT] });
    // Taken out, the code is free again.
    await ok('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[CODED] });
    const left = await db().selectFrom('carton_line').select('anti_counterfeit_code').where('carton_id', '=', carton.id).where('sku_id', '=', f.skuIds[CODED]).execute();
    expect(left.map((l) => l.anti_counterfeit_code)).toEqual([code]);
    await ok('/pack/scan/sku', { cartonId: otherCarton.id, barcode: skuCodes[CODED], antiCounterfeitCode: `AC-${run}-2` });
  });

  it('asks the woolen collar barcode of an item that has one and refuses one that does not match', async () => {
    const { soId } = await pickedOrder([[COLLAR, 2]]);
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[COLLAR] }, 400, 'PACK_COLLAR_REQUIRED', 'collarBarcode');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[COLLAR], collarBarcode: 'WC-17-B' }, 400, 'PACK_COLLAR_MISMATCH');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[COLLAR], collarBarcode: 'XWC-17-A' }, 400, 'PACK_COLLAR_MISMATCH');
    const mismatch = json<{ message: string }>(await call('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[COLLAR], collarBarcode: 'nope' }));
    expect(mismatch.message).toBe('The woolen collar barcode does not match the item.');
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[COLLAR], collarBarcode: 'WC-17-A' });
    // An exact value matches only itself.
    await db().updateTable('sku').set({ collar_barcode: 'COLLAR-1' }).where('id', '=', f.skuIds[COLLAR]).execute();
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[COLLAR], collarBarcode: 'COLLAR-10' }, 400, 'PACK_COLLAR_MISMATCH');
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[COLLAR], collarBarcode: 'COLLAR-1' });
    await db().updateTable('sku').set({ collar_barcode: 'WC-*-A' }).where('id', '=', f.skuIds[COLLAR]).execute();
  });

  it('refuses a card another open carton of the warehouse carries, and takes it again once that carton is closed', async () => {
    const { soId } = await pickedOrder([[PLAIN, 2]]);
    const card = `CARD-${run}`;
    const first = (await ok('/pack/scan/open', { soId, cardId: card })).openCarton!;
    expect(first.cardId).toBe(card);
    await refused('/pack/scan/open', { soId, cardId: card }, 409, 'CARD_REPLACE');
    await refused('/pack/scan/open', { soId, cardId: ` ${card} ` }, 409, 'CARD_REPLACE');
    await ok('/pack/scan/sku', { cartonId: first.id, barcode: skuCodes[PLAIN] });
    await close(first.id);
    const second = (await ok('/pack/scan/open', { soId, cardId: card })).openCarton!;
    expect(second.cardId).toBe(card);
  });

  it('reopens a closed carton to append, keeping its SSCC, and refuses it when the order is check-completed, the carton on a pallet or of another order', async () => {
    const { soId } = await pickedOrder([[PLAIN, 3]]);
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[PLAIN] });
    const sscc = (await close(carton.id)).cartons[0].sscc!;
    expect(sscc).toMatch(/^\d{18}$/);
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[PLAIN] }, 409, 'CARTON_CLOSED');

    // By its SSCC: open again, same SSCC; it takes more and closes with the same SSCC.
    const reopened = await ok<Pack & { reopened: Carton }>('/pack/scan/reopen', { soId, carton: sscc });
    expect(reopened.reopened).toMatchObject({ id: carton.id, status: 'open', sscc });
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[PLAIN] });
    const again = await close(carton.id);
    expect(again.cartons[0]).toMatchObject({ status: 'closed', sscc, lines: [expect.objectContaining({ qty: '2' })] });
    // By its id.
    await ok('/pack/scan/reopen', { soId, cartonId: carton.id });
    await close(carton.id);

    // Another order's carton, by SSCC or number: its SSCC holds no mixed-pack orders.
    const other = await pickedOrder([[OTHER, 1]]);
    await refused('/pack/scan/reopen', { soId: other.soId, carton: sscc }, 409, 'SSCC_MIXED_PACK');
    await refused('/pack/scan/reopen', { soId: other.soId, carton: carton.cartonNo }, 409, 'SSCC_MIXED_PACK');
    await refused('/pack/scan/reopen', { soId: other.soId, cartonId: carton.id }, 409, 'SSCC_MIXED_PACK');
    await refused('/pack/scan/reopen', { soId, carton: `NO-SUCH-${run}` }, 404, 'NO_RECORD');

    // On a pallet it stays closed.
    const pallet = await ok<{ id: number }>('/pallet/create', { locationCode: `STAGE-PR-${run}` });
    await ok('/pallet/addCarton', { palletId: pallet.id, carton: sscc });
    await refused('/pack/scan/reopen', { soId, carton: sscc }, 409, 'CARTON_ON_PALLET');
    await ok('/pallet/close', { palletId: pallet.id });
    await refused('/pack/scan/reopen', { soId, carton: sscc }, 409, 'CARTON_ON_PALLET');

    // Check-completed (partially: not all picked is packed) it stays closed.
    const partial = await pickedOrder([[PLAIN, 2]]);
    const box = (await ok('/pack/scan/open', { soId: partial.soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: box.id, barcode: skuCodes[PLAIN] });
    await close(box.id);
    expect((await ok('/scanPack/closeOrder', { soId: partial.soId })).order.status).toBe('partial_packed');
    await refused('/pack/scan/reopen', { soId: partial.soId, cartonId: box.id }, 409, 'PACK_CANCEL_CHECK_COMPLETE_FIRST');
    // Packed in full it stays closed too.
    await ok('/so/cancelCheckComplete', { soId: partial.soId, removeCartons: false, moveStockBack: false });
    await ok('/pack/scan/reopen', { soId: partial.soId, cartonId: box.id });
    await ok('/pack/scan/sku', { cartonId: box.id, barcode: skuCodes[PLAIN] });
    await close(box.id);
    expect((await ok('/scanPack/closeOrder', { soId: partial.soId })).order.status).toBe('packed');
    const packedRefusal = await call('/pack/scan/reopen', { soId: partial.soId, cartonId: box.id });
    expect(packedRefusal.statusCode).toBe(409);
    expect(json<{ code: string }>(packedRefusal).code).toBe('ORDER_STATUS_ERROR');
  });

  it('refuses blank location and SSCC inputs naming the field', async () => {
    const { soId } = await pickedOrder([[PLAIN, 1]]);
    await refused('/pallet/create', { locationCode: '   ' }, 400, 'VALIDATION_FAILED', 'locationCode');
    await refused('/pallet/create', { locationCode: '' }, 400, 'VALIDATION_FAILED', 'locationCode');
    const pallet = await ok<{ id: number }>('/pallet/create', { locationCode: `STAGE-PR-${run}` });
    await refused('/pallet/addCarton', { palletId: pallet.id, carton: '  ' }, 400, 'VALIDATION_FAILED', 'carton');
    await refused('/pallet/addCarton', { palletId: pallet.id, carton: '' }, 400, 'VALIDATION_FAILED', 'carton');
    await refused('/pallet/removeCarton', { palletId: pallet.id, carton: ' ' }, 400, 'VALIDATION_FAILED', 'carton');
    await refused('/pack/label/print', { code: '  ' }, 400, 'VALIDATION_FAILED', 'code');
    await refused('/pack/label/print', { code: '' }, 400, 'VALIDATION_FAILED', 'code');
    await refused('/pack/scan/reopen', { soId, carton: '  ' }, 400, 'VALIDATION_FAILED', 'carton');
    await refused('/pack/scan/reopen', { soId, carton: '' }, 400, 'VALIDATION_FAILED', 'carton');
    await refused('/pack/scan/reopen', { soId }, 400, 'VALIDATION_FAILED', 'carton');
  });
});

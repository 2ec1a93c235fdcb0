import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gs1CheckDigit } from '../../src/common/gs1.js';
import { buildTestApp, createUser, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, stock } from '../helpers/outbound.js';
import { expectLedgerAgrees, packingFixture, pickedOrder as pickedOrderOf, type PackingFixture } from '../helpers/packing-fixtures.js';

/**
 * Scan and pack through the real server: a picked order is packed into cartons by SKU code, UPC and
 * GS1-128 label, the packed stock moves onto the carton's licence plate at the location picking put
 * it, cartons close with weights, and check-complete makes the order packed. Every refusal leaves
 * the database as it was; another project's or warehouse's order and carton are not found, and a
 * caller without the pack page's rights is refused.
 */
let t: TestApp;
let admin: string;
let f: PackingFixture;
let skuCodes: string[];
let orderSeq = 0;

/** An EAN-13 barcode with its check digit. */
const ean13 = (twelve: string) => twelve + gs1CheckDigit(twelve);
const EAN_A = ean13('400638133393');
const EAN_B = ean13('501234567890');
const TOTE = 'TOTE-PK';

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await packingFixture(t.app, admin, t.database.db, 'PK', 3);
  skuCodes = f.skuCodes;
  await db().insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: 'STAGE-PK', location_type: 'stage' }).execute();
  // SKU 0 is sold by the each; SKU 1's barcode is a case of 6.
  await db()
    .insertInto('sku_upc')
    .values([
      { project_id: f.scope.projectId, sku_id: f.skuIds[0], upc: EAN_A, uom: 'EA', qty: 1 },
      { project_id: f.scope.projectId, sku_id: f.skuIds[1], upc: EAN_B, uom: 'CS', qty: 6 },
    ])
    .execute();
});

afterAll(async () => {
  await t?.close();
});

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });
const get = (url: string, token = admin) => injectAs(t.app, token, { method: 'GET', url: `/api${url}` });
const n = (value: Decimal.Value) => new Decimal(value).toNumber();

interface Carton {
  id: number;
  cartonNo: string;
  cartonType: string | null;
  status: string;
  lines: Array<{ skuCode: string; qty: string }>;
}
interface Pack {
  order: { id: number; orderNo: string; status: string };
  lines: Array<{ lineId: number; skuCode: string; ordered: string; picked: string; packed: string }>;
  openCarton: Carton | null;
  cartons: Carton[];
}

/** A picked order of these lines (SKU index, qty), its stock received first at the pick face. */
async function pickedOrder(lines: Array<[number, number]>, pick = true, lotNo?: string): Promise<{ soId: number; orderNo: string }> {
  return pickedOrderOf(f, `SOPK-${++orderSeq}`, lines, { tote: TOTE, pick, lotNo });
}

async function ok<T = Pack>(url: string, payload: Record<string, unknown>, token = admin): Promise<T> {
  const response = await call(url, payload, token);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
}

/** What a refused call must leave as it was. */
async function snapshot() {
  return {
    balances: await db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty']).orderBy('id').execute(),
    ledger: (await db().selectFrom('inventory_transaction').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
    orders: await db().selectFrom('so_header').select(['id', 'status', 'updated_at']).orderBy('id').execute(),
    cartons: await db().selectFrom('carton').selectAll().orderBy('id').execute(),
    cartonLines: await db().selectFrom('carton_line').selectAll().orderBy('id').execute(),
  };
}

async function refused(url: string, payload: Record<string, unknown>, status: number, code: string, token = admin) {
  const before = await snapshot();
  const response = await call(url, payload, token);
  expect(response.statusCode, response.body).toBe(status);
  expect(json<{ code: string }>(response).code).toBe(code);
  expect(await snapshot()).toEqual(before);
}


/** The picked stock of a SKU on a licence plate. */
async function pickedOn(skuIndex: number, lpn: string): Promise<number> {
  const rows = await db().selectFrom('inventory_balance').select(['on_hand_qty', 'picked_qty', 'location_id']).where('sku_id', '=', f.skuIds[skuIndex]).where('lpn', '=', lpn).execute();
  for (const row of rows) expect(n(row.on_hand_qty)).toBe(n(row.picked_qty));
  return rows.reduce((sum, r) => sum + n(r.picked_qty), 0);
}

describe('scan and pack', () => {
  it('offers the carton types and weight units in the caller language', async () => {
    const types = json<{ rows: Array<{ code: string; description: string }> }>(await get('/pack/carton/type'));
    expect(types.rows.map((r) => r.code)).toEqual(['S', 'M', 'L']);
    const units = json<{ rows: Array<{ code: string }> }>(await get('/pack/scan/wgtUom'));
    expect(units.rows.map((r) => r.code)).toEqual(expect.arrayContaining(['KG', 'LB']));
  });

  it('packs a picked two-line order into two cartons by UPC and GS1-128, closes them and checks it complete: packed', async () => {
    const { soId, orderNo } = await pickedOrder([
      [0, 3],
      [1, 12],
    ]);
    const started = await ok('/scanPack', { orderNo });
    expect(started.order).toMatchObject({ id: soId, status: 'picked' });
    expect(started.lines.map((l) => [l.skuCode, l.ordered, l.picked, l.packed])).toEqual([
      [skuCodes[0], '3', '3', '0'],
      [skuCodes[1], '12', '12', '0'],
    ]);
    expect(started.openCarton).toBeNull();

    const first = (await ok('/pack/scan/open', { soId, cartonType: 'S' })).openCarton!;
    expect(first).toMatchObject({ cartonType: 'S', status: 'open', lines: [] });
    expect(first.cartonNo).toMatch(/^CT/);
    const ledgerBefore = Number((await snapshot()).ledger);
    // The UPC of SKU 0, three times one each.
    const packed = await ok('/pack/scan/sku', { cartonId: first.id, barcode: EAN_A, qty: 3 });
    expect(packed.openCarton!.lines).toEqual([expect.objectContaining({ skuCode: skuCodes[0], qty: '3' })]);
    expect(packed.lines[0].packed).toBe('3');
    expect(Number((await snapshot()).ledger)).toBe(ledgerBefore + 2);
    expect(await pickedOn(0, first.cartonNo)).toBe(3);
    expect(await pickedOn(0, TOTE)).toBe(0);
    // Packed stock stands at the location picking put it.
    const task = await db().selectFrom('pick_task').select('to_location_id').where('so_id', '=', soId).where('sku_id', '=', f.skuIds[0]).executeTakeFirstOrThrow();
    const cartonBalance = await db().selectFrom('inventory_balance').select('location_id').where('lpn', '=', first.cartonNo).executeTakeFirstOrThrow();
    expect(Number(cartonBalance.location_id)).toBe(Number(task.to_location_id));

    const closed = await ok('/pack/scan/close', { cartonId: first.id, grossWeight: '2.5', netWeight: 2, weightUom: 'KG', length: 30, width: 20, height: 10 });
    expect(closed.openCarton).toBeNull();
    expect(closed.cartons[0]).toMatchObject({ status: 'closed', grossWeight: '2.5', netWeight: '2', weightUom: 'KG', length: '30' });

    const second = (await ok('/pack/scan/open', { soId, cartonType: 'M' })).openCarton!;
    expect(second.cartonNo).not.toBe(first.cartonNo);
    // A GS1-128 label: GTIN-14 of SKU 1's case barcode, a count of 2 cases = 12 each.
    const label = `(01)0${EAN_B}(37)2`;
    const packedCases = await ok('/pack/scan/sku', { cartonId: second.id, barcode: label });
    expect(packedCases.lines[1].packed).toBe('12');
    expect(await pickedOn(1, second.cartonNo)).toBe(12);
    await ok('/pack/scan/close', { cartonId: second.id, grossWeight: 6, netWeight: 5, weightUom: 'KG' });

    const done = await ok('/scanPack/closeOrder', { soId });
    expect(done.order.status).toBe('packed');
    expect((await db().selectFrom('so_header').select('status').where('id', '=', soId).executeTakeFirstOrThrow()).status).toBe('packed');
    await expectLedgerAgrees(db());
    // A packed order is not packed again.
    await refused('/scanPack', { orderNo }, 409, 'ORDER_STATUS_ERROR');
  });

  it('takes items out of an open carton back onto the tote, and packs them again; check-complete of a partly packed order', async () => {
    const { soId, orderNo } = await pickedOrder([
      [0, 4],
      [2, 2],
    ]);
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 4 });
    const removed = await ok('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[0], qty: 3 });
    expect(removed.lines[0].packed).toBe('1');
    expect(await pickedOn(0, carton.cartonNo)).toBe(1);
    await refused('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[0], qty: 2 }, 409, 'NOT_ENOUGH_TO_REMOVE');
    await refused('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[2], qty: 1 }, 409, 'NOT_ENOUGH_TO_REMOVE');
    await refused('/scanPack/closeOrder', { soId }, 409, 'CARTON_OPEN');
    await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 1, netWeight: 1, weightUom: 'LB' });
    // SKU 2 is not packed at all, SKU 0 only 1 of 4: partly packed.
    const done = await ok('/scanPack/closeOrder', { soId });
    expect(done.order.status).toBe('partial_packed');
    // An order with a partial check-complete is not scan-packed again until it is cancelled.
    await refused('/scanPack', { orderNo }, 409, 'PACK_CANCEL_CHECK_COMPLETE_FIRST');
    await expectLedgerAgrees(db());
  });

  it('refuses every wrong scan, leaving everything as it was', async () => {
    const { soId } = await pickedOrder([[0, 2]]);
    await refused('/scanPack', { orderNo: 'NO-SUCH-ORDER' }, 404, 'NO_RECORD');
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    await refused('/pack/scan/close', { cartonId: carton.id, grossWeight: 1, netWeight: 1, weightUom: 'KG' }, 409, 'CARTON_EMPTY');
    await refused('/scanPack/closeOrder', { soId }, 409, 'CARTON_OPEN');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: 'NOT-A-SKU' }, 400, 'INVALID_SKU');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: '(01)12345' }, 400, 'BARCODE_FORMAT');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: `(01)0${ean13('999999999999')}(37)1` }, 400, 'INVALID_SKU');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[1] }, 409, 'PACK_ITEM_NOT_ON_ORDER');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 3 }, 409, 'OVERPACK_NOT_ALLOWED');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 0 }, 400, 'QTY_NOT_POSITIVE');
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 'x' }, 400, 'VALIDATION_FAILED');
    await refused('/pack/scan/open', { soId, cartonType: 'XXL' }, 400, 'VALIDATION_FAILED');
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 2 });
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 1 }, 409, 'OVERPACK_NOT_ALLOWED');
    await refused('/pack/scan/close', { cartonId: carton.id, grossWeight: 1, netWeight: 2, weightUom: 'KG' }, 400, 'VALIDATION_FAILED');
    await refused('/pack/scan/close', { cartonId: carton.id, grossWeight: 1, netWeight: 1, weightUom: 'STONE' }, 400, 'VALIDATION_FAILED');
    await refused('/pack/scan/close', { cartonId: carton.id, grossWeight: -1, netWeight: 1, weightUom: 'KG' }, 400, 'QTY_NOT_POSITIVE');
    await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 1, netWeight: 1, weightUom: 'KG' });
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 1 }, 409, 'CARTON_CLOSED');
    await refused('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[0], qty: 1 }, 409, 'CARTON_CLOSED');
    await refused('/pack/scan/close', { cartonId: carton.id, grossWeight: 1, netWeight: 1, weightUom: 'KG' }, 409, 'CARTON_CLOSED');
    await refused('/pack/scan/sku', { cartonId: 987654321, barcode: skuCodes[0] }, 404, 'NO_RECORD');
    await expectLedgerAgrees(db());
  });

  it('packs from a GS1-128 label naming a batch only picked stock of that lot', async () => {
    // Every unit of SKU 1 received before is packed: the stock of this order is all of lot B1.
    const { soId } = await pickedOrder([[1, 6]], true, 'B1');
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: `(01)0${EAN_B}(37)1(10)B2` }, 409, 'NO_PICKED_STOCK');
    const packed = await ok('/pack/scan/sku', { cartonId: carton.id, barcode: `(01)0${EAN_B}(37)1(10)B1` });
    expect(packed.lines[0].packed).toBe('6');
    const line = await db().selectFrom('carton_line as c').innerJoin('lot as l', 'l.id', 'c.lot_id').select(['l.lot_no', 'c.qty']).where('c.carton_id', '=', carton.id).execute();
    expect(line).toEqual([{ lot_no: 'B1', qty: '6.0000' }]);
    await expectLedgerAgrees(db());
  });

  it('packs no more than picked when two packers scan the same order at once', async () => {
    const { soId } = await pickedOrder([[0, 2]]);
    const first = (await ok('/pack/scan/open', { soId })).openCarton!;
    const second = (await ok('/pack/scan/open', { soId })).openCarton!;
    const answers = await Promise.all([first, second].map((carton) => call('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 2 })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(json<{ code: string }>(answers.find((a) => a.statusCode === 409)!).code).toBe('OVERPACK_NOT_ALLOWED');
    expect((await pickedOn(0, first.cartonNo)) + (await pickedOn(0, second.cartonNo))).toBe(2);
    await expectLedgerAgrees(db());
  });

  it('refuses an order that is not picked, and a partly picked one unless asked to pack what is picked', async () => {
    const allocated = await pickedOrder([[0, 1]], false);
    await refused('/scanPack', { orderNo: allocated.orderNo }, 409, 'ORDER_STATUS_ERROR');
    await refused('/pack/scan/open', { soId: allocated.soId }, 409, 'ORDER_STATUS_ERROR');

    const orders = orderCalls(t.app, admin, db());
    const partly = await pickedOrder(
      [
        [0, 1],
        [2, 1],
      ],
      false,
    );
    await orders.pickSku(partly.soId, f.skuIds[0], skuCodes[0], TOTE);
    await refused('/scanPack', { orderNo: partly.orderNo }, 409, 'ORDER_STATUS_ERROR');
    const answer = await ok('/scanPack', { orderNo: partly.orderNo, packPicked: true });
    expect(answer.order.status).toBe('partial_picked');
    await refused('/pack/scan/open', { soId: partly.soId }, 409, 'ORDER_STATUS_ERROR');
    const carton = (await ok('/pack/scan/open', { soId: partly.soId, packPicked: true })).openCarton!;
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[2] }, 409, 'OVERPACK_NOT_ALLOWED');
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0] });
    // Everything picked is packed, yet a line was never picked: check-complete leaves it partly packed.
    await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 1, netWeight: 1, weightUom: 'KG' });
    expect((await ok('/scanPack/closeOrder', { soId: partly.soId })).order.status).toBe('partial_packed');
  });

  it("refuses another project's or warehouse's order and carton, and a caller without the pack rights", async () => {
    const { soId, orderNo } = await pickedOrder([[0, 1]]);
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    const project = await db().selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const wh2 = await db().insertInto('warehouse').values({ organization_id: project.organization_id, code: 'WH2', name: 'Second', nav_layout: null }).returning('id').executeTakeFirstOrThrow();
    await db().insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: wh2.id }).execute();
    const prj2 = await db().insertInto('project').values({ organization_id: project.organization_id, code: 'PRJ2', name: 'Other' }).returning('id').executeTakeFirstOrThrow();
    await db().insertInto('project_warehouse').values({ project_id: prj2.id, warehouse_id: f.scope.warehouseId }).execute();
    const rights = ['packing.pack:view', 'packing.pack:edit'] as const;
    const otherWarehouse = await createUser(t, { loginAccount: 'pk-wh2', rights: [...rights], projectCodes: ['PRJ1'], warehouseCodes: ['WH2'] });
    const otherProject = await createUser(t, { loginAccount: 'pk-prj2', rights: [...rights], projectCodes: ['PRJ2'], warehouseCodes: ['WH1'] });
    for (const token of [otherWarehouse, otherProject]) {
      await refused('/scanPack', { orderNo }, 404, 'NO_RECORD', token);
      await refused('/pack/scan/open', { soId }, 404, 'NO_RECORD', token);
      await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0] }, 404, 'NO_RECORD', token);
      await refused('/pack/scan/remove', { cartonId: carton.id, barcode: skuCodes[0] }, 404, 'NO_RECORD', token);
      await refused('/pack/scan/close', { cartonId: carton.id, grossWeight: 1, netWeight: 1, weightUom: 'KG' }, 404, 'NO_RECORD', token);
      await refused('/scanPack/closeOrder', { soId }, 404, 'NO_RECORD', token);
    }

    const outsider = await createUser(t, { loginAccount: 'pk-none', rights: ['outbound:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    await refused('/scanPack', { orderNo }, 403, 'FORBIDDEN', outsider);
    expect((await get('/pack/carton/type', outsider)).statusCode).toBe(403);
    const viewer = await createUser(t, { loginAccount: 'pk-view', rights: ['packing.pack:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    expect((await call('/scanPack', { orderNo }, viewer)).statusCode).toBe(200);
    await refused('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0] }, 403, 'FORBIDDEN', viewer);
    await refused('/pack/scan/open', { soId }, 403, 'FORBIDDEN', viewer);
    await refused('/scanPack/closeOrder', { soId }, 403, 'FORBIDDEN', viewer);
    const packer = await createUser(t, { loginAccount: 'pk-edit', rights: [...rights], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0] }, packer);
    await expectLedgerAgrees(db());
  });

  it('packs by wave only an order of the given wave', async () => {
    const orders = orderCalls(t.app, admin, db());
    await stock(db(), f, f.skuIds[2], f.locationIds[0], 2);
    const orderNo = `SOPK-W-${++orderSeq}`;
    const soId = await orders.enter(orderNo, f.ownerId, [{ skuCode: skuCodes[2], qty: 2 }]);
    const wave = await ok<{ waveNo: string }>('/so/wave/save', { orderIds: [soId] });
    await orders.allocate(soId);
    expect((await call('/so/pick', { soId })).statusCode).toBe(200);
    await orders.pickSku(soId, f.skuIds[2], skuCodes[2], TOTE);
    const other = await pickedOrder([[0, 1]]);

    expect((await ok('/scanPack', { orderNo, waveNo: wave.waveNo })).order).toMatchObject({ id: soId, waveNo: wave.waveNo });
    await refused('/scanPack', { orderNo: other.orderNo, waveNo: wave.waveNo }, 400, 'SCAN_BY_WAVE');
    await refused('/scanPack', { orderNo, waveNo: `${wave.waveNo}-X` }, 400, 'SCAN_BY_WAVE');
    const refusal = await injectAs(t.app, admin, { method: 'POST', url: '/api/scanPack', payload: { orderNo: other.orderNo, waveNo: wave.waveNo }, headers: { 'accept-language': 'en' } });
    expect(json<{ message: string }>(refusal).message).toBe('Please scan by the given wave id.');
    // Without a wave any order of the warehouse is packed.
    expect((await ok('/scanPack', { orderNo: other.orderNo, waveNo: null })).order.id).toBe(other.soId);
  });

  it('gives the floor roles the pack rights, which the role screen offers', async () => {
    const rows = await db()
      .selectFrom('role_permission as p')
      .innerJoin('role as r', 'r.id', 'p.role_id')
      .select(['r.name', 'p.can_view', 'p.can_edit'])
      .where('p.module_code', '=', 'packing')
      .where('p.sub_module_code', '=', 'pack')
      .where('r.name', 'in', ['Administrator', 'Supervisor', 'Operator', 'Configurator', 'Read-only'])
      .orderBy('r.name')
      .execute();
    expect(rows).toEqual([
      { name: 'Administrator', can_view: true, can_edit: true },
      { name: 'Configurator', can_view: true, can_edit: false },
      { name: 'Operator', can_view: true, can_edit: true },
      { name: 'Read-only', can_view: true, can_edit: false },
      { name: 'Supervisor', can_view: true, can_edit: true },
    ]);
    // The menu entry asks for the pack right, so the role screen offers the packing module.
    const entry = await db().selectFrom('sys_module').select(['right_name']).where('code', '=', 'pack').executeTakeFirstOrThrow();
    expect(entry.right_name).toBe('packing.pack');
    const { uid, token: operator } = await createUserAccount(t, { loginAccount: 'pk-operator', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const role = await db().selectFrom('role').select('id').where('name', '=', 'Operator').executeTakeFirstOrThrow();
    await db().insertInto('user_role').values({ user_id: uid, role_id: role.id }).execute();
    const menu = json<{ items: Array<{ children?: Array<{ code: string }> }> }>(await get('/user/menu', operator));
    expect(menu.items.flatMap((i) => i.children ?? []).map((c) => c.code)).toContain('pack');
    expect((await call('/scanPack', { orderNo: 'NO-SUCH-ORDER' }, operator)).statusCode).toBe(404);
  });
});

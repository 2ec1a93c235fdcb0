import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, type OutboundFixture } from '../helpers/outbound.js';
import { packedOrderCalls, type PackedOrder } from '../helpers/packed-orders.js';

/**
 * Loading and shipping through the real server: closed cartons of packed orders go onto a load by
 * carton number, carton SSCC or pallet SSCC (a pallet loads all its cartons), by wave and from a
 * file; a carton goes on one load only, an open carton or one of a cancelled order is refused, and
 * the order moves packed -> partially loaded -> loaded and back when it is taken off. Ship confirm
 * takes exactly the cartons' stock out (balance and ledger agree), ships the orders (partially
 * while cartons are still on another load) and refuses a load with an order that is not fully
 * loaded; a shipped order is delivered with the receiver's name. Every refusal changes nothing, and
 * another project finds none of this.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let packing: ReturnType<typeof packedOrderCalls>;
const RUN = `${Date.now().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
const STAGE = `STAGE-LD-${RUN}`;

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload, headers: { 'x-language': 'en' } });

async function ok<T = Record<string, unknown>>(url: string, payload: Record<string, unknown>, token = admin): Promise<T> {
  const response = await call(url, payload, token);
  expect(response.statusCode, `${url} ${response.body}`).toBe(200);
  return json<T>(response);
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, `LD${RUN}`, 3);
  await db().insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: STAGE, location_type: 'stage' }).execute();
  packing = packedOrderCalls(t.app, admin, db(), f, `LD${RUN}`);
});

afterAll(async () => {
  await t?.close();
});

interface Load {
  id: number;
  loadNo: string;
  status: string;
  containerNo: string | null;
  sealNo: string | null;
  vessel: string | null;
  loadedCartonQty: number;
}
interface Scan {
  load: Load;
  loaded: Array<{ cartonNo: string }>;
  orders: Array<{ soId: number; status: string }>;
}
interface Table {
  load: Load;
  cartons: Array<{ cartonNo: string; sscc: string; soId: number; palletNo: string | null; qty: string }>;
  orders: Array<{ soId: number; orderNo: string; cartons: number }>;
}

const newLoad = (extra: Record<string, unknown> = {}) => ok<Load>('/loading/create', { containerNo: `CONT${RUN}`, sealNo: 'SEAL1', vessel: 'Ever Given', ...extra });
const statusOf = async (soId: number) => (await db().selectFrom('so_header').select('status').where('id', '=', soId).executeTakeFirstOrThrow()).status;

/** What a refused call must leave as it was. */
async function snapshot() {
  return {
    balances: await db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'picked_qty']).orderBy('id').execute(),
    ledger: (await db().selectFrom('inventory_transaction').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
    orders: await db().selectFrom('so_header').select(['id', 'status']).orderBy('id').execute(),
    loadCartons: await db().selectFrom('load_carton').select(['id', 'load_id', 'carton_id']).orderBy('id').execute(),
    loads: await db().selectFrom('load_header').select(['id', 'status', 'container_no']).orderBy('id').execute(),
    deliveries: await db().selectFrom('load_delivery').select(['id', 'so_id']).orderBy('id').execute(),
  };
}

async function refused(url: string, payload: Record<string, unknown>, status: number, code: string, token = admin): Promise<{ message: string; details?: Array<{ field: string; code: string; message: string }> }> {
  const before = await snapshot();
  const response = await call(url, payload, token);
  expect(response.statusCode, response.body).toBe(status);
  const body = json<{ code: string; message: string; details?: Array<{ field: string; code: string; message: string }> }>(response);
  expect(body.code).toBe(code);
  expect(await snapshot()).toEqual(before);
  return body;
}

async function expectLedgerAgrees() {
  for (const row of await ledgerAgreement(db(), f.scope.projectId)) {
    expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_picked).equals(row.picked_qty), `picked of balance ${row.id}`).toBe(true);
  }
}

/** On-hand and picked of a SKU in the warehouse, all locations and plates together. */
async function totals(skuIndex: number) {
  const row = await db()
    .selectFrom('inventory_balance')
    .select((eb) => [eb.fn.sum<string>('on_hand_qty').as('onHand'), eb.fn.sum<string>('picked_qty').as('picked')])
    .where('sku_id', '=', f.skuIds[skuIndex])
    .executeTakeFirstOrThrow();
  return { onHand: Number(row.onHand ?? 0), picked: Number(row.picked ?? 0) };
}

function multipart(fields: Record<string, string>, file?: { field: string; name: string; content: Buffer }) {
  const boundary = '----loading-test-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-language': 'en' } };
}

describe('a load and its header', () => {
  it('is numbered by the LOAD rule, found by id and by number, and saved', async () => {
    const load = await newLoad({ etd: '2030-02-01T08:00:00.000Z', portOfLoading: 'Shanghai' });
    expect(load.loadNo).toMatch(/^LD\d{10,}$/);
    expect(load).toMatchObject({ status: 'open', containerNo: `CONT${RUN}`, sealNo: 'SEAL1', vessel: 'Ever Given', loadedCartonQty: 0 });
    expect((await ok<Load>('/loading/getLoadByUid', { loadNo: load.loadNo })).id).toBe(load.id);
    const saved = await ok<Load>('/loading/save', { loadId: load.id, voyage: 'V042', sealNo: '' });
    expect(saved).toMatchObject({ sealNo: null, containerNo: `CONT${RUN}` });
    expect((await ok<Load & { voyage: string }>('/loading/getLoadByUid', { loadId: load.id })).voyage).toBe('V042');
    await refused('/loading/getLoadByUid', { loadNo: 'NOPE' }, 404, 'NO_RECORD');
  });
});

describe('scanning onto a load', () => {
  it('loads by carton number and SSCC: partially loaded, then loaded; a carton goes on one load only', async () => {
    const order = await packing.packedOrder([[0, 2], [1, 3]]);
    const load = await newLoad();
    const first = await ok<Scan>('/loading/scan', { loadId: load.id, code: order.cartons[0].cartonNo });
    expect(first.orders).toEqual([expect.objectContaining({ soId: order.soId, status: 'partial_loaded' })]);
    expect(first.load.loadedCartonQty).toBe(1);
    const again = await refused('/loading/scan', { loadId: load.id, code: order.cartons[0].sscc! }, 409, 'CARTON_ON_LOAD');
    expect(again.message).toContain(load.loadNo);
    const other = await newLoad();
    await refused('/loading/scan', { loadId: other.id, code: order.cartons[0].cartonNo }, 409, 'CARTON_ON_LOAD');
    const second = await ok<Scan>('/loading/scan', { loadId: load.id, code: order.cartons[1].sscc! });
    expect(second.orders[0].status).toBe('loaded');
    const table = await ok<Table>('/loading/table', { loadId: load.id });
    expect(table.cartons.map((c) => c.cartonNo)).toEqual(order.cartons.map((c) => c.cartonNo));
    expect(table.orders).toEqual([expect.objectContaining({ soId: order.soId, orderNo: order.orderNo, cartons: 2 })]);
    expect(table.load.loadedCartonQty).toBe(2);
  });

  it('refuses an open carton, a carton of a cancelled order, an unknown code and a load that is not open', async () => {
    const load = await newLoad();
    const open = await packing.pickedOrder([[0, 1]]);
    await ok('/scanPack', { orderNo: open.orderNo });
    const carton = (await ok<{ openCarton: { cartonNo: string } }>('/pack/scan/open', { soId: open.soId })).openCarton;
    await refused('/loading/scan', { loadId: load.id, code: carton.cartonNo }, 409, 'CARTON_OPEN');

    const cancelled = await packing.packedOrder([[1, 1]]);
    // A host system cancelled the order after it was packed.
    await db().updateTable('so_header').set({ status: 'cancelled' }).where('id', '=', cancelled.soId).execute();
    await refused('/loading/scan', { loadId: load.id, code: cancelled.cartons[0].sscc! }, 409, 'LOAD_ORDER_CANCELLED');
    await refused('/loading/scan', { loadId: load.id, code: `NOPE-${RUN}` }, 404, 'NO_RECORD');

    // A partly check-completed order is not loaded.
    const partial = await packing.packedOrder([[2, 1]], { checkComplete: false });
    await refused('/loading/scan', { loadId: load.id, code: partial.cartons[0].cartonNo }, 409, 'ORDER_STATUS_ERROR');

    const closed = await newLoad();
    const packed = await packing.packedOrder([[0, 1]]);
    await ok('/loading/scan', { loadId: closed.id, code: packed.cartons[0].cartonNo });
    expect((await ok<Load>('/loading/close', { loadId: closed.id })).status).toBe('loaded');
    const later = await packing.packedOrder([[1, 1]]);
    await refused('/loading/scan', { loadId: closed.id, code: later.cartons[0].cartonNo }, 409, 'LOAD_NOT_OPEN');
    await refused('/loading/close', { loadId: load.id }, 409, 'LOAD_EMPTY');
  });

  it('refuses an open pallet, changing nothing, and loads it once it is closed', async () => {
    const order = await packing.packedOrder([[0, 1]]);
    const pallet = await ok<{ id: number; palletNo: string; sscc: string }>('/pallet/create', { locationCode: STAGE });
    await ok('/pallet/addCarton', { palletId: pallet.id, carton: order.cartons[0].cartonNo });
    const load = await newLoad();
    for (const code of [pallet.sscc, pallet.palletNo]) {
      const refusal = await refused('/loading/scan', { loadId: load.id, code }, 409, 'LOAD_PALLET_OPEN');
      expect(refusal.message).toBe(`Pallet ${pallet.palletNo} is still open: close it before loading it.`);
    }
    const inThai = await injectAs(t.app, admin, { method: 'POST', url: '/api/loading/scan', payload: { loadId: load.id, code: pallet.sscc }, headers: { 'x-language': 'th' } });
    expect(json<{ message: string }>(inThai).message).toBe(`พาเลท ${pallet.palletNo} ยังเปิดอยู่: ปิดพาเลทก่อนขึ้นของ`);
    expect(await statusOf(order.soId)).toBe('packed');
    await ok('/pallet/close', { palletId: pallet.id });
    const scan = await ok<Scan>('/loading/scan', { loadId: load.id, code: pallet.sscc });
    expect(scan.loaded.map((c) => c.cartonNo)).toEqual([order.cartons[0].cartonNo]);
  });

  it('loads every carton of a pallet by its SSCC', async () => {
    const order = await packing.packedOrder([[0, 2], [1, 1]]);
    const pallet = await packing.palletOf(STAGE, order.cartons.map((c) => c.cartonNo));
    const load = await newLoad();
    const scan = await ok<Scan>('/loading/scan', { loadId: load.id, code: pallet.sscc });
    expect(scan.loaded.map((c) => c.cartonNo).sort()).toEqual(order.cartons.map((c) => c.cartonNo).sort());
    expect(scan.orders[0].status).toBe('loaded');
    const table = await ok<Table>('/loading/table', { loadId: load.id });
    expect(table.cartons.every((c) => c.palletNo === pallet.palletNo)).toBe(true);
    // A carton loaded with its (closed) pallet is not taken off the pallet.
    await refused('/pallet/removeCarton', { palletId: pallet.id, carton: order.cartons[0].cartonNo }, 409, 'PALLET_CLOSED');
  });

  it('by wave: only cartons of the wave\'s orders; a wave\'s cartons are listed loaded or not', async () => {
    const waveNo = `WV-${RUN}`;
    const onWave = await packing.packedOrder([[0, 1], [1, 1]]);
    const offWave = await packing.packedOrder([[2, 1]]);
    await db().updateTable('so_header').set({ wave_id: waveNo }).where('id', '=', onWave.soId).execute();
    const load = await newLoad();
    await refused('/loading/scanByWave', { loadId: load.id, waveNo, code: offWave.cartons[0].cartonNo }, 409, 'LOAD_NOT_ON_WAVE');
    await ok('/loading/scanByWave', { loadId: load.id, waveNo, code: onWave.cartons[0].cartonNo });
    const listed = await ok<{ rows: Array<{ cartonNo: string; loadNo: string | null }> }>('/loading/searchWaveCarton', { waveNo });
    expect(listed.rows).toEqual([
      expect.objectContaining({ cartonNo: onWave.cartons[0].cartonNo, loadNo: load.loadNo }),
      expect.objectContaining({ cartonNo: onWave.cartons[1].cartonNo, loadNo: null }),
    ]);
  });

  it('takes an order off the load with all its cartons; its status goes back', async () => {
    const order = await packing.packedOrder([[0, 1], [1, 1]]);
    const load = await newLoad();
    await ok('/loading/scan', { loadId: load.id, code: order.cartons[0].cartonNo });
    await ok('/loading/scan', { loadId: load.id, code: order.cartons[1].cartonNo });
    expect(await statusOf(order.soId)).toBe('loaded');
    const removed = await ok<Scan>('/loading/removeOrder', { loadId: load.id, soId: order.soId });
    expect(removed.orders[0].status).toBe('packed');
    expect(removed.load.loadedCartonQty).toBe(0);
    expect(await statusOf(order.soId)).toBe('packed');
    await refused('/loading/removeOrder', { loadId: load.id, soId: order.soId }, 404, 'NO_RECORD');
    // Off one load, the cartons go onto another.
    await ok('/loading/scan', { loadId: (await newLoad()).id, code: order.cartons[0].cartonNo });
    expect(await statusOf(order.soId)).toBe('partial_loaded');
  });
});

describe('an SSCC file', () => {
  it('loads nothing when a row fails and names every failing row; loads all when none fails', async () => {
    const a = await packing.packedOrder([[0, 1]]);
    const b = await packing.packedOrder([[1, 1]]);
    const load = await newLoad();
    const upload = (content: string) => injectAs(t.app, admin, { method: 'POST', url: '/api/loading/importSscc', ...multipart({ loadId: String(load.id) }, { field: 'file', name: 'sscc.csv', content: Buffer.from(content) }) });
    const before = await snapshot();
    const bad = await upload(`SSCC\n${a.cartons[0].sscc}\nNOPE-${RUN}\n${a.cartons[0].sscc}\n`);
    expect(bad.statusCode, bad.body).toBe(400);
    const body = json<{ code: string; details: Array<{ field: string; code: string; message: string }> }>(bad);
    expect(body.code).toBe('LOAD_IMPORT_REJECTED');
    expect(body.details.map((d) => [d.field, d.code])).toEqual([
      ['row 3', 'NO_RECORD'],
      ['row 4', 'CARTON_ON_LOAD'],
    ]);
    expect(await snapshot()).toEqual(before);
    const good = await upload(`${a.cartons[0].sscc}\r\n${b.cartons[0].cartonNo}\r\n`);
    expect(good.statusCode, good.body).toBe(200);
    expect(json<{ rows: number }>(good).rows).toBe(2);
    expect((await ok<Table>('/loading/table', { loadId: load.id })).cartons).toHaveLength(2);
    const missing = await injectAs(t.app, admin, { method: 'POST', url: '/api/loading/importSscc', ...multipart({ loadId: String(load.id) }) });
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'file', code: 'FIELD_REQUIRED' }] });
    // Neither a load id nor a file: both named in one refusal.
    const neither = await injectAs(t.app, admin, { method: 'POST', url: '/api/loading/importSscc', ...multipart({ loadId: 'x1' }) });
    expect(json(neither)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'loadId', code: 'FIELD_REQUIRED' }, { field: 'file', code: 'FIELD_REQUIRED' }] });
    // A file that is no spreadsheet at all, and one of another kind: refused with their reason, never a 500.
    for (const name of ['sscc.xlsx', 'sscc.pdf']) {
      const unreadable = await injectAs(t.app, admin, { method: 'POST', url: '/api/loading/importSscc', ...multipart({ loadId: String(load.id) }, { field: 'file', name, content: Buffer.from('not a workbook') }) });
      expect(unreadable.statusCode, unreadable.body).toBe(400);
      expect(json(unreadable)).toMatchObject({ code: 'IMPORT_FILE_INVALID' });
    }
  });
});

describe('ship confirm and delivery', () => {
  it('refuses a load with an order that is not fully loaded, and an empty load', async () => {
    const order = await packing.packedOrder([[0, 1], [1, 1]]);
    const load = await newLoad();
    await ok('/loading/scan', { loadId: load.id, code: order.cartons[0].cartonNo });
    const message = (await refused('/loading/shipConfirm', { loadId: load.id }, 409, 'LOAD_ORDER_NOT_LOADED')).message;
    expect(message).toContain(order.orderNo);
    await refused('/loading/shipConfirm', { loadId: (await newLoad()).id }, 409, 'LOAD_EMPTY');
    await refused('/loading/deliver', { soId: order.soId, deliveredAt: new Date().toISOString(), receiverName: 'Ann' }, 409, 'LOAD_ORDER_NOT_SHIPPED');
  });

  it('takes exactly the cartons\' stock out, ships the orders, emits loading.shipped, and delivers with the receiver\'s name', async () => {
    const order: PackedOrder = await packing.packedOrder([[0, 4], [1, 2]], { cartonsPerLine: 2 });
    const before = [await totals(0), await totals(1)];
    const first = await newLoad();
    const second = await newLoad();
    // Line 1's cartons and one of line 2's on the first load, the last carton on the second.
    for (const carton of order.cartons.slice(0, 3)) await ok('/loading/scan', { loadId: first.id, code: carton.cartonNo });
    await ok('/loading/scan', { loadId: second.id, code: order.cartons[3].cartonNo });
    expect(await statusOf(order.soId)).toBe('loaded');

    const shipped = await ok<{ load: Load; orders: Array<{ soId: number; status: string }> }>('/loading/shipConfirm', { loadId: first.id });
    expect(shipped.load.status).toBe('shipped');
    expect(shipped.orders).toEqual([{ soId: order.soId, orderNo: order.orderNo, status: 'partial_shipped' }]);
    expect(await totals(0)).toEqual({ onHand: before[0].onHand - 4, picked: before[0].picked - 4 });
    expect(await totals(1)).toEqual({ onHand: before[1].onHand - 1, picked: before[1].picked - 1 });
    const ledger = await db().selectFrom('inventory_transaction').select(['trans_type', 'reference_type']).where('order_no', '=', first.loadNo).execute();
    expect(ledger.length).toBe(3);
    expect(ledger.every((r) => r.trans_type === 'ship' && r.reference_type === 'ship')).toBe(true);
    await expectLedgerAgrees();
    const event = await db().selectFrom('domain_event').selectAll().where('name', '=', 'loading.shipped').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const firstCartons = order.cartons.slice(0, 3).map((c) => c.id).sort((a, b) => a - b);
    expect({ ...(event.payload as Record<string, unknown>), cartonIds: [...((event.payload as { cartonIds: number[] }).cartonIds)].sort((a, b) => a - b) }).toEqual({
      loadId: first.id,
      soIds: [order.soId],
      projectId: f.scope.projectId,
      warehouseId: f.scope.warehouseId,
      load: { loadNo: first.loadNo, containerNo: `CONT${RUN}`, sealNo: 'SEAL1', vessel: 'Ever Given', voyage: null, mbl: null, hbl: null },
      cartonIds: firstCartons,
    });

    // A shipped load is not shipped twice nor changed; a shipped order is not taken off.
    await refused('/loading/shipConfirm', { loadId: first.id }, 409, 'LOAD_NOT_OPEN');
    await refused('/loading/removeOrder', { loadId: first.id, soId: order.soId }, 409, 'LOAD_NOT_OPEN');
    await refused('/loading/deliver', { soId: order.soId, deliveredAt: new Date().toISOString(), receiverName: 'Ann' }, 409, 'LOAD_ORDER_NOT_SHIPPED');

    expect((await ok<{ orders: Array<{ status: string }> }>('/loading/shipConfirm', { loadId: second.id })).orders[0].status).toBe('shipped');
    expect(await totals(1)).toEqual({ onHand: before[1].onHand - 2, picked: before[1].picked - 2 });
    await expectLedgerAgrees();

    await refused('/loading/deliver', { soId: order.soId, deliveredAt: new Date().toISOString(), receiverName: '   ' }, 400, 'VALIDATION_FAILED');
    const delivered = await ok<{ status: string; receiverName: string }>('/loading/deliver', { soId: order.soId, deliveredAt: '2030-03-01T10:00:00.000Z', receiverName: ' Ann Lee ' });
    expect(delivered).toMatchObject({ status: 'delivered', receiverName: 'Ann Lee' });
    expect(await statusOf(order.soId)).toBe('delivered');
    const photo = await injectAs(t.app, admin, { method: 'POST', url: '/api/loading/deliver/photo', ...multipart({ soId: String(order.soId) }, { field: 'photo', name: 'proof.png', content: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') }) });
    expect(photo.statusCode, photo.body).toBe(200);
    const noOrder = await injectAs(t.app, admin, { method: 'POST', url: '/api/loading/deliver/photo', ...multipart({}, { field: 'photo', name: 'proof.png', content: Buffer.from('89504e47', 'hex') }) });
    expect(noOrder.statusCode).toBe(400);
    expect(json(noOrder)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'soId', code: 'FIELD_REQUIRED' }] });
    const attached = await db().selectFrom('attachment').select('file_name').where('module_code', '=', 'loading').where('record_key', '=', String(order.soId)).execute();
    expect(attached.map((a) => a.file_name)).toEqual(['proof.png']);
    await refused('/loading/deliver', { soId: order.soId, deliveredAt: new Date().toISOString(), receiverName: 'Ann' }, 409, 'LOAD_ORDER_NOT_SHIPPED');
  });
});

describe('another project and rights', () => {
  it("finds none of this project's loads, cartons and orders", async () => {
    const org = await db().selectFrom('project').select('organization_id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const code = `PRJ-LD-${RUN}`;
    await db().insertInto('project').values({ organization_id: org.organization_id, code, name: `Project ${code}` }).execute();
    const { token } = await createUserAccount(t, { loginAccount: `ld-other-${RUN.toLowerCase()}`, rights: ['loading.load:view', 'loading.load:edit'], projectCodes: [code], warehouseCodes: ['WH1'] });
    const order = await packing.packedOrder([[0, 1]]);
    const load = await newLoad();
    await ok('/loading/scan', { loadId: load.id, code: order.cartons[0].cartonNo });
    const theirs = await ok<Load>('/loading/create', { containerNo: 'THEIRS' }, token);
    await refused('/loading/getLoadByUid', { loadId: load.id }, 404, 'NO_RECORD', token);
    await refused('/loading/table', { loadId: load.id }, 404, 'NO_RECORD', token);
    await refused('/loading/save', { loadId: load.id, vessel: 'X' }, 404, 'NO_RECORD', token);
    await refused('/loading/removeOrder', { loadId: load.id, soId: order.soId }, 404, 'NO_RECORD', token);
    await refused('/loading/shipConfirm', { loadId: load.id }, 404, 'NO_RECORD', token);
    const other = await packing.packedOrder([[1, 1]]);
    await refused('/loading/scan', { loadId: theirs.id, code: other.cartons[0].cartonNo }, 404, 'NO_RECORD', token);
    await refused('/loading/removeOrder', { loadId: theirs.id, soId: order.soId }, 404, 'NO_RECORD', token);
    await refused('/loading/deliver', { soId: order.soId, deliveredAt: new Date().toISOString(), receiverName: 'X' }, 404, 'NO_RECORD', token);
    expect((await ok<{ rows: unknown[] }>('/loading/searchWaveCarton', { waveNo: `WV-${RUN}` }, token)).rows).toEqual([]);
    await refused('/loading/getLoadByUid', { loadId: theirs.id }, 404, 'NO_RECORD');
  });

  it('lets the view right look and refuses it loading and shipping', async () => {
    const { token } = await createUserAccount(t, { loginAccount: `ld-viewer-${RUN.toLowerCase()}`, rights: ['loading.load:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const load = await newLoad();
    expect((await call('/loading/table', { loadId: load.id }, token)).statusCode).toBe(200);
    await refused('/loading/scan', { loadId: load.id, code: 'X' }, 403, 'FORBIDDEN', token);
    await refused('/loading/shipConfirm', { loadId: load.id }, 403, 'FORBIDDEN', token);
    await refused('/loading/create', {}, 403, 'FORBIDDEN', token);
  });
});

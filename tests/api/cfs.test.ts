import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, type OutboundFixture } from '../helpers/outbound.js';

/**
 * The container freight station through the real server: shippers' cartons are scanned in against
 * orders (by number or as a GS1 SSCC label), consolidated onto a CFS pallet with its own SSCC and
 * loaded, pallet by pallet, onto an open container; no stock balance moves. Orders go on a
 * shipment order, get reference, vessel, voyage and ETD in one all-or-nothing batch, and are
 * cancelled with a reason of the code master. Every refusal (a carton scanned in twice, a carton of
 * a cancelled order, a pallet onto a closed container, an unknown reason, another project's order,
 * carton, pallet or container) changes nothing.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let orders: ReturnType<typeof orderCalls>;
const RUN = `${Date.now().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
const TAG = `CF${RUN}`;
let seq = 0;

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>, token = admin, language = 'en') =>
  injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload, headers: { 'x-language': language } });

async function ok<T = Record<string, unknown>>(url: string, payload: Record<string, unknown>, token = admin): Promise<T> {
  const response = await call(url, payload, token);
  expect(response.statusCode, `${url} ${response.body}`).toBe(200);
  return json<T>(response);
}

/** What a refused call must leave as it was. */
async function snapshot() {
  return {
    cartons: await db().selectFrom('cfs_carton').select(['id', 'code', 'so_id', 'status', 'pallet_id', 'load_id']).orderBy('id').execute(),
    pallets: await db().selectFrom('cfs_pallet').select(['id', 'status', 'load_id']).orderBy('id').execute(),
    cfsOrders: await db().selectFrom('cfs_order').select(['id', 'so_id', 'reference', 'vessel', 'voyage', 'etd', 'cancel_reason']).orderBy('id').execute(),
    orders: await db().selectFrom('so_header').select(['id', 'status', 'shipment_order_id']).orderBy('id').execute(),
    balances: await db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty']).orderBy('id').execute(),
  };
}

interface ErrorAnswer {
  code: string;
  message: string;
  details?: Array<{ field: string; code: string; message: string }>;
}

async function refused(url: string, payload: Record<string, unknown>, status: number, code: string, token = admin): Promise<ErrorAnswer> {
  const before = await snapshot();
  const response = await call(url, payload, token);
  expect(response.statusCode, response.body).toBe(status);
  const body = json<ErrorAnswer>(response);
  expect(body.code).toBe(code);
  expect(body.message).not.toBe(`errors.${code}`);
  expect(await snapshot()).toEqual(before);
  return body;
}

interface Carton {
  id: number;
  code: string;
  orderNo: string;
  status: string;
  palletNo: string | null;
  loadNo: string | null;
}
interface Order {
  soId: number;
  orderNo: string;
  status: string;
  reference: string | null;
  vessel: string | null;
  voyage: string | null;
  etd: string | null;
  cancelReason: string | null;
  cartons: { received: number; packed: number; loaded: number; total: number };
}
interface Pallet {
  id: number;
  palletNo: string;
  sscc: string;
  status: string;
  loadNo: string | null;
  cartons: Carton[];
}
interface Container {
  id: number;
  loadNo: string;
  containerNo: string | null;
  status: string;
  cartons: number;
  pallets: number;
}

/** A new order of the fixture's owner (entered on the /so pages), one line. */
async function newOrder(): Promise<{ soId: number; orderNo: string }> {
  seq += 1;
  const orderNo = `${TAG}-${seq}`;
  const soId = await orders.enter(orderNo, f.ownerId, [{ skuCode: `SKU-${TAG}-0`, qty: 2 }]);
  return { soId, orderNo };
}
const code = (name: string) => `${TAG}-${name}`;
const scanIn = (orderNo: string, carton: string, token = admin) => ok<{ carton: Carton; order: Order }>('/cfs/scanIn/scan', { orderNo, code: carton }, token);
const newPallet = (token = admin) => ok<Pallet>('/cfs/add/pallet', {}, token);
const newContainer = async (token = admin) => {
  const load = await ok<{ id: number; loadNo: string }>('/loading/create', { containerNo: `CONT${RUN}${(seq += 1)}` }, token);
  return load;
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(db(), TAG, 1);
  orders = orderCalls(t.app, admin, db());
});

afterAll(async () => {
  await t?.close();
});

describe('scan-in, scan-pack and scan-load', () => {
  it('receives cartons, consolidates them onto a pallet with an SSCC and loads the pallet onto a container, moving no stock', async () => {
    const before = await snapshot();
    const a = await newOrder();
    const b = await newOrder();
    const found = await ok<{ order: Order; cartons: Carton[] }>('/cfs/scanIn/order', { orderNo: a.orderNo });
    expect(found.order).toMatchObject({ orderNo: a.orderNo, cartons: { total: 0 } });

    const first = await scanIn(a.orderNo, code('A1'));
    expect(first.carton).toMatchObject({ code: code('A1'), orderNo: a.orderNo, status: 'received' });
    // A GS1-128 label names the carton by its SSCC (AI 00).
    const sscc = `0${String(Date.now()).slice(-12)}${String(seq).padStart(4, '0')}`.slice(0, 17);
    const digits = sscc.split('').map(Number);
    const check = (10 - (digits.reduce((sum, d, i) => sum + d * (i % 2 === 0 ? 3 : 1), 0) % 10)) % 10;
    const labelled = await scanIn(a.orderNo, `(00)${sscc}${check}`);
    expect(labelled.carton.code).toBe(`${sscc}${check}`);
    expect(labelled.order.cartons).toEqual({ received: 2, packed: 0, loaded: 0, total: 2 });
    await scanIn(b.orderNo, code('B1'));

    const pallet = await newPallet();
    expect(pallet).toMatchObject({ status: 'open', cartons: [] });
    expect(pallet.sscc).toMatch(/^\d{18}$/);
    await ok('/cfs/scanPack/scan', { palletId: pallet.id, code: code('A1') });
    await ok('/cfs/scanPack/scan', { palletId: pallet.id, code: `${sscc}${check}` });
    // Consolidation: another shipper's order shares the pallet.
    const packed = await ok<{ pallet: Pallet; carton: Carton }>('/cfs/scanPack/scan', { palletId: pallet.id, code: code('B1') });
    expect(packed.pallet.cartons.map((c) => c.code)).toEqual([code('A1'), `${sscc}${check}`, code('B1')]);
    expect(packed.carton).toMatchObject({ status: 'packed', palletNo: pallet.palletNo });
    expect((await ok<Pallet>('/cfs/scanPack/pallet', { code: pallet.sscc })).id).toBe(pallet.id);

    const load = await newContainer();
    const container = await ok<Container>('/cfs/scanLoad/container', { code: load.loadNo });
    expect(container).toMatchObject({ id: load.id, status: 'open', cartons: 0, pallets: 0 });
    const loaded = await ok<{ container: Container; loaded: Carton[]; palletNo: string }>('/cfs/scanLoad/scan', { loadId: load.id, code: `(00)${pallet.sscc}` });
    expect(loaded.palletNo).toBe(pallet.palletNo);
    expect(loaded.loaded.map((c) => c.status)).toEqual(['loaded', 'loaded', 'loaded']);
    expect(loaded.container).toMatchObject({ cartons: 3, pallets: 1 });
    expect((await ok<Pallet>('/cfs/scanPack/pallet', { code: pallet.palletNo })).status).toBe('loaded');

    // A carton not on a pallet is loaded alone.
    await scanIn(b.orderNo, code('B2'));
    const alone = await ok<{ container: Container; loaded: Carton[] }>('/cfs/scanLoad/scan', { loadId: load.id, code: code('B2') });
    expect(alone.loaded).toMatchObject([{ code: code('B2'), status: 'loaded', loadNo: load.loadNo }]);

    const status = await ok<{ rows: Array<{ orderNo: string; found: boolean; order: Order | null }> }>('/cfs/checkOrderStatus', { orderNos: [a.orderNo, b.orderNo, `${TAG}-NONE`] });
    expect(status.rows.map((r) => [r.orderNo, r.found, r.order?.cartons.loaded])).toEqual([
      [a.orderNo, true, 2],
      [b.orderNo, true, 2],
      [`${TAG}-NONE`, false, undefined],
    ]);
    // The cartons are the shippers' cargo: no balance of the warehouse changed.
    expect((await snapshot()).balances).toEqual(before.balances);
  });
});

describe('refusals change nothing', () => {
  it('refuses a carton scanned in twice, also for another order', async () => {
    const a = await newOrder();
    const b = await newOrder();
    await scanIn(a.orderNo, code('TWICE'));
    const body = await refused('/cfs/scanIn/scan', { orderNo: a.orderNo, code: code('TWICE') }, 409, 'CFS_CARTON_ALREADY_IN');
    expect(body.message).toContain(code('TWICE'));
    await refused('/cfs/scanIn/scan', { orderNo: b.orderNo, code: ` ${code('TWICE')} ` }, 409, 'CFS_CARTON_ALREADY_IN');
    await refused('/cfs/scanIn/scan', { orderNo: `${TAG}-NONE`, code: code('X') }, 404, 'CFS_ORDER_UNKNOWN');
    await refused('/cfs/scanPack/scan', { palletId: (await newPallet()).id, code: code('NEVER') }, 404, 'CFS_CARTON_UNKNOWN');
  });

  it('cancels with a reason of the code master and refuses cartons of the cancelled order everywhere', async () => {
    const list = await ok<{ rows: Array<{ code: string; description: string }> }>('/cfs/cancelReasonCodeList', {});
    expect(list.rows.map((r) => r.code)).toEqual(expect.arrayContaining(['CUSTOMER', 'SHIPPER', 'VESSEL', 'DOCS']));
    const zh = json<{ rows: Array<{ code: string; description: string }> }>(await call('/cfs/cancelReasonCodeList', {}, admin, 'zh'));
    expect(zh.rows.find((r) => r.code === 'CUSTOMER')?.description).toBe('客户取消');

    const order = await newOrder();
    await scanIn(order.orderNo, code('C1'));
    await scanIn(order.orderNo, code('C2'));
    const pallet = await newPallet();
    await ok('/cfs/scanPack/scan', { palletId: pallet.id, code: code('C1') });

    await refused('/cfs/cancelWithReason', { orderNos: [order.orderNo], reasonCode: `NOPE${RUN}` }, 400, 'CFS_REASON_UNKNOWN');
    await refused('/cfs/cancelWithReason', { orderNos: [order.orderNo, `${TAG}-NONE`], reasonCode: 'CUSTOMER' }, 404, 'CFS_ORDER_UNKNOWN');
    const cancelled = await ok<{ cancelled: Order[] }>('/cfs/cancelWithReason', { orderNos: [order.orderNo], reasonCode: 'CUSTOMER', remark: 'called off' });
    expect(cancelled.cancelled).toMatchObject([{ orderNo: order.orderNo, status: 'cancelled', cancelReason: 'CUSTOMER', cartons: { received: 2, packed: 0 } }]);
    const row = await db().selectFrom('cfs_order').select(['cancel_reason', 'cancel_remark', 'cancelled_by']).where('so_id', '=', order.soId).executeTakeFirstOrThrow();
    expect(row).toEqual({ cancel_reason: 'CUSTOMER', cancel_remark: 'called off', cancelled_by: 'admin' });
    // Its carton came off the pallet, which is empty again.
    expect((await ok<Pallet>('/cfs/scanPack/pallet', { code: pallet.palletNo })).cartons).toEqual([]);

    await refused('/cfs/scanIn/scan', { orderNo: order.orderNo, code: code('C3') }, 409, 'CFS_ORDER_CANCELLED');
    await refused('/cfs/scanPack/scan', { palletId: pallet.id, code: code('C2') }, 409, 'CFS_ORDER_CANCELLED');
    const load = await newContainer();
    await refused('/cfs/scanLoad/scan', { loadId: load.id, code: code('C1') }, 409, 'CFS_ORDER_CANCELLED');
    await refused('/cfs/scanLoad/scan', { loadId: load.id, code: pallet.sscc }, 409, 'CFS_PALLET_EMPTY');
    await refused('/cfs/cancelWithReason', { orderNos: [order.orderNo], reasonCode: 'CUSTOMER' }, 409, 'CFS_ORDER_CANCELLED');
  });

  it('refuses a pallet onto a closed container, a loaded carton twice and cancelling a loaded order', async () => {
    const order = await newOrder();
    await scanIn(order.orderNo, code('D1'));
    await scanIn(order.orderNo, code('D2'));
    const pallet = await newPallet();
    await ok('/cfs/scanPack/scan', { palletId: pallet.id, code: code('D1') });
    const load = await newContainer();
    // The loading area closes a load holding its own cartons; here the container is closed as it would be.
    await db().updateTable('load_header').set({ status: 'loaded' }).where('id', '=', load.id).execute();
    const body = await refused('/cfs/scanLoad/scan', { loadId: load.id, code: pallet.sscc }, 409, 'CFS_CONTAINER_CLOSED');
    expect(body.message).toContain(load.loadNo);
    await refused('/cfs/scanLoad/scan', { loadId: load.id, code: code('D2') }, 409, 'CFS_CONTAINER_CLOSED');

    const open = await newContainer();
    await refused('/cfs/scanLoad/scan', { loadId: open.id, code: code('D1') }, 409, 'CFS_CARTON_ON_PALLET');
    await ok('/cfs/scanLoad/scan', { loadId: open.id, code: pallet.palletNo });
    await refused('/cfs/scanLoad/scan', { loadId: open.id, code: pallet.palletNo }, 409, 'CFS_PALLET_LOADED');
    await refused('/cfs/scanPack/scan', { palletId: pallet.id, code: code('D2') }, 409, 'CFS_PALLET_LOADED');
    const other = await newPallet();
    await refused('/cfs/scanPack/scan', { palletId: other.id, code: code('D1') }, 409, 'CFS_CARTON_LOADED');
    await refused('/cfs/cancelWithReason', { orderNos: [order.orderNo], reasonCode: 'SHIPPER' }, 409, 'CFS_ORDER_LOADED');
  });
});

describe('order tools', () => {
  it('updates reference, vessel, voyage and ETD of many orders all or nothing, naming each failing row', async () => {
    const a = await newOrder();
    const b = await newOrder();
    const gone = await newOrder();
    await ok('/cfs/cancelWithReason', { orderNos: [gone.orderNo], reasonCode: 'DOCS' });
    const body = await refused(
      '/cfs/batchUpdate',
      {
        rows: [
          { orderNo: a.orderNo, vessel: 'Ever Given' },
          { orderNo: `${TAG}-NONE`, vessel: 'X' },
          { orderNo: gone.orderNo, vessel: 'X' },
          { orderNo: a.orderNo, vessel: 'Y' },
        ],
      },
      400,
      'CFS_BATCH_REJECTED',
    );
    expect(body.details?.map((d) => [d.field, d.code])).toEqual([
      ['row 2: orderNo', 'CFS_ORDER_UNKNOWN'],
      ['row 3: orderNo', 'CFS_ORDER_CANCELLED'],
      ['row 4: orderNo', 'FIELD_NOT_UNIQUE'],
    ]);
    expect(body.details?.[0].message).toContain(`${TAG}-NONE`);
    await refused('/cfs/batchUpdate', { rows: [{ orderNo: a.orderNo, etd: '2030-02-30x' }] }, 400, 'VALIDATION_FAILED');

    await ok('/cfs/batchUpdate', { rows: [{ orderNo: a.orderNo, reference: 'REF-A', vessel: 'Ever Given', voyage: '001E', etd: '2030-03-01' }, { orderNo: b.orderNo, vessel: 'Maersk Alabama' }] });
    await ok('/cfs/batchUpdate', { rows: [{ orderNo: a.orderNo, voyage: '002E' }] });
    const rows = (await ok<{ rows: Array<{ order: Order }> }>('/cfs/checkOrderStatus', { orderNos: [a.orderNo, b.orderNo] })).rows.map((r) => r.order);
    expect(rows[0]).toMatchObject({ reference: 'REF-A', vessel: 'Ever Given', voyage: '002E', etd: '2030-03-01' });
    expect(rows[1]).toMatchObject({ reference: null, vessel: 'Maersk Alabama', etd: null });
  });

  it('puts orders on an open shipment order through the outbound area', async () => {
    const a = await newOrder();
    const b = await newOrder();
    const shipmentNo = `SH-${TAG}`;
    const added = await call('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'shipmentOrder',
      record: { shipment_no: shipmentNo, carrier_code: 'DHL', shipment_reference: 'REF-9', expected_delivery_date: '2030-06-01', gateway: 'HKG', service: 'EXPRESS', service_provider: 'DHL Express', battery: 'none' },
    });
    expect(added.statusCode, added.body).toBe(200);
    await refused('/cfs/add/order/shipment', { shipmentNo: `${shipmentNo}-NONE`, orderNos: [a.orderNo] }, 404, 'CFS_SHIPMENT_UNKNOWN');
    await refused('/cfs/add/order/shipment', { shipmentNo, orderNos: [a.orderNo, `${TAG}-NONE`] }, 404, 'CFS_ORDER_UNKNOWN');
    expect(await ok('/cfs/add/order/shipment', { shipmentNo, orderNos: [a.orderNo, b.orderNo] })).toEqual({ shipmentNo, added: 2 });
    const on = await db().selectFrom('so_header').select('shipment_order_id').where('id', 'in', [a.soId, b.soId]).execute();
    expect(on.every((o) => o.shipment_order_id !== null)).toBe(true);
  });
});

describe('another project and rights', () => {
  it("finds none of this project's orders, cartons, pallets and containers", async () => {
    const org = await db().selectFrom('project').select('organization_id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const project = `PRJ-CF-${RUN}`;
    await db().insertInto('project').values({ organization_id: org.organization_id, code: project, name: `Project ${project}` }).execute();
    const { token } = await createUserAccount(t, { loginAccount: `cf-other-${RUN.toLowerCase()}`, rights: ['cfs.cfs:view', 'cfs.cfs:edit', 'loading.load:view', 'loading.load:edit'], projectCodes: [project], warehouseCodes: ['WH1'] });
    const order = await newOrder();
    await scanIn(order.orderNo, code('E1'));
    const pallet = await newPallet();
    const load = await newContainer();

    await refused('/cfs/scanIn/order', { orderNo: order.orderNo }, 404, 'CFS_ORDER_UNKNOWN', token);
    await refused('/cfs/scanIn/scan', { orderNo: order.orderNo, code: code('E2') }, 404, 'CFS_ORDER_UNKNOWN', token);
    await refused('/cfs/scanPack/pallet', { code: pallet.sscc }, 404, 'CFS_PALLET_UNKNOWN', token);
    await refused('/cfs/scanPack/scan', { palletId: pallet.id, code: code('E1') }, 404, 'CFS_PALLET_UNKNOWN', token);
    const theirPallet = await newPallet(token);
    await refused('/cfs/scanPack/scan', { palletId: theirPallet.id, code: code('E1') }, 404, 'CFS_CARTON_UNKNOWN', token);
    await refused('/cfs/scanLoad/container', { code: load.loadNo }, 404, 'CFS_CONTAINER_UNKNOWN', token);
    await refused('/cfs/scanLoad/scan', { loadId: load.id, code: code('E1') }, 404, 'CFS_CONTAINER_UNKNOWN', token);
    const theirLoad = await newContainer(token);
    await refused('/cfs/scanLoad/scan', { loadId: theirLoad.id, code: code('E1') }, 404, 'CFS_CARTON_UNKNOWN', token);
    await refused('/cfs/cancelWithReason', { orderNos: [order.orderNo], reasonCode: 'CUSTOMER' }, 404, 'CFS_ORDER_UNKNOWN', token);
    await refused('/cfs/batchUpdate', { rows: [{ orderNo: order.orderNo, vessel: 'X' }] }, 400, 'CFS_BATCH_REJECTED', token);
    await refused('/cfs/add/order/shipment', { shipmentNo: `SH-${TAG}`, orderNos: [order.orderNo] }, 404, 'CFS_SHIPMENT_UNKNOWN', token);
    expect((await ok<{ rows: Array<{ found: boolean }> }>('/cfs/checkOrderStatus', { orderNos: [order.orderNo] }, token)).rows).toEqual([{ orderNo: order.orderNo, found: false, order: null }]);
    // Nor does this project find their pallet.
    await refused('/cfs/scanPack/pallet', { code: theirPallet.sscc }, 404, 'CFS_PALLET_UNKNOWN');
  });

  it('lets the view right look and refuses it every change', async () => {
    const { token } = await createUserAccount(t, { loginAccount: `cf-viewer-${RUN.toLowerCase()}`, rights: ['cfs.cfs:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const order = await newOrder();
    expect((await call('/cfs/scanIn/order', { orderNo: order.orderNo }, token)).statusCode).toBe(200);
    expect((await call('/cfs/cancelReasonCodeList', {}, token)).statusCode).toBe(200);
    await refused('/cfs/scanIn/scan', { orderNo: order.orderNo, code: code('V1') }, 403, 'FORBIDDEN', token);
    await refused('/cfs/add/pallet', {}, 403, 'FORBIDDEN', token);
    await refused('/cfs/cancelWithReason', { orderNos: [order.orderNo], reasonCode: 'CUSTOMER' }, 403, 'FORBIDDEN', token);
    await refused('/cfs/batchUpdate', { rows: [{ orderNo: order.orderNo }] }, 403, 'FORBIDDEN', token);
  });
});

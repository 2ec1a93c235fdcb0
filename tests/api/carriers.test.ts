import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { startFakeCarrier, type FakeCarrier } from '../helpers/fake-carrier.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Parcel carriers through the real server against a carrier played by a local HTTP server: the
 * account's credential is stored but never answered, a shipment needs the carrier's fields, booking
 * and registering parcels leave everything as it was when the carrier answers 500 or never answers
 * (with the message in the caller's language), a retry does not book twice, a parcel of another
 * order is refused, and the courier check, label and cancel work.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let carrier: FakeCarrier;
let skuCodes: string[];
const RUN = `${Date.now().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>, language = 'en') => injectAs(t.app, admin, { method: 'POST', url: `/api${url}`, payload, headers: { 'x-language': language } });

async function ok<T>(url: string, payload: Record<string, unknown>): Promise<T> {
  const response = await call(url, payload);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
}

/** An order of one SKU picked and packed into one closed carton; answers the order and the carton number. */
async function packedOrder(tag: string): Promise<{ soId: number; orderNo: string; cartonNo: string; sscc: string }> {
  await stock(db(), f, f.skuIds[0], f.locationIds[0], 2);
  const orders = orderCalls(t.app, admin, db());
  const orderNo = `SOCR-${tag}-${RUN}`;
  const soId = await orders.enter(orderNo, f.ownerId, [{ skuCode: skuCodes[0], qty: 2 }]);
  await orders.allocate(soId);
  expect((await call('/so/pick', { soId })).statusCode).toBe(200);
  await orders.pickSku(soId, f.skuIds[0], skuCodes[0], `TOTE-${tag}-${RUN}`);
  await ok('/scanPack', { orderNo });
  const carton = (await ok<{ openCarton: { id: number; cartonNo: string } }>('/pack/scan/open', { soId })).openCarton;
  await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 2 });
  const closed = await ok<{ cartons: Array<{ id: number; sscc: string }> }>('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });
  return { soId, orderNo, cartonNo: carton.cartonNo, sscc: closed.cartons.find((c) => c.id === carton.id)!.sscc };
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(db(), `CR${RUN}`, 1);
  skuCodes = (await db().selectFrom('sku').select('code').where('id', 'in', f.skuIds).orderBy('id').execute()).map((r) => r.code);
  carrier = await startFakeCarrier();
});

afterAll(async () => {
  await carrier?.close();
  await t?.close();
});

describe('parcel carriers', () => {
  let accountId: number;
  let shipmentId: number;
  const reference = `REF-${RUN}`;

  it('keeps the credential of an account but never answers it', async () => {
    const missing = await call('/generic/adding', { moduleCode: 'carrier', functionCode: 'carrierAccount', record: { code: `DHL${RUN}`.slice(0, 20), base_url: carrier.url, timeout_ms: 400 } });
    expect(missing.statusCode).toBe(400);
    const added = await ok<{ row: Record<string, unknown> & { _key: number } }>('/generic/adding', {
      moduleCode: 'carrier',
      functionCode: 'carrierAccount',
      record: { code: `DHL${RUN}`.slice(0, 20), name: 'Parcel Co', base_url: carrier.url, api_key: `secret-${RUN}`, timeout_ms: 400 },
    });
    accountId = Number(added.row._key);
    expect(JSON.stringify(added)).not.toContain(`secret-${RUN}`);
    const read = await call('/generic/selection', { moduleCode: 'carrier', functionCode: 'carrierAccount', page: 1, pageSize: 100 });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.body).toContain(`DHL${RUN}`.slice(0, 20));
    expect(read.body).not.toContain(`secret-${RUN}`);
    const stored = await db().selectFrom('carrier_credential').select('secret').where('carrier_account_id', '=', accountId).executeTakeFirstOrThrow();
    expect(stored.secret).toBe(`secret-${RUN}`);
  });

  it('refuses a shipment without the carrier fields and keeps a complete one open', async () => {
    const base = { shipment_no: `SH-${RUN}`, carrier_account_id: accountId, shipment_reference: reference, expected_delivery_date: '2030-02-01', gateway: 'HKG', service: 'EXPRESS', service_provider: 'Parcel Co', battery: 'none' };
    const incomplete = await call('/generic/adding', { moduleCode: 'carrier', functionCode: 'shipment', record: { ...base, gateway: '' } });
    expect(incomplete.statusCode, incomplete.body).toBe(400);
    expect(incomplete.body).toContain('gateway');
    const added = await ok<{ row: { _key: number; status: string } }>('/generic/adding', { moduleCode: 'carrier', functionCode: 'shipment', record: base });
    shipmentId = Number(added.row._key);
    expect(added.row.status).toBe('open');
  });

  it('books with the carrier: a 500 and a silent carrier change nothing, a retry books once', async () => {
    carrier.mode = 'fail';
    const failed = await call('/so/createDhlShipmentId', { shipmentId }, 'zh');
    expect(failed.statusCode).toBe(502);
    expect(json<{ code: string; message: string }>(failed)).toMatchObject({ code: 'CARRIER_FAILED' });
    expect(json<{ message: string }>(failed).message).toContain('承运商');

    carrier.mode = 'hang';
    const silent = await call('/so/createDhlShipmentId', { shipmentId });
    expect(silent.statusCode).toBe(504);
    expect(json<{ code: string; message: string }>(silent).code).toBe('CARRIER_TIMEOUT');
    expect(json<{ message: string }>(silent).message).toContain('did not answer in time');
    const still = await db().selectFrom('carrier_shipment').select(['status', 'carrier_shipment_id']).where('id', '=', shipmentId).executeTakeFirstOrThrow();
    expect(still).toEqual({ status: 'open', carrier_shipment_id: null });

    carrier.mode = 'ok';
    const booked = await ok<{ carrierShipmentId: string }>('/so/createDhlShipmentId', { shipmentId });
    expect(booked.carrierShipmentId).toMatch(/^CS\d+/);
    const calls = carrier.calls.length;
    expect(carrier.calls.at(-1)).toMatchObject({ method: 'POST', path: '/shipments', auth: `Bearer secret-${RUN}`, key: `wms-shipment-${shipmentId}` });
    expect(carrier.calls.at(-1)!.body).toMatchObject({ reference, gateway: 'HKG', battery: 'none' });
    const again = await ok<{ carrierShipmentId: string }>('/so/createDhlShipmentId', { shipmentId });
    expect(again.carrierShipmentId).toBe(booked.carrierShipmentId);
    expect(carrier.calls.length).toBe(calls);

    // What the carrier was told stays once booked.
    const rows = await ok<{ rows: Array<{ _key: number; _version: string | null }> }>('/generic/selection', { moduleCode: 'carrier', functionCode: 'shipment', page: 1, pageSize: 100 });
    const version = rows.rows.find((r) => Number(r._key) === shipmentId)?._version ?? null;
    const change = await call('/generic/updating', { moduleCode: 'carrier', functionCode: 'shipment', key: shipmentId, version, record: { gateway: 'PVG' } });
    expect(change.statusCode, change.body).toBe(409);
    expect(json<{ code: string }>(change).code).toBe('CARRIER_SHIPMENT_STATE');
  });

  it('registers the parcels of an order once, refuses a parcel of another order, and checks parcels at the courier', async () => {
    const first = await packedOrder('A');
    const second = await packedOrder('B');

    const stranger = await call('/so/addOrderToDhlShipmentId', { shipmentId, soIds: [first.soId], cartonNos: [second.cartonNo] });
    expect(stranger.statusCode).toBe(409);
    expect(json<{ code: string; message: string }>(stranger)).toMatchObject({ code: 'PARCEL_NOT_OF_ORDER' });
    expect(json<{ message: string }>(stranger).message).toContain(second.cartonNo);

    carrier.mode = 'fail';
    expect((await call('/so/addOrderToDhlShipmentId', { shipmentId, soIds: [first.soId] })).statusCode).toBe(502);
    expect(await db().selectFrom('carrier_parcel').select('id').where('shipment_id', '=', shipmentId).execute()).toEqual([]);

    carrier.mode = 'ok';
    const added = await ok<{ added: number; parcels: Array<{ carton_no: string; tracking_no: string; order_no: string }> }>('/so/addOrderToDhlShipmentId', { shipmentId, soIds: [first.soId] });
    expect(added.added).toBe(1);
    expect(added.parcels).toEqual([expect.objectContaining({ carton_no: first.cartonNo, order_no: first.orderNo, tracking_no: expect.stringMatching(/^TRK/) })]);
    const calls = carrier.calls.length;
    expect((await ok<{ added: number }>('/so/addOrderToDhlShipmentId', { shipmentId, soIds: [first.soId] })).added).toBe(0);
    expect(carrier.calls.length).toBe(calls);

    const found = await ok<{ shipments: Array<{ id: number; atCarrier: { parcels: unknown[] } | null; parcels: unknown[] }> }>('/so/findDhlShipmentReference', { reference });
    expect(found.shipments).toHaveLength(1);
    expect(found.shipments[0].atCarrier?.parcels).toHaveLength(1);
    // The look-up at the carrier: an error or a time-out is a message, and nothing here changes.
    const before = await db().selectFrom('carrier_shipment').selectAll().where('id', '=', shipmentId).executeTakeFirstOrThrow();
    for (const [mode, status, code] of [['fail', 502, 'CARRIER_FAILED'], ['hang', 504, 'CARRIER_TIMEOUT']] as const) {
      carrier.mode = mode;
      const refused = await call('/so/findDhlShipmentReference', { reference });
      expect(refused.statusCode).toBe(status);
      expect(json<{ code: string; message: string }>(refused)).toMatchObject({ code, message: expect.any(String) });
    }
    carrier.mode = 'ok';
    expect(await db().selectFrom('carrier_shipment').selectAll().where('id', '=', shipmentId).executeTakeFirstOrThrow()).toEqual(before);

    const tracking = added.parcels[0].tracking_no;
    const byTracking = await ok<{ order: { orderNo: string }; parcel: { cartonNo: string; trackingNo: string }; shipment: { carrierShipmentId: string }; belongs: null }>('/carrier/courierCheck', { code: tracking });
    expect(byTracking).toMatchObject({ order: { orderNo: first.orderNo }, parcel: { cartonNo: first.cartonNo, trackingNo: tracking }, belongs: null });
    expect(byTracking.shipment.carrierShipmentId).toMatch(/^CS/);
    expect((await ok<{ belongs: boolean }>('/carrier/courierCheck', { orderNo: first.orderNo, code: first.sscc })).belongs).toBe(true);
    const wrong = await ok<{ belongs: boolean; shipment: unknown }>('/carrier/courierCheck', { orderNo: first.orderNo, code: second.cartonNo });
    expect(wrong).toMatchObject({ belongs: false, shipment: null });
    expect((await call('/carrier/courierCheck', { code: `NOPE-${RUN}` })).statusCode).toBe(404);

    const pdf = await injectAs(t.app, admin, { method: 'GET', url: `/api/carrier/label?shipmentId=${shipmentId}&format=pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.body.startsWith('%PDF-')).toBe(true);
    carrier.mode = 'hang';
    expect((await injectAs(t.app, admin, { method: 'GET', url: `/api/carrier/label?shipmentId=${shipmentId}&format=zpl` })).statusCode).toBe(504);
    carrier.mode = 'ok';
  });

  it('cancels at the carrier before here', async () => {
    carrier.mode = 'fail';
    expect((await call('/carrier/shipment/cancel', { shipmentId })).statusCode).toBe(502);
    expect((await db().selectFrom('carrier_shipment').select('status').where('id', '=', shipmentId).executeTakeFirstOrThrow()).status).toBe('booked');
    carrier.mode = 'ok';
    expect((await ok<{ status: string }>('/carrier/shipment/cancel', { shipmentId })).status).toBe('cancelled');
    expect(carrier.calls.at(-1)).toMatchObject({ method: 'DELETE' });
    expect(await db().selectFrom('carrier_parcel').select('id').where('shipment_id', '=', shipmentId).execute()).toEqual([]);
  });
});

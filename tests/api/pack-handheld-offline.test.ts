import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { expectLedgerAgrees, packingFixture, pickedOrder as pickedOrderOf, type PackingFixture } from '../helpers/packing-fixtures.js';

/**
 * What a handheld packing through dead spots needs of the server: the order found by a scanned open
 * carton (its number, SSCC or GS1-128 label; a closed one refused as closed), a carton opened once by
 * its idempotency key and named by that key in the scans and the close after it, and check-complete
 * applied once by its key, only when the order comes out packed with `whenPacked`.
 */
let t: TestApp;
let admin: string;
let f: PackingFixture;
let orderSeq = 0;
const tag = `PHO${Date.now().toString(36).toUpperCase()}`;
const db = () => t.database.db;

interface Carton {
  id: number;
  cartonNo: string;
  status: string;
  sscc: string | null;
  lines: Array<{ skuCode: string; qty: string }>;
}
interface Pack {
  order: { id: number; orderNo: string; status: string };
  lines: Array<{ skuCode: string; picked: string; packed: string }>;
  openCarton: Carton | null;
  cartons: Carton[];
}

const call = (url: string, payload: Record<string, unknown>, key?: string, token = admin) =>
  injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload, headers: key === undefined ? {} : { 'idempotency-key': key } });
async function ok<T = Pack>(url: string, payload: Record<string, unknown>, key?: string, token = admin): Promise<T> {
  const response = await call(url, payload, key, token);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
}
/** What a refused call must leave as it was. */
const snapshot = async () => ({
  ledger: (await db().selectFrom('inventory_transaction').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
  orders: await db().selectFrom('so_header').select(['id', 'status', 'updated_at']).orderBy('id').execute(),
  cartons: await db().selectFrom('carton').selectAll().orderBy('id').execute(),
  cartonLines: await db().selectFrom('carton_line').selectAll().orderBy('id').execute(),
});
async function refused(url: string, payload: Record<string, unknown>, status: number, code: string, key?: string, token = admin) {
  const before = await snapshot();
  const response = await call(url, payload, key, token);
  expect(response.statusCode, response.body).toBe(status);
  expect(json<{ code: string }>(response).code).toBe(code);
  expect(await snapshot()).toEqual(before);
}
const pickedOrder = (lines: Array<[number, number]>) => pickedOrderOf(f, `SO-${tag}-${++orderSeq}`, lines, { tote: `TOTE-${tag}` });
const close = (carton: { cartonId: number } | { cartonKey: string }) => ({ ...carton, grossWeight: '2', netWeight: '1.5', weightUom: 'KG' });
const statusOf = async (soId: number) => (await db().selectFrom('so_header').select('status').where('id', '=', soId).executeTakeFirstOrThrow()).status;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await packingFixture(t.app, admin, db(), tag, 2);
});
afterAll(() => t?.close());

describe('packing on a handheld through dead spots', () => {
  it('finds the order of a scanned open carton by its number, SSCC or GS1-128 label, and refuses a closed one as closed', async () => {
    const { soId, orderNo } = await pickedOrder([[0, 2]]);
    const first = (await ok('/pack/scan/open', { soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: first.id, barcode: f.skuCodes[0] });
    const sscc = (await ok('/pack/scan/close', close({ cartonId: first.id }))).cartons.find((c) => c.id === first.id)!.sscc!;
    expect(sscc).toMatch(/^\d{18}$/);

    // Closed: by its number, its SSCC or its label, the carton is closed.
    for (const code of [first.cartonNo, sscc, `(00)${sscc}`, `00${sscc}`]) await refused('/scanPack/carton', { code }, 409, 'CARTON_CLOSED');
    // Reopened (it keeps its SSCC), it is found by each of them, with its order.
    await ok('/pack/scan/reopen', { soId, cartonId: first.id });
    for (const code of [first.cartonNo, sscc, `(00)${sscc}`, ` ]C100${sscc} `]) {
      const found = await ok<Pack & { carton: Carton }>('/scanPack/carton', { code });
      expect([found.order.id, found.order.orderNo, found.carton.id, found.carton.status, found.carton.lines.map((l) => [l.skuCode, Number(l.qty)])]).toEqual([soId, orderNo, first.id, 'open', [[f.skuCodes[0], 1]]]);
    }
    const second = (await ok('/pack/scan/open', { soId })).openCarton!;
    expect((await ok<Pack & { carton: Carton }>('/scanPack/carton', { code: second.cartonNo.toString() })).carton.id).toBe(second.id);

    await refused('/scanPack/carton', { code: `NO-${tag}` }, 404, 'NO_RECORD');
    await refused('/scanPack/carton', { code: '   ' }, 400, 'VALIDATION_FAILED');
    await refused('/scanPack/carton', { code: '' }, 400, 'VALIDATION_FAILED');
    await refused('/scanPack/carton', { code: first.cartonNo, soId }, 400, 'VALIDATION_FAILED');

    // Another warehouse's packer does not find it; a reader of the pack page does; a caller without it is refused.
    const project = await db().selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const wh2 = await db().insertInto('warehouse').values({ organization_id: project.organization_id, code: `W2${tag}`.slice(0, 20), name: 'Second', nav_layout: null }).returning(['id', 'code']).executeTakeFirstOrThrow();
    await db().insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: wh2.id }).execute();
    const rights = ['packing.pack:view', 'packing.pack:edit'] as const;
    const elsewhere = await createUser(t, { loginAccount: `pho-wh2-${tag}`.toLowerCase(), rights: [...rights], projectCodes: ['PRJ1'], warehouseCodes: [wh2.code] });
    await refused('/scanPack/carton', { code: first.cartonNo }, 404, 'NO_RECORD', undefined, elsewhere);
    const viewer = await createUser(t, { loginAccount: `pho-view-${tag}`.toLowerCase(), rights: ['packing.pack:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    expect((await ok<Pack & { carton: Carton }>('/scanPack/carton', { code: sscc }, undefined, viewer)).carton.id).toBe(first.id);
    const outsider = await createUser(t, { loginAccount: `pho-none-${tag}`.toLowerCase(), rights: ['outbound:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    await refused('/scanPack/carton', { code: sscc }, 403, 'FORBIDDEN', undefined, outsider);
  });

  it('opens a carton once by its key, packs and closes it named by that key, and checks the order complete once, only when packed', async () => {
    const { soId } = await pickedOrder([
      [0, 2],
      [1, 1],
    ]);
    const cartonsOf = async () => (await db().selectFrom('carton').select(['id', 'status']).where('so_id', '=', soId).orderBy('id').execute()).map((c) => [Number(c.id), c.status]);

    // The open-carton sent twice with its key (the queue's replay): one carton, the same answer naming it.
    const openKey = randomUUID();
    const opened = await ok<Pack & { opened: Carton }>('/pack/scan/open', { soId, cartonType: null }, openKey);
    expect(opened.opened).toMatchObject({ status: 'open', lines: [] });
    expect(await ok('/pack/scan/open', { soId, cartonType: null }, openKey)).toEqual(opened);
    expect(await cartonsOf()).toEqual([[opened.opened.id, 'open']]);
    // The same key with another body is refused; it opens nothing.
    await refused('/pack/scan/open', { soId, cartonType: 'NOPE' }, 409, 'IDEMPOTENCY_KEY_REUSED', openKey);

    // The scans name the carton by the open-carton's key: each applied once.
    const scanKey = randomUUID();
    const scan = { cartonKey: openKey, barcode: f.skuCodes[0], qty: '2' };
    const packed = await ok('/pack/scan/sku', scan, scanKey);
    expect(packed.cartons.find((c) => c.id === opened.opened.id)!.lines.map((l) => [l.skuCode, Number(l.qty)])).toEqual([[f.skuCodes[0], 2]]);
    expect((packed as Pack & { cartonId: number }).cartonId).toBe(opened.opened.id);
    expect(await ok('/pack/scan/sku', scan, scanKey)).toEqual(packed);
    await refused('/pack/scan/sku', { ...scan, qty: '1' }, 409, 'IDEMPOTENCY_KEY_REUSED', scanKey);
    // A key that opened nothing (unknown, or another scan's), another user's key, both or neither of the carton's names: refused.
    await refused('/pack/scan/sku', { cartonKey: randomUUID(), barcode: f.skuCodes[1] }, 409, 'PACK_CARTON_KEY_UNKNOWN', randomUUID());
    await refused('/pack/scan/sku', { cartonKey: scanKey, barcode: f.skuCodes[1] }, 409, 'PACK_CARTON_KEY_UNKNOWN');
    const packer = await createUser(t, { loginAccount: `pho-pack-${tag}`.toLowerCase(), rights: ['packing.pack:view', 'packing.pack:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    await refused('/pack/scan/sku', { cartonKey: openKey, barcode: f.skuCodes[1] }, 409, 'PACK_CARTON_KEY_UNKNOWN', undefined, packer);
    await refused('/pack/scan/sku', { cartonId: opened.opened.id, cartonKey: openKey, barcode: f.skuCodes[1] }, 400, 'VALIDATION_FAILED');
    await refused('/pack/scan/sku', { barcode: f.skuCodes[1] }, 400, 'VALIDATION_FAILED');
    await refused('/pack/scan/sku', { cartonKey: 'bad key!', barcode: f.skuCodes[1] }, 400, 'VALIDATION_FAILED');
    await refused('/pack/scan/close', { grossWeight: '1', netWeight: '1', weightUom: 'KG' }, 400, 'VALIDATION_FAILED');

    // Check-complete while the carton is open is refused, and its key stays free.
    const checkKey = randomUUID();
    await refused('/scanPack/closeOrder', { soId, whenPacked: true }, 409, 'CARTON_OPEN', checkKey);
    // Closed by the key: once.
    const closeKey = randomUUID();
    const closed = await ok('/pack/scan/close', close({ cartonKey: openKey }), closeKey);
    expect(await ok('/pack/scan/close', close({ cartonKey: openKey }), closeKey)).toEqual(closed);
    expect((closed as Pack & { cartonId: number }).cartonId).toBe(opened.opened.id);
    expect(await cartonsOf()).toEqual([[opened.opened.id, 'closed']]);
    // Not all that is picked is packed: with whenPacked nothing changes (not partially packed).
    await refused('/scanPack/closeOrder', { soId, whenPacked: true }, 409, 'PACK_NOT_ALL_PACKED', checkKey);
    expect(await statusOf(soId)).toBe('picked');

    // The rest in a second carton opened by its key; then the check-complete applies, once.
    const secondKey = randomUUID();
    const second = await ok<Pack & { opened: Carton }>('/pack/scan/open', { soId, cartonType: null }, secondKey);
    expect(second.opened.id).not.toBe(opened.opened.id);
    await ok('/pack/scan/sku', { cartonKey: secondKey, barcode: f.skuCodes[1] }, randomUUID());
    await ok('/pack/scan/close', close({ cartonKey: secondKey }), randomUUID());
    const checked = await ok('/scanPack/closeOrder', { soId, whenPacked: true }, checkKey);
    expect(checked.order.status).toBe('packed');
    expect(await ok('/scanPack/closeOrder', { soId, whenPacked: true }, checkKey)).toEqual(checked);
    const events = await db().selectFrom('domain_event').select('payload').where('name', '=', 'packing.checkCompleted').execute();
    const soIdOf = (payload: unknown) => (typeof payload === 'string' ? (JSON.parse(payload) as { soId?: number }) : (payload as { soId?: number })).soId;
    expect(events.filter((e) => soIdOf(e.payload) === soId)).toHaveLength(1);
    // Without a key, check-complete of a packed order is refused as before.
    await refused('/scanPack/closeOrder', { soId }, 409, 'ORDER_STATUS_ERROR');
    await expectLedgerAgrees(db());
  });
});

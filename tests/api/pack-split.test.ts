import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gs1CheckDigit } from '../../src/common/gs1.js';
import type { BarcodeLookupAnswer } from '../../src/common/barcode-api.js';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { stock } from '../helpers/outbound.js';
import { packingFixture, pickedOrder, type PackingFixture } from '../helpers/packing-fixtures.js';

/**
 * The SKU and UPC search and the split scan through the real server. The search finds a SKU by its
 * code, a UPC, the GTIN-14 of a case and GS1-128 labels with and without brackets, with its stock by
 * location in the session's warehouse. The split scan moves packed items out of a carton into a new
 * carton of the same order, stock from licence plate to licence plate, and refuses (changing
 * nothing) more than the carton holds, a carton of another order, a closed target, another
 * warehouse's carton and a caller without the pack edit right.
 */
let t: TestApp;
let admin: string;
let f: PackingFixture;
let skuCodes: string[];
let orderSeq = 0;

const ean13 = (twelve: string) => twelve + gs1CheckDigit(twelve);
const gtin14 = (thirteen: string) => thirteen + gs1CheckDigit(thirteen);
const EAN_A = ean13('400638133393');
const CASE_A = gtin14('1400638133393');
const GS = '\u001d';
const TOTE = 'TOTE-SP';

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await packingFixture(t.app, admin, t.database.db, 'SP', 3);
  skuCodes = f.skuCodes;
  await db()
    .insertInto('sku_upc')
    .values([
      { project_id: f.scope.projectId, sku_id: f.skuIds[0], upc: EAN_A, uom: 'EA', qty: 1, is_default: true },
      { project_id: f.scope.projectId, sku_id: f.skuIds[0], upc: CASE_A, uom: 'CS', qty: 12 },
    ])
    .execute();
});

afterAll(async () => {
  await t?.close();
});

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });
const search = (code: string, token = admin) => injectAs(t.app, token, { method: 'GET', url: `/api/inventory/barcode?code=${encodeURIComponent(code)}` });
const n = (value: Decimal.Value) => new Decimal(value).toNumber();

interface SplitCarton {
  id: number;
  cartonNo: string;
  status: string;
  lines: Array<{ skuCode: string; lotNo: string; qty: string }>;
  total: string;
}
interface Split {
  order: { id: number; orderNo: string };
  source: SplitCarton;
  target: SplitCarton | null;
}

async function ok<T>(url: string, payload: Record<string, unknown>, token = admin): Promise<T> {
  const response = await call(url, payload, token);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
}

async function snapshot() {
  return {
    balances: await db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty']).orderBy('id').execute(),
    ledger: (await db().selectFrom('inventory_transaction').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
    cartons: await db().selectFrom('carton').selectAll().orderBy('id').execute(),
    cartonLines: await db().selectFrom('carton_line').selectAll().orderBy('id').execute(),
  };
}

async function refused(url: string, payload: Record<string, unknown>, status: number, code: string, token = admin) {
  const before = await snapshot();
  const response = await call(url, payload, token);
  expect(response.statusCode, response.body).toBe(status);
  expect(json<{ code: string; message: string }>(response).code).toBe(code);
  expect(json<{ message: string }>(response).message).not.toBe('');
  expect(await snapshot()).toEqual(before);
}

/** A picked order of one SKU, packed into one carton: the carton's id and number. */
async function packedCarton(sku: number, qty: number, close: boolean): Promise<{ soId: number; carton: { id: number; cartonNo: string } }> {
  const { soId } = await pickedOrder(f, `SOSP-${++orderSeq}`, [[sku, qty]], { tote: TOTE });
  const carton = (await ok<{ openCarton: { id: number; cartonNo: string } }>('/pack/scan/open', { soId })).openCarton;
  await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[sku], qty: String(qty) });
  if (close) await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1, weightUom: 'KG' });
  return { soId, carton };
}

async function pickedOn(sku: number, lpn: string): Promise<number> {
  const rows = await db().selectFrom('inventory_balance').select(['on_hand_qty', 'picked_qty']).where('sku_id', '=', f.skuIds[sku]).where('lpn', '=', lpn).execute();
  for (const row of rows) expect(n(row.on_hand_qty)).toBe(n(row.picked_qty));
  return rows.reduce((sum, r) => sum + n(r.picked_qty), 0);
}

describe('SKU and UPC search', () => {
  it('finds the SKU by code, UPC, case GTIN-14 and GS1-128 labels, with its stock by location here', async () => {
    await stock(db(), f, f.skuIds[0], f.locationIds[1], 7, { lotNo: 'LOT-S1' });
    const byCode = json<BarcodeLookupAnswer>(await search(skuCodes[0]));
    expect(byCode.skus.map((s) => [s.skuCode, s.barcode, s.perScan])).toEqual([[skuCodes[0], null, '1']]);
    const row = byCode.skus[0].stock.find((r) => r.lotNo === 'LOT-S1');
    expect(row).toMatchObject({ locationCode: 'L-SP-1', onHand: '7', allocated: '0', available: '7', lpn: '' });

    const byUpc = json<BarcodeLookupAnswer>(await search(EAN_A));
    expect(byUpc.skus.map((s) => [s.skuCode, s.barcode, s.uom, s.perScan])).toEqual([[skuCodes[0], EAN_A, 'EA', '1']]);
    expect(byUpc.skus[0].totals.onHand).toBe(byCode.skus[0].totals.onHand);
    // The same EAN-13 as a GTIN-14 (a leading zero), typed plainly.
    expect(json<BarcodeLookupAnswer>(await search(`0${EAN_A}`)).skus[0].barcode).toBe(EAN_A);

    const byCase = json<BarcodeLookupAnswer>(await search(CASE_A));
    expect(byCase.skus.map((s) => [s.skuCode, s.uom, s.perScan])).toEqual([[skuCodes[0], 'CS', '12']]);

    for (const label of [`(01)${CASE_A}(10)LOT-S1(17)270500`, `]C101${CASE_A}10LOT-S1${GS}17270500`, `01${CASE_A}17270500${'10'}LOT-S1`]) {
      const answer = json<BarcodeLookupAnswer>(await search(label));
      expect(answer.code).toBe(CASE_A);
      expect(answer.gs1).toMatchObject({ batch: 'LOT-S1', expiry: '2027-05-31' });
      expect(answer.skus.map((s) => [s.skuCode, s.perScan])).toEqual([[skuCodes[0], '12']]);
    }
    const ean = json<BarcodeLookupAnswer>(await search(`(01)0${EAN_A}`));
    expect(ean.skus.map((s) => [s.skuCode, s.barcode])).toEqual([[skuCodes[0], EAN_A]]);
  });

  it('answers an unknown code, a broken GS1 label and a caller without the right with their messages', async () => {
    const unknown = await search(`NOPE-${Date.now()}`);
    expect(unknown.statusCode).toBe(400);
    expect(json<{ code: string }>(unknown).code).toBe('INVALID_SKU');
    const broken = await search(`(01)${CASE_A.slice(0, 13)}9`);
    expect(broken.statusCode).toBe(400);
    expect(json<{ code: string; message: string }>(broken)).toMatchObject({ code: 'BARCODE_FORMAT', message: 'Incorrect barcode format.' });
    expect((await search('')).statusCode).toBe(400);
    const outsider = await createUser(t, { loginAccount: 'sp-none', rights: ['inventory.balance:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    expect((await search(skuCodes[0], outsider)).statusCode).toBe(403);
    const searcher = await createUser(t, { loginAccount: 'sp-search', rights: ['skuSearch:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    expect((await search(skuCodes[0], searcher)).statusCode).toBe(200);
  });
});

describe('split scan', () => {
  it('moves scanned items out of a closed carton into a new carton of the order, then closes it', async () => {
    const { carton } = await packedCarton(1, 5, true);
    const source = await ok<Split>('/pack/split/source', { cartonNo: carton.cartonNo });
    expect(source.source).toMatchObject({ id: carton.id, status: 'closed', total: '5' });
    expect(source.target).toBeNull();

    const first = await ok<Split>('/pack/split/scan', { sourceCartonId: carton.id, barcode: skuCodes[1] });
    expect(first.source.total).toBe('4');
    expect(first.target).toMatchObject({ status: 'open', total: '1' });
    const target = first.target!;
    expect(target.cartonNo).not.toBe(carton.cartonNo);
    const second = await ok<Split>('/pack/split/scan', { sourceCartonId: carton.id, targetCartonId: target.id, barcode: skuCodes[1], qty: '2' });
    expect([second.source.total, second.target!.total, second.target!.id]).toEqual(['2', '3', target.id]);
    expect(await pickedOn(1, carton.cartonNo)).toBe(2);
    expect(await pickedOn(1, target.cartonNo)).toBe(3);

    await refused('/pack/split/scan', { sourceCartonId: carton.id, targetCartonId: target.id, barcode: skuCodes[1], qty: '3' }, 409, 'NOT_ENOUGH_TO_REMOVE');
    await refused('/pack/split/scan', { sourceCartonId: carton.id, targetCartonId: target.id, barcode: skuCodes[2] }, 409, 'NOT_ENOUGH_TO_REMOVE');
    await refused('/pack/split/scan', { sourceCartonId: carton.id, targetCartonId: target.id, barcode: `NOPE-${Date.now()}` }, 400, 'INVALID_SKU');
    await refused('/pack/split/scan', { sourceCartonId: carton.id, targetCartonId: carton.id, barcode: skuCodes[1] }, 409, 'SPLIT_SAME_CARTON');

    await ok('/pack/scan/close', { cartonId: target.id, grossWeight: 1.5, netWeight: 1, weightUom: 'KG' });
    await refused('/pack/split/scan', { sourceCartonId: carton.id, targetCartonId: target.id, barcode: skuCodes[1] }, 409, 'CARTON_CLOSED');
    for (const row of await ledgerAgreement(db())) expect(new Decimal(row.ledger_picked).equals(row.picked_qty)).toBe(true);
  });

  it('splits an open carton by UPC, and refuses a carton of another order, another warehouse and a viewer', async () => {
    const { carton } = await packedCarton(0, 3, false);
    const other = await packedCarton(0, 2, false);
    const moved = await ok<Split>('/pack/split/scan', { sourceCartonId: carton.id, barcode: EAN_A });
    expect([moved.source.total, moved.target!.total]).toEqual(['2', '1']);
    await refused('/pack/split/scan', { sourceCartonId: carton.id, targetCartonId: other.carton.id, barcode: EAN_A }, 409, 'SPLIT_OTHER_ORDER');
    // The case barcode means 12: more than the carton holds.
    await refused('/pack/split/scan', { sourceCartonId: carton.id, targetCartonId: moved.target!.id, barcode: CASE_A }, 409, 'NOT_ENOUGH_TO_REMOVE');

    const project = await db().selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const wh = await db().insertInto('warehouse').values({ organization_id: project.organization_id, code: `WSP${Date.now() % 100000}`, name: 'Second', nav_layout: null }).returning(['id', 'code']).executeTakeFirstOrThrow();
    await db().insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: wh.id }).execute();
    const elsewhere = await createUser(t, { loginAccount: 'sp-wh2', rights: ['packing.pack:view', 'packing.pack:edit'], projectCodes: ['PRJ1'], warehouseCodes: [wh.code] });
    await refused('/pack/split/source', { cartonNo: carton.cartonNo }, 404, 'NO_RECORD', elsewhere);
    await refused('/pack/split/scan', { sourceCartonId: carton.id, barcode: EAN_A }, 404, 'NO_RECORD', elsewhere);
    const viewer = await createUser(t, { loginAccount: 'sp-view', rights: ['packing.pack:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    await refused('/pack/split/scan', { sourceCartonId: carton.id, barcode: EAN_A }, 403, 'FORBIDDEN', viewer);
    await refused('/pack/split/source', { cartonNo: `NOPE-${Date.now()}` }, 404, 'NO_RECORD');
  });
});

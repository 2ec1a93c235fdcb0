import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandheldConfigDetail, HandheldDefinition, HandheldFlowAnswer, ScanValueRow } from '../../src/common/handheld-api.js';
import { SHIPPED_COUNT, SHIPPED_LOAD, SHIPPED_MOVE, SHIPPED_PACK, SHIPPED_PICK, SHIPPED_RECEIVE } from '../../src/common/handheld-api.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';
import { packingFixture, pickedOrder } from '../helpers/packing-fixtures.js';

/**
 * The runtime's functions through the real server: receive, move, count, pick, pack and load have
 * shipped flows; a move, count, pick, pack or load configuration naming an action or target field no
 * code has is refused naming the field; the dialog values are stored with a confirmation the user's
 * key applied (once, whatever the retries) and read back, and are refused for a key that applied
 * nothing; a carton closed with a key (the pack flow's close) is closed once and keeps its dimensions.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
const tag = `HR${Date.now().toString(36).toUpperCase()}`;
const db = () => t.database.db;

const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>, key?: string) =>
  injectAs(t.app, admin, { method, url: `/api${url}`, ...(payload ? { payload } : {}), headers: key === undefined ? {} : { 'idempotency-key': key } });
const ok = async <T>(method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>, key?: string): Promise<T> => {
  const response = await call(method, url, payload, key);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(db(), tag, 1);
  await stock(db(), f, f.skuIds[0], f.locationIds[1], 10);
});
afterAll(() => t?.close());

describe('the handheld runtime functions', () => {
  it('runs the shipped receive, move, count, pick, pack and load flows when nothing is published', async () => {
    for (const [fn, shipped] of [
      ['receive', SHIPPED_RECEIVE],
      ['move', SHIPPED_MOVE],
      ['count', SHIPPED_COUNT],
      ['pick', SHIPPED_PICK],
      ['pack', SHIPPED_PACK],
      ['load', SHIPPED_LOAD],
    ] as const) {
      expect((await ok<HandheldFlowAnswer>('GET', `/handheld/flow?fn=${fn}`)).definition).toEqual(shipped);
    }
  });

  it('refuses to publish a move or count configuration with an action or target field that does not exist, naming the field', async () => {
    for (const fn of ['move', 'count'] as const) {
      const made = await ok<HandheldConfigDetail>('POST', '/handheld/config/create', { code: `${fn}-${tag}`, name: fn, fn });
      const draft: HandheldDefinition = structuredClone(made.draft);
      draft.steps[0] = { ...draft.steps[0], action: fn === 'move' ? 'move.teleport' : 'putaway.scanLocation' };
      draft.steps[1] = { ...draft.steps[1], targetField: 'binCode' };
      await ok('POST', '/handheld/config/save', { id: made.id, name: fn, status: 'active', draft });
      const refused = await call('POST', '/handheld/config/publish', { id: made.id });
      expect(refused.statusCode).toBe(400);
      const body = json<{ code: string; details: Array<{ field: string; code: string; message: string }> }>(refused);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.details.map((d) => [d.field, d.code])).toEqual([
        ['steps[0].action', 'HH_ACTION_UNKNOWN'],
        ['steps[1].targetField', 'HH_TARGET_UNKNOWN'],
      ]);
      expect(body.details[1].message).toContain('binCode');
      expect((await ok<HandheldConfigDetail>('GET', `/handheld/config/get?id=${made.id}`)).publishedVersion).toBeNull();
      // Put right, it publishes.
      await ok('POST', '/handheld/config/save', { id: made.id, name: fn, status: 'active', draft: made.draft });
      expect((await ok<HandheldConfigDetail>('POST', '/handheld/config/publish', { id: made.id })).publishedVersion).toBe(1);
    }
  });

  it('refuses to publish a pick configuration whose step fills a field no pick action fills, or names no pick action, naming the field and the target', async () => {
    const made = await ok<HandheldConfigDetail>('POST', '/handheld/config/create', { code: `pick-${tag}`, name: 'pick', fn: 'pick' });
    expect(made.draft).toEqual(SHIPPED_PICK);
    const draft: HandheldDefinition = structuredClone(made.draft);
    // The tote step would fill the pick's location; the order search a field of another function.
    draft.steps[3] = { ...draft.steps[3], targetField: 'toLocation' };
    draft.orderSearch = { ...draft.orderSearch!, targetField: 'ticketNo' };
    draft.steps.push({ scanName: 'reason', prompt: '', action: 'pick.shortReason', targetField: 'reason', optional: true });
    // Where a short pick's rest goes fills `rest`, not the request's flag; no action looks elsewhere by itself.
    draft.steps.push({ scanName: 'rest', prompt: 'Rest elsewhere?', action: 'pick.shortRest', targetField: 'reallocate', optional: true });
    draft.steps.push({ scanName: 'elsewhere', prompt: '', action: 'pick.lookElsewhere', targetField: 'rest' });
    await ok('POST', '/handheld/config/save', { id: made.id, name: 'pick', status: 'active', draft });
    const refused = await call('POST', '/handheld/config/publish', { id: made.id });
    expect(refused.statusCode).toBe(400);
    const body = json<{ code: string; details: Array<{ field: string; code: string; message: string }> }>(refused);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details.map((d) => [d.field, d.code])).toEqual([
      ['orderSearch.targetField', 'HH_TARGET_UNKNOWN'],
      ['steps[3].targetField', 'HH_TARGET_UNKNOWN'],
      ['steps[5].targetField', 'HH_TARGET_UNKNOWN'],
      ['steps[6].action', 'HH_ACTION_UNKNOWN'],
    ]);
    expect(body.details[1].message).toContain('toLocation');
    expect(body.details[1].message).toContain('pick.scanTote');
    expect(body.details[2].message).toContain('pick.shortRest');
    expect(body.details[3].message).toContain('pick.lookElsewhere');
    // Put right (the tote fills the LPN picked into, the rest's step its choice), it publishes and the runtime is served it.
    draft.steps[3].targetField = 'toLpn';
    draft.steps[5].targetField = 'rest';
    draft.steps.pop();
    draft.orderSearch.targetField = 'code';
    await ok('POST', '/handheld/config/save', { id: made.id, name: 'pick', status: 'active', draft });
    expect((await ok<HandheldConfigDetail>('POST', '/handheld/config/publish', { id: made.id })).publishedVersion).toBe(1);
    const served = await ok<HandheldFlowAnswer>('GET', '/handheld/flow?fn=pick');
    expect([served.code, served.version, served.definition.steps.map((s) => s.action)]).toEqual([
      `pick-${tag}`,
      1,
      ['pick.scanLocation', 'pick.scanItem', 'pick.confirmQty', 'pick.scanTote', 'pick.shortReason', 'pick.shortRest'],
    ]);
    expect(served.definition.steps[5]).toEqual({ scanName: 'rest', prompt: 'Rest elsewhere?', action: 'pick.shortRest', targetField: 'rest', optional: true });
    // Inactive again, the shipped flow is served.
    await ok('POST', '/handheld/config/save', { id: made.id, name: 'pick', status: 'inactive', draft });
    expect((await ok<HandheldFlowAnswer>('GET', '/handheld/flow?fn=pick')).definition).toEqual(SHIPPED_PICK);
  });

  it('publishes the shipped pack and load flows and refuses an unknown target field or an action of another function by name', async () => {
    for (const fn of ['pack', 'load'] as const) {
      const made = await ok<HandheldConfigDetail>('POST', '/handheld/config/create', { code: `${fn}-${tag}`, name: fn, fn });
      expect(made.draft).toEqual(fn === 'pack' ? SHIPPED_PACK : SHIPPED_LOAD);
      const draft: HandheldDefinition = structuredClone(made.draft);
      draft.orderSearch = { ...draft.orderSearch!, action: fn === 'pack' ? 'load.findLoad' : 'pack.findOrder' };
      draft.steps[draft.steps.length - 1] = { ...draft.steps[draft.steps.length - 1], targetField: 'palletNo' };
      await ok('POST', '/handheld/config/save', { id: made.id, name: fn, status: 'active', draft });
      const refused = await call('POST', '/handheld/config/publish', { id: made.id });
      expect(refused.statusCode).toBe(400);
      const details = json<{ code: string; details: Array<{ field: string; code: string; message: string }> }>(refused).details;
      const last = `steps[${draft.steps.length - 1}].targetField`;
      expect(details.map((d) => [d.field, d.code])).toEqual([
        ['orderSearch.action', 'HH_ACTION_UNKNOWN'],
        [last, 'HH_TARGET_UNKNOWN'],
      ]);
      expect(details[1].message).toContain('palletNo');
      await ok('POST', '/handheld/config/save', { id: made.id, name: fn, status: 'active', draft: made.draft });
      expect((await ok<HandheldConfigDetail>('POST', '/handheld/config/publish', { id: made.id })).publishedVersion).toBe(1);
      const served = await ok<HandheldFlowAnswer>('GET', `/handheld/flow?fn=${fn}`);
      expect([served.code, served.version, served.definition]).toEqual([`${fn}-${tag}`, 1, made.draft]);
      // Inactive again, the handhelds run the shipped flow.
      await ok('POST', '/handheld/config/save', { id: made.id, name: fn, status: 'inactive', draft: made.draft });
    }
  });

  it("closes a carton once by the pack flow's key and stores its weights and length × width × height with it", async () => {
    const pack = await packingFixture(t.app, admin, db(), `${tag}P`, 1);
    const { soId } = await pickedOrder(pack, `SO-${tag}-P`, [[0, 2]], { tote: `TOTE-${tag}` });
    const carton = (await ok<{ openCarton: { id: number; cartonNo: string } }>('POST', '/pack/scan/open', { soId, cartonType: null })).openCarton;
    await ok('POST', '/pack/scan/sku', { cartonId: carton.id, barcode: pack.skuCodes[0], qty: '2' }, randomUUID());
    const key = randomUUID();
    const body = { cartonId: carton.id, grossWeight: '3.5', netWeight: '3', weightUom: 'KG', length: '40', width: '30', height: '20' };
    type Closed = { cartons: Array<{ id: number; status: string; sscc: string | null; length: string | null }> };
    const closed = await ok<Closed>('POST', '/pack/scan/close', body, key);
    expect(closed.cartons.find((c) => c.id === carton.id)).toMatchObject({ status: 'closed', length: '40' });
    // The offline queue's replay: the stored answer, nothing closed or numbered again.
    expect(await ok<Closed>('POST', '/pack/scan/close', body, key)).toEqual(closed);
    const ssccs = await db().selectFrom('carton').select('sscc').where('so_id', '=', soId).execute();
    expect(ssccs.map((r) => r.sscc)).toEqual([closed.cartons[0].sscc]);
    // Without the key, closing a closed carton is refused as before.
    expect((await call('POST', '/pack/scan/close', body)).statusCode).toBe(409);

    const subject = { ...body, orderNo: `SO-${tag}-P`, cartonNo: carton.cartonNo };
    const wrong = await call('POST', '/handheld/scanValue/record', { scanKey: key, fn: 'pack', subject, values: { dimension: '40x30' } });
    expect(wrong.statusCode).toBe(400);
    const stored = await ok<ScanValueRow>('POST', '/handheld/scanValue/record', { scanKey: key, fn: 'pack', subject, values: { grossWeight: '3.5', netWeight: '3', dimension: '40 x 30 x 20' } });
    expect(stored).toMatchObject({ fn: 'pack', values: { grossWeight: '3.5', netWeight: '3', dimension: '40 x 30 x 20' } });
    expect(stored.answer).toEqual(closed);
  });

  it('stores the dialog values with a move its key applied, once, and reads them back', async () => {
    const code = async (id: number) => (await db().selectFrom('location').select('code').where('id', '=', id).executeTakeFirstOrThrow()).code;
    const [from, to] = [await code(f.locationIds[1]), await code(f.locationIds[2])];
    const key = randomUUID();
    const subject = { fromLocation: from, sku: `SKU-${tag}-0`, qty: '3', toLocation: to, lpn: null };
    const moved = await ok<{ docNo: string }>('POST', '/inventory/handheld/move', subject, key);

    // A key that applied nothing (never sent, or refused) stores nothing.
    const unknown = await call('POST', '/handheld/scanValue/record', { scanKey: randomUUID(), fn: 'move', subject, values: { grossWeight: '12.5' } }, randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(json<{ code: string }>(unknown).code).toBe('HH_SCAN_UNKNOWN');
    // No value at all is refused by field; a malformed value by the quantity rule.
    const none = await call('POST', '/handheld/scanValue/record', { scanKey: key, fn: 'move', subject, values: {} });
    expect(none.statusCode).toBe(400);
    expect(json<{ details: Array<{ field: string }> }>(none).details.map((d) => d.field)).toEqual(['values']);
    expect((await call('POST', '/handheld/scanValue/record', { scanKey: key, fn: 'move', subject, values: { volume: 'abc' } })).statusCode).toBe(400);

    const recordKey = randomUUID();
    const body = { scanKey: key, fn: 'move', subject, values: { grossWeight: '12.5', netWeight: '11', dimension: '' } };
    const stored = await ok<ScanValueRow>('POST', '/handheld/scanValue/record', body, recordKey);
    expect(stored).toMatchObject({ scanKey: key, fn: 'move', subject, values: { grossWeight: '12.5', netWeight: '11' }, login: 'admin' });
    expect(stored.answer).toMatchObject({ docNo: moved.docNo });
    // Sent again (the offline queue's replay, or another key for the same confirmation): kept once, as first stored.
    expect(await ok<ScanValueRow>('POST', '/handheld/scanValue/record', body, recordKey)).toEqual(stored);
    expect((await ok<ScanValueRow>('POST', '/handheld/scanValue/record', { ...body, values: { grossWeight: '99' } })).values).toEqual({ grossWeight: '12.5', netWeight: '11' });

    const rows = (await ok<{ rows: ScanValueRow[] }>('GET', `/handheld/scanValue/list?fn=move&scanKey=${key}`)).rows;
    expect(rows).toEqual([stored]);
    expect((await ok<{ rows: ScanValueRow[] }>('GET', `/handheld/scanValue/list?fn=count&scanKey=${key}`)).rows).toEqual([]);
  });
});

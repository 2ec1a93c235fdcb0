import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandheldConfigDetail, HandheldDefinition, HandheldFlowAnswer, ScanValueRow } from '../../src/common/handheld-api.js';
import { SHIPPED_COUNT, SHIPPED_MOVE, SHIPPED_PICK, SHIPPED_RECEIVE } from '../../src/common/handheld-api.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * The runtime's functions through the real server: receive, move, count and pick have shipped
 * flows; a move, count or pick configuration naming an action or target field no code has is
 * refused naming the field; the dialog values are stored with a confirmation the user's key applied (once, whatever
 * the retries) and read back, and are refused for a key that applied nothing.
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
  it('runs the shipped receive, move, count and pick flows when nothing is published', async () => {
    for (const [fn, shipped] of [
      ['receive', SHIPPED_RECEIVE],
      ['move', SHIPPED_MOVE],
      ['count', SHIPPED_COUNT],
      ['pick', SHIPPED_PICK],
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

  it('refuses to publish a pick configuration whose step fills a field no pick action fills, naming the field and the target', async () => {
    const made = await ok<HandheldConfigDetail>('POST', '/handheld/config/create', { code: `pick-${tag}`, name: 'pick', fn: 'pick' });
    expect(made.draft).toEqual(SHIPPED_PICK);
    const draft: HandheldDefinition = structuredClone(made.draft);
    // The tote step would fill the pick's location; the order search a field of another function.
    draft.steps[3] = { ...draft.steps[3], targetField: 'toLocation' };
    draft.orderSearch = { ...draft.orderSearch!, targetField: 'ticketNo' };
    draft.steps.push({ scanName: 'reason', prompt: '', action: 'pick.shortReason', targetField: 'reason', optional: true });
    await ok('POST', '/handheld/config/save', { id: made.id, name: 'pick', status: 'active', draft });
    const refused = await call('POST', '/handheld/config/publish', { id: made.id });
    expect(refused.statusCode).toBe(400);
    const body = json<{ code: string; details: Array<{ field: string; code: string; message: string }> }>(refused);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details.map((d) => [d.field, d.code])).toEqual([
      ['orderSearch.targetField', 'HH_TARGET_UNKNOWN'],
      ['steps[3].targetField', 'HH_TARGET_UNKNOWN'],
    ]);
    expect(body.details[1].message).toContain('toLocation');
    expect(body.details[1].message).toContain('pick.scanTote');
    // Put right (the tote fills the LPN picked into), it publishes and the runtime is served it.
    draft.steps[3].targetField = 'toLpn';
    draft.orderSearch.targetField = 'code';
    await ok('POST', '/handheld/config/save', { id: made.id, name: 'pick', status: 'active', draft });
    expect((await ok<HandheldConfigDetail>('POST', '/handheld/config/publish', { id: made.id })).publishedVersion).toBe(1);
    const served = await ok<HandheldFlowAnswer>('GET', '/handheld/flow?fn=pick');
    expect([served.code, served.version, served.definition.steps.map((s) => s.action)]).toEqual([
      `pick-${tag}`,
      1,
      ['pick.scanLocation', 'pick.scanItem', 'pick.confirmQty', 'pick.scanTote', 'pick.shortReason'],
    ]);
    // Inactive again, the shipped flow is served.
    await ok('POST', '/handheld/config/save', { id: made.id, name: 'pick', status: 'inactive', draft });
    expect((await ok<HandheldFlowAnswer>('GET', '/handheld/flow?fn=pick')).definition).toEqual(SHIPPED_PICK);
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

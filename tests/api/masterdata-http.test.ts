import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { buildTestApp, createUser, injectAs, json, type TestApp } from '../helpers/app.js';
import { MODULES } from '../../src/server/modules/index.js';

/** The master-data pages through the real generic API: sign-in, rights, scope, behaviours. */
let t: TestApp;
let clerkWh1: string;
let clerkWh2: string;
let viewer: string;

beforeAll(async () => {
  t = await buildTestApp();
  await loadDemoData(t.database.db, MODULES);
  const rights = ['masterdata:view', 'masterdata:add', 'masterdata:edit', 'masterdata.loa:generate'] as const;
  clerkWh1 = await createUser(t, { loginAccount: 'clerk1', rights: [...rights], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  clerkWh2 = await createUser(t, { loginAccount: 'clerk2', rights: [...rights], projectCodes: ['PRJ1'], warehouseCodes: ['WH2'] });
  viewer = await createUser(t, { loginAccount: 'viewer', rights: ['masterdata:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
});

afterAll(async () => {
  await t?.close();
});

const generate = (token: string, inputs: Record<string, string | number>) =>
  injectAs(t.app, token, {
    method: 'POST',
    url: '/api/generic/behavior',
    payload: { moduleCode: 'masterdata', functionCode: 'loa', behaviour: 'generate', keys: [], inputs },
  });

const RANGES = { aisleFrom: 'X', aisleTo: 'Y', bayFrom: '01', bayTo: '03', levelFrom: 1, levelTo: 2, zone: 'ZX' };

describe('generate locations through /api/generic/behavior', () => {
  it('creates the ranges in the session warehouse and says how many', async () => {
    const response = await generate(clerkWh1, RANGES);
    expect(response.statusCode, response.body).toBe(200);
    const body = json<{ result: { created: number; skippedCount: number }; messageCode: string; messageParams: Record<string, number> }>(response);
    expect(body.result).toMatchObject({ created: 12, skippedCount: 0 });
    expect(body).toMatchObject({ messageCode: 'md.behaviour.generateLocationsDone', messageParams: { created: 12, skipped: 0 } });
    const rows = await t.database.db
      .selectFrom('location')
      .innerJoin('warehouse', 'warehouse.id', 'location.warehouse_id')
      .select(['warehouse.code as warehouse', 'location.code', 'location.zone', 'location.created_by'])
      .where('location.zone', '=', 'ZX')
      .orderBy('location.code')
      .execute();
    expect(rows.map((r) => r.code)).toEqual(['X-01-1', 'X-01-2', 'X-02-1', 'X-02-2', 'X-03-1', 'X-03-2', 'Y-01-1', 'Y-01-2', 'Y-02-1', 'Y-02-2', 'Y-03-1', 'Y-03-2']);
    expect(new Set(rows.map((r) => `${r.warehouse}/${r.created_by}`))).toEqual(new Set(['WH1/clerk1']));
  });

  it('skips and reports what exists on a second run, and another warehouse gets its own', async () => {
    const again = json<{ result: { created: number; skippedCount: number; skipped: string[] } }>(await generate(clerkWh1, RANGES));
    expect(again.result).toMatchObject({ created: 0, skippedCount: 12 });
    expect(again.result.skipped).toContain('Y-03-2');
    const other = json<{ result: { created: number } }>(await generate(clerkWh2, RANGES));
    expect(other.result.created).toBe(12);
  });

  it('answers a bad range with its code and changes nothing', async () => {
    const response = await generate(clerkWh1, { ...RANGES, aisleFrom: 'Z', aisleTo: 'W' });
    expect(response.statusCode).toBe(400);
    expect(json<{ code: string }>(response).code).toBe('LOCATION_RANGE_INVALID');
  });

  it('is refused without the add right', async () => {
    const response = await generate(viewer, { ...RANGES, zone: 'ZV', aisleFrom: 'V', aisleTo: 'V' });
    expect(response.statusCode).toBe(403);
    const count = await t.database.db.selectFrom('location').select((eb) => eb.fn.countAll<number>().as('n')).where('zone', '=', 'ZV').executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });
});

describe('master-data pages through /api/generic/selection', () => {
  it('lists the SKUs of the session project with a filter and a sort', async () => {
    const response = await injectAs(t.app, clerkWh1, {
      method: 'POST',
      url: '/api/generic/selection',
      payload: {
        moduleCode: 'masterdata',
        functionCode: 'sku',
        conditions: { combinator: 'and', rules: [{ field: 'expiry_control', operator: '=', value: true }] },
        sort: [{ field: 'code', direction: 'desc' }],
        page: 1,
        pageSize: 10,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = json<{ rows: Array<{ code: string; shelf_life_days: number }>; total: number }>(response);
    expect(body.total).toBe(100);
    expect(body.rows[0].code).toBe('FF-2100');
    expect(body.rows.every((r) => r.shelf_life_days > 0)).toBe(true);
  });

  it('lists only the locations of the session warehouse', async () => {
    const select = (token: string) =>
      injectAs(t.app, token, {
        method: 'POST',
        url: '/api/generic/selection',
        payload: { moduleCode: 'masterdata', functionCode: 'loa', conditions: { combinator: 'and', rules: [{ field: 'zone', operator: '=', value: 'DOCK' }] }, page: 1, pageSize: 50 },
      });
    const wh1 = json<{ total: number }>(await select(clerkWh1));
    const wh2 = json<{ total: number }>(await select(clerkWh2));
    expect(wh1.total).toBe(12);
    expect(wh2.total).toBe(12);
    const ids1 = json<{ rows: Array<{ _key: number }> }>(await select(clerkWh1)).rows.map((r) => r._key);
    const ids2 = json<{ rows: Array<{ _key: number }> }>(await select(clerkWh2)).rows.map((r) => r._key);
    expect(ids1.filter((id) => ids2.includes(id))).toEqual([]);
  });

  it('holds and releases locations with the sql: behaviours', async () => {
    const page = json<{ rows: Array<{ _key: number; code: string }> }>(
      await injectAs(t.app, clerkWh1, {
        method: 'POST',
        url: '/api/generic/selection',
        payload: { moduleCode: 'masterdata', functionCode: 'loa', conditions: { combinator: 'and', rules: [{ field: 'zone', operator: '=', value: 'ZX' }] }, page: 1, pageSize: 2 },
      }),
    );
    const keys = page.rows.map((r) => r._key);
    const run = (behaviour: string) =>
      injectAs(t.app, clerkWh1, { method: 'POST', url: '/api/generic/behavior', payload: { moduleCode: 'masterdata', functionCode: 'loa', behaviour, keys } });
    const hold = await run('hold');
    expect(hold.statusCode, hold.body).toBe(200);
    const held = await t.database.db.selectFrom('location').select('status').where('id', 'in', keys).execute();
    expect(held.map((r) => r.status)).toEqual(['hold', 'hold']);
    // Holding again is refused: the behaviour is enabled only for active locations.
    expect((await run('hold')).statusCode).toBe(409);
    expect((await run('release')).statusCode).toBe(200);
  });
});

describe('the multilingual texts of /mult', () => {
  it('are answered to every signed-in user in the language of the call, only where that language has a text', async () => {
    await t.database.db
      .insertInto('mult_text')
      .values({ text_code: 'menu.sku', text_en: 'Articles', text_zh: '物料', text_zh_tw: null, text_kor: '', text_th: null, text_jp: null, created_by: 'test', updated_by: 'test' })
      .execute();
    const textsIn = async (language: string) => {
      const response = await injectAs(t.app, viewer, { method: 'GET', url: '/api/masterdata/texts', headers: { 'x-language': language } });
      expect(response.statusCode, response.body).toBe(200);
      return json<{ texts: Record<string, string> }>(response).texts;
    };
    expect((await textsIn('en'))['menu.sku']).toBe('Articles');
    expect((await textsIn('zh'))['menu.sku']).toBe('物料');
    expect(await textsIn('zh_tw')).not.toHaveProperty('menu.sku');
    expect(await textsIn('kor')).not.toHaveProperty('menu.sku');
    // The demonstration texts are there too.
    expect((await textsIn('jp')).WELCOME_BANNER).toBe('倉庫システムへようこそ');
    expect((await t.app.inject({ method: 'GET', url: '/api/masterdata/texts' })).statusCode).toBe(401);
  });
});

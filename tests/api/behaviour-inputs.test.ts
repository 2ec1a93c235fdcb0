import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { buildTestApp, createUser, injectAs, json, type TestApp } from '../helpers/app.js';
import { MODULES } from '../../src/server/modules/index.js';

/** Declared behaviour inputs (/loa "generate"): checked with the field rules, all at once, before the handler. */
let t: TestApp;
let clerk: string;

beforeAll(async () => {
  t = await buildTestApp();
  await loadDemoData(t.database.db, MODULES);
  clerk = await createUser(t, {
    loginAccount: 'inputs1',
    rights: ['masterdata:view', 'masterdata:add', 'masterdata:edit', 'masterdata.loa:generate'],
    projectCodes: ['PRJ1'],
    warehouseCodes: ['WH1'],
  });
});

afterAll(async () => {
  await t?.close();
});

const generate = (inputs: Record<string, unknown>) =>
  injectAs(t.app, clerk, {
    method: 'POST',
    url: '/api/generic/behavior',
    payload: { moduleCode: 'masterdata', functionCode: 'loa', behaviour: 'generate', keys: [], inputs },
  });

async function countZone(zone: string): Promise<number> {
  const row = await t.database.db.selectFrom('location').select((eb) => eb.fn.countAll<number>().as('n')).where('zone', '=', zone).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('behaviour inputs of /api/generic/behavior', () => {
  it('refuses every missing and invalid input at once, keyed by input name, and writes nothing', async () => {
    const response = await generate({ aisleFrom: 'Q', bayFrom: '01', levelTo: '', zone: 'ZINP', maxPallets: 'many', maxWeightKg: -1, separator: '-----', colour: 'red' });
    expect(response.statusCode, response.body).toBe(400);
    const body = json<{ code: string; details: { field: string; code: string }[] }>(response);
    expect(body.code).toBe('VALIDATION_FAILED');
    const byField = Object.fromEntries(body.details.map((d) => [d.field, d.code]));
    expect(byField).toEqual({
      aisleTo: 'FIELD_REQUIRED',
      bayTo: 'FIELD_REQUIRED',
      levelFrom: 'FIELD_REQUIRED',
      levelTo: 'FIELD_REQUIRED',
      maxPallets: 'FIELD_TYPE',
      maxWeightKg: 'FIELD_RANGE',
      separator: 'FIELD_TOO_LONG',
      colour: 'FIELD_UNKNOWN',
    });
    expect(await countZone('ZINP')).toBe(0);
  });

  it('runs with valid inputs, defaults applied and numbers parsed', async () => {
    const response = await generate({ aisleFrom: 'Q', aisleTo: 'Q', bayFrom: '01', bayTo: '02', levelFrom: 1, levelTo: '2', zone: 'ZINP', maxPallets: '4' });
    expect(response.statusCode, response.body).toBe(200);
    expect(json<{ result: { created: number } }>(response).result.created).toBe(4);
    const rows = await t.database.db.selectFrom('location').select(['code', 'location_type', 'max_pallets']).where('zone', '=', 'ZINP').orderBy('code').execute();
    expect(rows.map((r) => r.code)).toEqual(['Q-01-1', 'Q-01-2', 'Q-02-1', 'Q-02-2']);
    expect(rows.every((r) => r.location_type === 'storage' && Number(r.max_pallets) === 4)).toBe(true);
  });
});

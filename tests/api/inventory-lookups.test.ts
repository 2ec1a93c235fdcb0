import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RightName } from '../../src/common/rights.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * The look-ups behind the inventory screens' choices: the reason codes of a document type, read
 * with the view right of that type's page (the hold page's reason dropdown needs no adjustment
 * right), and the locations offered with their names.
 */

let t: TestApp;
let admin: string;
let holdClerk: string;
let counter: string;

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  admin = await signIn(t.app);
  holdClerk = await createUser(t, { loginAccount: 'lookup-hold', rights: ['inventory.invHold:view'] as RightName[], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  counter = await createUser(t, { loginAccount: 'lookup-count', rights: ['inventory.cycleCount:view'] as RightName[], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  await db
    .insertInto('inv_code')
    .values([
      { code_type: 'hold', code: 'LK-QA', description: 'Quality check', created_by: 't', updated_by: 't' },
      { code_type: 'hold', code: 'LK-OLD', description: 'No longer used', active: false, created_by: 't', updated_by: 't' },
      { code_type: 'adjust', code: 'LK-DMG', description: 'Damaged', requires_approval: true, created_by: 't', updated_by: 't' },
      { code_type: 'count', code: 'LK-CNT', description: 'Counted', created_by: 't', updated_by: 't' },
    ])
    .execute();
});

afterAll(async () => {
  await t?.close();
});

const reasons = (token: string, type: string) => injectAs(t.app, token, { method: 'GET', url: `/api/inventory/reasonCode?type=${type}` });
type ReasonAnswer = { items: { code: string; description: string; requires_approval: boolean }[] };

describe('reason codes of a document type', () => {
  it("answers the active codes of the type to a holder of the view right of that type's page", async () => {
    const hold = await reasons(holdClerk, 'hold');
    expect(hold.statusCode, hold.body).toBe(200);
    const codes = json<ReasonAnswer>(hold).items.map((i) => i.code);
    expect(codes).toContain('LK-QA');
    expect(codes).not.toContain('LK-OLD');
    expect(codes).not.toContain('LK-DMG');
    expect(json<ReasonAnswer>(await reasons(admin, 'adjust')).items).toContainEqual({ code: 'LK-DMG', description: 'Damaged', requires_approval: true });
    expect(json<ReasonAnswer>(await reasons(counter, 'count')).items.map((i) => i.code)).toContain('LK-CNT');
  });

  it("refuses the codes of a type whose page the caller may not view, an unknown type and a caller without a session", async () => {
    expect((await reasons(holdClerk, 'adjust')).statusCode).toBe(403);
    expect((await reasons(holdClerk, 'count')).statusCode).toBe(403);
    expect((await reasons(counter, 'hold')).statusCode).toBe(403);
    expect((await reasons(admin, 'bogus')).statusCode).toBe(400);
    expect((await reasons(admin, '')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/inventory/reasonCode?type=hold' })).statusCode).toBe(401);
  });
});

describe('location look-up', () => {
  it("offers the session warehouse's locations by the start of their code, with their names", async () => {
    const db = t.database.db;
    const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
    await db.insertInto('location').values({ warehouse_id: warehouse.id, code: 'LK-01-01', description: 'Lookup shelf', created_by: 't', updated_by: 't' }).execute();
    const response = await injectAs(t.app, admin, { method: 'GET', url: '/api/inventory/location?code=LK-0' });
    expect(response.statusCode, response.body).toBe(200);
    expect(json<{ items: { code: string; description: string | null }[] }>(response).items).toEqual([expect.objectContaining({ code: 'LK-01-01', description: 'Lookup shelf' })]);
    // A LIKE wildcard typed is taken as text.
    expect(json<{ items: unknown[] }>(await injectAs(t.app, admin, { method: 'GET', url: '/api/inventory/location?code=LK%25' })).items).toEqual([]);
  });
});

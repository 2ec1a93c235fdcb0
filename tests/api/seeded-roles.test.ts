import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUserAccount, injectAs, type TestApp } from '../helpers/app.js';

/** A new install has the roles a warehouse recognises, each with sensible rights. */
describe('seeded roles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  it('ships administrator, supervisor, operator, configurator and read-only roles', async () => {
    const names = (await t.database.db.selectFrom('role').select('name').execute()).map((r) => r.name).sort();
    expect(names).toEqual(['Administrator', 'Configurator', 'Operator', 'Read-only', 'Supervisor']);
  });

  it.each([
    ['Operator', 200, 403, 403],
    ['Read-only', 200, 403, 200],
    ['Supervisor', 200, 200, 403],
    ['Configurator', 200, 403, 200],
  ] as const)('%s: views SKUs (%s), adds one (%s), opens the designer (%s)', async (roleName, view, add, designer) => {
    const { uid, token } = await createUserAccount(t, { loginAccount: `as-${roleName.toLowerCase()}`, projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const role = await t.database.db.selectFrom('role').select('id').where('name', '=', roleName).executeTakeFirstOrThrow();
    await t.database.db.insertInto('user_role').values({ user_id: uid, role_id: role.id }).execute();
    const call = (url: string, payload: object) => injectAs(t.app, token, { method: 'POST', url, payload });
    expect((await call('/api/generic/selection', { moduleCode: 'masterdata', functionCode: 'sku', page: 1, pageSize: 5 })).statusCode).toBe(view);
    const added = await call('/api/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: {} });
    expect(added.statusCode === 403 ? 403 : 200).toBe(add);
    const modules = await injectAs(t.app, token, { method: 'GET', url: '/api/generic/modules' });
    expect(modules.statusCode === 403 ? 403 : 200).toBe(designer);
  });

  it.each([
    ['Operator', 200, true, false],
    ['Supervisor', 200, true, true],
    ['Read-only', 200, false, false],
  ] as const)('%s: reads the stock balance (%s), may receive ASNs (%s), approves adjustments (%s)', async (roleName, balance, receive, approve) => {
    const { uid, token } = await createUserAccount(t, { loginAccount: `floor-${roleName.toLowerCase()}`, projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const role = await t.database.db.selectFrom('role').select('id').where('name', '=', roleName).executeTakeFirstOrThrow();
    await t.database.db.insertInto('user_role').values({ user_id: uid, role_id: role.id }).execute();
    const selection = await injectAs(t.app, token, { method: 'POST', url: '/api/generic/selection', payload: { moduleCode: 'inventory', functionCode: 'balance', page: 1, pageSize: 5 } });
    expect(selection.statusCode, selection.body).toBe(balance);
    const verbs = (await t.database.db.selectFrom('role_verb').select('right_code').where('role_id', '=', role.id).execute()).map((r) => r.right_code);
    expect(verbs.includes('inbound.asn:receive')).toBe(receive);
    expect(verbs.includes('inventory.adjust:approve')).toBe(approve);
  });
});

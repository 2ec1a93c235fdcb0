import { afterAll, beforeAll, expect, it } from 'vitest';
import { RIGHT_ACTIONS as SCHEMA_RIGHT_ACTIONS } from '../../engine/schema/index.js';
import { RIGHT_ACTIONS } from '../../src/common/rights.js';
import { buildTestApp, createUser, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/** The "Other rights" tab of /role: verbs granted through the engine, guarded by the role.verb writer. */
let t: TestApp;
let admin: string;
let roleId: number;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  roleId = (await t.database.db.insertInto('role').values({ name: 'Location planners', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
});

const grant = (token: string) =>
  injectAs(t.app, token, { method: 'POST', url: '/api/generic/adding', payload: { moduleCode: 'identity', functionCode: 'roleVerb', record: { role_id: roleId, right_code: 'masterdata.loa:generate' } } });

it('page definitions and the server share the four page actions', () => {
  expect([...SCHEMA_RIGHT_ACTIONS]).toEqual([...RIGHT_ACTIONS]);
});

it('offers the declared verbs and lets an administrator grant one to a role', async () => {
  const options = await injectAs(t.app, admin, { method: 'POST', url: '/api/generic/dropdown', payload: { moduleCode: 'identity', functionCode: 'roleVerb', field: 'right_code' } });
  expect(json<{ options: Array<{ value: string }> }>(options).options.map((o) => o.value)).toContain('masterdata.loa:generate');
  const granted = await grant(admin);
  expect(granted.statusCode, granted.body).toBe(200);
  const rows = await t.database.db.selectFrom('role_verb').select('right_code').where('role_id', '=', roleId).execute();
  expect(rows.map((r) => r.right_code)).toEqual(['masterdata.loa:generate']);
});

it('refuses a role editor handing out a verb it does not hold itself', async () => {
  const editor = await createUser(t, {
    loginAccount: 'role-editor',
    rights: ['identity:view', 'identity:add', 'identity:edit', 'identity:delete'],
    projectCodes: ['PRJ1'],
    warehouseCodes: ['WH1'],
  });
  await t.database.db.deleteFrom('role_verb').where('role_id', '=', roleId).execute();
  const refused = await grant(editor);
  expect(refused.statusCode).toBe(403);
  expect(json(refused)).toMatchObject({ code: 'FORBIDDEN', params: { right: 'masterdata.loa:generate' } });
  expect(await t.database.db.selectFrom('role_verb').select('id').where('role_id', '=', roleId).execute()).toEqual([]);
});

it('the module rights tab offers the modules rights are named after, and a right added there opens the page', async () => {
  const options = await injectAs(t.app, admin, { method: 'POST', url: '/api/generic/dropdown', payload: { moduleCode: 'identity', functionCode: 'rolePermission', field: 'module_code' } });
  expect(options.statusCode, options.body).toBe(200);
  const modules = json<{ options: Array<{ value: string }> }>(options).options.map((o) => o.value);
  expect(modules).toEqual(expect.arrayContaining(['home', 'identity', 'masterdata', 'transport']));
  expect(modules).not.toContain('loa');
  const added = await injectAs(t.app, admin, {
    method: 'POST',
    url: '/api/generic/adding',
    payload: { moduleCode: 'identity', functionCode: 'rolePermission', record: { role_id: roleId, module_code: 'masterdata', can_view: true } },
  });
  expect(added.statusCode, added.body).toBe(200);
  const { uid, token } = await createUserAccount(t, { loginAccount: 'planner', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  await t.database.db.insertInto('user_role').values({ user_id: uid, role_id: roleId }).execute();
  const locations = await injectAs(t.app, token, { method: 'POST', url: '/api/generic/selection', payload: { moduleCode: 'masterdata', functionCode: 'loa', page: 1, pageSize: 5 } });
  expect(locations.statusCode, locations.body).toBe(200);
});

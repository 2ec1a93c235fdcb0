import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, createUserAccount, injectAs, json, signIn, TEST_USER_PASSWORD, type TestApp } from '../helpers/app.js';

/**
 * What an administrator does with users from the screens: batch Enable, Disable and Sign out now on
 * the user list (behaviours of /user and `POST /api/user/signOut`), the role's rules and enabled
 * users tabs, the user's latitude and longitude, and the one-call "New user" (`POST /api/user/save`).
 */
let t: TestApp;
let admin: string;
let adminUid: number;
let otherProjectUid: number;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  const db = t.database.db;
  adminUid = Number((await db.selectFrom('app_user').select('id').where('login_account', '=', 'admin').executeTakeFirstOrThrow()).id);
  const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
  await db.insertInto('project').values({ organization_id: org.id, code: 'PRJ2', name: 'Second', created_by: 'test', updated_by: 'test' }).execute();
  otherProjectUid = (await createUserAccount(t, { loginAccount: 'elsewhere', projectCodes: ['PRJ2'] })).uid;
});
afterAll(async () => {
  await t?.close();
});

const post = (token: string, url: string, payload: unknown) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown> });
const behaviour = (token: string, code: string, keys: unknown, extra: Record<string, unknown> = {}) =>
  post(token, '/generic/behavior', { moduleCode: 'identity', functionCode: 'user', behaviour: code, keys, ...extra });
const signInStatus = (loginAccount: string, password = TEST_USER_PASSWORD) => t.app.inject({ method: 'POST', url: '/api/user/login', payload: { loginAccount, password } });
const enabledOf = async (uid: number) => (await t.database.db.selectFrom('app_user').select('enabled').where('id', '=', uid).executeTakeFirstOrThrow()).enabled;
const status = (token: string) => injectAs(t.app, token, { method: 'GET', url: '/api/user/status' });

describe('batch Enable and Disable on the user list', () => {
  it('previews how many users, disables two in one call (they cannot sign in) and enables them again', async () => {
    const a = await createUserAccount(t, { loginAccount: 'batch-a', projectCodes: ['PRJ1'] });
    const b = await createUserAccount(t, { loginAccount: 'batch-b', projectCodes: ['PRJ1'] });
    const preview = await behaviour(admin, 'disable', [a.uid, b.uid], { preview: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(json(preview)).toMatchObject({ messageCode: 'md.behaviour.user.disablePreview', messageParams: { count: 2 } });
    expect(json(preview)).not.toHaveProperty('refusal');
    expect(await enabledOf(a.uid)).toBe(true);

    const run = await behaviour(admin, 'disable', [a.uid, b.uid]);
    expect(run.statusCode, run.body).toBe(200);
    expect(json(run)).toMatchObject({ messageCode: 'md.behaviour.user.disableDone', messageParams: { count: 2 } });
    expect([await enabledOf(a.uid), await enabledOf(b.uid)]).toEqual([false, false]);
    expect((await signInStatus('batch-a')).statusCode).not.toBe(200);
    expect((await signInStatus('batch-b')).statusCode).not.toBe(200);
    // Disabling ended the sessions they had.
    expect((await status(a.token)).statusCode).toBe(401);

    const enabled = await behaviour(admin, 'enable', [a.uid, b.uid]);
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect((await signInStatus('batch-a')).statusCode).toBe(200);
  });

  it("refuses to disable the administrator's own account, in the preview and the run, and changes no one", async () => {
    const other = await createUserAccount(t, { loginAccount: 'batch-c', projectCodes: ['PRJ1'] });
    const preview = await behaviour(admin, 'disable', [other.uid, adminUid], { preview: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(json(preview)).toMatchObject({ messageParams: { count: 2 }, refusal: { code: 'USER_SELF_DISABLE', message: 'You cannot disable your own account.' } });
    const run = await behaviour(admin, 'disable', [other.uid, adminUid]);
    expect(run.statusCode).toBe(409);
    expect(json(run)).toMatchObject({ code: 'USER_SELF_DISABLE', message: 'You cannot disable your own account.' });
    expect(await enabledOf(other.uid)).toBe(true);
    expect(await enabledOf(adminUid)).toBe(true);
    const route = await post(admin, '/user/batchUpdate', { uids: [adminUid], enabled: false });
    expect(route.statusCode).toBe(409);
    expect(json(route)).toMatchObject({ code: 'USER_SELF_DISABLE' });
    // Enabling oneself is harmless.
    expect((await behaviour(admin, 'enable', [adminUid])).statusCode).toBe(200);
  });

  it('needs a session and the user edit right; a project administrator reaches only users of its project', async () => {
    const target = await createUserAccount(t, { loginAccount: 'batch-d', projectCodes: ['PRJ1'] });
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/generic/behavior', payload: { moduleCode: 'identity', functionCode: 'user', behaviour: 'disable', keys: [target.uid] } });
    expect(anonymous.statusCode).toBe(401);
    const viewer = await createUser(t, { loginAccount: 'user-viewer', rights: ['identity.user:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    expect((await behaviour(viewer, 'disable', [target.uid])).statusCode).toBe(403);
    expect((await post(viewer, '/user/signOut', { uids: [target.uid] })).statusCode).toBe(403);
    expect(await enabledOf(target.uid)).toBe(true);

    const projectAdmin = await createUser(t, { loginAccount: 'prj1-admin', rights: ['identity.user:view', 'identity.user:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const foreign = await behaviour(projectAdmin, 'disable', [target.uid, otherProjectUid]);
    expect(foreign.statusCode).toBe(404);
    expect(await enabledOf(target.uid)).toBe(true);
    expect(await enabledOf(otherProjectUid)).toBe(true);
    expect((await post(projectAdmin, '/user/signOut', { uids: [otherProjectUid] })).statusCode).toBe(404);
    // Nor an administrator's account.
    expect((await behaviour(projectAdmin, 'disable', [adminUid])).statusCode).toBe(403);
    expect(await enabledOf(adminUid)).toBe(true);
    const own = await behaviour(projectAdmin, 'disable', [target.uid]);
    expect(own.statusCode, own.body).toBe(200);
    expect(await enabledOf(target.uid)).toBe(false);
  });
});

describe('Sign out now', () => {
  it('ends every session of the selected users: their next call answers 401, and they may sign in again', async () => {
    const a = await createUserAccount(t, { loginAccount: 'out-a', projectCodes: ['PRJ1'] });
    const b = await createUserAccount(t, { loginAccount: 'out-b', projectCodes: ['PRJ1'] });
    expect((await status(a.token)).statusCode).toBe(200);
    const preview = await behaviour(admin, 'signOut', [a.uid], { preview: true });
    expect(json(preview)).toMatchObject({ messageCode: 'md.behaviour.user.signOutPreview', messageParams: { count: 1 } });
    expect((await status(a.token)).statusCode).toBe(200);

    const run = await behaviour(admin, 'signOut', [a.uid]);
    expect(run.statusCode, run.body).toBe(200);
    expect(json(run)).toMatchObject({ messageParams: { count: 1, sessions: 1 } });
    expect((await status(a.token)).statusCode).toBe(401);
    expect((await status(b.token)).statusCode).toBe(200);

    const route = await post(admin, '/user/signOut', { uids: [b.uid] });
    expect(route.statusCode, route.body).toBe(200);
    expect(json(route)).toEqual({ users: 1, ended: 1 });
    expect((await status(b.token)).statusCode).toBe(401);
    expect((await signInStatus('out-a')).statusCode).toBe(200);
  });

  it("refuses the caller's own account and bad input (400, never 500)", async () => {
    const self = await post(admin, '/user/signOut', { uids: [adminUid] });
    expect(self.statusCode).toBe(409);
    expect(json(self)).toMatchObject({ code: 'USER_SELF_SIGN_OUT' });
    expect((await behaviour(admin, 'signOut', [adminUid])).statusCode).toBe(409);
    expect((await status(admin)).statusCode).toBe(200);
    for (const body of [{}, { uids: [] }, { uids: ['x'] }, { uids: [0] }, { uids: 'all' }, { uids: [1.5] }]) {
      const response = await post(admin, '/user/signOut', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    for (const keys of ['x', [], ['x']]) {
      const response = await behaviour(admin, 'signOut', keys);
      expect(response.statusCode, JSON.stringify(keys)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, JSON.stringify(keys)).toBeLessThan(500);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/user/signOut', payload: { uids: [1] } })).statusCode).toBe(401);
    expect((await post(admin, '/user/signOut', { uids: [999999] })).statusCode).toBe(404);
  });
});

describe('latitude and longitude of a user', () => {
  it('are saved within -90..90 and -180..180 and refused outside, by the form and by /user/save', async () => {
    const { uid } = await createUserAccount(t, { loginAccount: 'geo', projectCodes: ['PRJ1'] });
    const row = await t.database.db.selectFrom('app_user').select('updated_at').where('id', '=', uid).executeTakeFirstOrThrow();
    const find = await post(admin, '/generic/selection', { moduleCode: 'identity', functionCode: 'user', page: 1, pageSize: 5, conditions: { combinator: 'and', rules: [{ field: 'login_account', operator: '=', value: 'geo' }] } });
    expect(find.statusCode, find.body).toBe(200);
    const version = json<{ rows: { _version: string }[] }>(find).rows[0]._version;
    expect(row.updated_at).toBeTruthy();
    const update = (record: Record<string, unknown>, v = version) => post(admin, '/generic/updating', { moduleCode: 'identity', functionCode: 'user', key: uid, version: v, record });
    const far = await update({ latitude: '91', longitude: '181' });
    expect(far.statusCode).toBe(400);
    expect(json<{ details: { field: string }[] }>(far).details.map((d) => d.field).sort()).toEqual(['latitude', 'longitude']);
    const ok = await update({ latitude: '13.7563309', longitude: '-100.5017651' });
    expect(ok.statusCode, ok.body).toBe(200);
    const stored = await t.database.db.selectFrom('app_user').select(['latitude', 'longitude']).where('id', '=', uid).executeTakeFirstOrThrow();
    expect([Number(stored.latitude), Number(stored.longitude)]).toEqual([13.7563309, -100.5017651]);

    const save = (profile: Record<string, unknown>) => post(admin, '/user/save', { uid, loginAccount: 'geo', displayName: 'geo', profile });
    for (const profile of [{ latitude: '-90.5' }, { longitude: 180.01 }, { latitude: 'north' }]) {
      const refused = await save(profile);
      expect(refused.statusCode, JSON.stringify(profile)).toBe(400);
    }
    expect((await save({ latitude: -90, longitude: 180 })).statusCode).toBe(200);
  });
});

describe('the tabs of a role', () => {
  it("show the role's rules and only its enabled users", async () => {
    const db = t.database.db;
    const role = await db.insertInto('role').values({ name: 'Tab role', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
    const rule = await db.insertInto('access_rule').values({ name: 'Own warehouse only', rule_type: 'warehouse', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('role_rule').values({ role_id: role.id, rule_id: rule.id }).execute();
    const on = await createUserAccount(t, { loginAccount: 'role-on', projectCodes: ['PRJ1'] });
    const off = await createUserAccount(t, { loginAccount: 'role-off', projectCodes: ['PRJ1'] });
    for (const uid of [on.uid, off.uid]) await db.insertInto('user_role').values({ user_id: uid, role_id: role.id, created_by: 'test', updated_by: 'test' }).execute();
    await db.updateTable('app_user').set({ enabled: false }).where('id', '=', off.uid).execute();

    const tab = (subPage: string) => post(admin, '/generic/tab', { moduleCode: 'identity', functionCode: 'role', subPage, parentKey: role.id, page: 1, pageSize: 100 });
    const users = await tab('users');
    expect(users.statusCode, users.body).toBe(200);
    expect(json<{ rows: { user_id: number }[] }>(users).rows.map((r) => Number(r.user_id))).toEqual([on.uid]);
    const rules = await tab('rules');
    expect(rules.statusCode, rules.body).toBe(200);
    expect(json<{ rows: { rule_id: number }[] }>(rules).rows.map((r) => Number(r.rule_id))).toEqual([Number(rule.id)]);
  });
});

describe('New user in one call', () => {
  it('creates the account with its roles, projects and warehouses in one transaction; the user signs in there', async () => {
    const db = t.database.db;
    const project = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
    const role = await db.selectFrom('role').select('id').orderBy('id').executeTakeFirstOrThrow();
    const body = { loginAccount: 'one.dialog', displayName: 'One dialog', email: 'one.dialog@example.com', password: 'On3!Dialog2026', projectIds: [project.id], warehouseIds: [warehouse.id], roleIds: [role.id] };
    const weak = await post(admin, '/user/save', { ...body, password: 'weak' });
    expect(weak.statusCode).toBe(400);
    // A grant that does not exist rolls the whole call back: no account is left behind.
    const broken = await post(admin, '/user/save', { ...body, warehouseIds: [999999] });
    expect(broken.statusCode).toBeGreaterThanOrEqual(400);
    expect(broken.statusCode).toBeLessThan(500);
    expect(await db.selectFrom('app_user').select('id').where('login_account', '=', 'one.dialog').executeTakeFirst()).toBeUndefined();

    const saved = await post(admin, '/user/save', body);
    expect(saved.statusCode, saved.body).toBe(200);
    const token = await signIn(t.app, 'one.dialog', 'On3!Dialog2026');
    const answer = json<{ project: { id: number } | null; warehouse: { id: number } | null }>(await status(token));
    expect(Number(answer.project?.id)).toBe(Number(project.id));
    expect(Number(answer.warehouse?.id)).toBe(Number(warehouse.id));
  });
});

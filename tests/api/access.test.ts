import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuAnswer, UserStatus } from '../../src/common/api-types.js';
import { hasRight } from '../../src/server/modules/identity/access/rights.js';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

describe('access model', () => {
  let t: TestApp;
  let admin: string;
  const ids = { prj2: 0, wh2: 0 };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signIn(t.app);
    const db = t.database.db;
    const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
    ids.prj2 = (
      await db
        .insertInto('project')
        .values({ organization_id: org.id, code: 'PRJ2', name: 'Second project', nav_layout: 'top', created_by: 't', updated_by: 't' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    ids.wh2 = (
      await db
        .insertInto('warehouse')
        .values({ organization_id: org.id, code: 'WH2', name: 'Second warehouse', nav_layout: null, created_by: 't', updated_by: 't' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db.insertInto('project_warehouse').values({ project_id: ids.prj2, warehouse_id: ids.wh2 }).execute();
  });
  afterAll(() => t.close());

  const get = <T>(token: string, url: string) => injectAs(t.app, token, { method: 'GET', url }).then((r) => json<T>(r));
  const post = (token: string, url: string, payload: Record<string, unknown> = {}) => injectAs(t.app, token, { method: 'POST', url, payload });

  it('gives the seeded administrator its organization, project and warehouse', async () => {
    const status = await get<UserStatus>(admin, '/api/user/status');
    expect(status.organization?.code).toBe('ORG1');
    expect(status.project?.code).toBe('PRJ1');
    expect(status.warehouse?.code).toBe('WH1');
    expect(status.hasRights).toBe(true);
    expect(status.simulatedBy).toBeNull();
    // Administrators may work in every project.
    expect(status.projects.map((p) => p.code)).toEqual(['PRJ1', 'PRJ2']);
  });

  it('shows the administrator every module, grouped as in the route table', async () => {
    const menu = await get<MenuAnswer>(admin, '/api/user/menu');
    // The groups of the areas here today, in their order; an area added later may bring its own.
    const shipped = ['homeGroup', 'genericGroup', 'masterData', 'inbound', 'outbound', 'inventory', 'billingJobs', 'reports', 'setup', 'transport', 'resPlanning'];
    expect(menu.items.map((i) => i.code).filter((code) => shipped.includes(code))).toEqual(shipped);
    const setup = menu.items.find((i) => i.code === 'setup')!;
    expect(setup.children?.map((c) => [c.code, c.route, c.titleKey])).toEqual([
      ['user', '/user', 'menu.user'],
      ['role', '/role', 'menu.role'],
      ['all_rule', '/all_rule', 'menu.all_rule'],
      ['printer', '/printer', 'menu.printer'],
      ['printJob', '/printJob', 'menu.printJob'],
      ['laundry', '/laundry', 'menu.laundry'],
    ]);
    const routes = menu.items.flatMap((i) => i.children ?? []).map((c) => c.route);
    expect(routes).toHaveLength(new Set(routes).size);
    expect(routes).toEqual(expect.arrayContaining(['/home', '/sku', '/asn', '/so', '/balance', '/job', '/userReport', '/vehicle', '/doOrders', '/mapTo', '/resPlan', '/autoPrint']));
  });

  it('shows the scan-pack entry to a holder of the pack right, whose module the role screen offers', async () => {
    const token = await createUserAccount(t, { loginAccount: 'pack-clerk', rights: ['packing.pack:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] }).then((u) => u.token);
    const menu = await get<MenuAnswer>(token, '/api/user/menu');
    expect(menu.items.map((i) => [i.code, i.children?.map((c) => c.code)])).toEqual([
      ['homeGroup', ['home']],
      ['outbound', ['pack', 'scanToPrintWindow', 'packSplit']],
    ]);
    const entry = await t.database.db.selectFrom('sys_module').select('right_name').where('code', '=', 'pack').executeTakeFirstOrThrow();
    expect(entry.right_name).toBe('packing.pack');
  });

  it('builds a restricted menu from the user rights', async () => {
    const token = await createUserAccount(t, { loginAccount: 'sku-clerk', rights: ['masterdata.sku:view', 'inbound.asn:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] }).then((u) => u.token);
    const menu = await get<MenuAnswer>(token, '/api/user/menu');
    expect(menu.items.map((i) => [i.code, i.children?.map((c) => c.code)])).toEqual([
      ['homeGroup', ['home']],
      ['masterData', ['sku']],
      ['inbound', ['asn']],
    ]);
    const permissions = await get<{ permissions: Array<{ module: string; view: boolean; edit: boolean }> }>(token, '/api/permission');
    expect(permissions.permissions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ module: 'masterdata', subModule: 'sku', view: true, edit: false }),
        expect.objectContaining({ module: 'inbound', subModule: 'asn', view: true, edit: true }),
      ]),
    );
  });

  it('shows a definition screen for a grant of its whole module, and the page answers the same right', async () => {
    const token = await createUserAccount(t, { loginAccount: 'md-viewer', rights: ['masterdata:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] }).then((u) => u.token);
    const menu = await get<MenuAnswer>(token, '/api/user/menu');
    const screens = menu.items.flatMap((i) => i.children?.map((c) => c.code) ?? []);
    expect(screens).toEqual(expect.arrayContaining(['home', 'sku', 'loa', 'ogr', 'mult', 'menu', 'sysModule']));
    expect(screens).not.toContain('asn');
    expect(menu.items.find((i) => i.code === 'setup')).toBeUndefined();
    const view = await t.app.inject({
      method: 'GET',
      url: '/api/generic/module/view?moduleCode=masterdata&functionCode=sku',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(view.statusCode).toBe(200);
    expect(json<{ rights: { view: boolean; edit: boolean } }>(view).rights).toMatchObject({ view: true, edit: false });
  });

  it('answers a page its four rights from the module grant, a sub-module row deciding for its page', async () => {
    const token = await createUserAccount(t, {
      loginAccount: 'md-editor',
      rights: ['masterdata:edit', 'masterdata.sku:view'],
      projectCodes: ['PRJ1'],
      warehouseCodes: ['WH1'],
    }).then((u) => u.token);
    const rightsOf = async (functionCode: string) => {
      const view = await get<{ rights: Record<string, boolean> }>(token, `/api/generic/module/view?moduleCode=masterdata&functionCode=${functionCode}`);
      return view.rights;
    };
    expect(await rightsOf('loa')).toEqual({ view: true, add: false, edit: true, delete: false });
    expect(await rightsOf('sku')).toEqual({ view: true, add: false, edit: false, delete: false });
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/generic/module/view?moduleCode=identity&functionCode=user',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('tells an account without rights to contact an administrator', async () => {
    const token = await createUserAccount(t, { loginAccount: 'bare' }).then((u) => u.token);
    const status = await get<UserStatus>(token, '/api/user/status');
    expect(status.hasRights).toBe(false);
    const scoped = await post(token, '/api/user/list');
    expect(scoped.statusCode).toBe(403);
  });

  it('answers NO_RIGHTS_CONTACT_ADMIN to a user with the right but no project', async () => {
    const token = await createUserAccount(t, { loginAccount: 'no-project', rights: ['identity.user:view'] }).then((u) => u.token);
    const response = await post(token, '/api/user/list');
    expect(response.statusCode).toBe(403);
    expect(json<{ code: string }>(response).code).toBe('NO_RIGHTS_CONTACT_ADMIN');
  });

  it('checks rights programmatically, sub-module rows deciding for their sub-module', async () => {
    const { uid } = await createUserAccount(t, { loginAccount: 'subby', rights: ['inventory:edit', 'inventory.adjust:view'] });
    const user = { userId: uid, isAdmin: false };
    expect(await hasRight(t.database.db, user, 'inventory:edit')).toBe(true);
    expect(await hasRight(t.database.db, user, 'inventory.move:edit')).toBe(true);
    expect(await hasRight(t.database.db, user, 'inventory.adjust:view')).toBe(true);
    expect(await hasRight(t.database.db, user, 'inventory.adjust:edit')).toBe(false);
    expect(await hasRight(t.database.db, user, 'inventory:delete')).toBe(false);
    expect(await hasRight(t.database.db, { userId: uid, isAdmin: true }, 'anything:delete')).toBe(true);
    await t.database.db.updateTable('role').set({ enabled: false }).where('name', '=', 'role of subby').execute();
    expect(await hasRight(t.database.db, user, 'inventory:edit')).toBe(false);
  });

  it('switches the session project and warehouse among the granted ones', async () => {
    const token = await createUserAccount(t, { loginAccount: 'two-sites', rights: ['masterdata.sku:view'], projectCodes: ['PRJ1', 'PRJ2'], warehouseCodes: ['WH1', 'WH2'] }).then((u) => u.token);
    expect((await post(token, '/api/user/project', { code: 'PRJ2' })).statusCode).toBe(200);
    let status = await get<UserStatus>(token, '/api/user/status');
    // PRJ2 runs only in WH2, so the session moves there too, and takes PRJ2's top navigation.
    expect([status.project?.code, status.warehouse?.code, status.navLayout]).toEqual(['PRJ2', 'WH2', 'top']);
    expect((await post(token, '/api/user/whs', { code: 'WH1' })).statusCode).toBe(200);
    status = await get<UserStatus>(token, '/api/user/status');
    expect(status.warehouse?.code).toBe('WH1');
    // A withdrawn grant leaves the session at once.
    await t.database.db.deleteFrom('user_warehouse').where('warehouse_id', '=', (await t.database.db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id).where('user_id', '=', (await t.database.db.selectFrom('app_user').select('id').where('login_account', '=', 'two-sites').executeTakeFirstOrThrow()).id).execute();
    status = await get<UserStatus>(token, '/api/user/status');
    expect(status.warehouse).toBeNull();
  });

  it('lets an administrator simulate a user and release it, with an audit trail', async () => {
    const { uid } = await createUserAccount(t, { loginAccount: 'simulated', rights: ['masterdata.sku:view'], projectCodes: ['PRJ2'], warehouseCodes: ['WH2'] });
    const session = await signIn(t.app);
    expect((await post(session, '/api/user/simulate', { uid })).statusCode).toBe(200);
    let status = await get<UserStatus>(session, '/api/user/status');
    expect(status.user.loginAccount).toBe('simulated');
    expect(status.simulatedBy?.loginAccount).toBe('admin');
    expect(status.project?.code).toBe('PRJ2');
    expect((await get<MenuAnswer>(session, '/api/user/menu')).items.map((i) => i.code)).toEqual(['homeGroup', 'masterData']);
    // While simulating, administrator-only calls and account changes are refused.
    expect((await post(session, '/api/user/simulate', { uid })).statusCode).toBe(403);
    const change = await post(session, '/api/user/changePwd', { oldPassword: 'x', newPassword: 'y', confirmPassword: 'y' });
    expect(json<{ code: string }>(change).code).toBe('NOT_WHILE_SIMULATING');

    expect((await post(session, '/api/user/release')).statusCode).toBe(200);
    status = await get<UserStatus>(session, '/api/user/status');
    expect(status.user.loginAccount).toBe('admin');
    expect(status.simulatedBy).toBeNull();
    const log = await t.database.db.selectFrom('audit_log').select(['action', 'target_user_id']).where('target_user_id', '=', uid).orderBy('id').execute();
    expect(log.map((l) => l.action)).toEqual(['user.simulate', 'user.release']);
  });

  it('refuses simulation to a user who is not an administrator', async () => {
    const { token } = await createUserAccount(t, { loginAccount: 'wannabe', rights: ['identity.user:edit'], projectCodes: ['PRJ1'] });
    const response = await post(token, '/api/user/simulate', { uid: 1 });
    expect(response.statusCode).toBe(403);
    expect(json<{ code: string }>(response).code).toBe('FORBIDDEN');
  });

  describe('user and role administration', () => {
    it('creates a role and a user with grants, and the user signs in with those rights', async () => {
      const role = json<{ id: number }>(
        await post(admin, '/api/role', {
          name: 'Inbound clerk',
          roleType: 'operator',
          roleLevel: 3,
          description: 'Receives goods',
          permissions: [
            { module: 'inbound', view: true, add: true, edit: true },
            { module: 'receive', view: true },
          ],
        }),
      );
      const types = await get<{ roleTypes: string[]; modules: Array<{ code: string }> }>(admin, '/api/role/typeAndPerm');
      expect(types.roleTypes).toContain('operator');
      expect(types.modules.map((m) => m.code)).toContain('asn');

      const saved = await post(admin, '/api/user/save', {
        loginAccount: 'receiver',
        displayName: 'Receiver',
        email: 'receiver@example.com',
        password: 'Rec3ive!Goods',
        projectIds: [ids.prj2],
        warehouseIds: [ids.wh2],
        roleIds: [role.id],
        profile: { firstName: 'Rita', telephone: '+100', gender: 'female' },
      });
      expect(saved.statusCode).toBe(200);
      const { uid } = json<{ uid: number }>(saved);
      const detail = json<{ firstName: string; gender: string; projectIds: number[]; roleIds: number[] }>(await post(admin, '/api/user/findOne', { uid }));
      expect(detail).toMatchObject({ firstName: 'Rita', gender: 'female', projectIds: [ids.prj2], roleIds: [role.id] });

      const token = await signIn(t.app, 'receiver', 'Rec3ive!Goods');
      const menu = await get<MenuAnswer>(token, '/api/user/menu');
      expect(menu.items.find((i) => i.code === 'inbound')?.children?.map((c) => c.code)).toEqual(['po', 'asn', 'asnStatic', 'inbGr', 'receive']);
      const found = json<{ users: Array<{ loginAccount: string }> }>(await post(admin, '/api/role/findOne', { id: role.id }));
      expect(found.users.map((u) => u.loginAccount)).toEqual(['receiver']);

      // Disabling ends the user's sessions.
      expect((await post(admin, '/api/user/batchUpdate', { uids: [uid], enabled: false })).statusCode).toBe(200);
      expect((await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' })).statusCode).toBe(401);
      const disabled = await t.app.inject({ method: 'POST', url: '/api/user/login', payload: { loginAccount: 'receiver', password: 'Rec3ive!Goods' } });
      expect(json<{ code: string }>(disabled).code).toBe('ACCOUNT_DISABLED');
    });

    it('refuses a duplicate login account, an unknown module and a weak password', async () => {
      const dup = await post(admin, '/api/user/save', { loginAccount: 'ADMIN', displayName: 'x', password: 'Val1d!Password' });
      expect(json<{ code: string }>(dup).code).toBe('USER_EXISTS');
      const weak = await post(admin, '/api/user/save', { loginAccount: 'weakling', displayName: 'x', password: 'weak' });
      expect(json<{ code: string }>(weak).code).toBe('PASSWORD_POLICY');
      const module = await post(admin, '/api/role', { name: 'Broken', permissions: [{ module: 'no-such-module', view: true }] });
      expect(json<{ code: string }>(module).code).toBe('VALIDATION_FAILED');
      expect(await t.database.db.selectFrom('role').select('id').where('name', '=', 'Broken').executeTakeFirst()).toBeUndefined();
    });

    it('lets a non-administrator hand out only rights it holds', async () => {
      const { token } = await createUserAccount(t, { loginAccount: 'role-keeper', rights: ['identity.role:view', 'identity.role:add', 'identity.role:edit', 'masterdata.sku:view'], projectCodes: ['PRJ1'] });
      const escalate = await post(token, '/api/role', { name: 'Sneaky', permissions: [{ module: 'identity', subModule: 'user', view: true, edit: true }] });
      expect(escalate.statusCode).toBe(403);
      expect(json<{ params: { right: string } }>(escalate).params.right).toBe('identity.user:view');
      expect(await t.database.db.selectFrom('role').select('id').where('name', '=', 'Sneaky').executeTakeFirst()).toBeUndefined();
      const fine = await post(token, '/api/role', { name: 'SKU readers', permissions: [{ module: 'masterdata', subModule: 'sku', view: true }] });
      expect(fine.statusCode, fine.body).toBe(200);
    });

    it('needs identity.user:add to create and identity.user:edit to change', async () => {
      const { token } = await createUserAccount(t, { loginAccount: 'editor-only', rights: ['identity.user:view', 'identity.user:edit'], projectCodes: ['PRJ1'] });
      const create = await post(token, '/api/user/save', { loginAccount: 'fresh', displayName: 'Fresh', password: 'Fr3sh!Passw0rd' });
      expect(create.statusCode).toBe(403);
      expect(json<{ params: { right: string } }>(create).params.right).toBe('identity.user:add');
    });

    it('ends every session of an account on an administrator request', async () => {
      const { token } = await createUserAccount(t, { loginAccount: 'kicked' });
      const response = await post(admin, '/api/user/logout/loginAccount', { loginAccount: 'kicked' });
      expect(json<{ ended: number }>(response).ended).toBe(1);
      expect((await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' })).statusCode).toBe(401);
    });

    it('offers the grants and roles within the editor reach, and saves the time zone', async () => {
      const all = await get<{ projects: Array<{ code: string }>; organizations: Array<{ code: string }> }>(admin, '/api/user/org');
      expect(all.projects.map((p) => p.code)).toEqual(['PRJ1', 'PRJ2']);
      expect(all.organizations.map((o) => o.code)).toEqual(['ORG1']);
      const { token } = await createUserAccount(t, { loginAccount: 'reach', rights: ['identity.user:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
      const mine = await get<{ projects: Array<{ code: string }>; warehouses: Array<{ code: string }> }>(token, '/api/user/org');
      expect(mine.projects.map((p) => p.code)).toEqual(['PRJ1']);
      expect(mine.warehouses.map((w) => w.code)).toEqual(['WH1']);
      // Only roles below his own level whose every right he holds: not his own role, not the seeded ones.
      const lesser = json<{ id: number }>(await post(admin, '/api/role', { name: 'user readers', permissions: [{ module: 'identity', subModule: 'user', view: true }] }));
      await t.database.db.updateTable('role').set({ role_level: 5 }).where('name', '=', 'role of reach').execute();
      await t.database.db.updateTable('role').set({ role_level: 1 }).where('id', '=', lesser.id).execute();
      const offered = (await get<Array<{ name: string }>>(token, '/api/user/role')).map((r) => r.name);
      expect(offered).toContain('user readers');
      for (const beyond of ['role of reach', 'Administrator', 'Operator', 'Supervisor']) expect(offered).not.toContain(beyond);
      const zone = await injectAs(t.app, token, { method: 'PUT', url: '/api/user/timeZone', payload: { timeZone: 'Asia/Bangkok' } });
      expect(json(zone)).toEqual({ timeZone: 'Asia/Bangkok' });
      expect((await get<UserStatus>(token, '/api/user/status')).user.timeZone).toBe('Asia/Bangkok');
      const bad = await injectAs(t.app, token, { method: 'PUT', url: '/api/user/timeZone', payload: { timeZone: 'Mars/Olympus' } });
      expect(bad.statusCode).toBe(400);
    });

    it('keeps rules and attaches them to roles', async () => {
      const rule = json<{ id: number }>(await post(admin, '/api/rule', { name: 'Everything', ruleType: 'all_rule' }));
      const role = json<{ id: number }>(await post(admin, '/api/role', { name: 'Ruled', ruleIds: [rule.id] }));
      expect(json<{ ruleIds: number[] }>(await post(admin, '/api/role/findOne', { id: role.id })).ruleIds).toEqual([rule.id]);
      expect(json<Array<{ name: string }>>(await post(admin, '/api/rule/fetch')).map((r) => r.name)).toContain('Everything');
      expect(json<{ deleted: number }>(await post(admin, '/api/role/delete', { ids: [role.id] })).deleted).toBe(1);
    });
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeclaredRoute } from '../../src/server/http/access-plugin.js';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * THE proof that every route is guarded (docs/architecture.md, "Scope"): every registered API
 * route is enumerated (the access plugin records each one as it is registered) and none answers
 * without a session, none answers a user without its right, and no record of another project or
 * warehouse is readable or writable.
 */
function concreteUrl(url: string): string {
  return url.replace(/:[A-Za-z_]\w*(\([^)]*\))?/g, '1').replace(/\*$/, 'x');
}

function routeName(route: DeclaredRoute): string {
  return `${route.method} ${route.url}`;
}

async function call(app: FastifyInstance, route: DeclaredRoute, token?: string) {
  const options = {
    method: route.method as 'GET',
    url: concreteUrl(route.url),
    ...(['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) ? { payload: {} } : {}),
  };
  return token ? injectAs(app, token, options) : app.inject(options);
}

describe('route enumeration', () => {
  let t: TestApp;
  let routes: DeclaredRoute[];
  let noRights: string;
  const ids = { prj1: 0, prj2: 0, wh1: 0, wh2: 0 };

  beforeAll(async () => {
    t = await buildTestApp(
      {},
      {
        beforeReady(app) {
          // A route of some future module, declared as it should be: the checks below must catch it too.
          app.post('/api/test/enumeration/sku-edit/:id', { config: { access: { right: 'sku:edit', scope: 'project' } } }, () => ({ ok: true }));
          // A route guarded by an area's own verb (the outbound area declares it), beside view/add/edit/delete.
          app.post('/api/test/enumeration/so-allocate/:id', { config: { access: { right: 'outbound.so:allocate', scope: 'project' } } }, () => ({ ok: true }));
        },
      },
    );
    routes = t.app.apiRoutes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
    const db = t.database.db;
    const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
    const prj1 = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const wh1 = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
    const prj2 = await db
      .insertInto('project')
      .values({ organization_id: org.id, code: 'PRJ2', name: 'Second project', created_by: 'test', updated_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const wh2 = await db
      .insertInto('warehouse')
      .values({ organization_id: org.id, code: 'WH2', name: 'Second warehouse', nav_layout: null, created_by: 'test', updated_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('project_warehouse').values({ project_id: prj2.id, warehouse_id: wh2.id }).execute();
    Object.assign(ids, { prj1: prj1.id, prj2: prj2.id, wh1: wh1.id, wh2: wh2.id });
    noRights = (await createUserAccount(t, { loginAccount: 'no-rights', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] })).token;
  });
  afterAll(() => t.close());

  it('finds the routes of every module, the test route included', () => {
    const names = routes.map(routeName);
    for (const expected of ['POST /api/user/login', 'GET /api/user/status', 'POST /api/user/save', 'POST /api/role', 'GET /api/health', 'POST /api/test/enumeration/sku-edit/:id']) {
      expect(names).toContain(expected);
    }
  });

  it('answers 401 without a session on every route that is not public', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => !('public' in r.access))) {
      const response = await call(t.app, route);
      if (response.statusCode !== 401 || json<{ code: string }>(response).code !== 'UNAUTHENTICATED') {
        failures.push(`${routeName(route)} answered ${response.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('keeps the OpenAPI page and its assets public', async () => {
    expect(routes.filter((r) => r.url.startsWith('/api/docs')).every((r) => 'public' in r.access)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/html/);
    const asset = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui.css' });
    expect(asset.statusCode).toBe(200);
  });

  it('answers 401 to a forged or revoked token as to none', async () => {
    const route = routes.find((r) => routeName(r) === 'GET /api/user/status')!;
    expect((await call(t.app, route, 'A'.repeat(43))).statusCode).toBe(401);
    const token = (await createUserAccount(t, { loginAccount: 'leaver' })).token;
    await injectAs(t.app, token, { method: 'POST', url: '/api/user/logout' });
    expect((await call(t.app, route, token)).statusCode).toBe(401);
  });

  it('answers 403 to a signed-in user without the right on every route that needs one', async () => {
    const guarded = routes.filter((r) => 'right' in r.access || 'admin' in r.access);
    expect(guarded.length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const route of guarded) {
      const response = await call(t.app, route, noRights);
      if (response.statusCode !== 403) failures.push(`${routeName(route)} answered ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('lets the right through: the test route answers a user holding sku:edit in its project', async () => {
    const token = await createUserAccount(t, { loginAccount: 'sku-editor', rights: ['sku:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] }).then((u) => u.token);
    const route = routes.find((r) => r.url === '/api/test/enumeration/sku-edit/:id')!;
    expect((await call(t.app, route, token)).statusCode).toBe(200);
    const viewer = await createUserAccount(t, { loginAccount: 'sku-viewer', rights: ['sku:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] }).then((u) => u.token);
    expect((await call(t.app, route, viewer)).statusCode).toBe(403);
  });

  it('a verb right is granted only as itself: all four actions of its sub-module do not reach it', async () => {
    const route = routes.find((r) => r.url === '/api/test/enumeration/so-allocate/:id')!;
    const clerk = await createUserAccount(t, {
      loginAccount: 'so-clerk',
      rights: ['outbound.so:view', 'outbound.so:add', 'outbound.so:edit', 'outbound.so:delete', 'outbound:edit'],
      projectCodes: ['PRJ1'],
      warehouseCodes: ['WH1'],
    });
    expect((await call(t.app, route, clerk.token)).statusCode).toBe(403);
    const allocator = await createUserAccount(t, { loginAccount: 'so-allocator', rights: ['outbound.so:allocate'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    expect((await call(t.app, route, allocator.token)).statusCode).toBe(200);
  });

  describe('records of another project or warehouse', () => {
    let editor: string;
    let foreignUid: number;
    let ownUid: number;

    beforeAll(async () => {
      editor = (
        await createUserAccount(t, {
          loginAccount: 'prj1-admin',
          rights: ['identity.user:view', 'identity.user:add', 'identity.user:edit', 'identity.role:view', 'identity.role:edit'],
          projectCodes: ['PRJ1'],
          warehouseCodes: ['WH1'],
        })
      ).token;
      foreignUid = (await createUserAccount(t, { loginAccount: 'prj2-clerk', projectCodes: ['PRJ2'], warehouseCodes: ['WH2'] })).uid;
      ownUid = (await createUserAccount(t, { loginAccount: 'prj1-clerk', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] })).uid;
    });

    const post = (url: string, payload: Record<string, unknown>) => injectAs(t.app, editor, { method: 'POST', url, payload });

    it('does not list, read or write a user of another project', async () => {
      const list = json<{ rows: Array<{ loginAccount: string }> }>(await post('/api/user/list', {}));
      const accounts = list.rows.map((r) => r.loginAccount);
      expect(accounts).toContain('prj1-clerk');
      expect(accounts).not.toContain('prj2-clerk');

      const read = await post('/api/user/findOne', { uid: foreignUid });
      expect(read.statusCode).toBe(404);
      expect(json<{ code: string }>(read).code).toBe('NO_RECORD');
      expect((await post('/api/user/findOne', { uid: ownUid })).statusCode).toBe(200);

      const write = await post('/api/user/save', { uid: foreignUid, loginAccount: 'prj2-clerk', displayName: 'taken over' });
      expect(write.statusCode).toBe(404);
      const disable = await post('/api/user/batchUpdate', { uids: [foreignUid], enabled: false });
      expect(disable.statusCode).toBe(404);
      const foreign = await t.database.db.selectFrom('app_user').select(['display_name', 'enabled']).where('id', '=', foreignUid).executeTakeFirstOrThrow();
      expect(foreign).toEqual({ display_name: 'prj2-clerk', enabled: true });
    });

    it('does not put a user of another project into a role, nor show it among the role users', async () => {
      const roleId = json<{ id: number }>(await injectAs(t.app, await signIn(t.app), { method: 'POST', url: '/api/role', payload: { name: 'Shared role', userIds: [foreignUid, ownUid] } })).id;
      const role = json<{ users: Array<{ loginAccount: string }> }>(await post('/api/role/findOne', { id: roleId }));
      expect(role.users.map((u) => u.loginAccount)).toEqual(['prj1-clerk']);
      const write = await post('/api/role', { id: roleId, name: 'Shared role', userIds: [foreignUid] });
      expect(write.statusCode).toBe(404);
    });

    it('does not grant a project or warehouse the editor does not hold', async () => {
      const project = await post('/api/user/save', { uid: ownUid, loginAccount: 'prj1-clerk', displayName: 'clerk', projectIds: [ids.prj1, ids.prj2] });
      expect(json<{ code: string }>(project).code).toBe('OUT_OF_SCOPE');
      const warehouse = await post('/api/user/save', { uid: ownUid, loginAccount: 'prj1-clerk', displayName: 'clerk', warehouseIds: [ids.wh2] });
      expect(json<{ code: string }>(warehouse).code).toBe('OUT_OF_SCOPE');
      const grants = await t.database.db.selectFrom('user_project').select('project_id').where('user_id', '=', ownUid).execute();
      expect(grants.map((g) => g.project_id)).toEqual([ids.prj1]);
    });

    it('does not switch the session into another project or warehouse', async () => {
      const project = await injectAs(t.app, editor, { method: 'POST', url: '/api/user/project', payload: { code: 'PRJ2' } });
      expect(json<{ code: string }>(project).code).toBe('OUT_OF_SCOPE');
      const warehouse = await injectAs(t.app, editor, { method: 'POST', url: '/api/user/whs', payload: { id: ids.wh2 } });
      expect(json<{ code: string }>(warehouse).code).toBe('OUT_OF_SCOPE');
      const status = json<{ project: { code: string }; warehouse: { code: string } }>(await injectAs(t.app, editor, { method: 'GET', url: '/api/user/status' }));
      expect([status.project.code, status.warehouse.code]).toEqual(['PRJ1', 'WH1']);
    });
  });
});

describe('a route that forgets config.access', () => {
  it('makes the app fail to start', async () => {
    let closeDatabase: (() => Promise<void>) | undefined;
    const started = buildTestApp(
      {},
      {
        beforeReady(app) {
          closeDatabase = () => app.database.close();
          app.get('/api/test/forgotten', () => ({ leaked: true }));
        },
      },
    );
    await expect(started).rejects.toThrow(/GET \/api\/test\/forgotten declares no config\.access/);
    await closeDatabase?.();
  });

  it('makes the app fail to start with a malformed right', async () => {
    let closeDatabase: (() => Promise<void>) | undefined;
    const started = buildTestApp(
      {},
      {
        beforeReady(app) {
          closeDatabase = () => app.database.close();
          app.get('/api/test/malformed', { config: { access: { right: 'sku' as 'sku:view', scope: 'project' } } }, () => ({}));
        },
      },
    );
    await expect(started).rejects.toThrow(/invalid config\.access/);
    await closeDatabase?.();
  });
});

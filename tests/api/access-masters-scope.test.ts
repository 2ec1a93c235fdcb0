import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * The user, project and warehouse masters through the engine show a caller only
 * what it shares or holds grants for (administrators see all), never a secret column, and every
 * engine route asks for a right (`/generic/uom` included).
 */
describe('scope of the access masters through the engine', () => {
  let t: TestApp;
  let admin: string;
  const select = async (token: string, moduleCode: string, functionCode: string) => {
    const response = await injectAs(t.app, token, { method: 'POST', url: '/api/generic/selection', payload: { moduleCode, functionCode, page: 1, pageSize: 100 } });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ rows: Array<Record<string, unknown>> }>(response).rows;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
    const prj2 = await db.insertInto('project').values({ organization_id: org.id, code: 'PRJ2', name: 'Second', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
    const wh2 = await db.insertInto('warehouse').values({ organization_id: org.id, code: 'WH2', name: 'Second', nav_layout: null, created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('project_warehouse').values({ project_id: prj2.id, warehouse_id: wh2.id }).execute();
    await createUser(t, { loginAccount: 'only-prj1', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    await createUser(t, { loginAccount: 'only-prj2', projectCodes: ['PRJ2'], warehouseCodes: ['WH2'] });
    await createUser(t, { loginAccount: 'both', projectCodes: ['PRJ1', 'PRJ2'], warehouseCodes: ['WH1', 'WH2'] });
    admin = await signIn(t.app);
  });
  afterAll(() => t?.close());

  it('lists only users who share a project with the caller, and no secret column', async () => {
    const viewer = await createUser(t, { loginAccount: 'user-viewer', rights: ['identity.user:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const rows = await select(viewer, 'identity', 'user');
    const accounts = rows.map((r) => r.login_account);
    expect(accounts).toEqual(expect.arrayContaining(['only-prj1', 'both', 'user-viewer']));
    expect(accounts).not.toContain('only-prj2');
    for (const row of rows) {
      for (const secret of ['password_hash', 'totp_secret', 'totp_pending_secret', 'failed_logins', 'locked_until']) expect(row).not.toHaveProperty(secret);
    }
    // Another project's user cannot be reached by key either.
    const other = await t.database.db.selectFrom('app_user').select('id').where('login_account', '=', 'only-prj2').executeTakeFirstOrThrow();
    const tab = await injectAs(t.app, viewer, { method: 'POST', url: '/api/generic/updating', payload: { moduleCode: 'identity', functionCode: 'user', key: other.id, version: null, record: {} } });
    expect(tab.statusCode).toBeGreaterThanOrEqual(400);
    expect(tab.statusCode).toBeLessThan(500);
    const all = (await select(admin, 'identity', 'user')).map((r) => r.login_account);
    expect(all).toEqual(expect.arrayContaining(['only-prj1', 'only-prj2', 'both']));
  });

  it('lists only granted projects and warehouses', async () => {
    const viewer = await createUser(t, { loginAccount: 'master-viewer', rights: ['masterdata.project:view', 'masterdata.whs:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    expect((await select(viewer, 'masterdata', 'project')).map((r) => r.code)).toEqual(['PRJ1']);
    expect((await select(viewer, 'masterdata', 'whs')).map((r) => r.code)).toEqual(['WH1']);
    expect((await select(admin, 'masterdata', 'project')).map((r) => r.code).sort()).toEqual(['PRJ1', 'PRJ2']);
    expect((await select(admin, 'masterdata', 'whs')).map((r) => r.code).sort()).toEqual(['WH1', 'WH2']);
  });

  it('asks for a right on /generic/uom', async () => {
    const nobody = await createUser(t, { loginAccount: 'no-rights', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    expect((await injectAs(t.app, nobody, { method: 'POST', url: '/api/generic/uom', payload: {} })).statusCode).toBe(403);
    const skuViewer = await createUser(t, { loginAccount: 'sku-viewer', rights: ['masterdata.sku:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    expect((await injectAs(t.app, skuViewer, { method: 'POST', url: '/api/generic/uom', payload: {} })).statusCode).toBe(200);
  });
});

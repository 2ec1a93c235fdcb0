import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUserAccount, injectAs, json, signIn, TEST_USER_PASSWORD, type TestApp } from '../helpers/app.js';

/**
 * Grants of organizations, projects, warehouses and roles from the tabs of /user (the user.grant
 * writer): added and withdrawn one row at a time, a second grant refused, a project's administrator
 * kept within its own projects, warehouses and roles, and every change seen on the user's next
 * request without ending its session.
 */
type Row = { _key: number; _version: string | null; [name: string]: unknown };
type GrantPage = 'userOrganization' | 'userProject' | 'userWarehouse' | 'userRole';

describe('user grants', () => {
  let t: TestApp;
  let admin: string;
  const ids: Record<string, number> = {};
  const idOf = async (table: 'project' | 'warehouse' | 'organization', code: string) =>
    (await t.database.db.selectFrom(table).select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
  const roleId = async (name: string) => (await t.database.db.selectFrom('role').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

  const grant = (token: string, page: GrantPage, record: Record<string, number>) =>
    injectAs(t.app, token, { method: 'POST', url: '/api/generic/adding', payload: { moduleCode: 'identity', functionCode: page, record } });
  const tab = async (token: string, uid: number, subPage: string) => {
    const response = await injectAs(t.app, token, {
      method: 'POST',
      url: '/api/generic/tab',
      payload: { moduleCode: 'identity', functionCode: 'user', subPage, parentKey: uid, page: 1, pageSize: 100 },
    });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ rows: Row[] }>(response).rows;
  };
  const revoke = (token: string, page: GrantPage, row: Row) =>
    injectAs(t.app, token, { method: 'POST', url: '/api/generic/deletion', payload: { moduleCode: 'identity', functionCode: page, rows: [{ key: row._key, version: row._version }] } });
  const addUser = async (token: string, login: string) => {
    const added = await injectAs(t.app, token, {
      method: 'POST',
      url: '/api/generic/adding',
      payload: { moduleCode: 'identity', functionCode: 'user', record: { login_account: login, display_name: login, password: TEST_USER_PASSWORD } },
    });
    expect(added.statusCode, added.body).toBe(200);
    return json<{ row: Row }>(added).row._key;
  };
  const locations = (token: string) => injectAs(t.app, token, { method: 'POST', url: '/api/generic/selection', payload: { moduleCode: 'masterdata', functionCode: 'loa', page: 1, pageSize: 50 } });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signIn(t.app);
    const db = t.database.db;
    const by = { created_by: 'test', updated_by: 'test' };
    ids.org1 = await idOf('organization', 'ORG1');
    ids.org2 = (await db.insertInto('organization').values({ code: 'ORG2', name: 'Other', ...by }).returning('id').executeTakeFirstOrThrow()).id;
    ids.prj1 = await idOf('project', 'PRJ1');
    ids.wh1 = await idOf('warehouse', 'WH1');
    ids.prj2 = (await db.insertInto('project').values({ organization_id: ids.org1, code: 'PRJ2', name: 'Second', ...by }).returning('id').executeTakeFirstOrThrow()).id;
    ids.wh2 = (await db.insertInto('warehouse').values({ organization_id: ids.org1, code: 'WH2', name: 'Second', nav_layout: null, ...by }).returning('id').executeTakeFirstOrThrow()).id;
    await db.insertInto('project_warehouse').values({ project_id: ids.prj2, warehouse_id: ids.wh2 }).execute();
    // A warehouse of the organization that no project is linked to yet.
    ids.wh3 = (await db.insertInto('warehouse').values({ organization_id: ids.org1, code: 'WH3', name: 'Third', nav_layout: null, ...by }).returning('id').executeTakeFirstOrThrow()).id;
    ids.wh9 = (await db.insertInto('warehouse').values({ organization_id: ids.org2, code: 'WH9', name: 'Elsewhere', nav_layout: null, ...by }).returning('id').executeTakeFirstOrThrow()).id;
    await sql`insert into location (warehouse_id, code, created_by, updated_by) values (${ids.wh1}, 'A-01', 't', 't'), (${ids.wh3}, 'C-01', 't', 't')`.execute(db);
    ids.operator = await roleId('Operator');
    ids.administrator = await roleId('Administrator');
  });
  afterAll(() => t?.close());

  it('an administrator grants a project, a warehouse, an organization and a role; the tabs list them', async () => {
    const uid = await addUser(admin, 'night.picker');
    ids.picker = uid;
    for (const [page, record] of [
      ['userOrganization', { organization_id: ids.org1 }],
      ['userProject', { project_id: ids.prj1 }],
      ['userWarehouse', { warehouse_id: ids.wh1 }],
      ['userRole', { role_id: ids.operator }],
    ] as const) {
      const added = await grant(admin, page, { user_id: uid, ...record });
      expect(added.statusCode, `${page}: ${added.body}`).toBe(200);
    }
    expect((await tab(admin, uid, 'projects')).map((r) => r.project_id)).toEqual([ids.prj1]);
    expect((await tab(admin, uid, 'warehouses')).map((r) => r.warehouse_id)).toEqual([ids.wh1]);
    expect((await tab(admin, uid, 'organizations')).map((r) => r.organization_id)).toEqual([ids.org1]);
    expect((await tab(admin, uid, 'roles')).map((r) => r.role_id)).toEqual([ids.operator]);
    const audit = await t.database.db.selectFrom('audit_log').select('action').where('target_user_id', '=', uid).where('action', '=', 'user.grant').execute();
    expect(audit).toHaveLength(4);
  });

  it('refuses a second grant of the same project with GRANT_EXISTS and stores nothing', async () => {
    const again = await grant(admin, 'userProject', { user_id: ids.picker, project_id: ids.prj1 });
    expect(again.statusCode).toBe(409);
    expect(json(again)).toMatchObject({ code: 'GRANT_EXISTS', details: [{ field: 'project_id', code: 'GRANT_EXISTS' }] });
    expect(json<{ message: string }>(again).message).toMatch(/already/);
    expect(await tab(admin, ids.picker, 'projects')).toHaveLength(1);
  });

  it("refuses a warehouse outside the user's projects, then grants it once its project is granted", async () => {
    const linkedElsewhere = await grant(admin, 'userWarehouse', { user_id: ids.picker, warehouse_id: ids.wh2 });
    expect(linkedElsewhere.statusCode).toBe(400);
    expect(json(linkedElsewhere)).toMatchObject({ code: 'GRANT_WAREHOUSE_OUTSIDE_PROJECTS', details: [{ field: 'warehouse_id' }] });
    const otherOrganization = await grant(admin, 'userWarehouse', { user_id: ids.picker, warehouse_id: ids.wh9 });
    expect(json(otherOrganization)).toMatchObject({ code: 'GRANT_WAREHOUSE_OUTSIDE_PROJECTS' });
    expect((await grant(admin, 'userProject', { user_id: ids.picker, project_id: ids.prj2 })).statusCode).toBe(200);
    const granted = await grant(admin, 'userWarehouse', { user_id: ids.picker, warehouse_id: ids.wh2 });
    expect(granted.statusCode, granted.body).toBe(200);
  });

  it("a grant and a withdrawal take effect on the user's next request without ending its session", async () => {
    const token = await signIn(t.app, 'night.picker', TEST_USER_PASSWORD);
    expect((await locations(token)).statusCode).toBe(200);
    // A warehouse of the organization that no project runs in: granted through the organization's project.
    expect((await injectAs(t.app, token, { method: 'POST', url: '/api/user/whs', payload: { id: ids.wh3 } })).statusCode).toBe(403);
    expect((await grant(admin, 'userWarehouse', { user_id: ids.picker, warehouse_id: ids.wh3 })).statusCode).toBe(200);
    const switched = await injectAs(t.app, token, { method: 'POST', url: '/api/user/whs', payload: { id: ids.wh3 } });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(json<{ rows: Array<{ code: string }> }>(await locations(token)).rows.map((r) => r.code)).toEqual(['C-01']);

    const role = (await tab(admin, ids.picker, 'roles'))[0];
    const revoked = await revoke(admin, 'userRole', role);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await locations(token)).statusCode).toBe(403);
    expect((await grant(admin, 'userRole', { user_id: ids.picker, role_id: ids.operator })).statusCode).toBe(200);
    expect((await locations(token)).statusCode).toBe(200);

    const warehouse = (await tab(admin, ids.picker, 'warehouses')).find((r) => r.warehouse_id === ids.wh3)!;
    expect((await revoke(admin, 'userWarehouse', warehouse)).statusCode).toBe(200);
    const status = await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' });
    expect(status.statusCode, 'the session lives on').toBe(200);
    const body = json<{ warehouse: { code: string } | null; warehouses: Array<{ code: string }> }>(status);
    expect(body.warehouse?.code).not.toBe('WH3');
    expect(body.warehouses.map((w) => w.code)).toEqual(['WH1', 'WH2']);
    expect((await locations(token)).statusCode).not.toBe(200);
    expect((await injectAs(t.app, token, { method: 'POST', url: '/api/user/whs', payload: { id: ids.wh1 } })).statusCode).toBe(200);
    expect(json<{ rows: Array<{ code: string }> }>(await locations(token)).rows.map((r) => r.code)).toEqual(['A-01']);
  });

  it('withdrawing a project withdraws the warehouse grants that only it reached, on the tab and on /api/user/save', async () => {
    const uid = await addUser(admin, 'two.sites');
    for (const project of [ids.prj1, ids.prj2]) expect((await grant(admin, 'userProject', { user_id: uid, project_id: project })).statusCode).toBe(200);
    for (const warehouse of [ids.wh1, ids.wh2]) expect((await grant(admin, 'userWarehouse', { user_id: uid, warehouse_id: warehouse })).statusCode).toBe(200);
    const warehouses = async () => (await t.database.db.selectFrom('user_warehouse').select('warehouse_id').where('user_id', '=', uid).orderBy('warehouse_id').execute()).map((r) => r.warehouse_id);
    expect(await warehouses()).toEqual([ids.wh1, ids.wh2].sort((a, b) => a - b));

    const second = (await tab(admin, uid, 'projects')).find((r) => r.project_id === ids.prj2)!;
    expect((await revoke(admin, 'userProject', second)).statusCode).toBe(200);
    // WH2 runs only for PRJ2; WH1 is reached through PRJ1's organization.
    expect(await warehouses()).toEqual([ids.wh1]);
    const audit = await t.database.db.selectFrom('audit_log').select('details').where('target_user_id', '=', uid).where('action', '=', 'user.revoke').execute();
    expect(audit.map((a) => JSON.stringify(a.details))).toContainEqual(expect.stringContaining(`"warehouse_id":${ids.wh2}`));

    expect((await grant(admin, 'userProject', { user_id: uid, project_id: ids.prj2 })).statusCode).toBe(200);
    expect((await grant(admin, 'userWarehouse', { user_id: uid, warehouse_id: ids.wh2 })).statusCode).toBe(200);
    const saved = await injectAs(t.app, admin, { method: 'POST', url: '/api/user/save', payload: { uid, loginAccount: 'two.sites', displayName: 'two.sites', projectIds: [ids.prj2] } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await warehouses()).toEqual([ids.wh2]);
  });

  describe("a project's administrator", () => {
    let editor: string;
    let staff: number;
    beforeAll(async () => {
      const account = await createUserAccount(t, {
        loginAccount: 'prj-admin',
        rights: [
          'identity:view', 'identity:add', 'identity:edit', 'identity:delete', 'home:view', 'masterdata:view', 'transport:view', 'transport:add', 'transport:edit',
          // Everything the seeded Operator role holds, so that it is within his reach.
          'inbound:view', 'inbound:add', 'inbound:edit', 'inventory:view', 'inventory:add', 'inventory:edit', 'outbound:view', 'outbound:add', 'outbound:edit',
          'inbound.asn:receive', 'inbound.putaway:confirm', 'inventory.move:confirm', 'inventory.hold:confirm', 'inventory.count:create', 'outbound.pick:confirm',
          'packing.pack:view', 'packing.pack:edit', 'packing.cmg:view', 'packing.pallet:view', 'packing.pallet:add', 'packing.pallet:edit',
          'loading.load:view', 'loading.load:edit', 'cfs.cfs:view', 'cfs.cfs:edit',
          'carrier.shipment:view', 'carrier.shipmentParcel:view', 'carrier.courierCheck:view', 'carrier.courierCheck:edit',
          'transport.tmsOrder:view', 'transport.doOrders:view', 'report.generic:view', 'report.dashboard:view',
          'wizard.wineOrder:view', 'wizard.wineOrder:add', 'wizard.nonMerOrder:view', 'wizard.nonMerOrder:add',
          'handheld.rfFlow:view',
        ],
        projectCodes: ['PRJ1'],
        warehouseCodes: ['WH1'],
      });
      editor = account.token;
      await t.database.db.updateTable('role').set({ role_level: 8 }).where('name', '=', 'role of prj-admin').execute();
      staff = await addUser(editor, 'day.packer');
    });

    it('grants his own warehouse and a role within his reach', async () => {
      const warehouse = await grant(editor, 'userWarehouse', { user_id: staff, warehouse_id: ids.wh1 });
      expect(warehouse.statusCode, warehouse.body).toBe(200);
      const role = await grant(editor, 'userRole', { user_id: staff, role_id: ids.operator });
      expect(role.statusCode, role.body).toBe(200);
    });

    it('cannot grant a project or warehouse outside his own, nor the administrator role', async () => {
      // Not among the choices his dropdown offers: a field error before any grant rule runs.
      const project = await grant(editor, 'userProject', { user_id: staff, project_id: ids.prj2 });
      expect(project.statusCode).toBe(400);
      expect(json(project)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'project_id', code: 'FIELD_FOREIGN' }] });
      const warehouse = await grant(editor, 'userWarehouse', { user_id: staff, warehouse_id: ids.wh3 });
      expect(json(warehouse)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'warehouse_id', code: 'FIELD_FOREIGN' }] });
      const role = await grant(editor, 'userRole', { user_id: staff, role_id: ids.administrator });
      expect(role.statusCode).toBe(403);
      expect(json(role)).toMatchObject({ code: 'GRANT_ROLE_BEYOND_REACH', details: [{ field: 'role_id' }] });
      const stored = await t.database.db.selectFrom('user_role').select('role_id').where('user_id', '=', staff).execute();
      expect(stored.map((r) => r.role_id)).toEqual([ids.operator]);
    });

    it('cannot touch users outside his projects nor administrators', async () => {
      const far = await createUserAccount(t, { loginAccount: 'far.user', projectCodes: ['PRJ2'], warehouseCodes: ['WH2'] });
      // Not among the users his dropdown offers (none of his project): a field error.
      const outside = await grant(editor, 'userWarehouse', { user_id: far.uid, warehouse_id: ids.wh1 });
      expect(outside.statusCode).toBe(400);
      expect(json(outside)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'user_id', code: 'FIELD_FOREIGN' }] });
      const adminUid = (await t.database.db.selectFrom('app_user').select('id').where('login_account', '=', 'admin').executeTakeFirstOrThrow()).id;
      const toAdmin = await grant(editor, 'userRole', { user_id: adminUid, role_id: ids.operator });
      expect(toAdmin.statusCode).toBe(403);
    });

    it('sees only the grants and choices within his scope, and cannot withdraw the others', async () => {
      expect((await tab(editor, ids.picker, 'projects')).map((r) => r.project_id)).toEqual([ids.prj1]);
      expect((await tab(editor, ids.picker, 'warehouses')).map((r) => r.warehouse_id)).toEqual([ids.wh1]);
      const direct = await injectAs(t.app, editor, { method: 'POST', url: '/api/generic/selection', payload: { moduleCode: 'identity', functionCode: 'userWarehouse', page: 1, pageSize: 100 } });
      expect(json<{ rows: Row[] }>(direct).rows.every((r) => r.warehouse_id === ids.wh1)).toBe(true);
      const choices = async (token: string, functionCode: GrantPage, field: string) =>
        json<{ options: Array<{ label: string }> }>(
          await injectAs(t.app, token, { method: 'POST', url: '/api/generic/dropdown', payload: { moduleCode: 'identity', functionCode, field } }),
        ).options.map((o) => o.label);
      // Each choice reads as its code and name.
      expect(await choices(editor, 'userProject', 'project_id')).toEqual(['PRJ1 - Main project']);
      expect(await choices(editor, 'userWarehouse', 'warehouse_id')).toEqual(['WH1 - Main warehouse']);
      expect(await choices(admin, 'userWarehouse', 'warehouse_id')).toEqual(['WH1 - Main warehouse', 'WH2 - Second', 'WH3 - Third', 'WH9 - Elsewhere']);

      const other = (await tab(admin, ids.picker, 'projects')).find((r) => r.project_id === ids.prj2)!;
      const refused = await revoke(editor, 'userProject', other);
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode).toBeLessThan(500);
      expect((await tab(admin, ids.picker, 'projects')).map((r) => r.project_id).sort()).toEqual([ids.prj1, ids.prj2].sort());
    });

    it('keeps the same role rule on POST /api/user/save: the administrator role is refused and nothing is stored', async () => {
      const save = (roleIds: number[]) =>
        injectAs(t.app, editor, { method: 'POST', url: '/api/user/save', payload: { uid: staff, loginAccount: 'day.packer', displayName: 'day.packer', roleIds } });
      const refused = await save([ids.operator, ids.administrator]);
      expect(refused.statusCode).toBe(403);
      expect(json(refused)).toMatchObject({ code: 'GRANT_ROLE_BEYOND_REACH', details: [{ field: 'roleIds' }] });
      const held = async () => (await t.database.db.selectFrom('user_role').select('role_id').where('user_id', '=', staff).execute()).map((r) => r.role_id);
      expect(await held()).toEqual([ids.operator]);
      // His own role is not below his level either.
      const own = await roleId('role of prj-admin');
      expect((await save([own])).statusCode).toBe(403);
      expect(await held()).toEqual([ids.operator]);
      expect((await save([ids.operator])).statusCode).toBe(200);
      const offered = json<Array<{ name: string }>>(await injectAs(t.app, editor, { method: 'GET', url: '/api/user/role' })).map((r) => r.name);
      expect(offered).toContain('Operator');
      expect(offered).not.toContain('Administrator');
      expect(offered).not.toContain('role of prj-admin');
    });

    it('withdraws a grant he could give', async () => {
      const role = (await tab(editor, staff, 'roles'))[0];
      expect((await revoke(editor, 'userRole', role)).statusCode).toBe(200);
      expect(await tab(editor, staff, 'roles')).toEqual([]);
    });
  });
});

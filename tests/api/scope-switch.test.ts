import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScopeSwitchRequest } from '../../src/common/api-types.js';
import { buildTestApp, createUser, injectAs, json, type TestApp } from '../helpers/app.js';

/**
 * The header's switchers send ScopeSwitchRequest; with two projects and two
 * warehouses, switching changes what every list shows.
 */
describe('switching project and warehouse', () => {
  let t: TestApp;
  let token: string;
  const ids = { prj2: 0, wh2: 0 };
  const switchTo = (path: '/api/user/project' | '/api/user/whs', body: ScopeSwitchRequest) => injectAs(t.app, token, { method: 'POST', url: path, payload: body });
  const codesOf = async (moduleCode: string, functionCode: string) => {
    const response = await injectAs(t.app, token, { method: 'POST', url: '/api/generic/selection', payload: { moduleCode, functionCode, page: 1, pageSize: 100 } });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ rows: Array<{ code: string }> }>(response).rows.map((r) => r.code).sort();
  };

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
    const wh1 = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
    ids.prj2 = (await db.insertInto('project').values({ organization_id: org.id, code: 'PRJ2', name: 'Second', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()).id;
    ids.wh2 = (await db.insertInto('warehouse').values({ organization_id: org.id, code: 'WH2', name: 'Second', nav_layout: null, created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()).id;
    await db.insertInto('project_warehouse').values({ project_id: ids.prj2, warehouse_id: ids.wh2 }).execute();
    await sql`insert into location (warehouse_id, code, created_by, updated_by) values (${wh1.id}, 'A-01', 't', 't'), (${ids.wh2}, 'B-01', 't', 't'), (${ids.wh2}, 'B-02', 't', 't')`.execute(db);
    token = await createUser(t, { loginAccount: 'shift', rights: ['masterdata:view'], projectCodes: ['PRJ1', 'PRJ2'], warehouseCodes: ['WH1', 'WH2'] });
  });
  afterAll(() => t?.close());

  it('switches the warehouse by id and lists only its locations', async () => {
    expect(await codesOf('masterdata', 'loa')).toEqual(['A-01']);
    const switched = await switchTo('/api/user/whs', { id: ids.wh2 });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(await codesOf('masterdata', 'loa')).toEqual(['B-01', 'B-02']);
    const status = json<{ warehouse: { code: string } }>(await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' }));
    expect(status.warehouse.code).toBe('WH2');
  });

  it('switches the project by id', async () => {
    expect((await switchTo('/api/user/project', { id: ids.prj2 })).statusCode).toBe(200);
    const status = json<{ project: { code: string } }>(await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' }));
    expect(status.project.code).toBe('PRJ2');
  });

  it('refuses the old body shape and a warehouse that is not granted', async () => {
    expect((await injectAs(t.app, token, { method: 'POST', url: '/api/user/whs', payload: { warehouseId: ids.wh2 } })).statusCode).toBe(400);
    const stranger = await createUser(t, { loginAccount: 'stranger', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const refused = await injectAs(t.app, stranger, { method: 'POST', url: '/api/user/whs', payload: { id: ids.wh2 } });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
  });
});

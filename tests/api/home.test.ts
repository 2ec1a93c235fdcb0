import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

describe('home API', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp();
    token = await signIn(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['GET', '/api/home/summary'],
    ['GET', '/api/home/shortcuts'],
    ['GET', '/api/home/routes'],
    ['POST', '/api/home/visit'],
    ['PUT', '/api/home/layout'],
  ] as const)('%s %s answers 401 without a session', async (method, url) => {
    const response = await t.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
    expect(response.statusCode).toBe(401);
  });

  it('reports no open work while no work table exists', async () => {
    const response = await injectAs(t.app, token, { method: 'GET', url: '/api/home/summary' });
    expect(response.statusCode).toBe(200);
    const { work } = json<{ work: { kind: string; available: boolean; total: number }[] }>(response);
    // The counts of the areas here today, in their order; an area added later brings its own.
    const shipped = ['asn', 'order', 'task', 'count', 'putaway', 'wave', 'pick', 'load', 'toShip', 'tmsOrder', 'unbilled'];
    expect(work.map((w) => w.kind).filter((kind) => shipped.includes(kind))).toEqual(shipped);
    for (const w of work) expect(w.total).toBe(0);
  });

  it("counts a work table's open rows of the session's warehouse by status, leaving out terminal ones", async () => {
    const db = t.database.db;
    const warehouse = await db.selectFrom('warehouse').select('id').orderBy('id').executeTakeFirstOrThrow();
    await sql`create table asn_header (id bigint generated always as identity primary key, warehouse_id bigint not null, status text not null)`.execute(db);
    try {
      await sql`insert into asn_header (warehouse_id, status) values
        (${warehouse.id}, 'new'), (${warehouse.id}, 'new'), (${warehouse.id}, 'partial received'),
        (${warehouse.id}, 'closed'), (${warehouse.id}, 'cancelled'), (${Number(warehouse.id) + 1000}, 'new')`.execute(db);
      const response = await injectAs(t.app, token, { method: 'GET', url: '/api/home/summary' });
      expect(response.statusCode).toBe(200);
      const asn = json<{ work: { kind: string; available: boolean; total: number; byStatus: unknown[] }[] }>(response).work[0];
      expect(asn).toEqual({
        kind: 'asn',
        statusTexts: 'inb.status',
        listRoute: 'asn',
        available: true,
        total: 3,
        byStatus: [
          { status: 'new', count: 2 },
          { status: 'partial received', count: 1 },
        ],
      });
    } finally {
      await sql`drop table asn_header`.execute(db);
    }
  });

  it('records page visits per user and answers the most used first', async () => {
    for (const route of ['sku', 'sku', 'sku', 'whs', 'all_rule', 'all_rule']) {
      const response = await injectAs(t.app, token, { method: 'POST', url: '/api/home/visit', payload: { route } });
      expect(response.statusCode).toBe(200);
    }
    const response = await injectAs(t.app, token, { method: 'GET', url: '/api/home/shortcuts' });
    const { items } = json<{ items: { route: string; visits: number; lastVisitedAt: string }[] }>(response);
    expect(items.map((i) => [i.route, i.visits])).toEqual([
      ['sku', 3],
      ['all_rule', 2],
      ['whs', 1],
    ]);
    expect(Number.isNaN(Date.parse(items[0].lastVisitedAt))).toBe(false);
  });

  it.each(['', '../etc', 'a b', 'x'.repeat(65), '<script>'])('refuses the route %j', async (route) => {
    const response = await injectAs(t.app, token, { method: 'POST', url: '/api/home/visit', payload: { route } });
    expect(response.statusCode).toBe(400);
  });

  it("sets the navigation layout of the session's warehouse, which the status then answers", async () => {
    const response = await injectAs(t.app, token, { method: 'PUT', url: '/api/home/layout', payload: { navLayout: 'top' } });
    expect(response.statusCode).toBe(200);
    const status = json<{ navLayout: string }>(await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' }));
    expect(status.navLayout).toBe('top');
    await injectAs(t.app, token, { method: 'PUT', url: '/api/home/layout', payload: { navLayout: 'left' } });
    const again = json<{ navLayout: string }>(await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' }));
    expect(again.navLayout).toBe('left');
  });

  it('sets the navigation layout of the project when the session has no warehouse, leaving the warehouses alone', async () => {
    const db = t.database.db;
    const own = await signIn(t.app);
    const session = await db.selectFrom('user_session').select(['id', 'project_id']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    await db.updateTable('user_session').set({ warehouse_id: null }).where('id', '=', session.id).execute();
    const before = await db.selectFrom('warehouse').select(['id', 'nav_layout']).orderBy('id').execute();
    const response = await injectAs(t.app, own, { method: 'PUT', url: '/api/home/layout', payload: { navLayout: 'top' } });
    expect(response.statusCode).toBe(200);
    const project = await db.selectFrom('project').select(['nav_layout', 'updated_by']).where('id', '=', session.project_id!).executeTakeFirstOrThrow();
    expect(project).toEqual({ nav_layout: 'top', updated_by: 'admin' });
    expect(await db.selectFrom('warehouse').select(['id', 'nav_layout']).orderBy('id').execute()).toEqual(before);
    const status = json<{ navLayout: string; warehouse: unknown }>(await injectAs(t.app, own, { method: 'GET', url: '/api/user/status' }));
    expect([status.warehouse, status.navLayout]).toEqual([null, 'top']);
    await injectAs(t.app, own, { method: 'PUT', url: '/api/home/layout', payload: { navLayout: 'left' } });
    expect((await db.selectFrom('project').select('nav_layout').where('id', '=', session.project_id!).executeTakeFirstOrThrow()).nav_layout).toBe('left');
  });
});

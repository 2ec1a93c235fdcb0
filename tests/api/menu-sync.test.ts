import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../helpers/route-table.js';
import { loadConfig } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/database.js';
import { declaredMenuRows, syncMenuAtStart } from '../../src/server/install/sync-menu.js';
import { startServer } from '../../src/server/start.js';
import { createTestDatabase, firstStartPlace, onRealServer, type TestDatabase } from '../helpers/database.js';

const COLUMNS = ['code', 'parent_code', 'title_key', 'route', 'right_name', 'sequence'] as const;

async function systemMenu(db: Database['db']) {
  return db.selectFrom('sys_module').select(COLUMNS).where('created_by', '=', 'system').orderBy('code').execute();
}

function declaredByCode() {
  return declaredMenuRows(ROUTE_TABLE).sort((a, b) => (a.code < b.code ? -1 : 1));
}

// The first test makes a first start of the server on the database under test: an empty database of
// the PostgreSQL server on that run, an empty data directory of the embedded database on the other.
// A first start on the embedded database takes most of a minute on a loaded machine.
describe(syncMenuAtStart.name, { timeout: 240_000 }, () => {
  it('leaves the menu equal to the route table after a start, and the browser is handed exactly that table', async () => {
    const place = await firstStartPlace('wms-menu-');
    try {
      const server = await startServer(loadConfig({ ...place.env, PORT: '0', LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Adm1n!Passw0rd', DEMO_DATA: 'false' }));
      try {
        expect(server.database.kind).toBe(onRealServer ? 'postgres' : 'pglite');
        expect(await systemMenu(server.database.db)).toEqual(declaredByCode());
        const token = (await server.app.inject({ method: 'POST', url: '/api/user/login', payload: { loginAccount: 'admin', password: 'Adm1n!Passw0rd' } })).json<{ token: string }>().token;
        const answer = await server.app.inject({ method: 'GET', url: '/api/home/routes', headers: { authorization: `Bearer ${token}` } });
        expect(answer.statusCode, answer.body).toBe(200);
        const { groups, routes } = answer.json<{ groups: unknown[]; routes: { route: string; group: string; titleKey: string; target: unknown }[] }>();
        expect(groups).toEqual(ROUTE_TABLE.groups);
        expect(routes).toEqual(ROUTE_TABLE.routes.map(({ route, group, titleKey, target }) => ({ route, group, titleKey, target })));
      } finally {
        await server.stop();
      }
    } finally {
      await place.remove();
    }
    expect(declaredMenuRows(ROUTE_TABLE).filter((row) => row.route).map((row) => row.code)).toEqual(ROUTE_TABLE.routes.map((r) => r.route));
    expect(declaredMenuRows(ROUTE_TABLE)).toHaveLength(ROUTE_TABLE.groups.length + ROUTE_TABLE.routes.length);
  });

  describe('on a migrated database', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database.close();
    });

    it('changes nothing that the migrations wrote, and writes nothing the second time', async () => {
      // Every entry the menu migrations wrote matches the declaration; the sync only adds the entries
      // of an area that ships no menu migration (the menu of an area added later).
      expect(await syncMenuAtStart(database.db, ROUTE_TABLE)).toMatchObject({ updated: [], undeclared: [] });
      expect(await syncMenuAtStart(database.db, ROUTE_TABLE)).toEqual({ inserted: [], updated: [], undeclared: [] });
    });

    it('puts back a changed or missing entry, keeps what the administrator switched off and what the designer published', async () => {
      const db = database.db;
      await db.updateTable('sys_module').set({ title_key: 'menu.old', sequence: 1, parent_code: 'homeGroup' }).where('code', '=', 'sku').execute();
      await db.updateTable('sys_module').set({ enabled: false }).where('code', '=', 'balance').execute();
      await db.deleteFrom('sys_module').where('code', '=', 'timer').execute();
      await db
        .insertInto('sys_module')
        .values({ code: 'myPage', parent_code: 'genericGroup', title_key: 'My page', route: '/mapTo?moduleCode=my&functionCode=myPage', sequence: 299, created_by: 'admin', updated_by: 'admin' })
        .execute();
      await db
        .insertInto('sys_module')
        .values({ code: 'retired', parent_code: 'inbound', title_key: 'menu.retired', route: '/retired', sequence: 499, created_by: 'system', updated_by: 'system' })
        .execute();

      expect(await syncMenuAtStart(db, ROUTE_TABLE)).toEqual({ inserted: ['timer'], updated: ['sku'], undeclared: ['retired'] });

      const rows = await systemMenu(db);
      expect(rows.filter((row) => row.code !== 'retired')).toEqual(declaredByCode());
      const kept = await db.selectFrom('sys_module').select(['code', 'enabled']).where('code', 'in', ['balance', 'myPage', 'retired']).orderBy('code').execute();
      expect(kept).toEqual([
        { code: 'balance', enabled: false },
        { code: 'myPage', enabled: true },
        { code: 'retired', enabled: true },
      ]);
      const { rows: [updated] } = await sql<{ updated_by: string }>`select updated_by from sys_module where code = 'sku'`.execute(db);
      expect(updated.updated_by).toBe('system');
    });
  });
});

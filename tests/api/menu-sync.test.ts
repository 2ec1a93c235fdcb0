import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECLARED_ROUTES, MENU_GROUPS } from '../../src/common/page-routes.js';
import { PAGE_ROUTES } from '../../src/app/routes.js';
import { loadConfig } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/database.js';
import { declaredMenuRows, syncMenuAtStart } from '../../src/server/db/seed/sync-menu.js';
import { startServer } from '../../src/server/start.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { tempDataDir } from '../helpers/server-process.js';

const COLUMNS = ['code', 'parent_code', 'title_key', 'route', 'right_name', 'sequence'] as const;

async function systemMenu(db: Database['db']) {
  return db.selectFrom('sys_module').select(COLUMNS).where('created_by', '=', 'system').orderBy('code').execute();
}

function declaredByCode() {
  return declaredMenuRows().sort((a, b) => (a.code < b.code ? -1 : 1));
}

describe(syncMenuAtStart.name, () => {
  it('leaves the menu equal to the route declaration after a start, and the browser routes are exactly the declared ones', async () => {
    const dataDir = tempDataDir('wms-menu-');
    try {
      const server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Adm1n!Passw0rd', DEMO_DATA: 'false' }));
      try {
        expect(await systemMenu(server.database.db)).toEqual(declaredByCode());
      } finally {
        await server.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    expect(declaredMenuRows().filter((row) => row.route).map((row) => row.code)).toEqual(PAGE_ROUTES.map((r) => r.route));
    expect(declaredMenuRows()).toHaveLength(MENU_GROUPS.length + DECLARED_ROUTES.length);
  });

  describe('on a migrated database', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database.close();
    });

    it('writes nothing where migration 0003 already matches the declaration, and nothing the second time', async () => {
      expect(await syncMenuAtStart(database.db)).toEqual({ inserted: [], updated: [], undeclared: [] });
      expect(await syncMenuAtStart(database.db)).toEqual({ inserted: [], updated: [], undeclared: [] });
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

      expect(await syncMenuAtStart(db)).toEqual({ inserted: ['timer'], updated: ['sku'], undeclared: ['retired'] });

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

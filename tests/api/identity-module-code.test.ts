import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../src/server/definitions/definition-sync.js';
import { down, up } from '../../src/server/modules/identity/migrations/0230_identity_module_code.js';
import { syncMenuAtStart } from '../../src/server/install/sync-menu.js';
import { AreaRegistry } from '../../src/server/area-kit/area-registry.js';
import { MODULES } from '../../src/server/modules/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/** Every `moduleCode` anywhere in a stored definition. */
function moduleCodes(content: unknown): string[] {
  const found: string[] = [];
  JSON.stringify(content, (key, value: unknown) => {
    if (key === 'moduleCode' && typeof value === 'string') found.push(value);
    return value;
  });
  return found;
}

describe('migration 0230: the user and role pages move from module setup to identity', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ ready: true });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('renames stored definitions, role rights, related rows and menu rights, merging a role that held both', async () => {
    const db = database.db;
    // The state before the move: what the shipped pages, the seeded roles and the menu held under `setup`.
    await down(db as Kysely<unknown>);
    const before = await db.selectFrom('page_definition').select(['module_code', 'content']).where('function_code', '=', 'user').execute();
    expect(before.map((row) => row.module_code)).toContain('setup');
    expect(before.flatMap((row) => moduleCodes(row.content))).not.toContain('identity');
    const userEntry = await db.selectFrom('sys_module').select('right_name').where('code', '=', 'user').executeTakeFirstOrThrow();
    expect(userEntry.right_name).toBe('setup.user');

    const role = await db
      .insertInto('role')
      .values({ name: 'Both codes', created_by: 'test', updated_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('role_permission')
      .values([
        { role_id: role.id, module_code: 'setup', sub_module_code: 'user', can_view: true, can_add: true, can_edit: false, can_delete: false },
        { role_id: role.id, module_code: 'identity', sub_module_code: 'user', can_view: true, can_add: false, can_edit: true, can_delete: false },
        { role_id: role.id, module_code: 'setup', sub_module_code: null, can_view: true, can_add: false, can_edit: false, can_delete: false },
      ])
      .execute();
    await db
      .insertInto('sys_module')
      .values({ code: 'myUsers', parent_code: 'setup', title_key: 'My users', route: '/mapTo?moduleCode=setup&functionCode=myUsers', right_name: 'setup.myUsers', sequence: 999, created_by: 'admin', updated_by: 'admin' })
      .execute();

    await up(db as Kysely<unknown>);

    const { rows: left } = await sql<{ n: number }>`
      select (select count(*) from page_definition where module_code = 'setup' or content::text like '%"moduleCode": "setup"%')
           + (select count(*) from role_permission where module_code = 'setup')
           + (select count(*) from sys_module where right_name like 'setup.%' or route like '%moduleCode=setup&%') as n
    `.execute(db);
    expect(Number(left[0].n)).toBe(0);

    const pages = await db.selectFrom('page_definition').select(['module_code', 'function_code', 'content', 'content_hash']).where('module_code', '=', 'identity').execute();
    // Every page of the old module is now identity's (beside the pages identity ships itself).
    expect(pages.map((page) => page.function_code)).toEqual(expect.arrayContaining(['user', 'role', 'rolePermission', 'roleVerb', 'userRole', 'userOrganization', 'userProject', 'userWarehouse', 'all_rule']));
    for (const page of pages) {
      expect(new Set(moduleCodes(page.content))).toEqual(new Set(['identity']));
      expect(page.content_hash).toBe(contentHash(page.content));
    }

    const rights = await db
      .selectFrom('role_permission')
      .select(['module_code', 'sub_module_code', 'can_view', 'can_add', 'can_edit', 'can_delete'])
      .where('role_id', '=', role.id)
      .orderBy('sub_module_code')
      .execute();
    expect(rights).toEqual([
      { module_code: 'identity', sub_module_code: 'user', can_view: true, can_add: true, can_edit: true, can_delete: false },
      { module_code: 'identity', sub_module_code: null, can_view: true, can_add: false, can_edit: false, can_delete: false },
    ]);
    const menu = await db.selectFrom('sys_module').select(['code', 'route', 'right_name']).where('code', 'in', ['user', 'myUsers']).orderBy('code').execute();
    expect(menu).toEqual([
      { code: 'myUsers', route: '/mapTo?moduleCode=identity&functionCode=myUsers', right_name: 'identity.myUsers' },
      { code: 'user', route: '/user', right_name: 'identity.user' },
    ]);
    // The menu declaration agrees with the renamed rows: a start changes nothing.
    await db.deleteFrom('sys_module').where('code', '=', 'myUsers').execute();
    expect(await syncMenuAtStart(db, new AreaRegistry(MODULES).routeTable)).toEqual({ inserted: [], updated: [], undeclared: [] });
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AreaModule } from '../../src/server/modules/area.js';
import { AreaRegistry } from '../../src/server/modules/area-registry.js';
import { installAreas } from '../../src/server/modules/area-sync.js';
import { LANGUAGES } from '../../src/common/languages.js';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * The throw-away area: the steps of src/server/modules/README.md ("A worked example") done by a
 * test. A tiny area `crate` is written into a temporary folder outside src/ (its manifest with a
 * migration, a page route, a right verb, an error code, default grants and a home count, its page
 * definition and its texts in the six languages), the app is built with the module list plus this
 * area, and the app serves all of it: nothing outside the area's folder was edited.
 */

const REPO = path.resolve(import.meta.dirname, '../..');
const SEAL_TEXTS: Record<string, string> = {
  en: 'Crate {{code}} is sealed.',
  zh: '箱 {{code}} 已封箱。',
  zh_tw: '箱 {{code}} 已封箱。',
  jp: 'クレート {{code}} は封印済みです。',
  kor: '크레이트 {{code}}은(는) 봉인되었습니다.',
  th: 'ลัง {{code}} ถูกปิดผนึกแล้ว',
};

let folder: string;
let crate: AreaModule;
let t: TestApp;
let admin: string;

/** Writes the area's files as a developer would: the module, its page definition, its texts. */
function writeArea(root: string): void {
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  // Relative imports of the repository's kernel, from the folder of each file.
  const repoFrom = (dir: string) => path.relative(path.join(root, dir), REPO).split(path.sep).join('/');
  write(
    'modules/crate/migrations/0950_crate.ts',
    `import type { Kysely } from 'kysely';
import { grantConfiguratorAccess, withIdAndAudit } from '${repoFrom('modules/crate/migrations')}/src/server/db/migrations/helpers.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdAndAudit(db.schema.createTable('crate'))
    .addColumn('warehouse_id', 'bigint', (col) => col.notNull().references('warehouse.id'))
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open'))
    .execute();
  await grantConfiguratorAccess(db, ['crate'], 'write');
}
`,
  );
  write(
    'modules/crate/crate.module.ts',
    `import path from 'node:path';
import { AppError } from '${repoFrom('modules/crate')}/src/common/errors.js';
import { defineModule } from '${repoFrom('modules/crate')}/src/server/modules/area.js';
import * as m0950 from './migrations/0950_crate.js';

declare module '${repoFrom('modules/crate')}/src/common/errors.js' {
  interface AreaErrorCodes {
    CRATE_SEALED: true;
  }
}

export const crateModule = defineModule({
  name: 'crate',
  // Kept outside the repository: its locales/ and definitions/ are beside modules/.
  contentRoot: path.resolve(import.meta.dirname, '../..'),
  migrations: { '0950_crate': m0950 },
  rights: [{ right: 'crate.crate:seal', labelCode: 'crate.verb.seal' }],
  errors: { CRATE_SEALED: 409 },
  pages: [{ route: 'crate', group: 'crates', opens: { definitionOf: 'crate' } }],
  defaultGrants: [{ role: 'Supervisor', rights: ['crate:view', 'crate:edit', 'crate.crate:seal'] }],
  homeItems: [{ kind: 'crate', tables: ['crate'], terminal: ['sealed'] }],
  async routes(app) {
    app.post('/crate/seal', { config: { access: { right: 'crate.crate:seal', scope: 'none' } } }, async () => {
      throw new AppError('CRATE_SEALED', { code: 'C-1' });
    });
  },
});
`,
  );
  write(
    'definitions/crate/crate.page.json',
    JSON.stringify(
      {
        schemaVersion: 2,
        moduleCode: 'crate',
        functionCode: 'crate',
        titleCode: 'menu.crate',
        status: 'published',
        table: { name: 'crate' },
        scope: 'warehouse',
        fields: [
          { name: 'code', labelCode: 'crate.field.code', type: 'string', length: 20, mandatory: true },
          { name: 'status', labelCode: 'crate.field.status', type: 'string', editable: false },
        ],
      },
      null,
      2,
    ),
  );
  for (const language of LANGUAGES) {
    write(
      `locales/crate/${language}.json`,
      JSON.stringify({
        menu: { crates: `Crates (${language})`, crate: `Crate list (${language})` },
        crate: { verb: { seal: `Seal (${language})` }, field: { code: 'Code', status: 'Status' } },
        ui: { home: { source: { crate: `Open crates (${language})` } } },
        errors: { CRATE_SEALED: SEAL_TEXTS[language] },
      }),
    );
  }
}

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(REPO, 'tests', '.throwaway-area-'));
  writeArea(folder);
  crate = ((await import(path.join(folder, 'modules/crate/crate.module.ts'))) as { crateModule: AreaModule }).crateModule;
  // The module list plus this area: the one line of modules/index.ts.
  t = await buildTestApp({}, { extraModules: [crate] });
  admin = await signIn(t.app);
});

afterAll(async () => {
  await t?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

describe('a new area is its folder plus one line', () => {
  it('ran its migration: the table exists', async () => {
    const { rows } = await sql<{ count: string }>`select count(*) as count from crate`.execute(t.database.db);
    expect(Number(rows[0].count)).toBe(0);
  });

  it('has its page in the menu under its own group, and the page loads through /api/generic', async () => {
    const menu = json<{ items: { code: string; titleKey: string; children?: { code: string; route?: string; titleKey: string }[] }[] }>(
      await injectAs(t.app, admin, { method: 'GET', url: '/api/user/menu' }),
    );
    const group = menu.items.find((item) => item.code === 'crates');
    expect(group?.titleKey).toBe('menu.crates');
    expect(group?.children).toEqual([expect.objectContaining({ code: 'crate', route: '/crate', titleKey: 'menu.crate' })]);
    const routes = json<{ routes: { route: string; group: string; target: unknown }[] }>(await injectAs(t.app, admin, { method: 'GET', url: '/api/home/routes' }));
    expect(routes.routes.at(-1)).toEqual({ route: 'crate', group: 'crates', titleKey: 'menu.crate', target: { kind: 'definition', moduleCode: 'crate', functionCode: 'crate' } });

    const warehouse = await t.database.db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
    await sql`insert into crate (warehouse_id, code) values (${warehouse.id}, 'C-1'), (${warehouse.id}, 'C-2')`.execute(t.database.db);
    const page = await injectAs(t.app, admin, { method: 'POST', url: '/api/generic/selection', payload: { moduleCode: 'crate', functionCode: 'crate', page: 1, pageSize: 10 } });
    expect(page.statusCode, page.body).toBe(200);
    expect(json<{ rows: { code: string }[] }>(page).rows.map((row) => row.code).sort()).toEqual(['C-1', 'C-2']);
  });

  it('counts its open work on the home page', async () => {
    const { work } = json<{ work: { kind: string; available: boolean; total: number }[] }>(await injectAs(t.app, admin, { method: 'GET', url: '/api/home/summary' }));
    expect(work.map((w) => w.kind)).toEqual(['asn', 'order', 'task', 'count', 'putaway', 'wave', 'pick', 'load', 'toShip', 'tmsOrder', 'unbilled', 'crate']);
    expect(work.at(-1)).toMatchObject({ kind: 'crate', available: true, total: 2 });
  });

  it("offers its verb on the role screen's rights list, and granting it works", async () => {
    const options = await injectAs(t.app, admin, { method: 'POST', url: '/api/generic/dropdown', payload: { moduleCode: 'identity', functionCode: 'roleVerb', field: 'right_code' } });
    expect(json<{ options: { value: string }[] }>(options).options.map((o) => o.value)).toContain('crate.crate:seal');
    const role = await t.database.db.insertInto('role').values({ name: 'Crate sealers', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
    const granted = await injectAs(t.app, admin, {
      method: 'POST',
      url: '/api/generic/adding',
      payload: { moduleCode: 'identity', functionCode: 'roleVerb', record: { role_id: role.id, right_code: 'crate.crate:seal' } },
    });
    expect(granted.statusCode, granted.body).toBe(200);
  });

  it('gave the seeded roles its default grants once: a revoke stays revoked at the next start', async () => {
    const db = t.database.db;
    const supervisor = await db.selectFrom('role').select('id').where('name', '=', 'Supervisor').executeTakeFirstOrThrow();
    const verbs = () => db.selectFrom('role_verb').select('right_code').where('role_id', '=', supervisor.id).where('right_code', 'like', 'crate.%').execute();
    expect(await verbs()).toEqual([{ right_code: 'crate.crate:seal' }]);
    const permission = await db.selectFrom('role_permission').select(['can_view', 'can_add', 'can_edit', 'can_delete']).where('role_id', '=', supervisor.id).where('module_code', '=', 'crate').execute();
    expect(permission).toEqual([{ can_view: true, can_add: false, can_edit: true, can_delete: false }]);
    await db.deleteFrom('role_verb').where('role_id', '=', supervisor.id).where('right_code', '=', 'crate.crate:seal').execute();
    expect(await installAreas(db, t.app.areas)).toEqual([]);
    expect(await verbs()).toEqual([]);
  });

  it('gives a right the area adds to its default grants in a later version, once, and leaves a revoked one revoked', async () => {
    const db = t.database.db;
    const supervisor = await db.selectFrom('role').select('id').where('name', '=', 'Supervisor').executeTakeFirstOrThrow();
    const page = (module: string) => db.selectFrom('role_permission').select(['can_view', 'can_add', 'can_edit', 'can_delete']).where('role_id', '=', supervisor.id).where('module_code', '=', module).execute();
    const later = (rights: Array<`${string}:${string}`>): AreaRegistry => {
      const grants = [{ role: 'Supervisor' as const, rights: [...crate.defaultGrants![0].rights, ...rights] }];
      return new AreaRegistry([...t.app.areas.modules.filter((m) => m.name !== 'crate'), { ...crate, defaultGrants: grants }]);
    };
    // The next version grants `crate:add` too: the seeded role gets it at the next start.
    await installAreas(db, later(['crate:add']));
    expect(await page('crate')).toEqual([{ can_view: true, can_add: true, can_edit: true, can_delete: false }]);
    // Revoked by an administrator, it is not given again.
    await db.updateTable('role_permission').set({ can_add: false }).where('role_id', '=', supervisor.id).where('module_code', '=', 'crate').execute();
    await installAreas(db, later(['crate:add']));
    expect((await page('crate'))[0].can_add).toBe(false);

    // A database that installed the area before grants were recorded one by one: a page the role
    // holds nothing on (one the area added since) is given; a page it holds is left as it is.
    await db.deleteFrom('area_grant').where('area', '=', 'crate').execute();
    await installAreas(db, later(['crate:add', 'crate:delete', 'crateLabel:view']));
    expect(await page('crate')).toEqual([{ can_view: true, can_add: false, can_edit: true, can_delete: false }]);
    expect(await page('crateLabel')).toEqual([{ can_view: true, can_add: false, can_edit: false, can_delete: false }]);
    const recorded = await db.selectFrom('area_grant').select('right_code').where('area', '=', 'crate').where('role_name', '=', 'supervisor').orderBy('right_code').execute();
    expect(recorded.map((r) => r.right_code)).toEqual(['crate.crate:seal', 'crate:add', 'crate:delete', 'crate:edit', 'crate:view', 'crateLabel:view']);
  });

  it('answers its error code with its status and its text, in the caller’s language', async () => {
    const { uid, token } = await createUserAccount(t, { loginAccount: 'crate-supervisor', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const supervisor = await t.database.db.selectFrom('role').select('id').where('name', '=', 'Supervisor').executeTakeFirstOrThrow();
    await t.database.db.insertInto('role_verb').values({ role_id: supervisor.id, right_code: 'crate.crate:seal', created_by: 'test', updated_by: 'test' }).execute();
    await t.database.db.insertInto('user_role').values({ user_id: uid, role_id: supervisor.id }).execute();
    for (const language of ['en', 'zh'] as const) {
      const response = await injectAs(t.app, token, { method: 'POST', url: '/api/crate/seal', headers: { 'x-language': language } });
      expect(response.statusCode, response.body).toBe(409);
      expect(json(response)).toEqual({ code: 'CRATE_SEALED', message: SEAL_TEXTS[language].replace('{{code}}', 'C-1'), params: { code: 'C-1' } });
    }
  });

  it('refuses an area whose error code, route or default grant clashes with what is there', () => {
    expect(() => new AreaRegistry([{ name: 'clash', errors: { NO_RECORD: 404 } as never }])).toThrow('declared twice');
    expect(() => new AreaRegistry([{ name: 'clash', pages: [{ route: 'home', group: 'homeGroup', opens: 'screen' }] }])).toThrow('declared by kernel and by clash');
    expect(() => new AreaRegistry([{ name: 'clash', defaultGrants: [{ role: 'Operator', rights: ['clash.box:open'] }] }])).toThrow('names a verb no area declares');
  });
});

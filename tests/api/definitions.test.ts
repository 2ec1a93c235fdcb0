import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPageDefinition, type PageDefinition } from '../../engine/schema/index.js';
import { checkPageAgainstCatalog, readTableColumns } from '../../engine/server/catalog.js';
import { bindNamedSql } from '../../engine/server/bind-named-sql.js';
import { sessionSqlParams, type EngineSession } from '../../engine/server/engine-session.js';
import { selectPage } from '../../engine/server/page-rows.js';
import { preparePage } from '../../engine/server/prepared-page.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import { syncMenuAtStart } from '../../src/server/install/sync-menu.js';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { syncShippedDefinitions, type SyncReport } from '../../src/server/definitions/definition-sync.js';
import { DefinitionStore } from '../../src/server/definitions/definition-store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { loadLocale } from '../helpers/locales.js';
import { lookupLocaleText } from '../../src/common/locale-tree.js';
import { MODULES } from '../../src/server/modules/index.js';
import { AreaRegistry } from '../../src/server/area-kit/area-registry.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEFINITIONS = path.join(ROOT, 'definitions');

/** Every shipped definition file, as `<module>/<function>.page.json`. */
function definitionFiles(): string[] {
  return fs
    .readdirSync(DEFINITIONS, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.page.json'))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

function readDefinition(file: string): PageDefinition {
  const result = loadPageDefinition(JSON.parse(fs.readFileSync(path.join(DEFINITIONS, file), 'utf8')));
  if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.problems, null, 2)}`);
  return result.value;
}

const FILES = definitionFiles();
const english = loadLocale('en');

function hasLocaleKey(key: string): boolean {
  return lookupLocaleText(english, key) !== undefined;
}

/** Every label of a definition: title, field labels, option labels, behaviours, tabs, conditions, field maps. */
function labelCodes(page: PageDefinition): string[] {
  return [
    page.titleCode,
    ...page.fields.flatMap((f) => [f.labelCode, ...(f.group ? [f.group] : []), ...(f.options?.type === 'static' ? f.options.items.map((i) => i.labelCode) : [])]),
    ...(page.behaviours ?? []).flatMap((b) => [b.labelCode, ...(b.confirmTextCode ? [b.confirmTextCode] : [])]),
    ...(page.subPages ?? []).map((s) => s.titleCode),
    ...(page.queryConditions ?? []).map((q) => q.titleCode),
    ...(page.fieldMaps ?? []).map((m) => m.titleCode),
  ];
}

// The pages the issue asks for (part 4): module and function = route name.
const REQUIRED = [
  'masterdata/sku', 'masterdata/skuUpc', 'masterdata/whs', 'masterdata/loa', 'masterdata/ogr', 'masterdata/project',
  'masterdata/partner', 'masterdata/sysparam', 'masterdata/mult', 'masterdata/codeMaster', 'masterdata/menu',
  'masterdata/sysModule', 'masterdata/idGener', 'masterdata/invCode', 'masterdata/rfUser', 'masterdata/currency',
  'identity/user', 'identity/role', 'identity/all_rule', 'transport/vehicle', 'transport/driver',
];

let database: TestDatabase;
let session: EngineSession;
let sync: SyncReport;
/** Code-master entries before any demo data: what every installation has. */
let baseCodes: Array<{ code_type: string; code: string }>;

beforeAll(async () => {
  database = await createTestDatabase();
  // As at start: migrations -> definition sync -> menu sync -> seed (-> demo data).
  sync = await syncShippedDefinitions(database.db);
  await syncMenuAtStart(database.db, new AreaRegistry(MODULES).routeTable);
  await seedFirstStart(database.db, 'Adm1n!Passw0rd', MODULES);
  baseCodes = await database.db.selectFrom('code_master').select(['code_type', 'code']).execute();
  await loadDemoData(database.db, MODULES);
  const admin = await database.db.selectFrom('app_user').select(['id', 'login_account']).where('login_account', '=', 'admin').executeTakeFirstOrThrow();
  const project = await database.db.selectFrom('project').select(['id', 'code', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const warehouse = await database.db.selectFrom('warehouse').select(['id', 'code']).where('code', '=', 'WH1').executeTakeFirstOrThrow();
  session = {
    userId: admin.id,
    loginAccount: admin.login_account,
    language: 'en',
    organizationId: project.organization_id,
    projectId: project.id,
    projectCode: project.code,
    warehouseId: warehouse.id,
    warehouseCode: warehouse.code,
  };
});

afterAll(async () => {
  await database?.close();
});

describe('shipped definitions', () => {
  it('include every master-data, identity and transport page', () => {
    const shipped = FILES.map((f) => f.replace('.page.json', ''));
    expect(REQUIRED.filter((page) => !shipped.includes(page))).toEqual([]);
  });

  it.each(FILES)('%s is valid, named after its module and function, and labelled with locale keys', (file) => {
    const page = readDefinition(file);
    expect(`${page.moduleCode}/${page.functionCode}.page.json`).toBe(file);
    const missing = labelCodes(page).filter((code) => !hasLocaleKey(code));
    expect(missing, 'labels without an English text in locales/<area>/en.json').toEqual([]);
  });

  it('are all synced into the database at start, none refused', () => {
    expect(sync.refused).toEqual([]);
    for (const file of FILES) expect(sync.added).toContain(`${file.replace('.page.json', '')}@1`);
  });

  it.each(FILES)('%s resolves through the engine to its published shipped version', async (file) => {
    const page = readDefinition(file);
    const store = new DefinitionStore(database.db, Fastify({ logger: false }).log, new AreaRegistry(MODULES).rowFilters());
    const resolved = await store.resolve(session.projectId, page.moduleCode, page.functionCode);
    expect(resolved).toMatchObject({ version: 1, projectSpecific: false });
    expect(resolved.prepared.page).toEqual(page);
  });

  it.each(FILES)('%s names only tables and columns that exist', async (file) => {
    expect(await checkPageAgainstCatalog(database.db, readDefinition(file))).toEqual([]);
  });

  it.each(FILES)('%s lists rows through the engine in the session scope', async (file) => {
    const page = readDefinition(file);
    const tables = [page.table.name, ...page.fields.flatMap((f) => [f.foreign?.table, f.options?.type === 'foreign' ? f.options.table : undefined])];
    const catalog = await readTableColumns(database.db, tables.filter((t): t is string => t !== undefined));
    const result = await selectPage(database.db, preparePage(page, catalog, new AreaRegistry(MODULES).rowFilters()), session, { page: 1, pageSize: 5 });
    expect(result.rows.length).toBeLessThanOrEqual(5);
    expect(result.total).toBeGreaterThanOrEqual(result.rows.length);
    for (const row of result.rows) {
      expect(Object.keys(row)).toEqual(expect.arrayContaining([...page.fields.map((f) => f.name), '_key', '_version']));
    }
  });

  it.each(FILES)("%s's named SQL runs against the real tables", async (file) => {
    const page = readDefinition(file);
    for (const named of page.sqls ?? []) {
      const values: Record<string, unknown> = { ...sessionSqlParams(session), keys: [-1], value: null };
      // Write SQL (sql: behaviours) runs on no row and is rolled back; read SQL in a read-only transaction.
      await expect(
        database.db
          .transaction()
          .execute(async (trx) => {
            if (named.mode !== 'write') await sql`set transaction read only`.execute(trx);
            await bindNamedSql(named.text, values).execute(trx);
            throw new RolledBack();
          }),
        named.name,
      ).rejects.toBeInstanceOf(RolledBack);
    }
  });

  it('ships the code-master entries of the constrained dropdowns, demo data or not', () => {
    const codes = (type: string) => baseCodes.filter((c) => c.code_type === type).map((c) => c.code).sort();
    // The values the CHECK constraints of location.location_type and partner.partner_type allow.
    expect(codes('LOCATION_TYPE')).toEqual(['damage', 'dock', 'pick', 'qc', 'stage', 'storage', 'virtual']);
    expect(codes('PARTNER_TYPE')).toEqual(['carrier', 'consignee', 'supplier']);
  });

  it('the demo data fills the main pages', async () => {
    for (const file of ['masterdata/sku.page.json', 'masterdata/loa.page.json', 'masterdata/partner.page.json', 'masterdata/codeMaster.page.json']) {
      const page = readDefinition(file);
      const catalog = await readTableColumns(database.db, [page.table.name, 'owner', 'currency', 'organization']);
      const { total } = await selectPage(database.db, preparePage(page, catalog), session, { page: 1 });
      expect(total, file).toBeGreaterThan(10);
    }
  });

  it('every menu route of the master data, setup and transport groups has its page', async () => {
    const entries = await database.db
      .selectFrom('sys_module')
      .select(['code', 'parent_code'])
      .where('parent_code', 'in', ['masterData', 'setup', 'transport', 'genericGroup'])
      .execute();
    const functions = new Set(FILES.map((f) => f.split('/')[1].replace('.page.json', '')));
    const mine = new Set(REQUIRED.map((r) => r.split('/')[1]));
    // The menu entry of each of these pages is the sys_module row of the same code (route = /code).
    const withoutPage = entries.filter((e) => mine.has(e.code) && !functions.has(e.code));
    expect(withoutPage).toEqual([]);
    const menuCodes = new Set(entries.map((e) => e.code));
    expect([...mine].filter((code) => !menuCodes.has(code) && !['skuUpc', 'currency'].includes(code))).toEqual([]);
  });
});

class RolledBack extends Error {}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_SCHEMA_VERSION, type PageDefinition } from '../../engine/schema/index.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import { DefinitionStore } from '../../src/server/definitions/definition-store.js';
import { contentHash, syncShippedDefinitions } from '../../src/server/definitions/definition-sync.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { MODULES } from '../../src/server/modules/index.js';
import { AreaRegistry } from '../../src/server/area-kit/area-registry.js';

/** Resolution, cache and start-up sync of page definitions (part 2). */
function page(overrides: Partial<PageDefinition> = {}): PageDefinition {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    moduleCode: 'storetest',
    functionCode: 'org',
    titleCode: 'ui.storetest.title',
    status: 'published',
    table: { name: 'organization' },
    scope: 'none',
    fields: [{ name: 'code', labelCode: 'ui.storetest.code', type: 'string', searchable: true }],
    ...overrides,
  };
}

const problems: unknown[] = [];
const log = { error: (details: unknown) => problems.push(details) } as unknown as FastifyBaseLogger;

describe(syncShippedDefinitions.name, () => {
  let database: TestDatabase;
  let dir: string;
  const write = (file: string, content: unknown) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  };
  const versions = () =>
    database.db
      .selectFrom('page_definition')
      .select(['module_code', 'function_code', 'version', 'status'])
      .where('project_id', 'is', null)
      .orderBy('function_code')
      .orderBy('version')
      .execute();

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-definitions-'));
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('adds new files, skips unchanged ones by content hash, versions changed ones', async () => {
    write('storetest/org.page.json', page());
    const first = await syncShippedDefinitions(database.db, dir);
    expect(first).toEqual({ added: ['storetest/org@1'], unchanged: 0, refused: [], indexes: [] });

    // Same content, other key order and formatting: same canonical hash, nothing written.
    const reordered = Object.fromEntries(Object.entries(page()).reverse());
    write('storetest/org.page.json', JSON.stringify(reordered));
    expect(await syncShippedDefinitions(database.db, dir)).toEqual({ added: [], unchanged: 1, refused: [], indexes: [] });

    write('storetest/org.page.json', page({ titleCode: 'ui.storetest.newTitle' }));
    expect((await syncShippedDefinitions(database.db, dir)).added).toEqual(['storetest/org@2']);
    expect(await versions()).toEqual([
      { module_code: 'storetest', function_code: 'org', version: 1, status: 'inactive' },
      { module_code: 'storetest', function_code: 'org', version: 2, status: 'published' },
    ]);
  });

  it('refuses invalid files, misplaced files and definitions the database cannot serve, with every problem', async () => {
    write('storetest/broken.page.json', '{ not json');
    write('storetest/invalid.page.json', { ...page({ functionCode: 'invalid' }), status: 'live', fields: [] });
    write('storetest/elsewhere.page.json', page({ functionCode: 'misplaced' }));
    write('storetest/nocolumn.page.json', page({ functionCode: 'nocolumn', fields: [{ name: 'no_such_column', labelCode: 'x.y', type: 'string' }] }));
    write('storetest/notable.page.json', page({ functionCode: 'notable', table: { name: 'no_such_table' } }));
    write('storetest/wrongtype.page.json', page({ functionCode: 'wrongtype', fields: [{ name: 'code', labelCode: 'x.y', type: 'integer' }] }));
    write('storetest/start1.page.json', page({ functionCode: 'start1', startup: true }));
    write('storetest/start2.page.json', page({ functionCode: 'start2', startup: true }));
    const report = await syncShippedDefinitions(database.db, dir);
    const refused = Object.fromEntries(report.refused.map((r) => [r.file, r.problems.map((p) => `${p.path} ${p.code}`)]));
    expect(refused).toEqual({
      'storetest/broken.page.json': [' json'],
      'storetest/invalid.page.json': ['/status enum', '/fields minItems'],
      'storetest/elsewhere.page.json': ['/functionCode path'],
      'storetest/nocolumn.page.json': ['/fields/0/name catalog'],
      'storetest/notable.page.json': ['/table/name catalog'],
      'storetest/wrongtype.page.json': ['/fields/0/type catalog'],
      'storetest/start2.page.json': ['/startup startupExists'],
    });
    expect((await versions()).map((v) => v.function_code)).toEqual(['org', 'org', 'start1']);
  });

  it('stores shipped definitions with the hash of their canonical content', async () => {
    const row = await database.db.selectFrom('page_definition').select(['content_hash']).where('version', '=', 2).executeTakeFirstOrThrow();
    expect(row.content_hash).toBe(contentHash(page({ titleCode: 'ui.storetest.newTitle' })));
  });
});

describe(DefinitionStore.name, () => {
  let database: TestDatabase;
  let store: DefinitionStore;
  let projectId: number;

  const insert = async (projectIdOrNull: number | null, version: number, status: 'draft' | 'published' | 'inactive', content: unknown) => {
    await database.db
      .insertInto('page_definition')
      .values({
        project_id: projectIdOrNull,
        module_code: 'storetest',
        function_code: 'org',
        version,
        status,
        content: JSON.stringify(content),
        content_hash: contentHash(content),
        created_by: 'test',
        updated_by: 'test',
      })
      .execute();
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedFirstStart(database.db, 'Adm1n!Passw0rd', MODULES);
    projectId = (await database.db.selectFrom('project').select('id').executeTakeFirstOrThrow()).id;
    store = new DefinitionStore(database.db, log, new AreaRegistry(MODULES).rowFilters());
  });
  afterAll(async () => {
    await database?.close();
  });

  it('answers MODULE_NOT_FOUND while nothing is published', async () => {
    await insert(null, 1, 'draft', page());
    await expect(store.resolve(projectId, 'storetest', 'org')).rejects.toMatchObject({ code: 'MODULE_NOT_FOUND' });
  });

  it('resolves to the shipped default, then to the project copy once published, after invalidation', async () => {
    await insert(null, 2, 'published', page({ titleCode: 'ui.storetest.shipped' }));
    const shipped = await store.resolve(projectId, 'storetest', 'org');
    expect(shipped).toMatchObject({ version: 2, projectSpecific: false });
    expect(shipped.prepared.page.titleCode).toBe('ui.storetest.shipped');

    await insert(projectId, 1, 'published', page({ titleCode: 'ui.storetest.own' }));
    // Cached until a change is announced.
    expect((await store.resolve(projectId, 'storetest', 'org')).prepared.page.titleCode).toBe('ui.storetest.shipped');
    store.invalidate({ projectId, moduleCode: 'storetest', functionCode: 'org' });
    expect(await store.resolve(projectId, 'storetest', 'org')).toMatchObject({ version: 1, projectSpecific: true });
    expect((await store.resolve(null, 'storetest', 'org')).prepared.page.titleCode).toBe('ui.storetest.shipped');
  });

  it('upgrades stored documents of an older schema version on first use', async () => {
    const v1 = { ...page({ functionCode: 'legacy' }), schemaVersion: 1 } as Record<string, unknown>;
    v1.fields = [{ name: 'code', labelCode: 'x.y', type: 'string', optionType: 'codeMaster', codeType: 'ORG' }];
    await database.db
      .insertInto('page_definition')
      .values({ project_id: null, module_code: 'storetest', function_code: 'legacy', version: 1, status: 'published', content: JSON.stringify(v1), content_hash: 'x', created_by: 't', updated_by: 't' })
      .execute();
    const resolved = await store.resolve(projectId, 'storetest', 'legacy');
    expect(resolved.prepared.page.fields[0].options).toEqual({ type: 'codeMaster', codeType: 'ORG' });
  });

  it('refuses with SYSTEM_CONFIG a stored definition that no longer fits the database, and logs why', async () => {
    await sql`create table storetest_gone (id bigint primary key, code text)`.execute(database.db);
    await database.db
      .insertInto('page_definition')
      .values({
        project_id: null,
        module_code: 'storetest',
        function_code: 'gone',
        version: 1,
        status: 'published',
        content: JSON.stringify(page({ functionCode: 'gone', table: { name: 'storetest_gone' }, versionField: null })),
        content_hash: 'x',
        created_by: 't',
        updated_by: 't',
      })
      .execute();
    expect((await store.resolve(projectId, 'storetest', 'gone')).prepared.page.table.name).toBe('storetest_gone');
    await sql`alter table storetest_gone drop column code`.execute(database.db);
    store.invalidate({ projectId: null, all: true });
    await expect(store.resolve(projectId, 'storetest', 'gone')).rejects.toMatchObject({ code: 'SYSTEM_CONFIG' });
    expect(JSON.stringify(problems)).toContain('storetest_gone.code');
  });

  it('refuses a second published version of one page in one project (database constraint)', async () => {
    await expect(insert(projectId, 2, 'published', page())).rejects.toThrow();
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { stableStringify } from '../../src/common/designer/stable-json.js';
import type { DefinitionChange } from '../../src/server/events/events.js';
import { ADMIN, buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/** A page over the existing `sku` table (migration 0020), as a configurator would write it. */
function skuPage(functionCode: string, extra: Record<string, unknown> = {}) {
  return {
    schemaVersion: 2,
    moduleCode: 'catalog',
    functionCode,
    titleCode: 'CATALOG_TITLE',
    status: 'draft',
    table: { name: 'sku', alias: 's' },
    scope: 'project',
    fields: [
      { name: 'id', labelCode: 'ID', type: 'integer', editable: false, displayable: false },
      { name: 'code', labelCode: 'SKU_CODE', type: 'string', length: 40, mandatory: true, searchable: true },
      { name: 'description', labelCode: 'SKU_DESCRIPTION', type: 'string', length: 200 },
    ],
    texts: {
      CATALOG_TITLE: { en: 'Catalog', zh: '目录' },
      ID: { en: 'ID' },
      SKU_CODE: { en: 'SKU' },
      SKU_DESCRIPTION: { en: 'Description' },
    },
    ...extra,
  };
}

function upcPage() {
  return {
    schemaVersion: 2,
    moduleCode: 'catalog',
    functionCode: 'skuUpc',
    titleCode: 'UPC_TITLE',
    status: 'draft',
    table: { name: 'sku_upc' },
    scope: 'none',
    fields: [
      { name: 'id', labelCode: 'ID', type: 'integer', editable: false },
      { name: 'sku_id', labelCode: 'SKU_ID', type: 'integer' },
      { name: 'upc', labelCode: 'UPC', type: 'string', length: 40 },
    ],
    texts: { UPC_TITLE: { en: 'UPC' }, ID: { en: 'ID' }, SKU_ID: { en: 'SKU id' }, UPC: { en: 'UPC' } },
  };
}

describe('designer: definition store, publish rules, copy, export/import', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let configurator: string;
  let viewer: string;
  let operator: string;
  const changes: DefinitionChange[] = [];

  const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    injectAs(app, token, { method, url, ...(method === 'GET' ? { query: payload as Record<string, string> } : { payload: payload as object }) });
  const ok = async <T = Record<string, unknown>>(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<T> => {
    const response = await call(token, method, url, payload);
    expect(response.statusCode, response.body).toBe(200);
    return json<T>(response);
  };
  const saveDraft = (token: string, content: { moduleCode: string; functionCode: string }) =>
    ok<{ version: number; problems: unknown[] }>(token, 'PUT', '/api/generic/draft', { moduleCode: content.moduleCode, functionCode: content.functionCode, content });
  const publish = (token: string, moduleCode: string, functionCode: string, extra: Record<string, unknown> = {}) =>
    call(token, 'POST', '/api/generic/publish', { moduleCode, functionCode, ...extra });
  const version = (token: string, functionCode: string, v: number) =>
    ok<{ status: string; content: ReturnType<typeof skuPage> }>(token, 'GET', '/api/generic/version', { moduleCode: 'catalog', functionCode, version: String(v) });

  beforeAll(async () => {
    t = await buildTestApp();
    app = t.app;
    const org = await t.database.db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
    await t.database.db.insertInto('project').values({ organization_id: org.id, code: 'PRJ2', name: 'Second project', created_by: 'test', updated_by: 'test' }).execute();
    configurator = await createUser(t, { loginAccount: 'configurator', rights: ['generic:edit', 'project:add'], projectCodes: ['PRJ1', 'PRJ2'], warehouseCodes: ['WH1'] });
    viewer = await createUser(t, { loginAccount: 'viewer', rights: ['generic:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    operator = await createUser(t, { loginAccount: 'operator', rights: ['catalog:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    t.app.events.on('definition.changed', (change) => { changes.push(change); });
  });
  afterAll(async () => t?.close());

  it('refuses changes without the configurator right and answers reads with the view right', async () => {
    const refused = await call(viewer, 'PUT', '/api/generic/draft', { moduleCode: 'catalog', functionCode: 'sku', content: skuPage('sku') });
    expect(refused.statusCode).toBe(403);
    expect((await call(operator, 'GET', '/api/generic/module')).statusCode).toBe(403);
    expect((await call(viewer, 'GET', '/api/generic/module')).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/generic/publish', payload: { moduleCode: 'catalog', functionCode: 'sku' } })).statusCode).toBe(401);
  });

  it('saves a draft, publishes it with a menu entry, and the operator with the right sees it in the menu at once', async () => {
    const saved = await saveDraft(configurator, skuPage('sku', { startup: true }));
    expect(saved).toEqual({ version: 1, problems: [] });
    const pages = await ok<{ pages: Array<{ functionCode: string; draftVersion: number | null }> }>(viewer, 'GET', '/api/generic/module', { moduleCode: 'catalog' });
    expect(pages.pages).toEqual([expect.objectContaining({ functionCode: 'sku', draftVersion: 1 })]);

    changes.length = 0;
    const published = await publish(configurator, 'catalog', 'sku', { menu: { parentCode: 'masterData' } });
    expect(published.statusCode, published.body).toBe(200);
    expect(json(published)).toEqual({ version: 1 });
    expect(changes).toContainEqual(expect.objectContaining({ moduleCode: 'catalog', functionCode: 'sku' }));
    expect((await version(viewer, 'sku', 1)).status).toBe('published');

    const menu = await ok<{ items: Array<{ code: string; children?: Array<{ code: string; route?: string }> }> }>(operator, 'GET', '/api/user/menu');
    const entry = menu.items.flatMap((g) => g.children ?? []).find((c) => c.code === 'catalog');
    expect(entry?.route).toBe('/mapTo?moduleCode=catalog&functionCode=sku');
    // The operator with the right uses it through the engine at once: definition and rows.
    const view = await ok<{ definition: { fields: Array<{ labelCode: string }> }; version: number; projectSpecific: boolean }>(operator, 'GET', '/api/generic/module/view', {
      moduleCode: 'catalog',
      functionCode: 'sku',
    });
    expect(view).toMatchObject({ version: 1, projectSpecific: true });
    const rows = await ok<{ rows: unknown[]; total: number }>(operator, 'POST', '/api/generic/selection', { moduleCode: 'catalog', functionCode: 'sku', page: 1, pageSize: 20 });
    expect(rows.total).toBe(0);
    const viewerMenu = await ok<{ items: Array<{ children?: Array<{ code: string }> }> }>(viewer, 'GET', '/api/user/menu');
    expect(viewerMenu.items.flatMap((g) => g.children ?? []).some((c) => c.code === 'catalog')).toBe(false);
  });

  it('refuses to publish again or to delete a published or inactive version, with the spec messages', async () => {
    const again = await publish(configurator, 'catalog', 'sku', { version: 1 });
    expect(again.statusCode).toBe(409);
    expect(json(again)).toMatchObject({ code: 'GENERIC_ALREADY_PUBLISHED', message: 'This page configuration is already published or inactive and cannot be published again.' });
    const deleted = await call(configurator, 'POST', '/api/generic/deletion/header', { moduleCode: 'catalog', functionCode: 'sku', version: 1 });
    expect(deleted.statusCode).toBe(409);
    expect(json(deleted)).toMatchObject({ code: 'GENERIC_DELETE_PUBLISHED', message: 'This page configuration is already published or inactive and cannot be deleted.' });
    const chinese = await injectAs(app, configurator, { method: 'POST', url: '/api/generic/publish', headers: { 'x-language': 'zh' }, payload: { moduleCode: 'catalog', functionCode: 'sku', version: 1 } });
    expect(json<{ message: string }>(chinese).message).toBe('该页面配置已发布或已停用，不能再次发布。');
  });

  it('refuses a second startup page in a module', async () => {
    await saveDraft(configurator, skuPage('skuOther', { startup: true }));
    const refused = await publish(configurator, 'catalog', 'skuOther');
    expect(refused.statusCode).toBe(409);
    expect(json(refused)).toMatchObject({ code: 'GENERIC_STARTUP_EXISTS', params: { moduleCode: 'catalog', functionCode: 'sku' } });
    // Nothing changed: the draft is still a draft and can be published once it is no startup page.
    expect((await version(viewer, 'skuOther', 1)).status).toBe('draft');
    await saveDraft(configurator, skuPage('skuOther', { startup: false }));
    expect((await publish(configurator, 'catalog', 'skuOther')).statusCode).toBe(200);
  });

  it('deletes a draft', async () => {
    await saveDraft(configurator, skuPage('scratch'));
    await ok(configurator, 'POST', '/api/generic/deletion/header', { moduleCode: 'catalog', functionCode: 'scratch', version: 1 });
    expect((await call(viewer, 'GET', '/api/generic/page', { moduleCode: 'catalog', functionCode: 'scratch' })).statusCode).toBe(404);
  });

  it.each([
    ['a write', 'delete from sku', 'GENERIC_SQL_NOT_READ'],
    ['a data-modifying CTE', 'with gone as (delete from sku returning id) select id from gone', 'GENERIC_SQL_NOT_READ'],
    ['two statements', 'select 1; select 2', 'GENERIC_SQL_INVALID'],
    ['DDL', 'drop table sku', 'GENERIC_SQL_NOT_READ'],
    ['a locking read', 'select id from sku for update', 'GENERIC_SQL_NOT_READ'],
    ['SQL that does not compile', 'select no_such_column from sku', 'GENERIC_SQL_INVALID'],
  ])('refuses to save %s as SQL', async (_what, text, code) => {
    const response = await call(configurator, 'PUT', '/api/generic/draft', {
      moduleCode: 'catalog',
      functionCode: 'sqlPage',
      content: skuPage('sqlPage', { sqls: [{ name: 'bad', text }] }),
    });
    expect(response.statusCode).toBe(400);
    expect(json<{ details: Array<{ code: string }> }>(response).details[0].code).toBe(code);
  });

  it('saves a read SQL with parameters and test-runs it, showing rows or the error', async () => {
    const text = "select code as value, description as label from sku where project_id = :projectId and code like :prefix || '%'";
    expect((await saveDraft(configurator, skuPage('sqlPage', { sqls: [{ name: 'codes', text }] }))).version).toBe(1);
    const run = await ok<{ ok: boolean; rows: unknown[] }>(configurator, 'POST', '/api/generic/sql/test', { name: 'codes', text, inputs: { prefix: 'A' } });
    expect(run).toMatchObject({ ok: true, rows: [] });
    const failed = await ok<{ ok: boolean; error: string }>(configurator, 'POST', '/api/generic/sql/test', { name: 'x', text: 'select nope from sku' });
    expect(failed.ok).toBe(false);
    expect(failed.error).toMatch(/nope/);
  });

  it('writes every change to the audit trail with who and what', async () => {
    const audit = await ok<{ entries: Array<{ login_account: string; action: string; version: number }> }>(viewer, 'GET', '/api/generic/audit', {
      moduleCode: 'catalog',
      functionCode: 'sku',
    });
    expect(audit.entries.map((e) => [e.action, e.login_account, e.version])).toEqual([
      ['publish', 'configurator', 1],
      ['draft.save', 'configurator', 1],
    ]);
  });

  it('keeps published versions as snapshots, diffs two versions and rolls back by republishing', async () => {
    const edited = skuPage('sku', { startup: true });
    edited.fields[1].labelCode = 'SKU_CODE_NEW';
    edited.texts = { ...edited.texts, SKU_CODE_NEW: { en: 'Item code' } } as typeof edited.texts;
    expect((await saveDraft(configurator, edited)).version).toBe(2);
    expect((await publish(configurator, 'catalog', 'sku')).statusCode).toBe(200);
    expect((await version(viewer, 'sku', 1)).status).toBe('inactive');
    expect((await version(viewer, 'sku', 2)).content.fields[1].labelCode).toBe('SKU_CODE_NEW');
    // The engine's cache was told: the operator gets the new version without a restart.
    const resolved = () =>
      ok<{ version: number; definition: { fields: Array<{ labelCode: string }> } }>(operator, 'GET', '/api/generic/module/view', { moduleCode: 'catalog', functionCode: 'sku' });
    expect((await resolved()).definition.fields[1].labelCode).toBe('SKU_CODE_NEW');

    const diff = await ok<{ changes: Array<{ path: string; before: unknown; after: unknown }> }>(viewer, 'GET', '/api/generic/diff', {
      moduleCode: 'catalog',
      functionCode: 'sku',
      left: '1',
      right: '2',
    });
    expect(diff.changes).toContainEqual({ path: '/fields/code/labelCode', kind: 'changed', before: 'SKU_CODE', after: 'SKU_CODE_NEW' });

    const rolled = await ok<{ version: number }>(configurator, 'POST', '/api/generic/rollback', { moduleCode: 'catalog', functionCode: 'sku', version: 1 });
    expect(rolled.version).toBe(3);
    expect((await version(viewer, 'sku', 3)).content.fields[1].labelCode).toBe('SKU_CODE');
    expect(await resolved()).toMatchObject({ version: 3, definition: { fields: [{}, { labelCode: 'SKU_CODE' }, {}] } });
    expect((await version(viewer, 'sku', 2)).status).toBe('inactive');
    const again = await call(configurator, 'POST', '/api/generic/rollback', { moduleCode: 'catalog', functionCode: 'sku', version: 3 });
    expect(json(again)).toMatchObject({ code: 'DATA_NOT_CHANGED' });
  });

  it('copies a page with its sub-page within the project and reports every remapped reference', async () => {
    await saveDraft(configurator, upcPage());
    expect((await publish(configurator, 'catalog', 'skuUpc')).statusCode).toBe(200);
    const sqls = [{ name: 'codes', text: 'select code as value, code as label from sku where project_id = :projectId' }];
    const queryConditions = [{ code: 'withA', titleCode: 'WITH_A', query: { combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'A' }] } }];
    const withTab = skuPage('sku', {
      startup: true,
      subPages: [{ code: 'upc', titleCode: 'UPC_TAB', moduleCode: 'catalog', functionCode: 'skuUpc', links: [{ parentField: 'id', childField: 'sku_id' }] }],
      sqls,
      queryConditions,
      fieldMaps: [{ code: 'default', titleCode: 'MAP_DEFAULT', columns: [{ header: 'SKU', field: 'code' }] }],
    });
    withTab.texts = { ...withTab.texts, UPC_TAB: { en: 'UPC' }, WITH_A: { en: 'Starting with A' } } as typeof withTab.texts;
    await saveDraft(configurator, withTab);
    expect((await publish(configurator, 'catalog', 'sku')).statusCode).toBe(200);

    const report = await ok<{
      pages: Array<{ to: { functionCode: string }; status: string }>;
      remapped: Array<{ path: string; from: string; to: string }>;
      unresolved: Array<{ path: string; reference: string; reason: string }>;
    }>(configurator, 'POST', '/api/generic/copy', { from: { moduleCode: 'catalog', functionCode: 'sku' }, to: { moduleCode: 'catalog', functionCode: 'sku2' } });
    expect(report.pages.map((p) => p.to.functionCode).sort()).toEqual(['sku2', 'sku2_skuUpc']);
    expect(report.remapped).toEqual([expect.objectContaining({ path: '/subPages/0', from: 'catalog/skuUpc', to: 'catalog/sku2_skuUpc' })]);
    // The copy of the module's startup page cannot be a second startup page; the label without text is reported.
    expect(report.unresolved).toContainEqual(expect.objectContaining({ path: '/startup', reason: 'startupCleared' }));
    expect(report.unresolved).toContainEqual(expect.objectContaining({ path: '/fieldMaps/0/titleCode', reference: 'MAP_DEFAULT', reason: 'missingText' }));
    const copy = await version(viewer, 'sku2', 1);
    expect(copy.status).toBe('draft');
    expect(copy.content).toMatchObject({ functionCode: 'sku2', startup: false, subPages: [{ functionCode: 'sku2_skuUpc' }], sqls, queryConditions });
    const again = await call(configurator, 'POST', '/api/generic/copy', { from: { moduleCode: 'catalog', functionCode: 'sku' }, to: { moduleCode: 'catalog', functionCode: 'sku2' } });
    expect(json(again)).toMatchObject({ code: 'GENERIC_PAGE_EXISTS' });
  });

  it('previews an unpublished definition through the engine, with its sub-page tab', async () => {
    const db = t.database.db;
    const project = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const owner = await db.insertInto('owner').values({ project_id: project.id, code: 'OWN1', name: 'Owner', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
    const sku = await db
      .insertInto('sku')
      .values({ project_id: project.id, owner_id: owner.id, code: 'A-1', description: 'Apple', created_by: 'test', updated_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('sku_upc').values({ project_id: project.id, sku_id: sku.id, upc: '0001', created_by: 'test', updated_by: 'test' }).execute();
    const draft = skuPage('preview', {
      subPages: [{ code: 'upc', titleCode: 'UPC_TAB', moduleCode: 'catalog', functionCode: 'skuUpc', links: [{ parentField: 'id', childField: 'sku_id' }] }],
    });
    const rows = await ok(configurator, 'POST', '/api/generic/preview/selection', { definition: draft, page: 1, pageSize: 20 });
    expect(rows).toMatchObject({ total: 1, rows: [{ code: 'A-1', description: 'Apple' }] });
    // The tab shows the published child page and needs the right to view its module.
    expect((await call(configurator, 'POST', '/api/generic/preview/tab', { definition: draft, subPage: 'upc', parentKey: sku.id, page: 1, pageSize: 20 })).statusCode).toBe(403);
    const admin = await signIn(app, ADMIN.loginAccount, ADMIN.password);
    const tab = await ok(admin, 'POST', '/api/generic/preview/tab', { definition: draft, subPage: 'upc', parentKey: sku.id, page: 1, pageSize: 20 });
    expect(tab).toMatchObject({ total: 1, rows: [{ upc: '0001' }], functionCode: 'skuUpc' });
    const broken = await call(configurator, 'POST', '/api/generic/preview/selection', { definition: skuPage('preview', { table: { name: 'no_such_table' } }), page: 1, pageSize: 20 });
    expect(broken.statusCode).toBe(400);
    expect(json<{ details: Array<{ field: string }> }>(broken).details[0].field).toBe('/table/name');
  });

  it('copies to another project; each project sees its own label; a rollback there brings the earlier version back', async () => {
    const report = await ok<{ pages: Array<{ projectCode: string; to: { functionCode: string }; status: string }> }>(configurator, 'POST', '/api/generic/copyToProjectList', {
      pages: [{ moduleCode: 'catalog', functionCode: 'sku' }],
      projectCodes: ['PRJ2'],
      publish: true,
    });
    expect(report.pages.map((p) => [p.projectCode, p.to.functionCode, p.status]).sort()).toEqual([
      ['PRJ2', 'sku', 'published'],
      ['PRJ2', 'skuUpc', 'published'],
    ]);
    await ok(configurator, 'POST', '/api/user/project', { code: 'PRJ2' });
    const there = await version(configurator, 'sku', 1);
    expect(there.status).toBe('published');
    const relabelled = structuredClone(there.content);
    relabelled.fields[2].labelCode = 'SKU_TEXT';
    relabelled.texts = { ...relabelled.texts, SKU_TEXT: { en: 'Text' } } as typeof relabelled.texts;
    await saveDraft(configurator, relabelled);
    expect((await publish(configurator, 'catalog', 'sku')).statusCode).toBe(200);
    expect((await version(configurator, 'sku', 2)).content.fields[2].labelCode).toBe('SKU_TEXT');
    // PRJ1 still has its own: v4 published with the old label.
    const prj1 = await ok<{ pages: Array<{ functionCode: string; publishedVersion: number }> }>(viewer, 'GET', '/api/generic/module', { moduleCode: 'catalog' });
    expect(prj1.pages.find((p) => p.functionCode === 'sku')?.publishedVersion).toBe(4);
    expect((await version(viewer, 'sku', 4)).content.fields[2].labelCode).toBe('SKU_DESCRIPTION');

    expect((await ok<{ version: number }>(configurator, 'POST', '/api/generic/rollback', { moduleCode: 'catalog', functionCode: 'sku', version: 1 })).version).toBe(3);
    expect((await version(configurator, 'sku', 3)).content.fields[2].labelCode).toBe('SKU_DESCRIPTION');
    await ok(configurator, 'POST', '/api/user/project', { code: 'PRJ1' });
  });

  it('copies to a new project in one step', async () => {
    const report = await ok<{ project: { code: string }; pages: unknown[] }>(configurator, 'POST', '/api/generic/copyToNewProject', {
      projectCode: 'PRJ3',
      projectName: 'Third',
      pages: [{ moduleCode: 'catalog', functionCode: 'skuUpc' }],
      publish: true,
    });
    expect(report.project.code).toBe('PRJ3');
    expect(report.pages).toHaveLength(1);
    const rows = await t.database.db
      .selectFrom('page_definition')
      .innerJoin('project', 'project.id', 'page_definition.project_id')
      .select(['page_definition.function_code', 'page_definition.status'])
      .where('project.code', '=', 'PRJ3')
      .execute();
    expect(rows).toEqual([{ function_code: 'skuUpc', status: 'published' }]);
    // The new project runs in the source project's warehouses, and its maker (no administrator) is granted it.
    const warehousesOf = (code: string) =>
      t.database.db
        .selectFrom('project_warehouse')
        .innerJoin('project', 'project.id', 'project_warehouse.project_id')
        .select('project_warehouse.warehouse_id')
        .where('project.code', '=', code)
        .orderBy('project_warehouse.warehouse_id')
        .execute();
    expect((await warehousesOf('PRJ1')).length).toBeGreaterThan(0);
    expect(await warehousesOf('PRJ3')).toEqual(await warehousesOf('PRJ1'));
    const status = await ok<{ projects: Array<{ code: string }> }>(configurator, 'GET', '/api/user/status');
    expect(status.projects.map((p) => p.code)).toContain('PRJ3');
  });

  it('exports canonical files that re-import into a fresh database as the same pages, and dry-runs an edited copy', async () => {
    const exported = await ok<{ files: Array<{ path: string; content: string }> }>(viewer, 'POST', '/api/generic/definitions/export', {});
    expect(exported.files.map((f) => f.path)).toEqual(['catalog/sku.page.json', 'catalog/skuOther.page.json', 'catalog/skuUpc.page.json']);
    for (const file of exported.files) expect(file.content).toBe(stableStringify(JSON.parse(file.content)));

    const fresh = await buildTestApp();
    try {
      const freshAdmin = await signIn(fresh.app, ADMIN.loginAccount, ADMIN.password);
      const importCall = (files: unknown, dryRun: boolean) =>
        injectAs(fresh.app, freshAdmin, { method: 'POST', url: '/api/generic/definitions/import', payload: { files, dryRun } });
      const dry = json<{ items: Array<{ path: string; action: string }> }>(await importCall(exported.files, true));
      expect(dry.items.map((i) => i.action)).toEqual(['add', 'add', 'add']);
      const nothingYet = await injectAs(fresh.app, freshAdmin, { method: 'POST', url: '/api/generic/definitions/export', payload: {} });
      expect(json<{ files: unknown[] }>(nothingYet).files).toEqual([]);
      const imported = await importCall(exported.files, false);
      expect(imported.statusCode, imported.body).toBe(200);
      const again = json<{ files: unknown[] }>(await injectAs(fresh.app, freshAdmin, { method: 'POST', url: '/api/generic/definitions/export', payload: {} }));
      expect(again.files).toEqual(exported.files);
      expect(json<{ items: Array<{ action: string }> }>(await importCall(exported.files, true)).items.map((i) => i.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    } finally {
      await fresh.close();
    }

    const edited = exported.files.map((file) => {
      if (file.path !== 'catalog/skuUpc.page.json') return file;
      const doc = JSON.parse(file.content) as ReturnType<typeof upcPage>;
      doc.fields[2].length = 60;
      return { ...file, content: stableStringify(doc) };
    });
    const dry = await ok<{ items: Array<{ path: string; action: string; changes: Array<{ path: string; before: unknown; after: unknown }> }> }>(
      configurator,
      'POST',
      '/api/generic/definitions/import',
      { files: edited, dryRun: true },
    );
    expect(dry.items.map((i) => [i.path, i.action])).toEqual([
      ['catalog/sku.page.json', 'unchanged'],
      ['catalog/skuOther.page.json', 'unchanged'],
      ['catalog/skuUpc.page.json', 'change'],
    ]);
    expect(dry.items[2].changes).toEqual([{ path: '/fields/upc/length', kind: 'changed', before: 40, after: 60 }]);
    // The dry run changed nothing.
    expect((await ok<{ pages: Array<{ functionCode: string; publishedVersion: number }> }>(viewer, 'GET', '/api/generic/module', { moduleCode: 'catalog' })).pages.find((p) => p.functionCode === 'skuUpc')?.publishedVersion).toBe(1);
  });

  it('passes every shipped definition through the publish checks (schema, catalog, SQL guard)', async () => {
    const root = path.resolve(import.meta.dirname, '../../definitions');
    const files = fs
      .readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.page.json'))
      .map((file) => ({ path: file.split(path.sep).join('/'), content: fs.readFileSync(path.join(root, file), 'utf8') }));
    expect(files.length).toBeGreaterThan(0);
    // Pages over access and scope tables are the administrator's, shipped as code: a configurator
    // may not publish them (the configurator roles may not write those tables).
    // So are the warehouse documents whose status rules live in their areas' writers (orders,
    // ASNs, adjustments, counts, bills): configurator SQL may read those tables, never write them.
    const administrative = new Set([
      ...['masterdata/menu', 'masterdata/sysModule', 'masterdata/project', 'masterdata/whs', 'identity/user', 'identity/role', 'identity/rolePermission', 'identity/roleVerb', 'identity/all_rule'],
      ...['identity/userOrganization', 'identity/userProject', 'identity/userWarehouse', 'identity/userRole', 'identity/roleRule', 'identity/roleUser'],
      ...['inbound/po', 'inbound/poLine', 'inbound/asn', 'inbound/asnLine', 'inbound/asnCarton', 'outbound/so', 'outbound/soDetail', 'outbound/pso', 'outbound/psoDetail'],
      'billing/billingMaintance',
      'transport/tmsOrder',
      ...['invAdjust', 'invAdjustLine', 'invHold', 'invHoldLine', 'invTransfer', 'invTransferLine', 'lnvnMove', 'lnvnMoveLine', 'cycleCountMaster', 'cycleCountLine'].map((f) => `inventory/${f}`),
    ]);
    const isAdministrative = (file: string) => administrative.has(file.replace(/\.page\.json$/, ''));
    const dry = await ok<{ items: Array<{ path: string; action: string; problems: unknown[] }> }>(configurator, 'POST', '/api/generic/definitions/import', {
      files: files.filter((f) => !isAdministrative(f.path)),
      dryRun: true,
    });
    expect(dry.items.filter((i) => i.action === 'invalid')).toEqual([]);
    for (const file of files.filter((f) => isAdministrative(f.path))) {
      const response = await call(configurator, 'POST', '/api/generic/definitions/import', { files: [file], dryRun: true });
      const refused = response.statusCode === 400 ? json<{ details: Array<{ code: string }> }>(response).details : json<{ items: Array<{ problems: Array<{ code: string }> }> }>(response).items[0].problems;
      expect(refused.map((p) => p.code), file.path).toContain('privilege');
    }
  });

  it('refuses an import with an invalid file as a whole', async () => {
    const response = await call(configurator, 'POST', '/api/generic/definitions/import', {
      files: [{ path: 'catalog/broken.page.json', content: JSON.stringify({ ...skuPage('broken'), fields: [] }) }],
      dryRun: false,
    });
    expect(response.statusCode).toBe(400);
    expect(json<{ details: Array<{ field: string }> }>(response).details[0].field).toMatch(/^catalog\/broken\.page\.json#\/fields/);
  });

  it('takes a published version out of use and clears caches by hand', async () => {
    changes.length = 0;
    await ok(configurator, 'POST', '/api/generic/status', { moduleCode: 'catalog', functionCode: 'skuOther', status: 'inactive' });
    expect((await version(viewer, 'skuOther', 1)).status).toBe('inactive');
    await ok(configurator, 'POST', '/api/generic/redis/clear', {});
    expect(changes).toEqual([expect.objectContaining({ functionCode: 'skuOther' }), { projectId: null, all: true }]);
  });
});

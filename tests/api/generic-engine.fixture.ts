import { sql } from 'kysely';
import { expect } from 'vitest';
import type { GenericRow, SelectionResponse } from '../../engine/schema/api.js';
import { CURRENT_SCHEMA_VERSION, validatePageDefinition, type PageDefinition } from '../../engine/schema/index.js';
import { contentHash } from '../../src/server/definitions/definition-sync.js';
import { defineBehaviour, defineModule } from '../../src/server/modules/area.js';
import { grantConfiguratorAccess } from '../../src/server/db/migrations/helpers.js';
import { buildTestApp, createUser, injectAs, json, type TestApp } from '../helpers/app.js';

/**
 * What every generic engine API test file starts from (part 3): a table made for these
 * tests, a definition object published into page_definition, two projects with rows of each, and
 * an editor, a viewer and a user of the other project. Each file builds its own app on its own
 * database, so the files run in parallel and no file sees another's writes.
 */
export const MODULE = 'enginetest';

/** The item page: a field of every kind and rule, behaviours, a sub-page, named SQL, a saved condition and a field map. */
export function itemPage(): PageDefinition {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    moduleCode: MODULE,
    functionCode: 'item',
    titleCode: 'ITEM_TITLE',
    status: 'published',
    table: { name: 'engine_item' },
    scope: 'project',
    defaultSort: [{ field: 'code', direction: 'asc' }],
    fields: [
      { name: 'code', labelCode: 'ITEM_CODE', type: 'string', length: 10, mandatory: true, unique: true, searchable: true, editable: false },
      { name: 'name', labelCode: 'ITEM_NAME', type: 'string', length: 20, searchable: true },
      { name: 'qty', labelCode: 'ITEM_QTY', type: 'decimal', decimal: 3, min: 0, max: 1000, searchable: true },
      { name: 'price', labelCode: 'ITEM_PRICE', type: 'decimal', decimal: 2, min: 0 },
      {
        name: 'amount',
        labelCode: 'ITEM_AMOUNT',
        type: 'decimal',
        decimal: 3,
        editable: false,
        calc: { type: 'product', params: ['qty', 'price'] },
        triggerFields: ['qty', 'price'],
      },
      { name: 'active', labelCode: 'ITEM_ACTIVE', type: 'boolean', defaultValue: true, searchable: true },
      { name: 'status', labelCode: 'ITEM_STATUS', type: 'string', defaultValue: 'new', searchable: true },
      { name: 'received_on', labelCode: 'ITEM_RECEIVED', type: 'date', searchable: true },
      {
        name: 'category',
        labelCode: 'ITEM_CATEGORY',
        type: 'string',
        options: { type: 'codeMaster', codeType: 'ENGINE_CAT' },
        validationSql: { sql: 'category_exists' },
      },
      { name: 'owner_id', labelCode: 'ITEM_OWNER', type: 'integer', foreign: { table: 'engine_owner', field: 'id' }, options: { type: 'foreign', table: 'engine_owner', valueField: 'id', labelField: 'code', scope: 'project' } },
      // No explicit scope: the foreign table has project_id, so the page's scope applies anyway.
      { name: 'alt_owner_id', labelCode: 'ITEM_OWNER', type: 'integer', options: { type: 'foreign', table: 'engine_owner', valueField: 'id', labelField: 'code' } },
      { name: 'grade', labelCode: 'ITEM_GRADE', type: 'string', options: { type: 'static', items: [{ value: 'A', labelCode: 'GRADE_A' }, { value: 'B', labelCode: 'GRADE_B' }] } },
      { name: 'note', labelCode: 'ITEM_NOTE', type: 'text', options: { type: 'sql', sql: 'item_names' }, condition: { when: { combinator: 'and', rules: [{ field: 'status', operator: '=', value: 'hold' }] }, effect: 'mandatory' } },
    ],
    behaviours: [
      { code: 'deactivate', action: 'sql:deactivate_items', labelCode: 'DEACTIVATE', confirm: true, enabledBy: { field: 'active', values: [true] }, selection: 'many', right: 'edit' },
      { code: 'count', action: 'enginetest.countSelected', labelCode: 'COUNT', selection: 'many', right: 'view' },
    ],
    subPages: [{ code: 'lines', titleCode: 'LINES', moduleCode: MODULE, functionCode: 'line', links: [{ parentField: 'id', childField: 'item_id' }] }],
    sqls: [
      { name: 'category_exists', text: "select 1 from code_master where code_type = 'ENGINE_CAT' and code = :value" },
      { name: 'item_names', text: 'select name as value, name as label from engine_item where project_id = :projectId and name is not null' },
      { name: 'deactivate_items', mode: 'write', text: 'update engine_item set active = false where id = any(:keys) and project_id = :projectId' },
    ],
    queryConditions: [{ code: 'inactive', titleCode: 'INACTIVE', query: { combinator: 'and', rules: [{ field: 'active', operator: '=', value: false }] } }],
    fieldMaps: [
      {
        code: 'default',
        titleCode: 'IMPORT',
        columns: [
          { header: 'Item code', field: 'code' },
          { header: 'Name', field: 'name' },
          { header: 'Quantity', field: 'qty' },
          { index: 4, field: 'price' },
        ],
      },
    ],
    texts: {
      ITEM_TITLE: { en: 'Items', zh: '物品' },
      ITEM_CODE: { en: 'Item code', zh: '物品编码' },
      ITEM_NAME: { en: 'Name', zh: '名称' },
      ITEM_QTY: { en: 'Quantity', zh: '数量' },
      ITEM_PRICE: { en: 'Price', zh: '价格' },
      ITEM_AMOUNT: { en: 'Amount', zh: '金额' },
    },
  };
}

/** The lines of an item, its sub-page. */
export function linePage(): PageDefinition {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    moduleCode: MODULE,
    functionCode: 'line',
    titleCode: 'LINES',
    status: 'published',
    table: { name: 'engine_item_line' },
    scope: 'project',
    fields: [
      { name: 'item_id', labelCode: 'ITEM', type: 'integer', mandatory: true },
      { name: 'line_no', labelCode: 'LINE', type: 'integer', searchable: true },
      { name: 'note', labelCode: 'NOTE', type: 'string' },
    ],
  };
}

export interface EngineFixture {
  t: TestApp;
  /** All rights on the test module, project PRJ1. */
  editor: string;
  /** The view right only, project PRJ1. */
  viewer: string;
  /** All rights on the test module, project PRJ2. */
  other: string;
  projectId: number;
  otherProjectId: number;
}

/** Publishes a page definition as the designer would, and drops the cached definitions. */
export async function publishPage(t: TestApp, page: PageDefinition): Promise<void> {
  expect(validatePageDefinition(page).problems).toEqual([]);
  const db = t.database.db;
  await db.deleteFrom('page_definition').where('module_code', '=', page.moduleCode).where('function_code', '=', page.functionCode).execute();
  await db
    .insertInto('page_definition')
    .values({
      project_id: null,
      module_code: page.moduleCode,
      function_code: page.functionCode,
      version: 1,
      status: 'published',
      content: JSON.stringify(page),
      content_hash: contentHash(page),
      created_by: 'test',
      updated_by: 'test',
    })
    .execute();
  t.app.definitions.invalidate({ projectId: null, all: true });
}

/** Builds the app with the test area, creates the test tables and rows, publishes the pages and signs the users in. */
export async function buildEngineFixture(): Promise<EngineFixture> {
  // The page's action comes from a tiny area of these tests, declared like every area's.
  const testArea = defineModule({
    name: 'enginetest',
    behaviours: [
      defineBehaviour({
        name: 'enginetest.countSelected',
        run: async ({ rows }) => ({ result: { count: rows.length }, messageCode: 'ui.engineServer.behaviourDone', messageParams: { count: rows.length } }),
      }),
    ],
  });
  const t = await buildTestApp({}, { extraModules: [testArea] });
  const db = t.database.db;
  const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
  const projectId = (await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow()).id;
  const otherProjectId = (
    await db
      .insertInto('project')
      .values({ organization_id: org.id, code: 'PRJ2', name: 'Second project', created_by: 'test', updated_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await sql`
    create table engine_owner (
      id bigint generated always as identity primary key,
      project_id bigint not null references project(id),
      code text not null
    )
  `.execute(db);
  await sql`
    create table engine_item (
      id bigint generated always as identity primary key,
      project_id bigint not null references project(id),
      code text not null,
      name text,
      qty numeric(12,3),
      price numeric(12,2),
      amount numeric(14,3),
      active boolean not null default true,
      status text not null default 'new',
      received_on date,
      category text,
      owner_id bigint references engine_owner(id),
      alt_owner_id bigint,
      grade text,
      note text,
      created_at timestamptz not null default now(),
      created_by text,
      updated_at timestamptz not null default now(),
      updated_by text,
      unique (project_id, code)
    )
  `.execute(db);
  await sql`
    create table engine_item_line (
      id bigint generated always as identity primary key,
      project_id bigint not null references project(id),
      item_id bigint not null references engine_item(id) on delete cascade,
      line_no integer,
      note text,
      updated_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create table engine_sentinel (id integer)`.execute(db);
  // As an area's migration does for the business tables a configurator may use.
  await grantConfiguratorAccess(db, ['engine_owner', 'engine_item', 'engine_item_line'], 'write');
  await sql`insert into engine_owner (project_id, code) values (${projectId}, 'OWN-A'), (${otherProjectId}, 'OWN-OTHER')`.execute(db);
  await sql`
    insert into code_master (code_type, code, sort_seq, desc_en, desc_zh, created_by, updated_by)
    values ('ENGINE_CAT', 'FOOD', 1, 'Food', '食品', 'test', 'test'), ('ENGINE_CAT', 'TOOL', 2, 'Tools', null, 'test', 'test')
  `.execute(db);
  await sql`
    insert into engine_item (project_id, code, name, qty, price, amount, active, status, received_on, category)
    values
      (${projectId}, 'A-001', 'Apple', 5, 2.50, 12.5, true, 'new', '2026-01-05', 'FOOD'),
      (${projectId}, 'A-002', 'Apricot', 10, 1.00, 10, true, 'new', '2026-02-01', 'FOOD'),
      (${projectId}, 'B-001', 'Bolt', 100, 0.10, 10, false, 'hold', '2026-03-01', 'TOOL'),
      (${projectId}, 'B-002', 'Bracket', 7, 3.00, 21, true, 'new', null, 'TOOL'),
      (${projectId}, 'C-001', null, null, null, null, true, 'new', null, null),
      (${otherProjectId}, 'A-001', 'Other apple', 1, 1, 1, true, 'new', '2026-01-05', 'FOOD'),
      (${otherProjectId}, 'Z-999', 'Secret', 1, 1, 1, true, 'new', null, 'FOOD')
  `.execute(db);
  const itemA = await sql<{ id: number }>`select id from engine_item where code = 'A-001' and project_id = ${projectId}`.execute(db);
  await sql`insert into engine_item_line (project_id, item_id, line_no, note) values (${projectId}, ${itemA.rows[0].id}, 1, 'first'), (${projectId}, ${itemA.rows[0].id}, 2, 'second')`.execute(db);
  await publishPage(t, itemPage());
  await publishPage(t, linePage());

  const rights = [`${MODULE}:view`, `${MODULE}:add`, `${MODULE}:edit`, `${MODULE}:delete`] as const;
  const editor = await createUser(t, { loginAccount: 'editor', rights: [...rights], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  const viewer = await createUser(t, { loginAccount: 'viewer', rights: [`${MODULE}:view`], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  const other = await createUser(t, { loginAccount: 'other', rights: [...rights], projectCodes: ['PRJ2'], warehouseCodes: ['WH1'] });
  return { t, editor, viewer, other, projectId, otherProjectId };
}

export const codes = (rows: GenericRow[]) => rows.map((r) => r.code);

/** The calls the tests make, on the app `app()` answers once the fixture is built. */
export function engineRequests(app: () => TestApp) {
  const call = (token: string, url: string, payload: unknown, headers: Record<string, string> = {}) =>
    injectAs(app().app, token, { method: 'POST', url, payload: payload as Record<string, unknown>, headers });
  const select = async (token: string, body: Record<string, unknown> = {}): Promise<SelectionResponse> => {
    const response = await call(token, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 100, ...body });
    expect(response.statusCode, response.body).toBe(200);
    return json<SelectionResponse>(response);
  };
  const add = (token: string, record: Record<string, unknown>) =>
    call(token, '/api/generic/adding', { moduleCode: MODULE, functionCode: 'item', record });
  const tableCount = async () => Number((await sql<{ n: string }>`select count(*) as n from engine_item`.execute(app().database.db)).rows[0].n);
  const publish = (page: PageDefinition) => publishPage(app(), page);
  return { call, select, add, tableCount, publish };
}

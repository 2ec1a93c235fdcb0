import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenericRow, SelectionResponse } from '../../engine/schema/api.js';
import type { PageDefinition } from '../../engine/schema/index.js';
import { CONFIGURATOR_SQL_LIMITS, PAGE_COUNT_LIMITS } from '../../engine/server/index.js';
import { grantConfiguratorAccess } from '../../src/server/db/migrations/helpers.js';
import { createUser, injectAs, json, type TestApp } from '../helpers/app.js';
import { onRealServer } from '../helpers/database.js';
import { buildEngineFixture, codes, engineRequests, itemPage, MODULE } from './generic-engine.fixture.js';

/**
 * The generic engine API's reads (part 3): the resolved definition, the list with its
 * filters, sorts and paging, export, dropdowns, units of measure, sub-page tabs, list SQL pages and
 * the limits on configurator SQL. The fixture is in generic-engine.fixture.ts.
 */
describe('generic engine API: reading', () => {
  let t: TestApp;
  let editor: string;
  let viewer: string;
  let other: string;
  let projectId: number;
  let otherProjectId: number;

  beforeAll(async () => {
    ({ t, editor, viewer, other, projectId, otherProjectId } = await buildEngineFixture());
  });

  afterAll(async () => {
    await t?.close();
  });

  const { call, select, tableCount, publish } = engineRequests(() => t);

  describe('module view', () => {
    it('answers the resolved definition and the caller rights', async () => {
      const response = await injectAs(t.app, viewer, { method: 'GET', url: `/api/generic/module/view?moduleCode=${MODULE}&functionCode=item` });
      expect(response.statusCode, response.body).toBe(200);
      const body = json<{ definition: PageDefinition; rights: Record<string, boolean>; projectSpecific: boolean }>(response);
      expect(body.definition.fields.map((f) => f.name)).toContain('amount');
      expect(body.rights).toEqual({ view: true, add: false, edit: false, delete: false });
      expect(body.projectSpecific).toBe(false);
      expect(body.definition).not.toHaveProperty('sqls');
    });

    it('answers MODULE_NOT_FOUND for a page nobody published', async () => {
      const response = await injectAs(t.app, editor, { method: 'GET', url: `/api/generic/module/view?moduleCode=${MODULE}&functionCode=nothing` });
      expect(response.statusCode).toBe(404);
      expect(json<{ code: string }>(response).code).toBe('MODULE_NOT_FOUND');
    });
  });

  describe('selection', () => {
    it('lists only the rows of the session project, with key and version, in the default order', async () => {
      const { rows, total } = await select(viewer);
      expect(total).toBe(5);
      expect(codes(rows)).toEqual(['A-001', 'A-002', 'B-001', 'B-002', 'C-001']);
      expect(rows[0]).toMatchObject({ code: 'A-001', name: 'Apple', active: true, received_on: '2026-01-05' });
      expect(Number(rows[0].qty)).toBe(5);
      expect(typeof rows[0]._key).toBe('number');
      expect(typeof rows[0]._version).toBe('string');
    });

    it('filters with nested AND/OR groups and every operator kind', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{ combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'A-' }] }, ['A-001', 'A-002']],
        [{ combinator: 'and', rules: [{ field: 'name', operator: 'contains', value: 'PR' }] }, ['A-002']],
        [{ combinator: 'and', rules: [{ field: 'name', operator: 'endsWith', value: 't' }] }, ['A-002', 'B-001', 'B-002']],
        [{ combinator: 'and', rules: [{ field: 'qty', operator: 'between', value: [5, 10] }] }, ['A-001', 'A-002', 'B-002']],
        [{ combinator: 'and', rules: [{ field: 'qty', operator: '>', value: '9.5' }] }, ['A-002', 'B-001']],
        [{ combinator: 'and', rules: [{ field: 'code', operator: 'in', value: 'A-001,B-002' }] }, ['A-001', 'B-002']],
        [{ combinator: 'and', rules: [{ field: 'code', operator: 'notIn', value: ['A-001', 'B-002'] }] }, ['A-002', 'B-001', 'C-001']],
        [{ combinator: 'and', rules: [{ field: 'name', operator: 'null' }] }, ['C-001']],
        [{ combinator: 'and', rules: [{ field: 'received_on', operator: 'notNull' }, { field: 'received_on', operator: '<', value: '2026-02-15' }] }, ['A-001', 'A-002']],
        [{ combinator: 'and', rules: [{ field: 'active', operator: '=', value: false }] }, ['B-001']],
        [{ combinator: 'and', rules: [{ field: 'status', operator: '!=', value: 'new' }] }, ['B-001']],
        [
          {
            combinator: 'or',
            rules: [
              { field: 'code', operator: '=', value: 'C-001' },
              { combinator: 'and', rules: [{ field: 'qty', operator: '>=', value: 7 }, { field: 'active', operator: '=', value: true }] },
            ],
          },
          ['A-002', 'B-002', 'C-001'],
        ],
        [{ combinator: 'and', not: true, rules: [{ field: 'code', operator: 'beginsWith', value: 'A' }] }, ['B-001', 'B-002', 'C-001']],
      ];
      for (const [conditions, expected] of cases) {
        const { rows, total } = await select(viewer, { conditions });
        expect(codes(rows), JSON.stringify(conditions)).toEqual(expected);
        expect(total).toBe(expected.length);
      }
    });

    it('sorts by any field of the page and pages with a stable order', async () => {
      const sorted = await select(viewer, { sort: [{ field: 'qty', direction: 'desc' }] });
      // PostgreSQL's own order, which an index serves in both directions: empty values first when descending.
      expect(codes(sorted.rows)).toEqual(['C-001', 'B-001', 'A-002', 'B-002', 'A-001']);
      const first = await select(viewer, { page: 1, pageSize: 2 });
      const second = await select(viewer, { page: 2, pageSize: 2 });
      const third = await select(viewer, { page: 3, pageSize: 2 });
      expect([...codes(first.rows), ...codes(second.rows), ...codes(third.rows)]).toEqual(['A-001', 'A-002', 'B-001', 'B-002', 'C-001']);
      expect(first.total).toBe(5);
    });

    it('answers the planner estimate instead of counting a very large list, and says so', async () => {
      const exact = await select(viewer, { page: 1, pageSize: 2 });
      expect(exact.total).toBe(5);
      expect(exact.totalEstimated).toBeUndefined();
      const saved = PAGE_COUNT_LIMITS.exactBelow;
      PAGE_COUNT_LIMITS.exactBelow = 1;
      try {
        const estimated = await select(viewer, { page: 1, pageSize: 2 });
        expect(estimated.totalEstimated).toBe(true);
        expect(estimated.total).toBeGreaterThanOrEqual(1);
        expect(estimated.rows).toHaveLength(2);
      } finally {
        PAGE_COUNT_LIMITS.exactBelow = saved;
      }
    });

    it('refuses a page size above 100', async () => {
      const response = await call(viewer, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 101 });
      expect(response.statusCode).toBe(400);
    });

    it('refuses unknown or unsearchable fields and unknown operators, all at once', async () => {
      const response = await call(viewer, '/api/generic/selection', {
        moduleCode: MODULE,
        functionCode: 'item',
        page: 1,
        pageSize: 10,
        conditions: {
          combinator: 'and',
          rules: [
            { field: 'project_id', operator: '=', value: otherProjectId },
            { field: 'price', operator: '=', value: 1 },
            { field: 'code', operator: 'like', value: '%' },
            { field: 'qty', operator: '=', value: 'many' },
          ],
        },
        sort: [{ field: 'nope', direction: 'asc' }],
      });
      expect(response.statusCode).toBe(400);
      const body = json<{ code: string; details: { code: string; field: string }[] }>(response);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.details.map((d) => d.code)).toEqual(['QUERY_FIELD', 'QUERY_FIELD', 'QUERY_OPERATOR', 'FIELD_TYPE', 'QUERY_FIELD']);
    });
  });

  describe('export', () => {
    async function exportRows(token: string, body: Record<string, unknown>, language = 'en') {
      const response = await call(token, '/api/generic/export', { moduleCode: MODULE, functionCode: 'item', ...body }, { 'x-language': language });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.headers['content-type']).toContain('spreadsheetml');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      const rows: unknown[][] = [];
      sheet.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
      const formats = sheet.rowCount > 1 ? (sheet.getRow(2).values as unknown[]).slice(1).map((_, i) => sheet.getRow(2).getCell(i + 1).numFmt ?? null) : [];
      return { name: sheet.name, rows, formats };
    }

    it('streams the filtered rows with headers in the caller language', async () => {
      const { name, rows } = await exportRows(viewer, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'A-' }] }, fields: ['code', 'name', 'qty'] }, 'zh');
      expect(name).toBe('物品');
      expect(rows[0]).toEqual(['物品编码', '名称', '数量']);
      expect(rows.slice(1)).toEqual([
        ['A-001', 'Apple', 5],
        ['A-002', 'Apricot', 10],
      ]);
    });

    it('writes what the screen shows: code-master texts in the caller language and real Excel dates', async () => {
      const { rows, formats } = await exportRows(viewer, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: 'in', value: ['A-001', 'B-001'] }] }, fields: ['code', 'category', 'received_on'] }, 'zh');
      // The column keeps its date format in the file (a date-time column keeps hh:mm:ss likewise).
      expect(formats[2]).toBe('yyyy-mm-dd');
      const [a001, b001] = rows.slice(1);
      expect(a001[0]).toBe('A-001');
      // FOOD has a Chinese text; TOOL has none, so its English text stands in.
      expect(a001[1]).toBe('食品');
      expect(b001[1]).toBe('Tools');
      expect(a001[2]).toBeInstanceOf(Date);
      expect((a001[2] as Date).toISOString().slice(0, 10)).toBe('2026-01-05');
    });

    it('never exports rows of another project', async () => {

      const { rows } = await exportRows(other, {});
      const exported = rows.slice(1).map((r) => r[0]);
      expect(exported).toEqual(expect.arrayContaining(['A-001', 'Z-999']));
      expect(exported).not.toContain('B-001');
    });

    it('refuses bad filters with a JSON error before streaming', async () => {
      const response = await call(viewer, '/api/generic/export', { moduleCode: MODULE, functionCode: 'item', conditions: { combinator: 'and', rules: [{ field: 'secret', operator: '=', value: 1 }] } });
      expect(response.statusCode).toBe(400);
      expect(json<{ code: string }>(response).code).toBe('VALIDATION_FAILED');
    });
  });

  describe('dropdowns', () => {
    const dropdown = async (token: string, field: string, extra: Record<string, unknown> = {}, language = 'en') => {
      const response = await call(token, '/api/generic/dropdown', { moduleCode: MODULE, functionCode: 'item', field, ...extra }, { 'x-language': language });
      expect(response.statusCode, response.body).toBe(200);
      return json<{ options: { value: unknown; label?: string; labelCode?: string }[] }>(response).options;
    };

    it('answers code master codes in the caller language', async () => {
      expect(await dropdown(viewer, 'category', {}, 'zh')).toEqual([
        { value: 'FOOD', label: '食品' },
        { value: 'TOOL', label: 'Tools' },
      ]);
    });

    it('answers a foreign table within the session scope only', async () => {
      expect((await dropdown(viewer, 'owner_id')).map((o) => o.label)).toEqual(['OWN-A']);
      expect((await dropdown(other, 'owner_id')).map((o) => o.label)).toEqual(['OWN-OTHER']);
      expect((await dropdown(viewer, 'alt_owner_id')).map((o) => o.label)).toEqual(['OWN-A']);
    });

    it('answers named SQL with session parameters, and static lists', async () => {
      const names = (await dropdown(other, 'note')).map((o) => o.label);
      expect(names).toContain('Secret');
      expect(names).not.toContain('Bolt');
      expect(await dropdown(viewer, 'grade')).toEqual([
        { value: 'A', labelCode: 'GRADE_A' },
        { value: 'B', labelCode: 'GRADE_B' },
      ]);
      expect((await dropdown(viewer, 'note', { search: 'ap' })).map((o) => o.label).sort()).toEqual(['Apple', 'Apricot']);
    });

    it('refuses a field without a dropdown', async () => {
      const response = await call(viewer, '/api/generic/dropdown', { moduleCode: MODULE, functionCode: 'item', field: 'code; drop table engine_item' });
      expect(response.statusCode).toBe(400);
    });
  });

  describe('units of measure', () => {
    it('answers the units of a SKU of the session project, else the code master units', async () => {
      const db = t.database.db;
      const owner = await db.insertInto('owner').values({ project_id: projectId, code: 'OWN-UOM', name: 'Owner', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow();
      const sku = await db
        .insertInto('sku')
        .values({ project_id: projectId, owner_id: owner.id, code: 'SKU-UOM', description: 'Boxed thing', base_uom: 'EA', created_by: 't', updated_by: 't' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('sku_upc').values({ project_id: projectId, sku_id: sku.id, upc: '4006381333931', uom: 'CS', qty: '12', created_by: 't', updated_by: 't' }).execute();
      // The seed may ship units of its own: the answer is whatever the code master holds, in its order.
      await sql`insert into code_master (code_type, code, sort_seq, desc_en, created_by, updated_by) values ('UOM', 'ZZT', 999, 'Test unit', 't', 't') on conflict do nothing`.execute(db);
      const units = await sql<{ code: string; label: string }>`
        select code, coalesce(desc_en, code) as label from code_master where code_type = 'UOM' and active order by sort_seq, code
      `.execute(db);
      // Reading units needs the view right of the SKU master (or of a line page, below).
      const skuViewer = await createUser(t, { loginAccount: 'uom-viewer', rights: ['masterdata.sku:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
      const otherViewer = await createUser(t, { loginAccount: 'uom-other', rights: ['masterdata.sku:view'], projectCodes: ['PRJ2'], warehouseCodes: ['WH1'] });
      expect((await call(viewer, '/api/generic/uom', { skuCode: 'SKU-UOM' })).statusCode).toBe(403);
      const ofSku = await call(skuViewer, '/api/generic/uom', { skuCode: 'SKU-UOM' });
      expect(ofSku.statusCode, ofSku.body).toBe(200);
      expect(json<{ options: { value: string }[] }>(ofSku).options.map((o) => o.value)).toEqual(['CS', 'EA']);
      expect(json<{ options: unknown[] }>(await call(otherViewer, '/api/generic/uom', { skuCode: 'SKU-UOM' })).options).toEqual([]);
      // By the SKU's key, as an order or ASN line's unit dropdown asks: the same units, in the session's project only.
      expect(json<{ options: { value: string }[] }>(await call(skuViewer, '/api/generic/uom', { skuId: sku.id })).options.map((o) => o.value)).toEqual(['CS', 'EA']);
      expect(json<{ options: unknown[] }>(await call(otherViewer, '/api/generic/uom', { skuId: sku.id })).options).toEqual([]);
      for (const skuId of [0, -1, 'x', 2147483648]) expect((await call(skuViewer, '/api/generic/uom', { skuId })).statusCode).toBe(400);
      // A clerk who may view order or ASN lines, not the SKU master, is offered the units on his line form.
      for (const [loginAccount, right] of [['uom-so-clerk', 'outbound.soDetail:view'], ['uom-asn-clerk', 'inbound.asnLine:view']] as const) {
        const clerk = await createUser(t, { loginAccount, rights: [right], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
        const answer = await call(clerk, '/api/generic/uom', { skuId: sku.id });
        expect(answer.statusCode, answer.body).toBe(200);
        expect(json<{ options: { value: string }[] }>(answer).options.map((o) => o.value)).toEqual(['CS', 'EA']);
      }
      const all = json<{ options: { value: string; label: string }[] }>(await call(skuViewer, '/api/generic/uom', {})).options;
      expect(all).toEqual(units.rows.map((u) => ({ value: u.code, label: u.label })));
      expect(all).toContainEqual({ value: 'ZZT', label: 'Test unit' });
    });
  });

  describe('tabs', () => {
    it('lists the sub-page rows of a header row', async () => {
      const [header] = (await select(viewer, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: 'A-001' }] } })).rows;
      const response = await call(viewer, '/api/generic/tab', { moduleCode: MODULE, functionCode: 'item', subPage: 'lines', parentKey: header._key, page: 1, pageSize: 10, sort: [{ field: 'line_no', direction: 'desc' }] });
      expect(response.statusCode, response.body).toBe(200);
      const body = json<{ rows: GenericRow[]; total: number; functionCode: string }>(response);
      expect(body.functionCode).toBe('line');
      expect(body.rows.map((r) => r.note)).toEqual(['second', 'first']);
      const hidden = await call(other, '/api/generic/tab', { moduleCode: MODULE, functionCode: 'item', subPage: 'lines', parentKey: header._key, page: 1, pageSize: 10 });
      expect(hidden.statusCode).toBe(404);
    });
  });

  describe('list SQL pages', () => {
    it('wraps the list SQL as a subquery so scope, filters, sort and paging still apply', async () => {
      const page = itemPage();
      page.functionCode = 'itemList';
      page.listSql = 'list_items';
      page.sqls = [...(page.sqls ?? []), { name: 'list_items', text: 'select i.*, upper(i.name) as shout from engine_item i where (:onlyActive::boolean is null or i.active = :onlyActive::boolean)' }];
      await publish(page);
      const response = await call(viewer, '/api/generic/selection', {
        moduleCode: MODULE,
        functionCode: 'itemList',
        page: 1,
        pageSize: 2,
        inputs: { onlyActive: true },
        conditions: { combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'B' }] },
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = json<SelectionResponse>(response);
      expect(codes(body.rows)).toEqual(['B-002']);
    });

    it('runs the list SQL read-only: a writing list SQL is refused and writes nothing', async () => {
      const page = itemPage();
      page.functionCode = 'itemWriter';
      page.listSql = 'sneaky';
      page.sqls = [...(page.sqls ?? []), { name: 'sneaky', text: "with gone as (delete from engine_item returning *) select * from gone" }];
      await publish(page);
      const before = await tableCount();
      const response = await call(editor, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'itemWriter', page: 1, pageSize: 10 });
      expect(response.statusCode).toBe(400);
      expect(json<{ code: string }>(response).code).toBe('SQL_REFUSED');
      expect(await tableCount()).toBe(before);
    });
  });

  describe('configurator SQL limits', () => {
    it('caps the rows of a SQL dropdown and says so', async () => {
      const saved = CONFIGURATOR_SQL_LIMITS.rowCap;
      CONFIGURATOR_SQL_LIMITS.rowCap = 2;
      try {
        const response = await call(viewer, '/api/generic/dropdown', { moduleCode: MODULE, functionCode: 'item', field: 'note' });
        const body = json<{ options: unknown[]; truncated: boolean }>(response);
        expect(body.options).toHaveLength(2);
        expect(body.truncated).toBe(true);
      } finally {
        CONFIGURATOR_SQL_LIMITS.rowCap = saved;
      }
    });

    it('refuses pg_sleep in a stored list SQL at run time, before the database sees it', async () => {
      const page = itemPage();
      page.functionCode = 'itemSleepy';
      page.listSql = 'sleepy_items';
      page.sqls = [...(page.sqls ?? []), { name: 'sleepy_items', text: 'select i.* from engine_item i, pg_sleep(10) s' }];
      await publish(page);
      const response = await call(viewer, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'itemSleepy', page: 1, pageSize: 10 });
      expect(response.statusCode).toBe(400);
      expect(json<{ code: string; message: string }>(response).message).toContain('pg_sleep');
    });

    it.runIf(onRealServer)('stops a list SQL that runs past the statement timeout (real server)', async () => {
      // PGlite runs in one thread without timer signals: statement_timeout cannot interrupt a running
      // statement there, which is why the parser refuses what could run forever.
      await sql`create table engine_big (n integer)`.execute(t.database.db);
      await sql`insert into engine_big select g from generate_series(1, 3000) g`.execute(t.database.db);
      await grantConfiguratorAccess(t.database.db, ['engine_big'], 'read');
      const page = itemPage();
      page.functionCode = 'itemSlow';
      page.listSql = 'slow_items';
      page.sqls = [
        ...(page.sqls ?? []),
        { name: 'slow_items', text: 'select i.* from engine_item i where (select count(*) from engine_big a, engine_big b, engine_big c) > 0' },
      ];
      await publish(page);
      const saved = CONFIGURATOR_SQL_LIMITS.statementTimeoutMs;
      CONFIGURATOR_SQL_LIMITS.statementTimeoutMs = 200;
      try {
        const response = await call(viewer, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'itemSlow', page: 1, pageSize: 10 });
        expect(response.statusCode).toBe(503);
        expect(json<{ code: string }>(response).code).toBe('SQL_TIMEOUT');
      } finally {
        CONFIGURATOR_SQL_LIMITS.statementTimeoutMs = saved;
      }
    });
  });

  it(`runs on ${onRealServer ? 'the PostgreSQL server' : 'PGlite'}`, async () => {
    expect(await t.database.version()).toMatch(/PostgreSQL/);
  });
});

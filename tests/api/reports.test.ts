import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardWidgetData, ReportPageAnswer, ReportSpec, RunnableReport } from '../../src/common/report-api.js';
import { withReportDatabase } from '../../src/server/modules/report/index.js';
import { buildTestApp, createUserAccount, injectAs, json, type TestApp } from '../helpers/app.js';
import { csvFields } from '../helpers/csv.js';
import { createTestDatabase, onRealServer } from '../helpers/database.js';
import { reportLabels, seedReportStock, stockReportSpec, type SeededStock } from '../helpers/report-fixtures.js';

/**
 * Configured reports end to end through the API (docs/reports.md): a configurator of project A
 * drafts and publishes a stock report; A's operator runs it a page at a time with sorting, a SKU
 * parameter and group totals, and exports it; B's operator does not see it. Report SQL that
 * reaches another project's rows, a secret table or a server function is refused by the
 * configurator sandbox. A dashboard of three widgets shows for A only.
 */

interface Actor {
  uid: number;
  token: string;
}

const tag = `R${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
let t: TestApp;
let configA: Actor;
let operatorA: Actor;
let operatorB: Actor;
let stockA: SeededStock;
let stockB: SeededStock;
let reportId = 0;
const ids = { prj1: 0, prj2: 0, wh1: 0, wh2: 0 };

const post = (actor: Actor, url: string, payload: object = {}) => injectAs(t.app, actor.token, { method: 'POST', url: `/api${url}`, payload });

async function save(actor: Actor, code: string, draft: ReportSpec, extra: object = {}) {
  return post(actor, '/report/generic/save', { code, names: reportLabels(`Report ${code}`), displayOrder: 1, draft, ...extra });
}

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
  ids.prj1 = (await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow()).id;
  ids.wh1 = (await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id;
  ids.prj2 = (await db.insertInto('project').values({ organization_id: org.id, code: 'PRJ2', name: 'B', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow()).id;
  ids.wh2 = (await db.insertInto('warehouse').values({ organization_id: org.id, code: 'WH2', name: 'B', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow()).id;
  await db.insertInto('project_warehouse').values({ project_id: ids.prj2, warehouse_id: ids.wh2 }).execute();
  stockA = await seedReportStock(db, ids.prj1, ids.wh1, `${tag}A`);
  stockB = await seedReportStock(db, ids.prj2, ids.wh2, `${tag}B`);
  const run = ['report.generic:view', 'report.dashboard:view'] as const;
  configA = await createUserAccount(t, { loginAccount: `cfg-${tag}`, rights: [...run, 'report.config:view', 'report.config:edit', 'report.config:publish'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  operatorA = await createUserAccount(t, { loginAccount: `opa-${tag}`, rights: [...run], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  operatorB = await createUserAccount(t, { loginAccount: `opb-${tag}`, rights: [...run], projectCodes: ['PRJ2'], warehouseCodes: ['WH2'] });
});
afterAll(() => t?.close());

describe('report configuration and runs', () => {
  it('a draft is saved after its SQL compiled, and is not runnable before it is published', async () => {
    const saved = await save(configA, `STOCK-${tag}`, stockReportSpec());
    expect(saved.statusCode, saved.body).toBe(200);
    reportId = json<{ id: number }>(saved).id;
    expect(json<RunnableReport[]>(await post(operatorA, '/report/generic/list')).map((r) => r.id)).not.toContain(reportId);
    expect((await post(operatorA, '/report/generic/run', { id: reportId })).statusCode).toBe(404);
    // The configurator runs the draft.
    const draft = await post(configA, '/report/generic/run', { id: reportId, draft: true, params: { sku: `${tag}A` } });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(json<ReportPageAnswer>(draft).total).toBe(3);
    // An operator may not.
    expect((await post(operatorA, '/report/generic/run', { id: reportId, draft: true })).statusCode).toBe(403);
  });

  it('publishes versions; the operator of the project runs the published one with paging, sorting, a parameter and group totals', async () => {
    const first = await post(configA, '/report/generic/publish', { id: reportId });
    expect(first.statusCode, first.body).toBe(200);
    expect(json<{ version: number }>(first).version).toBe(1);
    const list = json<RunnableReport[]>(await post(operatorA, '/report/generic/list'));
    expect(list.find((r) => r.id === reportId)).toMatchObject({ code: `STOCK-${tag}`, version: 1, name: `Report STOCK-${tag}` });

    const page1 = json<ReportPageAnswer>(await post(operatorA, '/report/generic/run', { id: reportId, params: { sku: `${tag}A` }, page: 1, pageSize: 2, sort: { column: 'qty', desc: true } }));
    expect(page1.total).toBe(3);
    expect(page1.rows.map((r) => r.sku)).toEqual([stockA.skuCodes[2], stockA.skuCodes[1]]);
    const page2 = json<ReportPageAnswer>(await post(operatorA, '/report/generic/run', { id: reportId, params: { sku: `${tag}A` }, page: 2, pageSize: 2, sort: { column: 'qty', desc: true } }));
    expect(page2.rows.map((r) => r.sku)).toEqual([stockA.skuCodes[0]]);
    expect(page1.groups).toEqual([
      { group: stockA.ownerCodes[0], values: { 'qty:sum': expect.stringMatching(/^30(\.0+)?$/), 'qty:count': 2 } },
      { group: stockA.ownerCodes[1], values: { 'qty:sum': expect.stringMatching(/^30(\.0+)?$/), 'qty:count': 1 } },
    ]);
    const one = json<ReportPageAnswer>(await post(operatorA, '/report/generic/run', { id: reportId, params: { sku: stockA.skuCodes[1] } }));
    expect(one.rows).toEqual([expect.objectContaining({ sku: stockA.skuCodes[1], owner: stockA.ownerCodes[0] })]);

    // A new draft does not change what operators run until it is published; versions are kept.
    const changed = { ...stockReportSpec(), grouping: null };
    expect((await save(configA, `STOCK-${tag}`, changed, { id: reportId })).statusCode).toBe(200);
    expect(json<ReportPageAnswer>(await post(operatorA, '/report/generic/run', { id: reportId, params: { sku: `${tag}A` } })).groups).toHaveLength(2);
    expect(json<{ version: number }>(await post(configA, '/report/generic/publish', { id: reportId })).version).toBe(2);
    expect(json<ReportPageAnswer>(await post(operatorA, '/report/generic/run', { id: reportId, params: { sku: `${tag}A` } })).groups).toHaveLength(0);
    const versions = json<Array<{ version: number; current: boolean }>>(await post(configA, '/report/generic/versions', { id: reportId }));
    expect(versions.map((v) => [v.version, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    // Back to the grouped spec for the rest of the file.
    await save(configA, `STOCK-${tag}`, stockReportSpec(), { id: reportId });
    await post(configA, '/report/generic/publish', { id: reportId });
  });

  it("another project's operator neither sees nor runs it, and its rows never show in A's report", async () => {
    expect(json<RunnableReport[]>(await post(operatorB, '/report/generic/list')).map((r) => r.id)).not.toContain(reportId);
    expect((await post(operatorB, '/report/generic/run', { id: reportId })).statusCode).toBe(404);
    expect((await post(operatorB, '/report/generic/export', { id: reportId, format: 'csv' })).statusCode).toBe(404);
    expect((await post(operatorB, '/report/generic/get', { id: reportId })).statusCode).toBe(403);
    const all = json<ReportPageAnswer>(await post(operatorA, '/report/generic/run', { id: reportId, params: { sku: tag }, pageSize: 100 }));
    expect(all.rows.map((r) => r.sku).sort()).toEqual([...stockA.skuCodes].sort());
    expect(all.rows.some((r) => stockB.skuCodes.includes(String(r.sku)))).toBe(false);
  });

  it('assigned to users, a report shows only to them', async () => {
    const saved = await save(configA, `MINE-${tag}`, stockReportSpec(), { assignments: { userIds: [configA.uid] } });
    const id = json<{ id: number }>(saved).id;
    await post(configA, '/report/generic/publish', { id });
    expect(json<RunnableReport[]>(await post(configA, '/report/generic/list')).map((r) => r.id)).toContain(id);
    expect(json<RunnableReport[]>(await post(operatorA, '/report/generic/list')).map((r) => r.id)).not.toContain(id);
  });

  it('exports csv and xlsx that read back as the rows', async () => {
    const csv = await post(operatorA, '/report/generic/export', { id: reportId, params: { sku: `${tag}A` }, format: 'csv', sort: { column: 'sku' } });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csvFields(csv.body.replace(/^\uFEFF/, ''));
    expect(lines[0]).toEqual(['SKU', 'Owner', 'Location', 'Quantity']);
    expect(lines.slice(1).map((l) => l[0])).toEqual(stockA.skuCodes);
    const xlsx = await post(operatorA, '/report/generic/export', { id: reportId, params: { sku: `${tag}A` }, format: 'xlsx', sort: { column: 'sku' } });
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(2).getCell(1).value).toBe(stockA.skuCodes[0]);
    expect(sheet.getRow(4).getCell(4).value).toBe(30);
  });

  it('refuses parameters of the wrong type and unknown sort columns by field, never a 500', async () => {
    const spec: ReportSpec = { ...stockReportSpec(), sql: `${stockReportSpec().sql.replace('order by s.code', '')} and b.on_hand_qty >= coalesce(:minQty, 0)`, params: [...stockReportSpec().params, { name: 'minQty', labels: reportLabels('Min'), type: 'number' }] };
    const saved = await save(configA, `TYPED-${tag}`, spec);
    expect(saved.statusCode, saved.body).toBe(200);
    const id = json<{ id: number }>(saved).id;
    await post(configA, '/report/generic/publish', { id });
    expect(json<ReportPageAnswer>(await post(operatorA, '/report/generic/run', { id, params: { sku: tag, minQty: '20' } })).total).toBe(2);
    const wrong = await post(operatorA, '/report/generic/run', { id, params: { minQty: 'many' } });
    expect(wrong.statusCode).toBe(400);
    expect(json<{ details: Array<{ field: string }> }>(wrong).details[0].field).toBe('params.minQty');
    expect((await post(operatorA, '/report/generic/run', { id, sort: { column: 'nope' } })).statusCode).toBe(400);
    // A parameter the SQL uses but the report does not declare.
    expect((await save(configA, `UNDECLARED-${tag}`, { ...stockReportSpec(), params: [] })).statusCode).toBe(400);
  });
});

describe('report SQL runs in the configurator sandbox', () => {
  const columns = [{ name: 'x', labels: reportLabels('X'), type: 'text' as const }];
  const spec = (sql: string): ReportSpec => ({ sql, params: [], columns, grouping: null });

  it.each([
    ['a password hash', 'select password_hash as x from app_user', 403, 'SQL_NOT_PERMITTED'],
    ['sessions', 'select token_hash as x from user_session', 403, 'SQL_NOT_PERMITTED'],
    ['role grants', 'select role_id::text as x from user_role', 403, 'SQL_NOT_PERMITTED'],
    ['a file of the server', "select pg_read_file('/etc/passwd') as x", 400, 'SQL_REFUSED'],
    ['a sleep', 'select pg_sleep(30)::text as x', 400, 'SQL_REFUSED'],
    ['another database', "select x from dblink('dbname=postgres', 'select 1') as t(x text)", 400, 'SQL_REFUSED'],
    ['a setting', "select current_setting('wms.project_id') as x", 400, 'SQL_REFUSED'],
    ['a write', "with d as (delete from sku returning code) select code as x from d", 400, 'SQL_REFUSED'],
    ['two statements', 'select 1 as x; delete from sku', 400, 'REPORT_SPEC_INVALID'],
  ])('refuses SQL reading %s when saved', async (_what, sql, status, code) => {
    const response = await save(configA, `BAD-${crypto.randomBytes(3).toString('hex')}`, spec(sql));
    expect(response.statusCode, response.body).toBe(status);
    expect(json<{ code: string }>(response).code).toBe(code);
  });

  it("reads no row of another project, however the SQL names it", async () => {
    const saved = await save(configA, `PEEK-${tag}`, spec(`select code as x from sku where project_id = ${ids.prj2} or code like '${tag}B%'`));
    expect(saved.statusCode, saved.body).toBe(200);
    const id = json<{ id: number }>(saved).id;
    const draft = json<ReportPageAnswer>(await post(configA, '/report/generic/run', { id, draft: true }));
    expect(draft.rows).toEqual([]);
    expect(draft.total).toBe(0);
  });

  it('answers a SQL error of the report as REPORT_SQL_FAILED when saved', async () => {
    const response = await save(configA, `BROKEN-${tag}`, spec('select no_such_column as x from sku'));
    expect(response.statusCode).toBe(400);
    expect(json<{ code: string }>(response).code).toBe('REPORT_SQL_FAILED');
  });
});

describe('the start page dashboard', () => {
  it('three widgets published for project A show to its operator and not to B', async () => {
    const widgets = [
      { kind: 'number', reportId, title: reportLabels('Lines'), valueColumn: 'qty' },
      { kind: 'chart', reportId, title: reportLabels('By SKU'), chart: 'bar', labelColumn: 'sku', valueColumn: 'qty' },
      { kind: 'table', reportId, title: reportLabels('Stock') },
    ];
    expect((await post(configA, '/report/dashboard/save', { widgets })).statusCode).toBe(200);
    // A draft shows to nobody.
    expect(json<{ widgets: unknown[] }>(await post(operatorA, '/report/dashboard/get')).widgets).toHaveLength(0);
    expect(json<{ version: number }>(await post(configA, '/report/dashboard/publish')).version).toBe(1);
    const shown = json<{ widgets: DashboardWidgetData[] }>(await post(operatorA, '/report/dashboard/get'));
    expect(shown.widgets.map((w) => w.kind)).toEqual(['number', 'chart', 'table']);
    expect(shown.widgets[2].rows.map((r) => r.sku)).toEqual(expect.arrayContaining(stockA.skuCodes));
    expect(json<{ widgets: unknown[] }>(await post(operatorB, '/report/dashboard/get')).widgets).toHaveLength(0);
    // B's configurator could not place A's report on B's dashboard either.
    expect((await post(operatorB, '/report/dashboard/save', { widgets })).statusCode).toBe(403);
  });
});

describe.skipIf(!onRealServer)('REPORT_DATABASE_URL', () => {
  it('report runs, exports and dashboards read from the report database, not the primary', async () => {
    const replica = await createTestDatabase({ ready: true });
    const primary = await buildTestApp({ REPORT_DATABASE_URL: replica.url! });
    try {
      const code = `ONLY-REPLICA-${tag}`;
      const project = await replica.db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
      const owner = await replica.db.insertInto('owner').values({ project_id: project.id, code: `OW-${tag}`, name: 'Replica' }).returning('id').executeTakeFirstOrThrow();
      await replica.db.insertInto('sku').values({ project_id: project.id, owner_id: owner.id, code, description: 'only on the replica' }).execute();
      const configurator = await createUserAccount(primary, {
        loginAccount: `cfg-rep-${tag}`,
        rights: ['report.generic:view', 'report.dashboard:view', 'report.config:view', 'report.config:edit', 'report.config:publish'],
        projectCodes: ['PRJ1'],
        warehouseCodes: ['WH1'],
      });
      const as = (url: string, payload: object = {}) => injectAs(primary.app, configurator.token, { method: 'POST', url: `/api${url}`, payload });
      const saved = await as('/report/generic/save', {
        code: `REPLICA-${tag}`,
        names: reportLabels('Replica'),
        draft: { sql: "select code from sku where code like 'ONLY-REPLICA-%'", params: [], columns: [{ name: 'code', labels: reportLabels('Code'), type: 'text' }] },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const id = json<{ id: number }>(saved).id;
      expect((await as('/report/generic/publish', { id })).statusCode).toBe(200);
      const page = json<ReportPageAnswer>(await as('/report/generic/run', { id }));
      expect(page.rows).toEqual([{ code }]);
      expect((await as('/report/generic/export', { id, format: 'csv' })).body).toContain(code);
      await as('/report/dashboard/save', { widgets: [{ kind: 'table', reportId: id, title: reportLabels('Replica') }] });
      await as('/report/dashboard/publish');
      expect(json<{ widgets: DashboardWidgetData[] }>(await as('/report/dashboard/get')).widgets[0].rows).toEqual([{ code }]);
      // The primary has no such SKU: the rows came from the report database.
      expect(await primary.database.db.selectFrom('sku').select('id').where('code', '=', code).executeTakeFirst()).toBeUndefined();
    } finally {
      await primary.close();
      await replica.close();
    }
  });

  it('work outside a request (a scheduled report) reads from the report database too, or from the primary when it is down or not set', async () => {
    const replica = await createTestDatabase({ ready: true });
    const primary = await createTestDatabase({ ready: true });
    try {
      await replica.db.updateTable('project').set({ name: `replica ${tag}` }).where('code', '=', 'PRJ1').execute();
      const warnings: unknown[] = [];
      const logger = { warn: (...args: unknown[]) => void warnings.push(args) };
      const projectName = (config: { databaseUrl: string | undefined; reportDatabaseUrl: string | undefined }) =>
        withReportDatabase(config, primary.db, logger, async (reportDb) => (await (await reportDb()).selectFrom('project').select('name').where('code', '=', 'PRJ1').executeTakeFirstOrThrow()).name);
      expect(await projectName({ databaseUrl: primary.url, reportDatabaseUrl: replica.url })).toBe(`replica ${tag}`);
      expect(warnings).toHaveLength(0);
      expect(await projectName({ databaseUrl: primary.url, reportDatabaseUrl: undefined })).not.toBe(`replica ${tag}`);
      expect(await projectName({ databaseUrl: primary.url, reportDatabaseUrl: 'postgres://postgres@127.0.0.1:1/none' })).not.toBe(`replica ${tag}`);
      expect(warnings).toHaveLength(1);
    } finally {
      await primary.close();
      await replica.close();
    }
  });

  it('a report database that cannot be reached sends the reads to the primary instead of failing them', async () => {
    // Port 1 refuses at once: nothing listens there.
    const primary = await buildTestApp({ REPORT_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    try {
      const configurator = await createUserAccount(primary, {
        loginAccount: `cfg-down-${tag}`,
        rights: ['report.generic:view', 'report.config:view', 'report.config:edit', 'report.config:publish'],
        projectCodes: ['PRJ1'],
        warehouseCodes: ['WH1'],
      });
      const as = (url: string, payload: object = {}) => injectAs(primary.app, configurator.token, { method: 'POST', url: `/api${url}`, payload });
      const saved = await as('/report/generic/save', {
        code: `DOWN-${tag}`,
        names: reportLabels('Down'),
        draft: { sql: "select code from project where code = 'PRJ1'", params: [], columns: [{ name: 'code', labels: reportLabels('Code'), type: 'text' }] },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const id = json<{ id: number }>(saved).id;
      expect((await as('/report/generic/publish', { id })).statusCode).toBe(200);
      const run = await as('/report/generic/run', { id });
      expect(run.statusCode, run.body).toBe(200);
      expect(json<ReportPageAnswer>(run).rows).toEqual([{ code: 'PRJ1' }]);
    } finally {
      await primary.close();
    }
  });
});

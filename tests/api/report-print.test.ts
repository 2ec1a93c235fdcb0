import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportSpec } from '../../src/common/report-api.js';
import { buildTestApp, createUserAccount, injectAs, json, type TestApp } from '../helpers/app.js';
import { reportLabels, seedReportStock, type SeededStock } from '../helpers/report-fixtures.js';

/**
 * Report templates through the API (docs/templates.md "Templates for a report"): a template of kind
 * report names a report of its project; the designer's sample document is made of the report's
 * first rows by the report's own run (the caller's scope, so never another project's rows); the
 * runner lists the project's published templates of a report and prints the report through one of
 * them as PDF. Another project's operator gets none of it.
 */

interface Actor {
  uid: number;
  token: string;
}
type Json = Record<string, unknown>;
type Document = Record<string, string | string[][]>;

const tag = `P${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
const CHINESE = '蓝色保温杯';
let t: TestApp;
let config: Actor;
let operatorA: Actor;
let operatorB: Actor;
let configB: Actor;
let stockA: SeededStock;
let reportId = 0;
let otherReportId = 0;
let templateId = 0;

const post = (actor: Actor, url: string, payload: object = {}) => injectAs(t.app, actor.token, { method: 'POST', url: `/api${url}`, payload });

function pdfToText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rpt-'));
  try {
    fs.writeFileSync(path.join(dir, 'doc.pdf'), pdf);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', path.join(dir, 'doc.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Stock by SKU with its description, a SKU prefix parameter and the quantity summed by owner. */
function spec(): ReportSpec {
  return {
    sql: `select s.code as sku, s.description, o.code as owner, b.on_hand_qty as qty
from inventory_balance b join sku s on s.id = b.sku_id join owner o on o.id = b.owner_id
where (:sku is null or s.code like :sku || '%')`,
    params: [{ name: 'sku', labels: reportLabels('SKU'), type: 'text' }],
    columns: [
      { name: 'sku', labels: reportLabels('SKU'), type: 'text' },
      { name: 'description', labels: reportLabels('Description'), type: 'text' },
      { name: 'owner', labels: reportLabels('Owner'), type: 'text' },
      { name: 'qty', labels: reportLabels('Quantity'), type: 'number', decimals: 2 },
    ],
    grouping: { groupBy: 'owner', totals: [{ column: 'qty', aggregate: 'sum' }] },
  };
}

async function reportTemplate(actor: Actor): Promise<Json> {
  const template = json<{ template: { schemas: Json[][] } & Json }>(await post(actor, '/template/shipped', { kind: 'report' })).template;
  const page = template.schemas[0];
  const lines = page.find((s) => s.name === 'lines')!;
  lines.head = ['SKU', 'Description', 'Owner', 'Qty'];
  lines.headWidthPercentages = [25, 35, 20, 20];
  page.push({ name: 'total', type: 'text', content: '0', position: { x: 10, y: 270 }, width: 60, height: 8, fontSize: 10 });
  return template;
}

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
  const prj1 = (await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow()).id;
  const wh1 = (await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id;
  const prj2 = (await db.insertInto('project').values({ organization_id: org.id, code: `PB${tag}`, name: 'B', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow()).id;
  const wh2 = (await db.insertInto('warehouse').values({ organization_id: org.id, code: `WB${tag}`, name: 'B', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow()).id;
  await db.insertInto('project_warehouse').values({ project_id: prj2, warehouse_id: wh2 }).execute();
  stockA = await seedReportStock(db, prj1, wh1, `${tag}A`);
  await seedReportStock(db, prj2, wh2, `${tag}B`);
  await db.updateTable('sku').set({ description: CHINESE }).where('code', '=', stockA.skuCodes[1]).execute();
  const run = ['report.generic:view'] as const;
  const design = ['template.design:view', 'template.design:add', 'template.design:edit', 'template.design:publish'] as const;
  const configure = ['report.config:view', 'report.config:edit', 'report.config:publish'] as const;
  config = await createUserAccount(t, { loginAccount: `cfg-${tag}`, rights: [...run, ...configure, ...design], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  configB = await createUserAccount(t, { loginAccount: `cfgb-${tag}`, rights: [...run, ...configure, ...design], projectCodes: [`PB${tag}`], warehouseCodes: [`WB${tag}`] });
  operatorA = await createUserAccount(t, { loginAccount: `opa-${tag}`, rights: [...run], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  operatorB = await createUserAccount(t, { loginAccount: `opb-${tag}`, rights: [...run], projectCodes: [`PB${tag}`], warehouseCodes: [`WB${tag}`] });
  const saved = await post(config, '/report/generic/save', { code: `PRT-${tag}`, names: reportLabels(`Stock print ${tag}`), draft: spec() });
  expect(saved.statusCode, saved.body).toBe(200);
  reportId = json<{ id: number }>(saved).id;
  const other = await post(configB, '/report/generic/save', { code: `PRT-${tag}`, names: reportLabels('B report'), draft: spec() });
  expect(other.statusCode, other.body).toBe(200);
  otherReportId = json<{ id: number }>(other).id;
});
afterAll(() => t?.close());

describe('templates for a report', () => {
  it('a report template names a report of its own project only', async () => {
    const template = await reportTemplate(config);
    const foreign = await post(config, '/template/save', { code: `RT-${tag}`, kind: 'report', name: 'Stock sheet', template, reportId: otherReportId });
    expect(foreign.statusCode).toBe(400);
    expect(json<{ details: Array<{ field: string }> }>(foreign).details.map((d) => d.field)).toContain('reportId');
    const wrongKind = await post(config, '/template/save', { code: `RT-${tag}`, kind: 'invoice', name: 'Stock sheet', template, reportId });
    expect(wrongKind.statusCode).toBe(400);
    const saved = await post(config, '/template/save', { code: `RT-${tag}`, kind: 'report', name: 'Stock sheet', template, reportId });
    expect(saved.statusCode, saved.body).toBe(200);
    templateId = json<{ id: number; reportId: number }>(saved).id;
    expect(json<{ reportId: number }>(saved).reportId).toBe(reportId);
    // Saving without naming it keeps the report.
    const again = await post(config, '/template/save', { id: templateId, code: `RT-${tag}`, kind: 'report', name: 'Stock sheet', template });
    expect(json<{ reportId: number }>(again).reportId).toBe(reportId);
    const listed = json<Array<{ id: number; reportId: number | null }>>(await post(config, '/template/list'));
    expect(listed.find((l) => l.id === templateId)?.reportId).toBe(reportId);
  });

  it("the designer's sample document is the report's first rows, by the report's own scoped run", async () => {
    // Unpublished: only its configurator's draft run gives rows.
    expect((await post(config, '/report/generic/print/sample', { id: reportId })).statusCode).toBe(404);
    expect((await post(operatorA, '/report/generic/print/sample', { id: reportId, draft: true })).statusCode).toBe(403);
    const draft = await post(config, '/report/generic/print/sample', { id: reportId, draft: true, params: { sku: `${tag}A` } });
    expect(draft.statusCode, draft.body).toBe(200);
    const [document] = json<{ documents: Document[] }>(draft).documents;
    expect(document.title).toBe(`Stock print ${tag}`);
    expect(document.number).toBe(`PRT-${tag}`);
    expect(document['param.sku']).toBe(`${tag}A`);
    expect(document.total).toBe('3');
    expect([...(document.lines as string[][])].sort((a, b) => a[0].localeCompare(b[0]))).toEqual([
      [stockA.skuCodes[0], 'SKU A', stockA.ownerCodes[0], '10.00'],
      [stockA.skuCodes[1], CHINESE, stockA.ownerCodes[0], '20.00'],
      [stockA.skuCodes[2], 'SKU C', stockA.ownerCodes[1], '30.00'],
    ]);
    expect(document.totals).toEqual([
      [stockA.ownerCodes[0], '30.00'],
      [stockA.ownerCodes[1], '30.00'],
    ]);
    // Without a parameter, the scope still keeps project B's rows out.
    const all = json<{ documents: Document[] }>(await post(config, '/report/generic/print/sample', { id: reportId, draft: true })).documents[0];
    expect((all.lines as string[][]).every((l) => !l[0].startsWith(`${tag}B`))).toBe(true);
    expect((all.lines as string[][]).length).toBeLessThanOrEqual(20);

    // The preview renders the template with that sample.
    const preview = await post(config, '/report/generic/print/preview', { templateId, draft: true, documents: [document] });
    expect(preview.statusCode, preview.body).toBe(200);
    const text = pdfToText(preview.rawPayload);
    expect(text).toContain(`Stock print ${tag}`);
    expect(text).toContain(CHINESE);
    expect(text).not.toContain('SKU B');
  });

  it("the runner lists the project's published templates of the report and prints through one as PDF", async () => {
    expect(json<{ version: number }>(await post(config, '/report/generic/publish', { id: reportId })).version).toBe(1);
    // Not yet published: not offered, not printed.
    expect(json<unknown[]>(await post(operatorA, '/report/generic/print/templates', { id: reportId }))).toEqual([]);
    expect((await post(operatorA, '/report/generic/print', { id: reportId, templateId, params: { sku: `${tag}A` } })).statusCode).toBe(409);
    expect((await post(config, '/template/publish', { id: templateId })).statusCode).toBe(200);
    expect(json<Array<{ id: number; code: string }>>(await post(operatorA, '/report/generic/print/templates', { id: reportId }))).toEqual([{ id: templateId, code: `RT-${tag}`, name: 'Stock sheet' }]);

    const printed = await post(operatorA, '/report/generic/print', { id: reportId, templateId, params: { sku: `${tag}A` }, sort: { column: 'qty', desc: true } });
    expect(printed.statusCode, printed.body).toBe(200);
    expect(printed.headers['content-type']).toBe('application/pdf');
    const text = pdfToText(printed.rawPayload);
    expect(text).toContain(`Stock print ${tag}`);
    expect(text).toContain(CHINESE);
    expect(text.indexOf(stockA.skuCodes[2])).toBeLessThan(text.indexOf(stockA.skuCodes[0]));
    expect(text).toMatch(/\b3\b/);

    // A template of another report is not one of this report's.
    const second = await post(config, '/report/generic/save', { code: `PRT2-${tag}`, names: reportLabels('Second'), draft: spec() });
    const secondId = json<{ id: number }>(second).id;
    await post(config, '/report/generic/publish', { id: secondId });
    expect((await post(operatorA, '/report/generic/print', { id: secondId, templateId })).statusCode).toBe(404);
  });

  it("another project's operator gets neither the templates, the sample nor the print", async () => {
    expect((await post(operatorB, '/report/generic/print/templates', { id: reportId })).statusCode).toBe(404);
    expect((await post(operatorB, '/report/generic/print/sample', { id: reportId })).statusCode).toBe(404);
    expect((await post(operatorB, '/report/generic/print', { id: reportId, templateId })).statusCode).toBe(404);
    expect((await post(configB, '/report/generic/print/sample', { id: reportId, draft: true })).statusCode).toBe(404);
  });
});

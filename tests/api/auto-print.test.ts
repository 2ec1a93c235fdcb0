import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { pdfPrinter } from '../helpers/pdf-printer.js';
import { packingFixture, pickedOrder, type PackingFixture } from '../helpers/packing-fixtures.js';
import { reportLabels } from '../helpers/report-fixtures.js';
import { checkCronExpression } from '../../src/server/modules/job/cron.js';
import type { AutoPrintRule } from '../../src/common/autoprint-api.js';

/**
 * Auto print through the real server: a rule for check-complete prints the order's pack list from
 * the project's published template on the rule's printer (a local listener plays a PDF printer)
 * once the order is checked complete; a printer of another warehouse is refused; a printer that
 * refuses the document leaves the check-complete committed and the job queued with its error; a
 * template that cannot print leaves a failed job in the queue, and the order checked complete. A
 * rule on a schedule prints a report of the project through a report template when the job's
 * handler runs for a due time (once per time), refuses a bad cron expression and a missing report,
 * and a refusing printer leaves its job queued.
 */
let t: TestApp;
let admin: string;
let f: PackingFixture;
let printer: { port: number; documents(count: number): Promise<Buffer[]>; close(): Promise<void> };
let printerId: number;
let deadPrinterId: number;
let otherWarehousePrinterId: number;
let templateId: number;
const RUN = `${Date.now().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
const MARK = `AUTOPRINT-${RUN}`;
let orderSeq = 0;

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>) => injectAs(t.app, admin, { method: 'POST', url: `/api${url}`, payload });

async function ok<T>(url: string, payload: Record<string, unknown>): Promise<T> {
  const response = await call(url, payload);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
}


/** A port nothing listens on: a printer there refuses every document. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function pdfText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-'));
  try {
    fs.writeFileSync(path.join(dir, 'doc.pdf'), pdf);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', path.join(dir, 'doc.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function pdfPages(pdf: Buffer): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-'));
  try {
    fs.writeFileSync(path.join(dir, 'doc.pdf'), pdf);
    return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [path.join(dir, 'doc.pdf')], { encoding: 'utf8' }))![1]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function addPrinter(warehouseId: number, name: string, port: number): Promise<number> {
  const row = await db()
    .insertInto('printer')
    .values({ warehouse_id: warehouseId, name, ip: '127.0.0.1', port, printer_type: 'pdf', created_by: 'test', updated_by: 'test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A picked order, packed into one closed carton, not yet checked complete. */
async function packedOrder(): Promise<{ soId: number; orderNo: string }> {
  const order = await pickedOrder(f, `SOAP-${RUN}-${++orderSeq}`, [[0, 2]], { tote: `TOTE-AP-${RUN}` });
  await ok('/scanPack', { orderNo: order.orderNo });
  const carton = (await ok<{ openCarton: { id: number } }>('/pack/scan/open', { soId: order.soId })).openCarton;
  await ok('/pack/scan/sku', { cartonId: carton.id, barcode: f.skuCodes[0], qty: 2 });
  await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });
  return order;
}

/** The print jobs of an order's reference, waited for: printing follows the commit. */
async function jobsOf(reference: string, count: number) {
  for (let i = 0; i < 100; i++) {
    const rows = await db().selectFrom('print_job').selectAll().where('reference', '=', reference).orderBy('id').execute();
    if (rows.length >= count && rows.every((r) => r.status !== 'queued' || r.last_error_code)) return rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return db().selectFrom('print_job').selectAll().where('reference', '=', reference).orderBy('id').execute();
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await packingFixture(t.app, admin, t.database.db, `AP${RUN}`, 1);
  printer = await pdfPrinter();
  printerId = await addPrinter(f.scope.warehouseId, `PDF-${RUN}`, printer.port);
  deadPrinterId = await addPrinter(f.scope.warehouseId, `DEAD-${RUN}`, await closedPort());
  const org = await db().selectFrom('warehouse').select('organization_id').where('id', '=', f.scope.warehouseId).executeTakeFirstOrThrow();
  const wh2 = await db()
    .insertInto('warehouse')
    .values({ organization_id: org.organization_id, code: `W${RUN}`.slice(0, 20), name: 'Other', nav_layout: null, created_by: 'test', updated_by: 'test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  otherWarehousePrinterId = await addPrinter(Number(wh2.id), `OTHER-${RUN}`, printer.port);

  // The project's pack list template: the shipped one with a mark of this run, published.
  const shipped = await ok<{ template: { schemas: Array<Array<Record<string, unknown>>> } & Record<string, unknown> }>('/template/shipped', { kind: 'packList' });
  const template = { ...shipped.template, schemas: [[...shipped.template.schemas[0], { name: 'mark', type: 'text', readOnly: true, position: { x: 130, y: 40 }, width: 70, height: 8, fontSize: 8, content: MARK }]] };
  templateId = (await ok<{ id: number }>('/template/save', { code: `PL-${RUN}`, kind: 'packList', name: 'Pack list', template })).id;
  await ok('/template/publish', { id: templateId });
});

afterAll(async () => {
  await printer?.close();
  await t?.close();
});


describe('auto print', () => {
  it('prints the pack list from the published template on check-complete, and refuses what does not fit', async () => {
    // A printer of another warehouse is refused as one that does not exist; so is a template of a kind the event does not print.
    const foreign = await call('/config/ireport/autoPrint/save', { event: 'packing.checkCompleted', templateId, printerId: otherWarehousePrinterId, copies: 1, active: true });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(json<{ code: string }>(foreign).code).toBe('PRINTER_NOT_FOUND');
    const label = await ok<{ id: number }>('/template/save', { code: `CL-${RUN}`, kind: 'cartonLabel', name: 'Carton', template: (await ok<{ template: unknown }>('/template/shipped', { kind: 'cartonLabel' })).template });
    const wrongKind = await call('/config/ireport/autoPrint/save', { event: 'packing.checkCompleted', templateId: label.id, printerId, copies: 1, active: true });
    expect(wrongKind.statusCode, wrongKind.body).toBe(400);
    expect(json<{ code: string }>(wrongKind).code).toBe('AUTO_PRINT_TEMPLATE_KIND');
    expect((await call('/config/ireport/autoPrint/save', { event: 'packing.checkCompleted', templateId, printerId, copies: 0, active: true })).statusCode).toBe(400);
    expect((await ok<{ rules: AutoPrintRule[] }>('/config/ireport/autoPrint/list', {})).rules).toEqual([]);

    const rule = await ok<AutoPrintRule>('/config/ireport/autoPrint/save', { event: 'packing.checkCompleted', templateId, printerId, copies: 2, active: true });
    expect(rule).toMatchObject({ event: 'packing.checkCompleted', templateId, printerId, copies: 2, active: true });
    const listed = await ok<{ rules: AutoPrintRule[]; templates: Array<{ id: number }>; printers: Array<{ id: number }> }>('/config/ireport/autoPrint/list', {});
    expect(listed.rules.map((r) => r.id)).toEqual([rule.id]);
    expect(listed.templates.map((x) => x.id)).toContain(templateId);
    expect(listed.templates.map((x) => x.id)).not.toContain(label.id);
    expect(listed.printers.map((p) => p.id)).not.toContain(otherWarehousePrinterId);

    const order = await packedOrder();
    await ok('/scanPack/closeOrder', { soId: order.soId });
    const [job] = await jobsOf(order.orderNo, 1);
    expect(job).toMatchObject({ printer_id: printerId, document_kind: 'packList', reference: order.orderNo, status: 'sent' });
    const [received] = await printer.documents(1);
    expect(Buffer.compare(received, Buffer.from(job.payload))).toBe(0);
    const text = pdfText(received);
    expect(text).toContain(MARK);
    expect(text).toContain(`Pack list ${order.orderNo}`);
    // A long code may wrap in its column at a hyphen, and pdftotext drops a hyphen that ends a line.
    expect(text.replace(/[\s-]+/g, '')).toContain(f.skuCodes[0].replace(/-/g, ''));
    expect(pdfPages(received)).toBe(2);

    // The queue shows it, and its document is the template's PDF.
    const queue = await injectAs(t.app, admin, { method: 'GET', url: `/api/print/job?limit=50` });
    expect(queue.statusCode).toBe(200);
    const document = await injectAs(t.app, admin, { method: 'GET', url: `/api/print/job/${Number(job.id)}/document` });
    expect(document.headers['content-type']).toContain('application/pdf');
    expect(pdfText(document.rawPayload)).toContain(MARK);

    // Print now, by order number, prints the same rule again.
    const now = await ok<{ jobIds: number[] }>('/config/ireport/autoPrint', { ruleId: rule.id, orderNo: order.orderNo });
    expect(now.jobIds).toHaveLength(1);
    expect((await call('/config/ireport/autoPrint', { ruleId: rule.id, orderNo: `NONE-${RUN}` })).statusCode).toBe(404);

    // The pack list route prints with the published template too.
    const pdf = await injectAs(t.app, admin, { method: 'GET', url: `/api/pack/list.pdf?soId=${order.soId}` });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdfText(pdf.rawPayload)).toContain(MARK);

    expect(await ok('/config/ireport/autoPrint/delete', { ids: [rule.id] })).toEqual({ deleted: 1 });
    expect((await call('/config/ireport/autoPrint/delete', { ids: [rule.id] })).statusCode).toBe(404);
  });

  it('a printer that refuses leaves the check-complete committed and the job queued with its error; an unprintable template a failed job', async () => {
    const dead = await ok<AutoPrintRule>('/config/ireport/autoPrint/save', { event: 'packing.checkCompleted', templateId, printerId: deadPrinterId, copies: 1, active: true });
    const draftOnly = await ok<{ id: number }>('/template/save', { code: `PLD-${RUN}`, kind: 'packList', name: 'Never published', template: (await ok<{ template: unknown }>('/template/shipped', { kind: 'packList' })).template });
    const unpublished = await ok<AutoPrintRule>('/config/ireport/autoPrint/save', { event: 'packing.checkCompleted', templateId: draftOnly.id, printerId, copies: 1, active: true });

    const order = await packedOrder();
    await ok('/scanPack/closeOrder', { soId: order.soId });
    const status = await db().selectFrom('so_header').select('status').where('id', '=', order.soId).executeTakeFirstOrThrow();
    expect(status.status).toBe('packed');

    const jobs = await jobsOf(order.orderNo, 2);
    expect(jobs).toHaveLength(2);
    const refused = jobs.find((j) => Number(j.printer_id) === deadPrinterId)!;
    expect(refused).toMatchObject({ status: 'queued', last_error_code: 'PRINTER_UNAVAILABLE', document_kind: 'packList' });
    expect(refused.attempts).toBeGreaterThanOrEqual(1);
    expect(Buffer.from(refused.payload).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const failed = jobs.find((j) => Number(j.printer_id) === printerId)!;
    expect(failed).toMatchObject({ status: 'failed', last_error_code: 'PRINT_RENDER_FAILED' });
    expect(failed.last_error).toContain('TEMPLATE_NOT_PUBLISHED');

    // Retrying a document that was never made is refused; the refused one stays in the queue to retry.
    const retry = await call('/print/job/retry', { ids: [Number(failed.id)] });
    expect(json<{ code: string }>(retry).code).toBe('PRINT_RENDER_FAILED');

    await ok('/config/ireport/autoPrint/delete', { ids: [dead.id, unpublished.id] });
  });

  it('prints a report on a schedule through its template, once per time, and refuses a bad cron expression or no report', async () => {
    // The system job that looks for due schedules every minute is there and active.
    const job = await db().selectFrom('job').select(['status', 'cron_expression', 'project_id']).where('handler', '=', 'autoprint.printScheduled').executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'active', cron_expression: '0 * * * * ?', project_id: null });

    // A published report of the project over this run's SKU, and a report template with a mark.
    const reportCode = `RPT-${RUN}`;
    const spec = {
      sql: `select code as sku, description from sku where code = '${f.skuCodes[0]}' order by code`,
      params: [],
      columns: [
        { name: 'sku', labels: reportLabels('SKU'), type: 'text' },
        { name: 'description', labels: reportLabels('Description'), type: 'text' },
      ],
      grouping: null,
    };
    const reportId = (await ok<{ id: number }>('/report/generic/save', { code: reportCode, names: reportLabels(`Stock ${RUN}`), displayOrder: 1, draft: spec })).id;
    await ok('/report/generic/publish', { id: reportId });
    const shipped = await ok<{ template: { schemas: Array<Array<Record<string, unknown>>> } & Record<string, unknown> }>('/template/shipped', { kind: 'report' });
    const reportMark = `SCHEDULED-${RUN}`;
    const template = { ...shipped.template, schemas: [[...shipped.template.schemas[0], { name: 'mark', type: 'text', readOnly: true, position: { x: 130, y: 40 }, width: 70, height: 8, fontSize: 8, content: reportMark }]] };
    const reportTemplateId = (await ok<{ id: number }>('/template/save', { code: `RT-${RUN}`, kind: 'report', name: 'Report', template })).id;
    await ok('/template/publish', { id: reportTemplateId });

    const schedule = { event: 'schedule', templateId: reportTemplateId, printerId, copies: 1, active: true, reportId };
    const refused = async (body: Record<string, unknown>, status: number, code: string) => {
      const response = await call('/config/ireport/autoPrint/save', body);
      expect(response.statusCode, response.body).toBe(status);
      expect(json<{ code: string }>(response).code).toBe(code);
      return json<{ code: string; message: string }>(response);
    };
    const bad = await refused({ ...schedule, cron: 'every morning' }, 400, 'CRON_INVALID');
    expect(bad.message).toMatch(/^The expression is not valid: .+/);
    await refused({ ...schedule, cron: '' }, 400, 'CRON_INVALID');
    await refused({ ...schedule, cron: '0 0 6 * * ?', reportId: undefined }, 400, 'AUTO_PRINT_REPORT_REQUIRED');
    await refused({ ...schedule, cron: '0 0 6 * * ?', reportId: null }, 400, 'AUTO_PRINT_REPORT_REQUIRED');
    await refused({ ...schedule, cron: '0 0 6 * * ?', reportId: 999_999_999 }, 404, 'REPORT_NOT_FOUND');
    await refused({ ...schedule, cron: '0 0 6 * * ?', templateId }, 400, 'AUTO_PRINT_TEMPLATE_KIND');
    expect((await ok<{ rules: AutoPrintRule[] }>('/config/ireport/autoPrint/list', {})).rules.filter((r) => r.event === 'schedule')).toEqual([]);

    const rule = await ok<AutoPrintRule & { cron: string; reportId: number }>('/config/ireport/autoPrint/save', { ...schedule, cron: ' 0 0 6 * * ? ' });
    expect(rule).toMatchObject({ event: 'schedule', cron: '0 0 6 * * ?', reportId, templateId: reportTemplateId });
    const dead = await ok<AutoPrintRule>('/config/ireport/autoPrint/save', { ...schedule, cron: '0 0 6 * * ?', printerId: deadPrinterId });
    const listed = await ok<{ reports: Array<{ id: number; code: string }>; templates: Array<{ id: number }> }>('/config/ireport/autoPrint/list', {});
    expect(listed.reports.map((r) => r.code)).toContain(reportCode);
    expect(listed.templates.map((x) => x.id)).toContain(reportTemplateId);

    // The job's handler, run for a time: before the next 06:00 nothing is due, at it both rules print.
    const handler = t.app.areas.job('autoprint.printScheduled')!;
    const runFor = async (scheduledFor: Date) => {
      const lines: string[] = [];
      await handler.run({
        db: db(),
        params: {},
        log: (line) => lines.push(line),
        config: t.app.config,
        logger: t.app.log,
        attempt: 1,
        run: { id: 0, trigger: 'schedule', scheduledFor },
        job: { id: 0, name: 'Auto print on schedule', createdBy: 'system' },
        events: t.app.events,
      });
      return lines;
    };
    const check = checkCronExpression('0 0 6 * * ?');
    if (!check.valid) throw new Error(check.reason);
    const tick = check.cron.nextRun(new Date())!;
    const received = (await printer.documents(0)).length;
    expect(await runFor(new Date(tick.getTime() - 60_000))).toEqual(['no schedule rule due']);
    expect(await jobsOf(reportCode, 0)).toEqual([]);

    const lines = await runFor(tick);
    expect(lines.filter((l) => l.includes(`printed for ${tick.toISOString()}`))).toHaveLength(2);
    const jobs = await jobsOf(reportCode, 2);
    expect(jobs).toHaveLength(2);
    const sent = jobs.find((j) => Number(j.printer_id) === printerId)!;
    expect(sent).toMatchObject({ document_kind: 'report', status: 'sent' });
    const [document] = (await printer.documents(received + 1)).slice(received);
    expect(Buffer.compare(document, Buffer.from(sent.payload))).toBe(0);
    const text = pdfText(document);
    expect(text).toContain(reportMark);
    expect(text).toContain(`Stock ${RUN}`);
    // The report's row in the table (a narrow cell may break the code at its hyphens).
    expect(text.replace(/[\s-]+/g, '')).toContain(f.skuCodes[0].replace(/-/g, ''));
    expect(text).toMatch(/1 row\(s\)/);
    // The refusing printer: the report's job stays queued with its error, to be sent again.
    const waiting = jobs.find((j) => Number(j.printer_id) === deadPrinterId)!;
    expect(waiting).toMatchObject({ status: 'queued', last_error_code: 'PRINTER_UNAVAILABLE', document_kind: 'report' });
    expect(Buffer.from(waiting.payload).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // The same time again (a retry, another node): nothing prints twice.
    expect(await runFor(tick)).toEqual(['no schedule rule due']);
    expect(await runFor(new Date(tick.getTime() + 30_000))).toEqual(['no schedule rule due']);
    expect(await jobsOf(reportCode, 2)).toHaveLength(2);

    // Print now prints the report without an order.
    const now = await ok<{ jobIds: number[] }>('/config/ireport/autoPrint', { ruleId: rule.id });
    expect(now.jobIds).toHaveLength(1);
    // An order's rule still needs its order.
    const orderRule = await ok<AutoPrintRule>('/config/ireport/autoPrint/save', { event: 'packing.checkCompleted', templateId, printerId, copies: 1, active: false });
    expect((await call('/config/ireport/autoPrint', { ruleId: orderRule.id })).statusCode).toBe(400);
    await ok('/config/ireport/autoPrint/delete', { ids: [rule.id, dead.id, orderRule.id] });
  });
});

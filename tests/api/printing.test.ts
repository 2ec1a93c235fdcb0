import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inTransaction } from '../../src/server/db/transaction.js';
import { cartonLabelZpl, enqueuePrint, isSscc, nextSscc, printLabel, type CartonLabel } from '../../src/server/modules/printing/index.js';
import { sendQueuedPrintJobsJob } from '../../src/server/modules/printing/printing.jobs.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { onRealServer } from '../helpers/database.js';

/**
 * The printing area: SSCCs that are never made twice, carton labels queued in the caller's
 * transaction and sent to the printer's raw port (a local listener plays the printer), a printer
 * that does not answer leaving the job queued with PRINTER_UNAVAILABLE, retry, reprint, the queue's
 * job, and the routes' rights, scope and input checks.
 */

/** A local listener playing a label printer on a raw port: it keeps what each connection sent. */
interface FakePrinter {
  port: number;
  received: string[];
  /** Resolves once `count` documents have arrived in all. */
  documents(count: number): Promise<string[]>;
  close(): Promise<void>;
}

async function fakePrinter(port = 0): Promise<FakePrinter> {
  const received: string[] = [];
  const waiting: { count: number; resolve: (docs: string[]) => void }[] = [];
  const server = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      socket.end();
      for (const w of waiting.filter((w) => received.length >= w.count)) w.resolve([...received]);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    documents: (count) => (received.length >= count ? Promise.resolve([...received]) : new Promise((resolve) => waiting.push({ count, resolve }))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on: taken from the system, then given back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let t: TestApp;
let clerk: string;
let viewer: string;
let outsider: string;
let printerAdmin: string;
let warehouseId: number;
let otherWarehouseId: number;

async function addPrinter(port: number, warehouse = warehouseId, name = `P${port}-${Math.random().toString(36).slice(2, 7)}`): Promise<number> {
  const row = await t.database.db
    .insertInto('printer')
    .values({ warehouse_id: warehouse, name, ip: '127.0.0.1', port, server_name: 'PS1', created_by: 'test', updated_by: 'test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Queues one carton label per carton on a printer in one transaction; answers the job ids and SSCCs. */
async function queueLabels(printerId: number, cartons: number, options: { sendNow?: boolean } = {}) {
  return inTransaction(t.database.db, async (trx) => {
    const made: { id: number; sscc: string }[] = [];
    for (let n = 1; n <= cartons; n += 1) {
      const sscc = await nextSscc(trx, { warehouseId });
      const zpl = cartonLabelZpl({ sscc, shipTo: { name: 'Shop 1', lines: ['1 High St'] }, orderNo: 'SO1', cartonNo: n, cartonCount: cartons });
      const id = await enqueuePrint(
        trx,
        { warehouseId, printerId, documentKind: 'cartonLabel', payload: zpl, reference: sscc, by: 'packer' },
        options.sendNow ? { sendWith: t.database.db } : {},
      );
      made.push({ id, sscc });
    }
    return made;
  });
}

const post = (token: string, url: string, payload: unknown) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown> });
const jobsOf = async (token: string, query = '') => {
  const response = await injectAs(t.app, token, { method: 'GET', url: `/api/print/job${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return json<Array<{ id: number; status: string; attempts: number; errorCode: string | null; error: string | null; copyOf: number | null; reference: string | null }>>(response);
};
const statusOf = async (id: number) => (await t.database.db.selectFrom('print_job').select(['status', 'attempts', 'last_error_code']).where('id', '=', id).executeTakeFirstOrThrow());

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  warehouseId = Number((await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id);
  const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
  otherWarehouseId = Number(
    (await db.insertInto('warehouse').values({ organization_id: org.id, code: 'WHP2', name: 'Other', nav_layout: null, created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()).id,
  );
  clerk = await createUser(t, { loginAccount: 'print.clerk', rights: ['printing.printJob:view', 'printing.printJob:print'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  viewer = await createUser(t, { loginAccount: 'print.viewer', rights: ['printing.printJob:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  printerAdmin = await createUser(t, { loginAccount: 'print.printers', rights: ['printing.printer:view', 'printing.printer:edit', 'printing.printer:print'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  outsider = await createUser(t, { loginAccount: 'print.outsider', rights: ['sku:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('SSCCs', () => {
  it('are made of the GS1 company prefix parameter, which is 7 to 10 digits wherever it is set, and refused without it', async () => {
    const sscc = await inTransaction(t.database.db, (trx) => nextSscc(trx, { warehouseId, extensionDigit: 3 }));
    expect(isSscc(sscc)).toBe(true);
    expect(sscc.slice(0, 8)).toBe('30614141');
    const setPrefix = (value: string) => t.database.db.updateTable('sys_param').set({ param_value: value }).where('param_code', '=', 'GS1_COMPANY_PREFIX').execute();
    for (const wrong of ['12345', '12345678901', '061414A']) await expect(setPrefix(wrong)).rejects.toMatchObject({ code: '23514' });
    await setPrefix('1234567890');
    expect((await inTransaction(t.database.db, (trx) => nextSscc(trx, { warehouseId }))).slice(0, 11)).toBe('01234567890');
    await t.database.db.deleteFrom('sys_param').where('param_code', '=', 'GS1_COMPANY_PREFIX').execute();
    try {
      await expect(inTransaction(t.database.db, (trx) => nextSscc(trx, { warehouseId }))).rejects.toMatchObject({ code: 'GS1_PREFIX_INVALID' });
    } finally {
      await t.database.db
        .insertInto('sys_param')
        .values({ organization_id: null, param_code: 'GS1_COMPANY_PREFIX', param_value: '0614141', created_by: 'test', updated_by: 'test' })
        .execute();
    }
  });

  it('are never made twice, 200 of them made concurrently', async () => {
    const made = await Promise.all(Array.from({ length: 200 }, () => inTransaction(t.database.db, (trx) => nextSscc(trx, { warehouseId }))));
    expect(new Set(made).size).toBe(200);
    expect(made.every(isSscc)).toBe(true);
    if (!onRealServer) console.warn('the concurrency of SSCCs is shown on PostgreSQL only: set TEST_DATABASE_URL');
  });

  it('are not given again when the transaction that took one rolls back', async () => {
    let rolledBack = '';
    await expect(
      inTransaction(t.database.db, async (trx) => {
        rolledBack = await nextSscc(trx, { warehouseId });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const next = await inTransaction(t.database.db, (trx) => nextSscc(trx, { warehouseId }));
    expect(next).not.toBe(rolledBack);
    expect(Number(next.slice(8, 17))).toBeGreaterThan(Number(rolledBack.slice(8, 17)));
  });
});

describe('the print queue', () => {
  it('sends exactly one ^XA...^XZ document per carton label, with its SSCC, to the printer', async () => {
    const printer = await fakePrinter();
    try {
      const printerId = await addPrinter(printer.port);
      const labels = await queueLabels(printerId, 3);
      expect((await jobsOf(clerk)).filter((j) => labels.some((l) => l.id === j.id)).map((j) => j.status)).toEqual(['queued', 'queued', 'queued']);
      const response = await post(clerk, '/print/job/retry', { ids: labels.map((l) => l.id) });
      expect(response.statusCode, response.body).toBe(200);
      expect(json<{ outcomes: { id: number; status: string }[] }>(response).outcomes.map((o) => o.status)).toEqual(['sent', 'sent', 'sent']);
      const documents = await printer.documents(3);
      expect(documents).toHaveLength(3);
      documents.forEach((document, i) => {
        expect(document.match(/\^XA/g)).toHaveLength(1);
        expect(document.match(/\^XZ/g)).toHaveLength(1);
        expect(document.trim().startsWith('^XA')).toBe(true);
        expect(document.trim().endsWith('^XZ')).toBe(true);
        expect(document).toContain(`>;>800${labels[i].sscc}`);
        expect(document).toContain(`CARTON ${i + 1} OF 3`);
      });
      for (const label of labels) expect(await statusOf(label.id)).toMatchObject({ status: 'sent', attempts: 1, last_error_code: null });
    } finally {
      await printer.close();
    }
  });

  it('sends a label queued with sendWith once its transaction committed, and nothing of a transaction that rolled back', async () => {
    const printer = await fakePrinter();
    try {
      const printerId = await addPrinter(printer.port);
      await expect(
        inTransaction(t.database.db, async (trx) => {
          await enqueuePrint(trx, { warehouseId, printerId, documentKind: 'cartonLabel', payload: '^XA^FDrolled back^FS^XZ', by: 'packer' }, { sendWith: t.database.db });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const [label] = await queueLabels(printerId, 1, { sendNow: true });
      const [document] = await printer.documents(1);
      expect(document).toContain(label.sscc);
      await vi.waitFor(async () => expect((await statusOf(label.id)).status).toBe('sent'), { timeout: 10_000 });
      expect(printer.received).toHaveLength(1);
    } finally {
      await printer.close();
    }
  });

  it('keeps a job queued with PRINTER_UNAVAILABLE when the printer does not answer, and sends it on retry once it is back', async () => {
    const port = await closedPort();
    const printerId = await addPrinter(port);
    const [label, second] = await queueLabels(printerId, 2);
    const first = await post(clerk, '/print/job/retry', { ids: [label.id, second.id] });
    expect(first.statusCode, first.body).toBe(200);
    const outcomes = json<{ outcomes: { id: number; status: string; error?: string; message?: string; detail?: string }[] }>(first).outcomes;
    expect(outcomes[0]).toMatchObject({ id: label.id, status: 'queued', error: 'PRINTER_UNAVAILABLE', message: 'The printer is not available or the connection failed.' });
    // The printer's next job of the same call is not tried again: it stays queued with the same error.
    expect(outcomes[1]).toMatchObject({ id: second.id, status: 'queued', error: 'PRINTER_UNAVAILABLE', detail: outcomes[0].detail });
    expect(await statusOf(label.id)).toEqual({ status: 'queued', attempts: 1, last_error_code: 'PRINTER_UNAVAILABLE' });
    expect(await statusOf(second.id)).toEqual({ status: 'queued', attempts: 1, last_error_code: 'PRINTER_UNAVAILABLE' });
    const listed = (await jobsOf(viewer, '?status=queued')).find((j) => j.id === label.id);
    expect(listed).toMatchObject({ errorCode: 'PRINTER_UNAVAILABLE', error: 'The printer is not available or the connection failed.', reference: label.sscc });

    const printer = await fakePrinter(port);
    try {
      const again = await post(clerk, '/print/job/retry', { ids: [label.id] });
      expect(json<{ outcomes: { status: string }[] }>(again).outcomes).toEqual([{ id: label.id, status: 'sent' }]);
      const [document] = await printer.documents(1);
      expect(document).toContain(label.sscc);
      expect(await statusOf(label.id)).toEqual({ status: 'sent', attempts: 2, last_error_code: null });
    } finally {
      await printer.close();
    }
  });

  it('sends a job once when two senders are asked for it at the same time', async () => {
    const printer = await fakePrinter();
    try {
      const [label] = await queueLabels(await addPrinter(printer.port), 1);
      const answers = await Promise.all([1, 2, 3].map(() => post(clerk, '/print/job/retry', { ids: [label.id] })));
      const statuses = answers.map((a) => (a.statusCode === 200 ? json<{ outcomes: { status: string }[] }>(a).outcomes[0].status : String(a.statusCode)));
      expect(statuses.filter((s) => s === 'sent')).toHaveLength(1);
      // The others found it held by the sender, or already sent.
      expect(statuses.filter((s) => s !== 'sent').every((s) => s === 'busy' || s === '409')).toBe(true);
      await printer.documents(1);
      expect(await statusOf(label.id)).toMatchObject({ status: 'sent', attempts: 1 });
      expect(printer.received).toHaveLength(1);
    } finally {
      await printer.close();
    }
  });

  it('prints a sent job again as a new job, and retries only what is not sent', async () => {
    const printer = await fakePrinter();
    try {
      const printerId = await addPrinter(printer.port);
      const [label] = await queueLabels(printerId, 1);
      await post(clerk, '/print/job/retry', { ids: [label.id] });
      const refused = await post(clerk, '/print/job/retry', { ids: [label.id] });
      expect(refused.statusCode, refused.body).toBe(409);
      const response = await post(clerk, '/print/job/reprint', { ids: [label.id] });
      expect(response.statusCode, response.body).toBe(200);
      const [copy] = json<{ outcomes: { id: number; status: string }[] }>(response).outcomes;
      expect(copy.status).toBe('sent');
      expect(copy.id).not.toBe(label.id);
      const documents = await printer.documents(2);
      expect(documents[1]).toBe(documents[0]);
      expect((await jobsOf(clerk)).find((j) => j.id === copy.id)).toMatchObject({ copyOf: label.id, status: 'sent', reference: label.sscc });
      const notSent = await post(clerk, '/print/job/reprint', { ids: [(await queueLabels(printerId, 1))[0].id] });
      expect(notSent.statusCode, notSent.body).toBe(409);
    } finally {
      await printer.close();
    }
  });

  it('is sent by the job printing.sendQueued, which fails its run while a printer is unavailable', async () => {
    await t.database.db.updateTable('print_job').set({ status: 'failed' }).where('status', '=', 'queued').execute();
    const printer = await fakePrinter();
    const deadPrinterId = await addPrinter(await closedPort());
    try {
      const [label] = await queueLabels(await addPrinter(printer.port), 1);
      const [dead] = await queueLabels(deadPrinterId, 1);
      const lines: string[] = [];
      const context = { db: t.database.db, params: {}, log: (line: string) => lines.push(line) } as unknown as Parameters<typeof sendQueuedPrintJobsJob.run>[0];
      await expect(sendQueuedPrintJobsJob.run(context)).rejects.toThrow(/could not be sent/);
      expect(lines).toEqual(['sent 1 of 2 print jobs']);
      expect((await printer.documents(1))[0]).toContain(label.sscc);
      expect(await statusOf(label.id)).toMatchObject({ status: 'sent' });
      expect(await statusOf(dead.id)).toMatchObject({ status: 'queued', last_error_code: 'PRINTER_UNAVAILABLE' });
      await expect(sendQueuedPrintJobsJob.run({ ...context, params: { batchSize: 'x' } })).rejects.toThrow(/batchSize/);
      const handlers = json<{ items: { name: string; description: string | null }[] }>(await injectAs(t.app, await signIn(t.app), { method: 'GET', url: '/api/job/handlers' })).items;
      expect(handlers.find((h) => h.name === 'printing.sendQueued')?.description).toMatch(/^Print queue/);
    } finally {
      await printer.close();
    }
  });

  it('refuses a printer of another warehouse or an inactive one when queueing', async () => {
    const elsewhere = await addPrinter(9100, otherWarehouseId);
    await expect(
      inTransaction(t.database.db, (trx) => enqueuePrint(trx, { warehouseId, printerId: elsewhere, documentKind: 'cartonLabel', payload: '^XA^XZ', by: 'p' })),
    ).rejects.toMatchObject({ code: 'PRINTER_NOT_FOUND' });
  });
});

describe('the printer page', () => {
  it("adds a printer of the session's warehouse with port 9100 by default, and refuses a port out of range", async () => {
    const admin = await createUser(t, { loginAccount: 'print.admin', rights: ['printing.printer:view', 'printing.printer:add'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const add = (record: Record<string, unknown>) => post(admin, '/generic/adding', { moduleCode: 'printing', functionCode: 'printer', record });
    const added = await add({ name: 'Dock label 1', server_name: 'PRINTSRV1', ip: '10.0.0.21', printer_type: 'raw_zpl' });
    expect(added.statusCode, added.body).toBe(200);
    const row = await t.database.db.selectFrom('printer').selectAll().where('name', '=', 'Dock label 1').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ warehouse_id: warehouseId, port: 9100, printer_type: 'raw_zpl', active: true, server_name: 'PRINTSRV1' });
    expect((await add({ name: 'Bad port', ip: '10.0.0.22', port: 70000 })).statusCode).toBe(400);
    expect((await add({ name: 'Bad type', ip: '10.0.0.22', printer_type: 'inkjet' })).statusCode).toBe(400);
    expect((await add({ name: 'Bad host', ip: '10.0.0.22; rm' })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await add({ name: 'Bad host', ip: '10.0.0.22; rm' })).statusCode).toBeLessThan(500);
    expect((await post(viewer, '/generic/adding', { moduleCode: 'printing', functionCode: 'printer', record: { name: 'X', ip: '1.1.1.1' } })).statusCode).toBe(403);
  });
});

describe('the test label of the printer page', () => {
  it('queues one carton label with a new SSCC on each selected printer, for a holder of printing.printer:print only', async () => {
    const printer = await fakePrinter();
    try {
      const printerId = await addPrinter(printer.port);
      const run = (token: string) => post(token, '/generic/behavior', { moduleCode: 'printing', functionCode: 'printer', behaviour: 'testLabel', keys: [printerId] });
      expect((await run(viewer)).statusCode).toBe(403);
      const response = await run(printerAdmin);
      expect(response.statusCode, response.body).toBe(200);
      const jobs = await t.database.db.selectFrom('print_job').select(['id', 'document_kind', 'reference', 'status']).where('printer_id', '=', printerId).execute();
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ document_kind: 'cartonLabel', status: 'queued' });
      expect(isSscc(jobs[0].reference!)).toBe(true);
      await post(clerk, '/print/job/retry', { ids: [Number(jobs[0].id)] });
      const [document] = await printer.documents(1);
      expect(document).toContain(`>;>800${jobs[0].reference}`);
      expect(document).toContain('^FDORDER: TEST^FS');
    } finally {
      await printer.close();
    }
  });
});

describe('the print queue routes', () => {
  it('check rights, the warehouse and their input', async () => {
    const elsewhere = await addPrinter(9100, otherWarehouseId);
    const foreignJob = await inTransaction(t.database.db, (trx) =>
      enqueuePrint(trx, { warehouseId: otherWarehouseId, printerId: elsewhere, documentKind: 'cartonLabel', payload: '^XA^XZ', by: 'p' }),
    );
    expect((await injectAs(t.app, outsider, { method: 'GET', url: '/api/print/job' })).statusCode).toBe(403);
    // Print jobs have their own right: configuring printers does not open the queue.
    expect((await injectAs(t.app, printerAdmin, { method: 'GET', url: '/api/print/job' })).statusCode).toBe(403);
    expect((await post(printerAdmin, '/print/job/retry', { ids: [1] })).statusCode).toBe(403);
    expect((await injectAs(t.app, printerAdmin, { method: 'GET', url: `/api/print/job/${foreignJob}/document` })).statusCode).toBe(403);
    expect((await injectAs(t.app, clerk, { method: 'GET', url: `/api/print/job/${foreignJob}/document` })).statusCode).toBe(404);
    expect((await injectAs(t.app, clerk, { method: 'GET', url: '/api/print/job/x/document' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/print/job' })).statusCode).toBe(401);
    expect((await post(viewer, '/print/job/retry', { ids: [1] })).statusCode).toBe(403);
    expect((await post(viewer, '/print/job/reprint', { ids: [1] })).statusCode).toBe(403);
    expect((await jobsOf(clerk)).some((j) => j.id === foreignJob)).toBe(false);
    expect((await post(clerk, '/print/job/retry', { ids: [foreignJob] })).statusCode).toBe(404);
    expect((await post(clerk, '/print/job/reprint', { ids: [foreignJob] })).statusCode).toBe(404);
    for (const payload of [{}, { ids: [] }, { ids: ['x'] }, { ids: [0] }, { ids: [1], extra: true }, { ids: Array.from({ length: 101 }, (_, i) => i + 1) }]) {
      expect((await post(clerk, '/print/job/retry', payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    for (const query of ['?status=lost', '?limit=0', '?limit=501', '?other=1']) {
      expect((await injectAs(t.app, clerk, { method: 'GET', url: `/api/print/job${query}` })).statusCode, query).toBe(400);
    }
    expect((await sql<{ n: string }>`select count(*)::text as n from print_job where warehouse_id = ${otherWarehouseId}`.execute(t.database.db)).rows[0].n).toBe('1');
  });
});

describe('printLabel', () => {
  const label = (sscc: string, n = 1, count = 1): CartonLabel => ({
    sscc,
    shipFrom: 'Main DC',
    shipTo: { name: 'Shop 7', lines: ['7 Market Rd'] },
    orderNo: `SO-${sscc.slice(-6)}`,
    cartonNo: n,
    cartonCount: count,
    content: { gtin: '10036000291459', lot: 'L1', qty: 6 },
  });
  /** Labels printed in one transaction, each with a new SSCC; answers their SSCCs and job ids. */
  const printLabels = (count: number, request: { kind?: 'carton' | 'pallet'; printerId?: number | null; auto?: boolean }, sendNow = true) =>
    inTransaction(t.database.db, async (trx) => {
      const made: { sscc: string; id: number | null }[] = [];
      for (let n = 1; n <= count; n += 1) {
        const sscc = await nextSscc(trx, { warehouseId });
        const id = await printLabel(
          trx,
          { warehouseId, by: 'packer', kind: request.kind ?? 'carton', label: label(sscc, n, count), printerId: request.printerId, auto: request.auto, language: 'zh' },
          sendNow ? { sendWith: t.database.db } : {},
        );
        made.push({ sscc, id });
      }
      return made;
    });
  const setAuto = (printerId: number, auto: boolean) => t.database.db.updateTable('printer').set({ auto_print_labels: auto }).where('id', '=', printerId).execute();
  const clearAuto = () => t.database.db.updateTable('printer').set({ auto_print_labels: false }).where('warehouse_id', '=', warehouseId).execute();

  it('sends one ^XA...^XZ per label to a raw printer, with the SSCC in a GS1-128 field', async () => {
    const printer = await fakePrinter();
    try {
      const printerId = await addPrinter(printer.port);
      const made = await printLabels(3, { printerId });
      const documents = await printer.documents(3);
      expect(documents).toHaveLength(3);
      for (const { sscc, id } of made) {
        const document = documents.find((d) => d.includes(sscc));
        expect(document, sscc).toBeDefined();
        expect(document!.match(/\^XA/g)).toHaveLength(1);
        expect(document!.match(/\^XZ/g)).toHaveLength(1);
        // Code 128 in subset C, FNC1 (which makes it GS1-128), AI 00 and the SSCC.
        expect(document).toMatch(new RegExp(`\\^BCN,\\d+,N,N,N\\^FD>;>800${sscc}\\^FS`));
        expect(document).toContain(`^FH^FD(00) ${sscc}^FS`);
        await vi.waitFor(async () => expect((await statusOf(id!)).status).toBe('sent'), { timeout: 10_000 });
      }
      const [pallet] = await printLabels(1, { printerId, kind: 'pallet' });
      const [, , , palletDocument] = await printer.documents(4);
      expect(palletDocument).toContain('PALLET 1 OF 1');
      expect(palletDocument).toContain(`>;>800${pallet.sscc}`);
      expect((await t.database.db.selectFrom('print_job').select(['document_kind', 'reference']).where('id', '=', pallet.id!).executeTakeFirstOrThrow())).toEqual({ document_kind: 'palletLabel', reference: pallet.sscc });
    } finally {
      await printer.close();
    }
  });

  it("prints on the warehouse's printer for automatic labels, as PDF on a PDF printer, and with auto prints nothing without one", async () => {
    await clearAuto();
    expect(await printLabels(1, { auto: true })).toEqual([expect.objectContaining({ id: null })]);
    await expect(printLabels(1, {})).rejects.toMatchObject({ code: 'PRINTER_NOT_FOUND' });
    const printer = await fakePrinter();
    try {
      const printerId = await addPrinter(printer.port);
      await t.database.db.updateTable('printer').set({ printer_type: 'pdf' }).where('id', '=', printerId).execute();
      await setAuto(printerId, true);
      // At most one printer of a warehouse prints the automatic labels.
      await expect(setAuto(await addPrinter(9100), true)).rejects.toMatchObject({ code: '23505' });
      const [made] = await printLabels(1, { auto: true });
      const [document] = await printer.documents(1);
      expect(document.startsWith('%PDF-')).toBe(true);
      const view = await injectAs(t.app, viewer, { method: 'GET', url: `/api/print/job/${made.id}/document` });
      expect(view.statusCode).toBe(200);
      expect(view.headers['content-type']).toBe('application/pdf');
      expect(view.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      // Another warehouse's printer is refused even when named.
      const elsewhere = await addPrinter(9100, otherWarehouseId);
      await expect(printLabels(1, { printerId: elsewhere, auto: true })).rejects.toMatchObject({ code: 'PRINTER_NOT_FOUND' });
    } finally {
      await clearAuto();
      await printer.close();
    }
  });

  it('answers PRINTER_UNAVAILABLE within 3 s for a printer that does not answer, keeps the job queued, and retry sends it once the printer listens', async () => {
    const port = await closedPort();
    const printerId = await addPrinter(port);
    const [made] = await printLabels(1, { printerId }, false);
    const started = Date.now();
    const first = await post(clerk, '/print/job/retry', { ids: [made.id] });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(json<{ outcomes: unknown[] }>(first).outcomes).toEqual([expect.objectContaining({ id: made.id, status: 'queued', error: 'PRINTER_UNAVAILABLE' })]);
    expect(await statusOf(made.id!)).toEqual({ status: 'queued', attempts: 1, last_error_code: 'PRINTER_UNAVAILABLE' });
    const zpl = await injectAs(t.app, viewer, { method: 'GET', url: `/api/print/job/${made.id}/document` });
    expect(zpl.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(zpl.body).toContain(`>;>800${made.sscc}`);
    const printer = await fakePrinter(port);
    try {
      const again = await post(clerk, '/print/job/retry', { ids: [made.id] });
      expect(json<{ outcomes: unknown[] }>(again).outcomes).toEqual([{ id: made.id, status: 'sent' }]);
      expect((await printer.documents(1))[0]).toContain(`>;>800${made.sscc}`);
    } finally {
      await printer.close();
    }
  });
});

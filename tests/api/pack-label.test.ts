import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { zplPrinter } from '../helpers/pdf-printer.js';
import { packingFixture, pickedOrder, type PackingFixture } from '../helpers/packing-fixtures.js';

/**
 * Carton labels through the real server: closing a carton prints its label on the warehouse's
 * printer for automatic carton labels (a local listener plays a raw ZPL printer), scan to print
 * prints a closed carton's label again by its SSCC, and an unknown or still open carton is refused.
 */
let t: TestApp;
let admin: string;
let f: PackingFixture;
let skuCodes: string[];
let printer: Awaited<ReturnType<typeof zplPrinter>>;
let printerId: number;
const RUN = Math.random().toString(36).slice(2, 7).toUpperCase();
const TOTE = `TOTE-${RUN}`;

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>) => injectAs(t.app, admin, { method: 'POST', url: `/api${url}`, payload });

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await packingFixture(t.app, admin, t.database.db, `LB${RUN}`, 1);
  skuCodes = f.skuCodes;
  printer = await zplPrinter();
  const row = await db()
    .insertInto('printer')
    .values({ warehouse_id: f.scope.warehouseId, name: `LBL-${RUN}`, ip: '127.0.0.1', port: printer.port, server_name: 'PS1', auto_print_labels: true, created_by: 'test', updated_by: 'test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  printerId = Number(row.id);
});

afterAll(async () => {
  await printer?.close();
  await t?.close();
});

interface Carton {
  id: number;
  cartonNo: string;
  sscc: string | null;
}
interface Pack {
  order: { id: number; orderNo: string };
  openCarton: Carton | null;
  cartons: Carton[];
  label?: { jobId: number; printerId: number; printerName: string } | null;
}

async function ok<T = Pack>(url: string, payload: Record<string, unknown>): Promise<T> {
  const response = await call(url, payload);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
}

describe('carton labels', () => {
  it('prints the label when a carton closes, again by SSCC, and refuses unknown and open cartons', async () => {
    const { soId, orderNo } = await pickedOrder(f, `SOLB-${RUN}`, [[0, 3]], { tote: TOTE });
    await ok('/scanPack', { orderNo });
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 3 });

    // An open carton has no label yet.
    const open = await call('/pack/label/print', { code: carton.cartonNo });
    expect(open.statusCode).toBe(409);
    expect(json<{ code: string }>(open).code).toBe('CARTON_OPEN');

    const closed = await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });
    const sscc = closed.cartons.find((c) => c.id === carton.id)!.sscc!;
    expect(closed.label).toMatchObject({ printerId, printerName: `LBL-${RUN}` });
    const [first] = await printer.documents(1);
    expect(first.startsWith('^XA')).toBe(true);
    expect(first.trimEnd().endsWith('^XZ')).toBe(true);
    expect(first.match(/\^XA/g)).toHaveLength(1);
    expect(first).toContain(sscc);
    const job = await db().selectFrom('print_job').select(['status', 'reference', 'document_kind']).where('id', '=', closed.label!.jobId).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ reference: sscc, document_kind: 'cartonLabel' });

    // Scan to print: by SSCC, on the chosen printer.
    const printed = await ok<{ jobId: number; sscc: string; printerName: string }>('/pack/label/print', { code: sscc, printerId });
    expect(printed).toMatchObject({ sscc, printerName: `LBL-${RUN}` });
    const docs = await printer.documents(2);
    expect(docs[1]).toContain(sscc);
    expect(printed.jobId).not.toBe(closed.label!.jobId);

    const printers = json<{ rows: Array<{ id: number; autoLabels: boolean }> }>(await injectAs(t.app, admin, { method: 'GET', url: '/api/pack/label/printer' }));
    expect(printers.rows.find((p) => p.id === printerId)).toMatchObject({ autoLabels: true });

    const unknown = await call('/pack/label/print', { code: `NOPE-${RUN}` });
    expect(unknown.statusCode).toBe(404);
    expect(json<{ code: string }>(unknown).code).toBe('NO_RECORD');
    expect(printer.received).toHaveLength(2);

    // A printer that does not take the label: the queue's message, and the job stays queued.
    const gone = await zplPrinter();
    await gone.close();
    const down = await db()
      .insertInto('printer')
      .values({ warehouse_id: f.scope.warehouseId, name: `DOWN-${RUN}`, ip: '127.0.0.1', port: gone.port, server_name: 'PS1', created_by: 'test', updated_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const unavailable = await call('/pack/label/print', { code: carton.cartonNo, printerId: Number(down.id) });
    expect(unavailable.statusCode).toBe(503);
    expect(json<{ code: string }>(unavailable).code).toBe('PRINTER_UNAVAILABLE');
    const queued = await db().selectFrom('print_job').select(['status', 'reference']).where('printer_id', '=', down.id).execute();
    expect(queued).toEqual([{ status: 'queued', reference: sscc }]);

    // A check-completed order is not packed again, but may be looked at to cancel its check-complete.
    await ok('/scanPack/closeOrder', { soId });
    expect((await call('/scanPack', { orderNo })).statusCode).toBe(409);
    expect((await ok('/scanPack', { orderNo, checkCompleted: true })).order).toMatchObject({ id: soId, status: 'packed' });
    const cancelled = await ok<{ order: { status: string } }>('/so/cancelCheckComplete', { soId, removeCartons: false, moveStockBack: false });
    expect(cancelled.order.status).toBe('picked');
    expect((await call('/scanPack', { orderNo, checkCompleted: true })).statusCode).toBe(409);
  });
});

describe('pallet labels', () => {
  interface Pallet {
    id: number;
    palletNo: string;
    sscc: string;
    status: string;
    cartons: Array<{ id: number }>;
    label?: { jobId: number; printerName: string } | null;
  }

  it('finds a pallet by number, SSCC or its GS1-128 barcode, and prints its label with its own SSCC as it closes', async () => {
    const { soId, orderNo } = await pickedOrder(f, `SOPLB-${RUN}`, [[0, 2]], { tote: `${TOTE}-P` });
    await ok('/scanPack', { orderNo });
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 2 });
    const cartonSscc = (await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' })).cartons[0].sscc!;
    const location = await db().selectFrom('location').select('code').where('id', '=', f.locationIds[0]).executeTakeFirstOrThrow();

    const pallet = await ok<Pallet>('/pallet/create', { locationCode: location.code });
    // A carton scanned as its label's barcode (AI 00) goes on like its number.
    await ok<Pallet>('/pallet/addCarton', { palletId: pallet.id, carton: `]C100${cartonSscc}` });
    for (const code of [pallet.palletNo, pallet.sscc, `00${pallet.sscc}`, `(00)${pallet.sscc}`, ` ]C100${pallet.sscc} `]) {
      expect(await ok<Pallet>('/pallet/find', { code }), code).toMatchObject({ id: pallet.id, cartons: [{ id: carton.id }] });
    }
    const unknown = await call('/pallet/find', { code: `NOPE-${RUN}` });
    expect(unknown.statusCode).toBe(404);
    expect(json<{ code: string }>(unknown).code).toBe('NO_RECORD');

    const closed = await ok<Pallet>('/pallet/close', { palletId: pallet.id });
    expect(closed).toMatchObject({ status: 'closed', label: { printerName: `LBL-${RUN}` } });
    const label = await vi.waitFor(() => {
      const found = printer.received.find((d) => d.includes(pallet.sscc));
      if (!found) throw new Error('no pallet label yet');
      return found;
    });
    expect(label.match(/\^XA/g)).toHaveLength(1);
    expect(label).toContain(`>;>800${pallet.sscc}`);
    expect(label).toContain('PALLET 1 OF 1');
    expect(label).toContain(`ORDER: ${orderNo}`);
    const job = await db().selectFrom('print_job').select(['reference', 'document_kind']).where('id', '=', closed.label!.jobId).executeTakeFirstOrThrow();
    expect(job).toEqual({ reference: pallet.sscc, document_kind: 'palletLabel' });
  });
});

describe('pallet gross weight and label reprint', () => {
  interface Pallet {
    id: number;
    palletNo: string;
    sscc: string;
    status: string;
    grossWeight: string | null;
    weightUom: string | null;
    label?: { jobId: number; printerName: string } | null;
  }
  const palletJobs = (sscc: string) => db().selectFrom('print_job').select(['id', 'document_kind']).where('reference', '=', sscc).orderBy('id').execute();

  it('weighs a pallet closed without a weight as its cartons plus the tare, shows it on /pallet and its label, and prints the label again by its SSCC', async () => {
    const { soId, orderNo } = await pickedOrder(f, `SOPW-${RUN}`, [[0, 3]], { tote: `${TOTE}-W` });
    await ok('/scanPack', { orderNo });
    const first = (await ok('/pack/scan/open', { soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: first.id, barcode: skuCodes[0], qty: 2 });
    await ok('/pack/scan/close', { cartonId: first.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });
    const second = (await ok('/pack/scan/open', { soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: second.id, barcode: skuCodes[0], qty: 1 });
    await ok('/pack/scan/close', { cartonId: second.id, grossWeight: 500, netWeight: 400, weightUom: 'G' });
    const location = await db().selectFrom('location').select('code').where('id', '=', f.locationIds[0]).executeTakeFirstOrThrow();
    const pallet = await ok<Pallet>('/pallet/create', { locationCode: location.code });
    for (const carton of [first, second]) await ok('/pallet/addCarton', { palletId: pallet.id, carton: carton.cartonNo });

    // An open pallet has no final label yet: refused, nothing queued.
    const open = await call('/pack/label/print', { code: pallet.sscc });
    expect(open.statusCode).toBe(409);
    expect(json<{ code: string; message: string }>(open)).toMatchObject({ code: 'PALLET_OPEN', message: expect.stringContaining(pallet.palletNo) });
    expect(await palletJobs(pallet.sscc)).toEqual([]);

    // 2 kg + 500 g + the tare of an empty pallet (kg).
    const tare = await db().selectFrom('sys_param').select('param_value').where('param_code', '=', 'PALLET_TARE_KG').where('organization_id', 'is', null).executeTakeFirstOrThrow();
    expect(Number(tare.param_value)).toBeGreaterThan(0);
    const expected = String(2.5 + Number(tare.param_value));
    const sent = printer.received.length;
    const closed = await ok<Pallet>('/pallet/close', { palletId: pallet.id });
    expect(closed).toMatchObject({ status: 'closed', grossWeight: expected, weightUom: 'KG', label: { printerName: `LBL-${RUN}` } });
    expect(await ok<Pallet>('/pallet/detail', { palletId: pallet.id })).toMatchObject({ grossWeight: expected, weightUom: 'KG' });
    const [label] = (await printer.documents(sent + 1)).slice(sent);
    expect(label).toContain(`>;>800${pallet.sscc}`);
    expect(label).toContain(`GROSS WEIGHT: ${expected} KG`);

    // Reprint by the SSCC as its barcode hands it on: a new job on the chosen printer, the same label.
    const printed = await ok<{ jobId: number; kind: string; palletNo: string; sscc: string; printerName: string }>('/pack/label/print', { code: `(00)${pallet.sscc}`, printerId });
    expect(printed).toMatchObject({ kind: 'pallet', palletNo: pallet.palletNo, sscc: pallet.sscc, printerName: `LBL-${RUN}` });
    const [again] = (await printer.documents(sent + 2)).slice(sent + 1);
    expect(again).toContain(`GROSS WEIGHT: ${expected} KG`);
    expect(again).toContain('PALLET 1 OF 1');
    const jobs = await palletJobs(pallet.sscc);
    expect(jobs.map((j) => j.document_kind)).toEqual(['palletLabel', 'palletLabel']);
    expect(Number(jobs[1].id)).toBe(printed.jobId);

    // From the /pallet page: "Print label" queues it on the printer for automatic labels.
    const behave = await injectAs(t.app, admin, { method: 'POST', url: '/api/generic/behavior', payload: { moduleCode: 'packing', functionCode: 'pallet', behaviour: 'printLabel', keys: [pallet.id], inputs: {} } });
    expect(behave.statusCode, behave.body).toBe(200);
    expect(behave.body).toContain(pallet.palletNo);
    expect(await palletJobs(pallet.sscc)).toHaveLength(3);
  });

  it('keeps the gross weight entered at close as entered', async () => {
    const { soId, orderNo } = await pickedOrder(f, `SOPE-${RUN}`, [[0, 1]], { tote: `${TOTE}-E` });
    await ok('/scanPack', { orderNo });
    const carton = (await ok('/pack/scan/open', { soId })).openCarton!;
    await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCodes[0], qty: 1 });
    await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 3, netWeight: 2, weightUom: 'LB' });
    const location = await db().selectFrom('location').select('code').where('id', '=', f.locationIds[0]).executeTakeFirstOrThrow();
    const pallet = await ok<Pallet>('/pallet/create', { locationCode: location.code });
    await ok('/pallet/addCarton', { palletId: pallet.id, carton: carton.cartonNo });
    const closed = await ok<Pallet>('/pallet/close', { palletId: pallet.id, grossWeight: '41.5', weightUom: 'LB' });
    expect(closed).toMatchObject({ grossWeight: '41.5', weightUom: 'LB' });
  });
});

import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/server/db/transaction.js';
import { adjustStock, lotFor, receiveStock } from '../../src/server/modules/inventory/inventory.service.js';
import { dayInZone } from '../../src/server/modules/inventory/storage.repository.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, type OutboundFixture } from '../helpers/outbound.js';
import { csvFields } from '../helpers/csv.js';

/**
 * Spreadsheet safety of every export and import: text that a spreadsheet program would take for a
 * formula (starting with =, +, -, @, a tab or a carriage return) is written as text (xlsx: an
 * inline string; csv: behind an apostrophe) while numbers, negative ones included, stay numbers;
 * and imported text never goes beyond its column's declared length.
 */

const LINK = '=HYPERLINK("http://ev.il","x")';
const SKU_TEXT = '@SUM(1+1)*cmd|\' /C calc\'!A0';
const LOT = '-2+3+cmd|\' /C calc\'!A0';
const REASON = '+cmd|calc';
const TABBED = '\t=1+1';

let t: TestApp;
let admin: string;
let f: OutboundFixture;
let today: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  const db = t.database.db;
  f = await outboundFixture(db, 'XL', 2);
  const warehouse = await db.selectFrom('warehouse').select('time_zone').where('id', '=', f.scope.warehouseId).executeTakeFirstOrThrow();
  today = await dayInZone(db, new Date(), warehouse.time_zone, 0);
  await db.updateTable('sku').set({ description: SKU_TEXT, description2: TABBED }).where('id', '=', f.skuIds[0]).execute();
  await inTransaction(db, async (trx) => {
    const lot = await lotFor(trx, f.scope, f.ownerId, f.skuIds[0], { lotNo: LOT });
    const key = { ownerId: f.ownerId, skuId: f.skuIds[0], lotId: lot.id, locationId: f.locationIds[1] };
    await receiveStock(trx, f.scope, { key, qty: 10, reference: { type: 'test', orderNo: 'RCV-XL' } });
    await adjustStock(trx, f.scope, { key, qty: -3, reason: REASON, reference: { type: 'test', orderNo: LINK } });
  });
});

afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: Record<string, unknown>) => injectAs(t.app, admin, { method: 'POST', url: `/api${url}`, payload });

/** Every cell of the first sheet with its type as a reader sees it. */
async function xlsxCells(content: Buffer): Promise<{ type: ExcelJS.ValueType; text: string; value: unknown }[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const rows: { type: ExcelJS.ValueType; text: string; value: unknown }[][] = [];
  workbook.worksheets[0].eachRow((row) => {
    const cells: { type: ExcelJS.ValueType; text: string; value: unknown }[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => (cells[column - 1] = { type: cell.type, text: cell.text, value: cell.value }));
    rows.push(cells);
  });
  return rows;
}

/** The cell holding this text is a text cell, never a formula or a string a program may evaluate. */
function expectTextCell(rows: { type: ExcelJS.ValueType; text: string }[][], text: string) {
  const cells = rows.flat().filter((c) => c?.text === text);
  expect(cells.length, `a cell ${JSON.stringify(text)}`).toBeGreaterThan(0);
  for (const cell of cells) expect(cell.type, JSON.stringify(text)).toBe(ExcelJS.ValueType.RichText);
}

async function started(response: { statusCode: number; body: string }): Promise<number> {
  expect(response.statusCode, response.body).toBe(200);
  return (JSON.parse(response.body) as { id: number }).id;
}

async function waitForDownload(id: number): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    const files = json<{ files: { id: number; status: string }[] }>(await injectAs(t.app, admin, { method: 'GET', url: '/api/download/list' })).files;
    const file = files.find((x) => x.id === id);
    if (file && file.status !== 'running') {
      expect(file.status).toBe('done');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`download ${id} did not finish`);
}

describe('exports write formula-like text as text', () => {
  let orderNo: string;

  beforeAll(async () => {
    orderNo = LINK;
    const added = await post('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: orderNo, owner_id: f.ownerId, ship_to_name: REASON, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-01-31' },
    });
    expect(added.statusCode, added.body).toBe(200);
    const soId = json<{ row: { _key: number } }>(added).row._key;
    const saved = await post('/so/save/soDetail', { soId, lines: [{ skuCode: 'SKU-XL-0', qty: 2 }] });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('the order export as csv: the order number behind an apostrophe, the quantity a number', async () => {
    const response = await post('/so/export', { format: 'csv' });
    expect(response.statusCode).toBe(200);
    const rows = csvFields(response.body);
    const line = rows.find((r) => r[0].includes('HYPERLINK'));
    expect(line).toBeDefined();
    expect(line![0]).toBe(`'${LINK}`);
    expect(line![4]).toBe(`'${REASON}`);
    expect(line![10]).toBe('2');
  });

  it('the order export as xlsx: the order number a text cell, the quantity a number cell', async () => {
    const response = await post('/so/export', {});
    expect(response.statusCode).toBe(200);
    const rows = await xlsxCells(response.rawPayload);
    expectTextCell(rows, LINK);
    expectTextCell(rows, REASON);
    const line = rows.find((r) => r[0]?.text === LINK)!;
    expect(line[10]).toMatchObject({ type: ExcelJS.ValueType.Number, value: 2 });
  });

  it('the engine export and the download center: SKU texts as text cells', async () => {
    const payload = { moduleCode: 'masterdata', functionCode: 'sku', conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: 'SKU-XL-0' }] } };
    const direct = await post('/generic/export', payload);
    expect(direct.statusCode, direct.body).toBe(200);
    const rows = await xlsxCells(direct.rawPayload);
    expectTextCell(rows, SKU_TEXT);
    expectTextCell(rows, TABBED);

    const id = await started(await post('/download/export', payload));
    await waitForDownload(id);
    const file = await post('/download/file', { id });
    expectTextCell(await xlsxCells(file.rawPayload), SKU_TEXT);
  });

  it('the transaction log export: the order number and reason as text, a negative quantity a number', async () => {
    const response = await post('/inventory/exportInvTranLog', { transType: 'adjust', from: today, to: today });
    expect(response.statusCode, response.body).toBe(200);
    const rows = await xlsxCells(response.rawPayload);
    expectTextCell(rows, LINK);
    expectTextCell(rows, REASON);
    expectTextCell(rows, LOT);
    const adjusted = rows.find((r) => r[2]?.text === LINK)!;
    expect(adjusted[8]).toMatchObject({ type: ExcelJS.ValueType.Number, value: -3 });
  });

  it('the reports of the download center, as csv and as xlsx', async () => {
    const csv = await started(await post('/inventory/transactionLog/background', { transType: 'adjust', from: today, to: today, format: 'csv' }));
    await waitForDownload(csv);
    const rows = csvFields((await post('/download/file', { id: csv })).body);
    const adjusted = rows.find((r) => r[2]?.includes('HYPERLINK'))!;
    expect(adjusted[2]).toBe(`'${LINK}`);
    expect(adjusted[5]).toBe(`'${LOT}`);
    expect(Number(adjusted[8])).toBe(-3);
    expect(adjusted[8].startsWith("'")).toBe(false);
    expect(adjusted[12]).toBe(`'${REASON}`);

    const balance = await started(await post('/inventory/balanceReport/background', { format: 'csv', ownerCode: 'OW-XL' }));
    await waitForDownload(balance);
    const lines = csvFields((await post('/download/file', { id: balance })).body);
    const mine = lines.find((r) => r[1] === 'SKU-XL-0')!;
    expect(mine[2]).toBe(`'${SKU_TEXT}`);
    expect(mine[3]).toBe(`'${LOT}`);
    expect(Number(mine[6])).toBe(7);

    const xlsx = await started(await post('/inventory/balanceReport/background', { ownerCode: 'OW-XL' }));
    await waitForDownload(xlsx);
    const cells = await xlsxCells((await post('/download/file', { id: xlsx })).rawPayload);
    expectTextCell(cells, SKU_TEXT);
    expectTextCell(cells, LOT);
  });
});

describe('imports keep each text column to its declared length', () => {
  function multipart(url: string, fileName: string, content: Buffer, fields: Record<string, string> = {}) {
    const boundary = '----spreadsheetSafety';
    const parts = [
      ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ];
    return injectAs(t.app, admin, { method: 'POST', url: `/api${url}`, payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  }

  async function xlsx(header: string[], rows: unknown[][]): Promise<Buffer> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('rows');
    sheet.addRow(header);
    for (const row of rows) sheet.addRow(row);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  const countOrders = async (prefix: string) => (await t.database.db.selectFrom('so_header').select('id').where('order_no', 'like', `${prefix}%`).execute()).length;

  it('the order import refuses a 200,000-character ship-to and every other over-long text, naming row and field; nothing stored', async () => {
    const header = ['Order no', 'Owner', 'Ship-to name', 'Address (English)', 'Address (Chinese)', 'Ship date', 'SKU', 'Qty', 'UOM', 'Lot', 'Customer order no'];
    const response = await multipart(
      '/so/import',
      'orders.xlsx',
      await xlsx(header, [
        ['LONG-1', 'OW-XL', 'x'.repeat(200_000), '1 Road', '', '2030-01-31', 'SKU-XL-0', 1, 'EA', '', ''],
        ['LONG-2', 'OW-XL', 'Shop', '1 Road', '', '2030-01-31', 'SKU-XL-1', 1, 'U'.repeat(21), 'L'.repeat(61), 'C'.repeat(41)],
        ['LONG-3', 'OW-XL', 'Shop', '1 Road', '', '2030-01-31', 'SKU-XL-1', 1, 'EA', '', ''],
      ]),
    );
    expect(response.statusCode, response.body.slice(0, 500)).toBe(400);
    const body = json<{ code: string; details: { field: string; code: string; params: { row: number; max: number } }[] }>(response);
    expect(body.code).toBe('IMPORT_REJECTED');
    const tooLong = body.details.filter((d) => d.code === 'FIELD_TOO_LONG').map((d) => [d.field, d.params.max]);
    expect(tooLong).toEqual([
      ['row 2: shipToName', 100],
      ['row 3: customerOrderNo', 40],
      ['row 3: uom', 20],
      ['row 3: lotNo', 60],
    ]);
    expect(await countOrders('LONG-')).toBe(0);
  });

  it('the store-arrival import refuses an over-long order number as too long', async () => {
    const response = await multipart('/so/importStoreArrival', 'arrival.xlsx', await xlsx(['Order no', 'Arrival'], [['N'.repeat(5000), '2030-02-01 09:30']]));
    expect(response.statusCode).toBe(400);
    const details = json<{ details: { field: string; code: string }[] }>(response).details;
    expect(details).toEqual([expect.objectContaining({ field: 'row 2: orderNo', code: 'FIELD_TOO_LONG' })]);
  });

  it('the engine import refuses an over-long ship-to by the page field length', async () => {
    const head = ['Order no', 'Owner', 'Customer order no', 'Ship-to name', 'Address (English)', 'Address (Chinese)', 'Carrier', 'Ship date'];
    const response = await multipart('/generic/import', 'so.xlsx', await xlsx(head, [['LONG-ENG', 'OW-XL', '', 'x'.repeat(200_000), '1 Road', '', 'DHL', '2030-01-31']]), {
      moduleCode: 'outbound',
      functionCode: 'so',
      fieldMap: 'default',
    });
    expect(response.statusCode).toBe(400);
    const details = json<{ details: { field: string; code: string }[] }>(response).details;
    expect(details).toContainEqual(expect.objectContaining({ field: 'row 2: ship_to_name', code: 'FIELD_TOO_LONG' }));
    expect(await countOrders('LONG-ENG')).toBe(0);
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

interface Bill {
  header: { id: number; bill_id: string; currency_code: string; total_amount: string; local_currency_code: string; local_total_amount: string; exchange_rate: string };
  lines: Array<{ line_no: number; charge_code: string; qty: string; rate: string; amount: string; local_amount: string; reference: string | null }>;
  decimals: { contract: number; bill: number };
}

/**
 * A bill in currencies of three decimals (docs/billing.md, "Bills in another currency"): a contract
 * in Kuwaiti dinars billed in Bahraini dinars, both entered on the currency page with their three
 * decimals. Every amount is rounded half-up to three decimals in decimal arithmetic (a float would
 * make 1.0005 into 1.000 and 1.001 x 1.5 into 1.501, rounding half to even 1.0005 into 1.000), and
 * the bill, its invoice PDF and its lines workbook show the same amounts.
 */
describe('a bill in currencies of three decimals', () => {
  let t: TestApp;
  let token: string;
  // Digits only and short: the invoice's charge-code column prints a longer code of wide letters on two lines.
  const tag = String(Date.now()).slice(-6);
  let bill: Bill;

  const post = (url: string, payload: unknown) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown>, headers: { 'x-language': 'en' } });
  async function ok<T>(url: string, payload: unknown): Promise<T> {
    const response = await post(url, payload);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return json<T>(response);
  }
  const add = async (moduleCode: string, functionCode: string, record: Record<string, unknown>) => Number((await ok<{ row: { _key: number } }>('/generic/adding', { moduleCode, functionCode, record })).row._key);

  /** The test's own reckoning: an amount rounded half-up to three decimals, in decimal arithmetic. */
  const dinars = (value: Decimal.Value) => new Decimal(value).toDecimalPlaces(3, Decimal.ROUND_HALF_UP);

  beforeAll(async () => {
    t = await buildTestApp();
    token = await signIn(t.app);
    const db = t.database.db;
    for (const code of ['KWD', 'BHD']) {
      const known = await db.selectFrom('currency').select('decimals').where('code', '=', code).executeTakeFirst();
      if (!known) await add('masterdata', 'currency', { code, description: code, decimals: 3, active: true });
      else expect(Number(known.decimals)).toBe(3);
    }
    const project = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const ownerId = (await db.insertInto('owner').values({ project_id: project.id, code: `KOW-${tag}`, name: 'Dinar Customer', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()).id;
    const contract = await add('billing', 'billingContract', { contract_no: `KC-${tag}`, owner_id: ownerId, currency_code: 'KWD', valid_from: '2000-01-01' });
    const fee = await add('billing', 'chargeCode', { code: `KFIX-${tag}`, description: 'Monthly fee', charge_type: 'fixed', account_code: '4000' });
    const minimum = await add('billing', 'chargeCode', { code: `KMIN-${tag}`, description: 'Minimum charge', charge_type: 'minimum', account_code: '4001' });
    await add('billing', 'billingTariff', { contract_id: contract, charge_code_id: fee, charge_method: 'fixed', bill_base: 'none', rate: '1.0005', valid_from: '2000-01-01' });
    await add('billing', 'billingTariff', { contract_id: contract, charge_code_id: minimum, charge_method: 'fixed', bill_base: 'none', rate: '2.0025', valid_from: '2000-01-01' });
    const year = 2100 + (Date.now() % 800);
    await add('billing', 'exchangeRate', { from_currency: 'KWD', to_currency: 'BHD', rate_date: `${year}-01-01`, rate: '1.5' });
    bill = await ok<Bill>('/billing/run', { ownerId, billId: `KB-${tag}`, cutoffDate: `${year}-03-31`, periodFrom: `${year}-03-01`, periodTo: `${year}-03-31`, billCurrency: 'BHD' });
    await ok('/billing/confirm', { id: bill.header.id });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('rounds each amount half-up to three decimals in both currencies', () => {
    const rate = new Decimal('1.5');
    const feeAmount = dinars('1.0005');
    const topUp = dinars(new Decimal('2.0025').minus(feeAmount));
    const local = [dinars(feeAmount.times(rate)), dinars(topUp.times(rate))];
    expect(bill.decimals).toEqual({ contract: 3, bill: 3 });
    expect(bill.lines.map((l) => [l.charge_code, l.amount, l.local_amount, l.reference])).toEqual([
      [`KFIX-${tag}`, feeAmount.toFixed(3), local[0].toFixed(3), null],
      [`KMIN-${tag}`, topUp.toFixed(3), local[1].toFixed(3), 'minimum'],
    ]);
    // By hand: 1.0005 -> 1.001 KWD, topped up by 1.0015 -> 1.002 KWD to the minimum of 2.0025; in BHD 1.5015 -> 1.502 and 1.503.
    expect(bill.lines.map((l) => [l.amount, l.local_amount])).toEqual([
      ['1.001', '1.502'],
      ['1.002', '1.503'],
    ]);
    expect(bill.header).toMatchObject({ currency_code: 'KWD', total_amount: '2.003', local_currency_code: 'BHD', local_total_amount: '3.005' });
    expect(new Decimal(bill.header.exchange_rate).toString()).toBe('1.5');
    expect(local[0].plus(local[1]).toFixed(3)).toBe(bill.header.local_total_amount);
  });

  it('shows the same amounts on the invoice PDF and in the lines workbook', async () => {
    const get = (url: string) => injectAs(t.app, token, { method: 'GET', url: `/api${url}`, headers: { 'x-language': 'en' } });
    const pdf = await get(`/billing/invoice.pdf?id=${bill.header.id}`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-kwd-invoice-'));
    try {
      fs.writeFileSync(path.join(dir, 'invoice.pdf'), pdf.rawPayload);
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-layout', path.join(dir, 'invoice.pdf'), '-'], { encoding: 'utf8' });
      expect(text).toContain(`Total: ${bill.header.local_total_amount} BHD`);
      expect(text).toContain(`Total in contract currency: ${bill.header.total_amount} KWD`);
      expect(text).toContain('1.5 (KWD -> BHD)');
      for (const line of bill.lines) {
        const row = text.split('\n').find((l) => l.includes(line.charge_code));
        expect(row, line.charge_code).toBeDefined();
        // The line's amount in the bill currency, with its three decimals, ends the row.
        expect(row!.trim().endsWith(line.local_amount), row).toBe(true);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }

    const xlsx = await get(`/billing/lines.xlsx?id=${bill.header.id}`);
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.rowCount).toBe(bill.lines.length + 1);
    // Charge code, amount (KWD), currency, local amount (BHD): numbers equal to the bill's three-decimal amounts.
    const rows = bill.lines.map((_, i) => [2, 9, 10, 11].map((column) => sheet.getRow(i + 2).getCell(column).value));
    expect(rows).toEqual(bill.lines.map((l) => [l.charge_code, Number(l.amount), 'KWD', Number(l.local_amount)]));
    const localSum = rows.reduce((sum, row) => sum.plus(new Decimal(Number(row[3]))), new Decimal(0));
    expect(localSum.toFixed(3)).toBe(bill.header.local_total_amount);
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import {
  apiCall,
  apiSelection,
  apiSignIn,
  enginePage,
  engineRowTexts,
  engineToolbar,
  eventually,
  openEnginePage,
  popupText,
  selectFirstEngineRow,
  tokenSignedInPage,
  useServerAndBrowser,
} from '../helpers/browser.js';

/**
 * Billing maintenance in Chromium: a contract with a fixed monthly fee is set up through the API;
 * the bill page's Run billing form makes the draft bill, its Lines tab shows the line, Confirm
 * (after its confirmation) and Post (giving the invoice number) move the bill on, the Drill-down tab
 * shows the month the fee counted; the invoice PDF opens from the toolbar (its text shows the
 * invoice number and total) and the lines export as an xlsx workbook read back with exceljs.
 */
describe('billing maintenance in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true, pdfViewer: true });

  it('runs billing from the form, shows the lines, confirms and posts the bill', async () => {
    const token = await apiSignIn(e2e.server);
    const tag = Date.now().toString(36).toUpperCase();
    const billId = `E2E-${tag}`;
    const call = <T>(url: string, body: unknown) => apiCall<T>(e2e.server, token, url, body);
    const [owner] = await apiSelection<{ _key: number; code: string }>(e2e.server, token, 'masterdata', 'ogr', [{ field: 'code', operator: '=', value: 'ACME' }]);
    expect(owner).toBeDefined();
    const add = async (functionCode: string, record: Record<string, unknown>) =>
      Number((await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'billing', functionCode, record })).row._key);
    const chargeCodeId = await add('chargeCode', { code: `FIX-${tag}`, description: 'Monthly account fee', charge_type: 'fixed' });
    const contractId = await add('billingContract', { contract_no: `C-${tag}`, owner_id: owner._key, currency_code: 'USD', valid_from: '2000-01-01' });
    await add('billingTariff', { contract_id: contractId, charge_code_id: chargeCodeId, charge_method: 'fixed', bill_base: 'none', rate: '250', valid_from: '2000-01-01' });
    // A month of its own, so that no other bill has charged its fixed fee.
    const year = 2100 + (Date.now() % 800);

    const page = await tokenSignedInPage(e2e.browser, e2e.server, ADMIN, '/page/home');
    await openEnginePage(page, e2e.server, '/page/billingMaintance', 'billingMaintance');
    await engineToolbar(page, 'billingMaintance').getByTestId('engine-behaviour-run').click();
    await page.getByTestId('engine-input-ownerCode').fill('ACME');
    await page.getByTestId('engine-input-billId').fill(billId);
    await page.getByTestId('engine-input-cutoffDate').fill(`${year}-03-31`);
    await page.getByTestId('engine-input-periodFrom').fill(`${year}-03-01`);
    await page.getByTestId('engine-input-periodTo').fill(`${year}-03-31`);
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    expect(await popupText(page)).toContain(`Bill ${billId}: 1 lines, total 250.00 USD (draft).`);

    const bill = async () => (await apiSelection<{ _key: number; status: string; invoice_no: string | null }>(e2e.server, token, 'billing', 'billingMaintance', [{ field: 'bill_id', operator: '=', value: billId }]))[0];
    await eventually(async () => (await bill())?.status).toBe('draft');

    await page.reload();
    await openEnginePage(page, e2e.server, '/page/billingMaintance', 'billingMaintance');
    await eventually(async () => (await engineRowTexts(page, 'billingMaintance'))[0] ?? '').toContain(billId);
    await selectFirstEngineRow(page, 'billingMaintance');
    const subPages = enginePage(page, 'billingMaintance').getByTestId('engine-subpages');
    await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Lines' }).click();
    const lines = subPages.locator('[data-testid="engine-page"][data-function="billingLine"]').first();
    await eventually(() => lines.locator('.ag-row:not(.ag-row-loading)').filter({ hasText: `FIX-${tag}` }).count()).toBeGreaterThan(0);
    expect(await lines.locator('.ag-row:not(.ag-row-loading)').filter({ hasText: `FIX-${tag}` }).first().innerText()).toContain('250');
    // The drill-down: the fixed fee counted the month of the period's start.
    await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Drill-down' }).click();
    const sources = subPages.locator('[data-testid="engine-page"][data-function="billingLineSource"]').first();
    await eventually(() => sources.locator('.ag-row:not(.ag-row-loading)').filter({ hasText: `${year}-03` }).count()).toBeGreaterThan(0);

    const confirm = page.locator('.wms-popup-confirm.wms-popup-top');
    await engineToolbar(page, 'billingMaintance').getByTestId('engine-behaviour-confirm').click();
    await eventually(() => confirm.innerText()).toContain('will never be billed again');
    await eventually(() => confirm.locator('.ant-modal').getAttribute('class')).not.toMatch(/zoom/);
    await confirm.locator('.wms-popup-ok').click();
    await eventually(async () => (await bill()).status).toBe('confirmed');

    await page.reload();
    await openEnginePage(page, e2e.server, '/page/billingMaintance', 'billingMaintance');
    await eventually(async () => (await engineRowTexts(page, 'billingMaintance'))[0] ?? '').toContain(billId);
    await selectFirstEngineRow(page, 'billingMaintance');
    await engineToolbar(page, 'billingMaintance').getByTestId('engine-behaviour-post').click();
    await eventually(() => confirm.innerText()).toContain('invoice number');
    await eventually(() => confirm.locator('.ant-modal').getAttribute('class')).not.toMatch(/zoom/);
    await confirm.locator('.wms-popup-ok').click();
    await eventually(async () => (await bill()).status).toBe('posted');
    expect((await bill()).invoice_no).toMatch(/^INV\d{11}$/);
    const { _key: id, invoice_no: invoiceNo } = await bill();

    // The invoice PDF from the toolbar: a new tab shows it; its text has the invoice number and the total.
    await page.reload();
    await openEnginePage(page, e2e.server, '/page/billingMaintance', 'billingMaintance');
    await eventually(async () => (await engineRowTexts(page, 'billingMaintance'))[0] ?? '').toContain(billId);
    await selectFirstEngineRow(page, 'billingMaintance');
    const opened = page.context().waitForEvent('page');
    await engineToolbar(page, 'billingMaintance').getByTestId('billing-invoice-pdf').click();
    const tab = await opened;
    await eventually(() => tab.url()).toMatch(/^blob:/);
    await tab.close();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-e2e-invoice-'));
    const response = await fetch(new URL(`api/billing/invoice.pdf?id=${id}`, e2e.server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/pdf');
    const pdfFile = path.join(dir, 'invoice.pdf');
    fs.writeFileSync(pdfFile, Buffer.from(await response.arrayBuffer()));
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', pdfFile, '-'], { encoding: 'utf8' });
    expect(text).toContain(invoiceNo);
    expect(text).toContain('Total: 250.00 USD');
    execFileSync('pdftoppm', ['-r', '50', '-gray', '-singlefile', '-png', pdfFile, path.join(dir, 'invoice')]);
    expect(fs.statSync(path.join(dir, 'invoice.png')).size).toBeGreaterThan(1000);

    // The lines as xlsx, downloaded from the toolbar and read back.
    const downloading = page.waitForEvent('download');
    await engineToolbar(page, 'billingMaintance').getByTestId('billing-export-lines').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/-lines\.xlsx$/);
    const xlsxFile = path.join(dir, 'lines.xlsx');
    await download.saveAs(xlsxFile);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(xlsxFile);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(2).value).toBe('Charge code');
    expect(sheet.getRow(2).getCell(2).value).toBe(`FIX-${tag}`);
    expect(sheet.getRow(2).getCell(9).value).toBe(250);
    expect(sheet.rowCount).toBe(2);
    fs.rmSync(dir, { recursive: true, force: true });
    await page.context().close();
  });
});

/**
 * Platform services in Chromium against the built app and the real server (fresh embedded database
 * with the demonstration data): the transaction log exported in the background lands in the
 * download center, finishes with every row of the period, and downloads as a valid workbook; a
 * support message sent with a file shows the file on the ticket, which downloads byte for byte.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

describe('download center in Chromium', () => {
  const context = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }));
  let token: string;
  let skuCode: string;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    const { server } = context;
    token = await apiSignIn(server);
    const skus = await apiCall<{ items: { id: number; code: string; owner_id: number }[] }>(server, token, '/inventory/sku?code=AC-');
    const locations = await apiCall<{ items: { id: number; location_type: string }[] }>(server, token, '/inventory/location?code=A');
    const sku = skus.items[skus.items.length - 1];
    skuCode = sku.code;
    const location = locations.items.find((l) => l.location_type === 'storage')!;
    // Stock found today: an adjustment whose reason needs no approval.
    const added = await apiCall<{ row: { _key: number } }>(server, token, '/generic/adding', { moduleCode: 'inventory', functionCode: 'invAdjust', record: {} });
    await apiCall(server, token, '/generic/adding', {
      moduleCode: 'inventory',
      functionCode: 'invAdjustLine',
      record: { document_id: added.row._key, action: 'add', owner_id: sku.owner_id, sku_id: sku.id, location_id: location.id, qty: 7, reason: 'FOUND' },
    });
    await apiCall(server, token, '/inventory/invAdjHeader/confirm', { id: added.row._key });
  });

  it('exports the transaction log in the background, shows it finish in the download center and downloads it', async () => {
    const { server, browser } = context;
    const page = await signedInPage(browser, server, '/page/transaction', { acceptDownloads: true });
    await page.getByTestId('transaction-log-screen').waitFor();
    // Today to tomorrow: every row written today, whatever the warehouse's time zone.
    await page.getByTestId('transaction-log-from').fill(day(0));
    await page.getByTestId('transaction-log-to').fill(day(1));
    await page.locator('[data-testid="transaction-log-type"]').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="All types"]').click();

    const answered = page.waitForResponse((response) => response.url().includes('/inventory/transactionLog/background'));
    await page.getByTestId('transaction-log-export-background').click();
    const response = await answered;
    expect(response.status()).toBe(200);
    const { id, rowsTotal } = (await response.json()) as { id: number; rowsTotal: number };
    expect(rowsTotal).toBeGreaterThan(0);
    const expected = await apiCall<{ total: number }>(server, token, '/inventory/transactionLog', { transType: 'all', from: day(0), to: day(1) });
    expect(rowsTotal).toBe(expected.total);
    await page.getByText('The export is running in the background').waitFor();

    await page.getByTestId('user-menu').click();
    await page.locator('.ant-dropdown-menu-item').filter({ hasText: 'Download center' }).click();
    const center = page.getByTestId('download-center');
    await center.waitFor();
    const row = center.locator(`[data-download^="transaction-log-${day(0)}-${day(1)}-"]`).first();
    // Running with its progress (rows written of the total), then done with every row.
    const statuses = new Set<string>();
    await eventually(async () => {
      const status = (await row.getAttribute('data-status')) ?? '';
      statuses.add(status);
      return status;
    }).toBe('done');
    expect([...statuses].every((s) => s === 'running' || s === 'done')).toBe(true);
    expect(await row.innerText()).toContain(`Done, ${rowsTotal} rows`);
    const files = await apiCall<{ files: { id: number; rowsWritten: number; rowsTotal: number }[] }>(server, token, '/download/list');
    expect(files.files.find((f) => f.id === id)).toMatchObject({ rowsWritten: rowsTotal, rowsTotal });

    const downloading = page.waitForEvent('download');
    await row.getByTestId('download-file').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^transaction-log-${day(0)}-${day(1)}-\\d{8}-\\d{6}\\.xlsx$`));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const sheet = workbook.worksheets[0];
    expect(sheet.rowCount).toBe(rowsTotal + 1);
    expect(sheet.getRow(1).values).toContain('Trans type');
    const skus = new Set<unknown>();
    sheet.eachRow((r, n) => {
      if (n > 1) skus.add((r.values as unknown[])[5]);
    });
    expect(skus).toContain(skuCode);
  });

  it('sends a support message with a file and downloads the file from the ticket', async () => {
    const { server, browser } = context;
    const orgs = await apiCall<{ id: number }[]>(server, token, '/generic/support/getOrgs');
    const projects = await apiCall<{ id: number }[]>(server, token, `/generic/support/getProjects?organizationId=${orgs[0].id}`);
    const ticket = await apiCall<{ id: number; number: string }>(server, token, '/generic/support/sendSupport', {
      organizationId: orgs[0].id,
      projectId: projects[0].id,
      subject: 'Torn carton',
      message: 'Received damaged',
    });
    const content = Buffer.from('carton,state\nC-1,torn\n');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-support-'));
    const file = path.join(dir, 'cartons.csv');
    fs.writeFileSync(file, content);

    const page = await signedInPage(browser, server, '/page/support', { acceptDownloads: true });
    await page.getByTestId('support-screen').waitFor({ timeout: 60_000 });
    await page.getByTestId('support-list').getByText(ticket.number).click();
    const drawer = page.getByTestId('support-detail');
    await drawer.getByTestId('support-files').setInputFiles(file);
    await drawer.locator('textarea').fill('Photo list attached');
    const sent = page.waitForResponse((response) => response.url().includes('/generic/support/messageWithFiles'));
    await drawer.getByTestId('support-send-message').click();
    expect((await sent).status()).toBe(200);
    const link = drawer.getByTestId('support-attachment').filter({ hasText: 'cartons.csv' });
    await link.waitFor();
    const downloading = page.waitForEvent('download');
    await link.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('cartons.csv');
    expect(Buffer.compare(fs.readFileSync(await download.path()), content)).toBe(0);
  });
});

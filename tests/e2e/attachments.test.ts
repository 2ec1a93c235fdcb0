/**
 * Attachments and the download center in Chromium: three files attached
 * to a SKU on /sku, the image and the PDF previewed at /previewImgFile, one downloaded byte for
 * byte, an upload past the record's cap refused with the spec's message before anything is sent
 * (the cap lowered to 1 MB for this server; the dialog reads the cap the server reports), a
 * deletion behind its confirmation; an export written in the background and downloaded from the
 * download center of the user menu.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { REDUCED_MOTION, apiCall, eventually, releaseBrowser, selectEngineRow, sharedBrowser, startE2eServer, type E2eServer } from '../helpers/browser.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/attachments');
const PNG = fs.readFileSync(path.join(FIXTURES, 'sample.png'));
const PDF = fs.readFileSync(path.join(FIXTURES, 'sample.pdf'));
const CSV = fs.readFileSync(path.join(FIXTURES, 'sample.csv'));
const SKU = 'AC-1001';

function grid(page: Page) {
  return page.locator('[data-testid="engine-page"][data-function="sku"]').first();
}

/** The page's own toolbar, not those of its sub-page tabs. */
function toolbar(page: Page) {
  return grid(page).locator(':scope > [data-testid="engine-toolbar"]');
}

function dialog(page: Page) {
  return page.getByTestId('attachments-dialog');
}

function attachmentRow(page: Page, fileName: string) {
  return dialog(page).locator(`[data-attachment="${fileName}"]`);
}

describe('attachments and the download center in Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  let token: string;
  let skuKey: number;

  beforeAll(async () => {
    server = await startE2eServer({ DEMO_DATA: 'true', ATTACHMENT_LIMIT_MB: '1' });
    browser = await sharedBrowser();
    const context = await browser.newContext({ ...REDUCED_MOTION, acceptDownloads: true, viewport: { width: 1600, height: 1000 } });
    page = await context.newPage();
    await page.goto(`${server.url}#/login`);
    await page.fill('#login_loginAccount', ADMIN.loginAccount);
    await page.fill('#login_password', ADMIN.password);
    await page.press('#login_password', 'Enter');
    await page.waitForURL(/#\/page/);
    const login = await fetch(new URL('api/user/login', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ loginAccount: ADMIN.loginAccount, password: ADMIN.password }),
    });
    token = ((await login.json()) as { token: string }).token;
    const found = await apiCall<{ rows: Array<{ _key: number }> }>(server, token, '/generic/selection', {
      moduleCode: 'masterdata',
      functionCode: 'sku',
      page: 1,
      pageSize: 1,
      conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: SKU }] },
    });
    skuKey = found.rows[0]._key;
  });

  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
  });

  const stored = () =>
    apiCall<{ attachments: Array<{ fileName: string }> }>(server, token, '/generic/getAttachment', { moduleCode: 'masterdata', functionCode: 'sku', recordKey: skuKey }).then((l) =>
      l.attachments.map((a) => a.fileName),
    );

  it('uploads three attachments to a SKU from the toolbar of /sku', async () => {
    await page.goto(`${server.url}#/page/sku`);
    await grid(page).locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    await grid(page).locator('#engine_search_sku_code').fill(SKU);
    await grid(page).getByTestId('engine-search-submit').click();
    const rows = grid(page).locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)');
    await eventually(() => rows.count()).toBe(1);
    const total = toolbar(page).getByTestId('engine-total');
    await selectEngineRow(rows.first(), total);
    await toolbar(page).getByTestId('engine-attachments').click();
    await dialog(page).waitFor();
    await eventually(() => dialog(page).getByTestId('attachments-usage').innerText()).toBe('0 B used of 1 MB');
    await dialog(page)
      .getByTestId('attachments-file-input')
      .setInputFiles([
        { name: 'photo.png', mimeType: 'image/png', buffer: PNG },
        { name: 'delivery-note.pdf', mimeType: 'application/pdf', buffer: PDF },
        { name: 'counts.csv', mimeType: 'text/csv', buffer: CSV },
      ]);
    await eventually(() => dialog(page).getByTestId('attachments-selected').innerText()).toContain('3 file(s) selected');
    await dialog(page).getByTestId('attachments-upload').click();
    for (const name of ['photo.png', 'delivery-note.pdf', 'counts.csv']) await attachmentRow(page, name).waitFor();
    await eventually(() => stored()).toEqual(['photo.png', 'delivery-note.pdf', 'counts.csv']);
    // Only images and PDFs offer a preview.
    expect(await attachmentRow(page, 'counts.csv').getByTestId('attachment-preview').count()).toBe(0);
  });

  it('previews the image and the PDF at /previewImgFile', async () => {
    const served: Array<{ type: string | undefined; body: Buffer }> = [];
    // Passes the preview's requests through unchanged, keeping what the server answered.
    await page.context().route('**/api/generic/downloadAttachment', async (route) => {
      const response = await route.fetch();
      const body = await response.body();
      if (response.status() === 200) served.push({ type: response.headers()['content-type'], body });
      await route.fulfill({ response, body });
    });
    // The image is the one uploaded: the browser decoded the PNG's 16 x 16 pixels from the bytes served.
    const openPreview = async (name: string) => {
      const opened = page.context().waitForEvent('page');
      await attachmentRow(page, name).getByTestId('attachment-preview').click();
      const preview = await opened;
      await preview.waitForURL(/#\/previewImgFile\?id=\d+$/);
      await preview.getByTestId('preview-screen').waitFor();
      expect(await preview.getByTestId('preview-name').innerText()).toBe(name);
      return preview;
    };
    const image = await openPreview('photo.png');
    const img = image.getByTestId('preview-image');
    await img.waitFor();
    await eventually(() => img.evaluate((element: HTMLImageElement) => (element.complete ? [element.naturalWidth, element.naturalHeight] : []))).toEqual([16, 16]);
    await eventually(() => served.length).toBe(1);
    expect(served[0].body.toString('base64')).toBe(PNG.toString('base64'));
    await image.close();

    const pdf = await openPreview('delivery-note.pdf');
    const frame = pdf.getByTestId('preview-pdf');
    await frame.waitFor();
    // The browser's PDF viewer shows the bytes the server sent for the preview, as a PDF.
    expect(await frame.getAttribute('src')).toMatch(/^blob:/);
    await eventually(() => served.map((r) => r.type)).toEqual(['image/png', 'application/pdf']);
    expect(served[1].body.toString('latin1')).toBe(PDF.toString('latin1'));
    // The preview stays where it is on a new start of the app with the token.
    await pdf.reload();
    await pdf.getByTestId('preview-pdf').waitFor();
    expect(new URL(pdf.url()).hash).toMatch(/^#\/previewImgFile\?id=\d+$/);
    await pdf.close();
    await page.context().unrouteAll();
  });

  it('downloads an attachment byte for byte', async () => {
    const downloading = page.waitForEvent('download');
    await attachmentRow(page, 'counts.csv').getByTestId('attachment-download').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('counts.csv');
    const file = await download.path();
    expect(Buffer.compare(fs.readFileSync(file), CSV)).toBe(0);
  });

  it('refuses an upload over the cap with its message before anything is sent', async () => {
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/uploadAttachment')) requests.push(request.url());
    });
    await dialog(page)
      .getByTestId('attachments-file-input')
      .setInputFiles([{ name: 'large.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(1024 * 1024, 7) }]);
    await dialog(page).getByTestId('attachments-upload').click();
    const message = 'The upload exceeds the size limit: uploaded attachments must total at most 1 MB.';
    await eventually(() => dialog(page).getByTestId('attachments-refused').innerText()).toBe(message);
    const popup = page.locator('.wms-popup-message');
    await eventually(() => popup.allInnerTexts()).toEqual([expect.stringContaining(message)]);
    await popup.locator('.wms-popup-ok').click();
    await popup.first().waitFor({ state: 'detached' });
    expect(requests).toEqual([]);
    expect(await stored()).toEqual(['photo.png', 'delivery-note.pdf', 'counts.csv']);
  });

  it('deletes an attachment behind a confirmation', async () => {
    await attachmentRow(page, 'counts.csv').getByTestId('attachment-delete').click();
    const confirm = page.locator('.wms-popup-confirm');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('Delete the attachment "counts.csv"?');
    await confirm.locator('.wms-popup-cancel').click();
    await confirm.waitFor({ state: 'detached' });
    expect(await stored()).toEqual(['photo.png', 'delivery-note.pdf', 'counts.csv']);
    await attachmentRow(page, 'counts.csv').getByTestId('attachment-delete').click();
    await confirm.locator('.wms-popup-ok').click();
    await attachmentRow(page, 'counts.csv').waitFor({ state: 'detached' });
    expect(await stored()).toEqual(['photo.png', 'delivery-note.pdf']);
    await page.getByTestId('attachments-close').click();
    await dialog(page).waitFor({ state: 'detached' });
  });

  it('exports in the background and downloads the file from the download center', async () => {
    await toolbar(page).getByTestId('engine-export-background').click();
    await page.getByTestId('user-menu').click();
    await page.locator('.ant-dropdown-menu-item').filter({ hasText: 'Download center' }).click();
    const center = page.getByTestId('download-center');
    await center.waitFor();
    const row = center.locator('[data-download^="masterdata-sku-"]').first();
    await eventually(() => row.getAttribute('data-status')).toBe('done');
    expect(await row.innerText()).toContain('Done, 1 rows');
    const downloading = page.waitForEvent('download');
    await row.getByTestId('download-file').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^masterdata-sku-\d{8}-\d{6}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    expect(workbook.worksheets[0].rowCount).toBe(2);
    expect(JSON.stringify(workbook.worksheets[0].getRow(2).values)).toContain(SKU);
  });
});

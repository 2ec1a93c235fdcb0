/**
 * The page-definition engine in Chromium (acceptance): the built app against the real
 * server on a fresh embedded database with the demonstration data. Every shipped definition is
 * opened and shows its grid headers; a SKU goes through its whole life on the generated screen;
 * refused input shows on its field and changes nothing; a user without the edit right sees no
 * edit button.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { apiCall, apiSignIn, enginePage as grid, engineRows as rows, engineRowTexts as rowTexts, engineToolbar as toolbar, eventually, releaseBrowser, sharedBrowser, openEnginePage, selectFirstEngineRow, signedInPage, startE2eServer, toastShown as toastLogged, type E2eServer } from '../helpers/browser.js';
import { fieldsInOrder, isDisplayable, type PageDefinition } from '../../engine/schema/index.js';
import { ROUTE_TABLE } from '../helpers/route-table.js';
import { loadLocale } from '../helpers/locales.js';
import { lookupLocaleText } from '../../src/common/locale-tree.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function definitionFiles(): string[] {
  const folder = path.join(ROOT, 'definitions');
  return fs
    .readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.page.json'))
    .sort()
    .map((file) => path.join(folder, file));
}

/** What the engine shows for a label code (engine/client/model/resolveLabel.ts), in English. */
function englishLabel(page: PageDefinition, code: string): string {
  const own = page.texts?.[code];
  if (own) return own.en;
  return lookupLocaleText(loadLocale('en'), code) ?? code;
}

function routeOf(page: PageDefinition): string {
  const route = ROUTE_TABLE.routes.find(
    (r) => r.target.kind === 'definition' && r.target.moduleCode === page.moduleCode && r.target.functionCode === page.functionCode,
  );
  return route ? `/page/${route.route}` : `/page/mapTo?moduleCode=${page.moduleCode}&functionCode=${page.functionCode}`;
}

/** Signs in through the sign-in page, as a user would, in a fresh browser context logging its success messages. */
async function signedIn(browser: Browser, server: E2eServer, loginAccount: string, password: string): Promise<Page> {
  const page = await signedInPage(browser, server, '/page/home', { account: { loginAccount, password }, acceptDownloads: true, logToasts: true });
  await page.waitForURL(/#\/page/);
  return page;
}

async function headerTexts(page: Page, functionCode: string): Promise<string[]> {
  return (await grid(page, functionCode).locator('.ag-header-cell-text').allInnerTexts()).filter((text) => text.trim() !== '');
}

/** Closes the message popup that says `text` (the global message popup); no other may be open. */
async function acknowledge(page: Page, text: string): Promise<void> {
  const popups = page.locator('.wms-popup-message');
  await eventually(() => popups.allInnerTexts()).toEqual([expect.stringContaining(text)]);
  await popups.locator('.wms-popup-ok').click();
  await popups.first().waitFor({ state: 'detached' });
}

/** A plain success: a short-lived message, no popup to acknowledge. */
async function toastShown(page: Page, text: string): Promise<void> {
  await toastLogged(page, text);
  expect(await page.locator('.wms-popup-message').count()).toBe(0);
}

/** Selects the one row the list shows, once the list has settled after its last reload. */
async function selectOnlyRow(page: Page, functionCode: string): Promise<void> {
  await eventually(() => rowTexts(page, functionCode)).toHaveLength(1);
  await selectFirstEngineRow(page, functionCode);
}

async function chooseOption(page: Page, inputId: string, optionTitle: string): Promise<void> {
  await page.locator(`.ant-select:has(#${inputId})`).click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${optionTitle}"]`).click();
}

/** The error text under one rjsf field of the open form. */
function fieldError(page: Page, fieldId: string) {
  // the innermost form item: rjsf's object field is a form item around all the others
  return page.locator(`[data-testid="engine-form"] .ant-form-item:has(#${fieldId}):not(:has(.ant-form-item)) .ant-form-item-explain-error`);
}

/** Forgets the toasts shown so far on the page, so that the next wait sees only a new one. */
async function forgetToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { toasts: string[] }).toasts.length = 0;
  });
}

/** Makes a demo SKU active or inactive through the API, whatever it is now (a test stopped halfway may have left it either way). */
async function setSkuActive(server: E2eServer, token: string, code: string, active: boolean): Promise<void> {
  const found = await apiCall<{ rows: Array<{ _key: number; active: boolean }> }>(server, token, '/generic/selection', {
    moduleCode: 'masterdata',
    functionCode: 'sku',
    page: 1,
    pageSize: 1,
    conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: code }] },
  });
  const row = found.rows[0];
  if (row.active !== active) await apiCall(server, token, '/generic/behavior', { moduleCode: 'masterdata', functionCode: 'sku', behaviour: active ? 'activate' : 'deactivate', keys: [row._key] });
}

async function skuTotal(server: E2eServer, token: string, code?: string): Promise<number> {
  const answer = await apiCall<{ total: number }>(server, token, '/generic/selection', {
    moduleCode: 'masterdata',
    functionCode: 'sku',
    page: 1,
    pageSize: 1,
    ...(code ? { conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: code }] } } : {}),
  });
  return answer.total;
}

describe('page-definition engine in Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  let admin: Page;
  let adminToken: string;
  beforeAll(async () => {
    server = await startE2eServer({ DEMO_DATA: 'true' });
    browser = await sharedBrowser();
    admin = await signedIn(browser, server, ADMIN.loginAccount, ADMIN.password);
    adminToken = await apiSignIn(server);
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
  });

  // Every definition opens in turn: the time allowed grows with their number (about 1 s each on a quiet machine).
  it('renders every shipped definition with its grid headers', async () => {
    const files = definitionFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const definition = JSON.parse(fs.readFileSync(file, 'utf8')) as PageDefinition;
      await openEnginePage(admin, server, routeOf(definition), definition.functionCode);
      const headers = await headerTexts(admin, definition.functionCode);
      const first = fieldsInOrder(definition).find(isDisplayable)!;
      expect(headers, path.relative(ROOT, file)).toContain(englishLabel(definition, first.labelCode));
      expect(await grid(admin, definition.functionCode).locator('h4').innerText(), path.relative(ROOT, file)).toBe(englishLabel(definition, definition.titleCode));
      // its rows (or the empty grid) came without a refusal popping up: the total shows once the
      // selection answered (the page is never network-idle: the notification bell keeps a stream open)
      const total = toolbar(admin, definition.functionCode).getByTestId('engine-total');
      await eventually(async () => (await total.innerText()).trim() !== '' || (await admin.locator('.wms-popup-message').count()) > 0).toBe(true);
      const popups = await admin.locator('.wms-popup-message').allInnerTexts();
      expect(popups, `${path.relative(ROOT, file)}: ${popups.join(' | ')}`).toEqual([]);
    }
  }, Math.max(120_000, definitionFiles().length * 4_000));

  it('creates, finds, edits, exports, re-imports and deletes a SKU through the generated screen', async () => {
    const page = admin;
    const code = 'E2E-LIFE-0001';
    await openEnginePage(page, server, '/page/sku', 'sku');

    // create
    await toolbar(page, 'sku').getByTestId('engine-add').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
    await page.fill('#engine_sku_code', code);
    await chooseOption(page, 'engine_sku_owner_id', 'ACME - ACME Electronics Ltd');
    await page.fill('#engine_sku_description', 'Created in the browser');
    await page.fill('#engine_sku_length_cm', '10');
    await page.fill('#engine_sku_width_cm', '20');
    await page.fill('#engine_sku_height_cm', '3');
    await eventually(() => page.inputValue('#engine_sku_volume_cm3')).toBe('600');
    await page.click('#engine-form-save');
    await toastShown(page, 'The record was added.');
    expect(await skuTotal(server, adminToken, code)).toBe(1);

    // find
    await grid(page, 'sku').locator('#engine_search_sku_code').fill(code);
    await grid(page, 'sku').getByTestId('engine-search-submit').click();
    // the key column (the SKU code) is shown whole; other long text is cut, its full text on hover
    await eventually(() => rowTexts(page, 'sku')).toEqual([expect.stringContaining(code)]);
    await eventually(() => toolbar(page, 'sku').getByTestId('engine-total').innerText()).toContain('1 records');
    expect(await rows(page, 'sku').locator('[data-full-text="Created in the browser"]').getAttribute('title')).toBe('Created in the browser');

    // edit
    await selectOnlyRow(page, 'sku');
    await toolbar(page, 'sku').getByTestId('engine-edit').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="edit"]');
    expect(await page.inputValue('#engine_sku_code')).toBe(code);
    await page.fill('#engine_sku_description', 'Edited');
    await page.click('#engine-form-save');
    await toastShown(page, 'The record was saved.');
    // It closes by itself, and the keyboard was never taken from the page.
    await eventually(() => page.locator('.wms-toast').count()).toBe(0);
    await eventually(async () => (await rowTexts(page, 'sku'))[0] ?? '').toContain('Edited');

    // export (the search applies: one row)
    const downloading = page.waitForEvent('download');
    await toolbar(page, 'sku').getByTestId('engine-export').click();
    const download = await downloading;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wms-e2e-export-')), download.suggestedFilename());
    await download.saveAs(file);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(fs.readFileSync(file).subarray(0, 2).toString()).toBe('PK');

    // delete
    await selectOnlyRow(page, 'sku');
    await toolbar(page, 'sku').getByTestId('engine-delete').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await toastShown(page, '1 records deleted.');
    await eventually(() => rowTexts(page, 'sku')).toHaveLength(0);
    expect(await skuTotal(server, adminToken, code)).toBe(0);

    // re-import the exported file: the SKU is back as it was exported
    await toolbar(page, 'sku').getByTestId('engine-import').click();
    await page.setInputFiles('[data-testid="engine-import-file"]', file);
    await page.click('#engine-import-run');
    await toastShown(page, '1 rows imported.');
    await eventually(() => rowTexts(page, 'sku')).toEqual([expect.stringContaining('Edited')]);

    // and delete it for good
    await selectOnlyRow(page, 'sku');
    await toolbar(page, 'sku').getByTestId('engine-delete').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await toastShown(page, '1 records deleted.');
    expect(await skuTotal(server, adminToken, code)).toBe(0);
  });

  it('shows a duplicate code, a missing mandatory field and a too-long value on their fields and changes nothing', async () => {
    const page = admin;
    const existing = await apiCall<{ rows: Array<{ code: string }> }>(server, adminToken, '/generic/selection', {
      moduleCode: 'masterdata',
      functionCode: 'sku',
      page: 1,
      pageSize: 1,
      // a demonstration SKU of the owner ACME, which the form chooses below
      conditions: { combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'AC-' }] },
    });
    const duplicate = existing.rows[0].code;
    const before = await skuTotal(server, adminToken);
    await openEnginePage(page, server, '/page/sku', 'sku');
    await toolbar(page, 'sku').getByTestId('engine-add').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');

    // missing mandatory description
    await page.fill('#engine_sku_code', 'E2E-MISSING');
    await chooseOption(page, 'engine_sku_owner_id', 'ACME - ACME Electronics Ltd');
    await page.click('#engine-form-save');
    await eventually(() => fieldError(page, 'engine_sku_description').innerText()).toBe('This field is required.');

    // too long code (60 characters at most)
    await page.fill('#engine_sku_description', 'Valid description');
    await page.fill('#engine_sku_code', 'X'.repeat(61));
    await page.click('#engine-form-save');
    await eventually(() => fieldError(page, 'engine_sku_code').innerText()).toBe('At most 60 characters.');

    // duplicate code: refused by the server, shown under the code field
    await page.fill('#engine_sku_code', duplicate);
    await page.click('#engine-form-save');
    await eventually(() => fieldError(page, 'engine_sku_code').allInnerTexts()).toEqual(['This value already exists.']);
    // the key is owner and code together: the owner field says so too
    expect(await fieldError(page, 'engine_sku_owner_id').allInnerTexts()).toEqual(['This value already exists.']);
    // the form stays open with the problem on the field; no popup stands in front of it
    expect(await page.locator('.wms-popup-message').count(), await page.locator('.wms-popup-message').allInnerTexts().then((t) => t.join(' | '))).toBe(0);
    expect(await page.locator('[data-testid="engine-form"]').isVisible()).toBe(true);

    expect(await skuTotal(server, adminToken)).toBe(before);
    await page.locator('.ant-modal:has([data-testid="engine-form"]) .ant-modal-footer button:not(#engine-form-save)').click();
    // The page asks for reduced motion, as every test context does: the dialog opened and closes
    // without animation, and none of the buttons clicked drew antd's click wave.
    await page.locator('[data-testid="engine-form"]').waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
    expect(await page.locator('.ant-wave').count()).toBe(0);
  });

  it('shows the sub-page of a header row, runs a confirmed behaviour and remembers the column choice', async () => {
    const page = admin;
    await setSkuActive(server, adminToken, 'AC-1002', true);
    await page.goto(`${server.url}#/page/home`);
    await openEnginePage(page, server, '/page/sku', 'sku');
    await grid(page, 'sku').locator('#engine_search_sku_code').fill('AC-1002');
    await grid(page, 'sku').getByTestId('engine-search-submit').click();
    await eventually(() => rowTexts(page, 'sku')).toHaveLength(1);

    // sub-page: the UPC codes of the selected SKU, as a tab under it
    await rows(page, 'sku').first().click();
    const upc = grid(page, 'sku').getByTestId('engine-subpages');
    await upc.locator('[data-testid="engine-page"][data-function="skuUpc"] .ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor();
    const header = await apiCall<{ rows: Array<{ _key: number }> }>(server, adminToken, '/generic/selection', {
      moduleCode: 'masterdata',
      functionCode: 'sku',
      page: 1,
      pageSize: 1,
      conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: 'AC-1002' }] },
    });
    const upcRows = await apiCall<{ total: number }>(server, adminToken, '/generic/tab', {
      moduleCode: 'masterdata',
      functionCode: 'sku',
      subPage: 'upc',
      parentKey: header.rows[0]._key,
      page: 1,
      pageSize: 1,
    });
    expect(upcRows.total).toBeGreaterThan(0);
    await eventually(() => rowTexts(page, 'skuUpc').then((r) => r.length)).toBe(Math.min(upcRows.total, 20));

    // behaviour with a confirm popup, enabled by the row's status (active)
    const deactivate = toolbar(page, 'sku').getByTestId('engine-behaviour-deactivate');
    const activate = toolbar(page, 'sku').getByTestId('engine-behaviour-activate');
    expect(await deactivate.isEnabled()).toBe(true);
    expect(await activate.isEnabled()).toBe(false);
    // Only the toast of this behaviour counts, not one an earlier test left on the shared page.
    await forgetToasts(page);
    await deactivate.click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await toastShown(page, 'Done');
    // The row is chosen again from a fresh read of the list, which has its new status.
    await grid(page, 'sku').getByTestId('engine-search-submit').click();
    await selectOnlyRow(page, 'sku');
    await eventually(() => activate.isEnabled()).toBe(true);
    expect(await deactivate.isEnabled()).toBe(false);
    await activate.click();
    await toastShown(page, 'Done');

    // column chooser: a hidden column stays hidden after a reload
    const description = englishLabel(JSON.parse(fs.readFileSync(path.join(ROOT, 'definitions/masterdata/sku.page.json'), 'utf8')) as PageDefinition, 'md.field.description');
    expect(await headerTexts(page, 'sku')).toContain(description);
    await toolbar(page, 'sku').getByTestId('engine-columns').click();
    await page.locator('[data-testid="engine-column-chooser"] label', { hasText: description }).first().click();
    await eventually(() => headerTexts(page, 'sku')).not.toContain(description);
    await page.reload();
    await openEnginePage(page, server, '/page/sku', 'sku');
    expect(await headerTexts(page, 'sku')).not.toContain(description);
  });

  it('searches with a saved query condition and with an AND/OR query of the builder', async () => {
    const page = admin;
    await page.goto(`${server.url}#/page/home`);
    await openEnginePage(page, server, '/page/sku', 'sku');
    const search = grid(page, 'sku').getByTestId('engine-search');

    // saved condition of the definition: inactive SKUs only (one made inactive here first)
    await setSkuActive(server, adminToken, 'AC-1004', false);
    // A filter an earlier test left in the open tab does not count.
    await search.getByRole('button', { name: 'Reset' }).click();
    const inactive = await apiCall<{ total: number }>(server, adminToken, '/generic/selection', {
      moduleCode: 'masterdata',
      functionCode: 'sku',
      page: 1,
      pageSize: 1,
      conditions: { combinator: 'and', rules: [{ field: 'active', operator: '=', value: false }] },
    });
    expect(inactive.total).toBeGreaterThan(0);
    await chooseOption(page, 'engine_search_sku___saved', 'Inactive only');
    await search.getByTestId('engine-search-submit').click();
    await eventually(() => toolbar(page, 'sku').getByTestId('engine-total').innerText()).toBe(`${inactive.total} records`);
    await setSkuActive(server, adminToken, 'AC-1004', true);

    // the builder: code = AC-1001 OR code = AC-1003
    await search.getByRole('button', { name: 'Reset' }).click();
    await search.getByRole('button', { name: 'Conditions' }).click();
    const builder = search.getByTestId('engine-query-builder');
    await builder.locator('.ruleGroup-addRule').first().click();
    await builder.locator('.ruleGroup-addRule').first().click();
    await builder.locator('.ruleGroup-combinators').first().selectOption('or');
    const rules = builder.locator('.rule');
    for (const [index, code] of ['AC-1001', 'AC-1003'].entries()) {
      await rules.nth(index).locator('.rule-fields').selectOption('code');
      await rules.nth(index).locator('.rule-operators').selectOption('=');
      await rules.nth(index).locator('.rule-value').fill(code);
    }
    await search.getByTestId('engine-search-submit').click();
    await eventually(() => rowTexts(page, 'sku').then((r) => r.map((text) => text.split(/\s+/)[0]))).toEqual(['AC-1001', 'AC-1003']);
  });

  it('caps a selection at 100 rows', async () => {
    const page = admin;
    await page.goto(`${server.url}#/page/home`);
    await openEnginePage(page, server, '/page/sku', 'sku');
    // the kept-alive tab may still hold an earlier search
    await grid(page, 'sku').getByTestId('engine-search').getByRole('button', { name: 'Reset' }).click();
    await eventually(() => toolbar(page, 'sku').getByTestId('engine-total').innerText()).toMatch(/^[1-9]\d{2,} records/);
    await rows(page, 'sku').first().click();
    // scroll down block by block so that the rows up to 120 are loaded, then select the range
    const viewport = grid(page, 'sku').locator(':scope > [data-testid="engine-grid"] .ag-grid-viewport');
    // The scroll is made again until the row shows: while the next block loads the list is not yet
    // tall enough, and a scroll past its end stops at the end.
    for (let step = 1; step <= 12; step++) {
      const row = grid(page, 'sku').locator(`:scope > [data-testid="engine-grid"] .ag-row[row-index="${Math.min(step * 10, 120)}"]:not(.ag-row-loading)`).first();
      await eventually(async () => {
        await viewport.evaluate((element, top) => (element.scrollTop = top), step * 10 * 42);
        return row.isVisible();
      }).toBe(true);
    }
    const last = grid(page, 'sku').locator(':scope > [data-testid="engine-grid"] .ag-row[row-index="120"]').first();
    await last.click({ modifiers: ['Shift'] });
    await acknowledge(page, 'At most 100 rows can be selected.');
    await eventually(() => toolbar(page, 'sku').getByTestId('engine-total').innerText()).toContain('100 selected');
    // the grid shows the same selection as the toolbar: the rows past the first 100 are deselected
    await eventually(() => last.getAttribute('class')).not.toContain('ag-row-selected');
  });

  it('pages a list whose definition says paging and scrolls one that does not', async () => {
    const page = admin;
    await page.goto(`${server.url}#/page/home`);
    await openEnginePage(page, server, '/page/loa', 'loa');
    // /loa: paging true, 50 rows a page, turned by ag-grid's pagination, each page one server call
    const panel = grid(page, 'loa').locator(':scope > [data-testid="engine-grid"] .ag-paging-panel');
    await eventually(() => panel.isVisible()).toBe(true);
    await eventually(() => panel.innerText()).toMatch(/1\s+to\s+50\s+of/);
    await panel.locator('[data-ref="btNext"]').click();
    await eventually(() => panel.innerText()).toMatch(/51\s+to\s+100\s+of/);
    await grid(page, 'loa').locator(':scope > [data-testid="engine-grid"] .ag-row[row-index="50"]:not(.ag-row-loading)').first().waitFor();
    // /sku: paging false, one list that scrolls, no pagination panel
    await openEnginePage(page, server, '/page/sku', 'sku');
    await eventually(() => rowTexts(page, 'sku').then((r) => r.length)).toBeGreaterThan(0);
    expect(await grid(page, 'sku').locator(':scope > [data-testid="engine-grid"] .ag-paging-panel:visible').count()).toBe(0);
  });

  it('asks for the inputs of a behaviour, shows refused inputs on their fields and generates locations', async () => {
    const page = admin;
    const zLocations = async () =>
      (
        await apiCall<{ total: number }>(server, adminToken, '/generic/selection', {
          moduleCode: 'masterdata',
          functionCode: 'loa',
          page: 1,
          pageSize: 1,
          conditions: { combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'Z-' }] },
        })
      ).total;
    expect(await zLocations()).toBe(0);
    await page.goto(`${server.url}#/page/home`);
    await openEnginePage(page, server, '/page/loa', 'loa');
    await toolbar(page, 'loa').getByTestId('engine-behaviour-generate').click();
    const dialog = page.getByTestId('engine-behaviour-inputs');
    await dialog.waitFor();
    const input = (name: string) => dialog.getByTestId(`engine-input-${name}`);
    const inputError = (name: string) => dialog.locator(`.ant-form-item:has([data-testid="engine-input-${name}"]) .ant-form-item-explain-error`);
    expect(await input('separator').inputValue()).toBe('-');

    // refused: every missing range at once, each under its input; nothing written
    await input('aisleFrom').fill('Z');
    await input('maxPallets').fill('many');
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    for (const name of ['aisleTo', 'bayFrom', 'bayTo', 'levelFrom', 'levelTo', 'maxPallets']) {
      await eventually(() => inputError(name).count()).toBe(1);
    }
    expect(await inputError('aisleFrom').count()).toBe(0);
    expect(await zLocations()).toBe(0);

    // accepted: aisle Z, bays 01-02, levels 1-2
    await input('aisleTo').fill('Z');
    await input('bayFrom').fill('01');
    await input('bayTo').fill('02');
    await input('levelFrom').fill('1');
    await input('levelTo').fill('2');
    await input('maxPallets').fill('');
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    await toastShown(page, '4 locations created, 0 existed already.');
    await dialog.waitFor({ state: 'detached' });
    expect(await zLocations()).toBe(4);

    await grid(page, 'loa').locator('#engine_search_loa_code').fill('Z-01-1');
    await grid(page, 'loa').getByTestId('engine-search-submit').click();
    await eventually(() => rowTexts(page, 'loa').then((r) => r.map((text) => text.split(/\s+/)[0]))).toEqual(['Z-01-1']);
  });

  it('opens the page a hyperlink names, filtered by the clicked value', async () => {
    const page = admin;
    // /loa: a location's type opens the code master filtered to that code (definition loa.page.json)
    await page.goto(`${server.url}#/page/home`);
    await openEnginePage(page, server, '/page/loa', 'loa');
    await grid(page, 'loa').locator('#engine_search_loa_code').fill('A-01-2');
    await grid(page, 'loa').getByTestId('engine-search-submit').click();
    await eventually(() => rowTexts(page, 'loa').then((r) => r.map((text) => text.split(/\s+/)[0]))).toEqual(['A-01-2']);
    const link = grid(page, 'loa').locator(':scope > [data-testid="engine-grid"] .ag-cell[col-id="location_type"] a').first();
    await eventually(() => link.innerText()).toBe('Storage');
    await link.click();

    await page.waitForURL(/#\/page\/codeMaster/);
    await grid(page, 'codeMaster').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    await eventually(() => grid(page, 'codeMaster').getByTestId('engine-fixed-filter').innerText()).toContain('storage');
    const expected = await apiCall<{ total: number }>(server, adminToken, '/generic/selection', {
      moduleCode: 'masterdata',
      functionCode: 'codeMaster',
      page: 1,
      pageSize: 1,
      conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: 'storage' }] },
    });
    expect(expected.total).toBeGreaterThan(0);
    await eventually(() => toolbar(page, 'codeMaster').getByTestId('engine-total').innerText()).toBe(`${expected.total} records`);
    const shown = await rowTexts(page, 'codeMaster');
    expect(shown).toHaveLength(expected.total);
    // code type, then code (a long code type is cut with an ellipsis in the cell)
    for (const text of shown) expect(text).toMatch(/^LOCATION_TYP\S*\s+storage\s/);
  });

  it('shows no add, edit or delete button to a user without those rights', async () => {
    // The generic API checks `<moduleCode>.<functionCode>:<right>` (masterdata.sku:view), the same
    // right the menu entry of /sku asks for.
    const status = await apiCall<{ project: { id: number } | null; warehouse: { id: number } | null }>(server, adminToken, '/user/status');
    const role = await apiCall<{ id: number }>(server, adminToken, '/role', {
      name: 'SKU viewers',
      permissions: [{ module: 'masterdata', subModule: 'sku', view: true }],
    });
    const password = 'V1ewer!Passw0rd';
    await apiCall(server, adminToken, '/user/save', {
      loginAccount: 'sku-viewer',
      displayName: 'SKU viewer',
      password,
      projectIds: status.project ? [status.project.id] : [],
      warehouseIds: status.warehouse ? [status.warehouse.id] : [],
      roleIds: [role.id],
    });
    const viewer = await signedIn(browser, server, 'sku-viewer', password);
    try {
      await openEnginePage(viewer, server, '/page/sku', 'sku');
      await eventually(() => rowTexts(viewer, 'sku').then((rows) => rows.length)).toBeGreaterThan(0);
      const buttons = toolbar(viewer, 'sku');
      expect(await buttons.getByTestId('engine-export').count()).toBe(1);
      expect(await buttons.getByTestId('engine-add').count()).toBe(0);
      expect(await buttons.getByTestId('engine-edit').count()).toBe(0);
      expect(await buttons.getByTestId('engine-delete').count()).toBe(0);
      expect(await buttons.getByTestId('engine-import').count()).toBe(0);
      // behaviours that need the edit right are not offered either
      expect(await buttons.locator('[data-testid^="engine-behaviour-"]').count()).toBe(0);
      // and a double click opens no form
      await rows(viewer, 'sku').first().dblclick();
      expect(await viewer.locator('[data-testid="engine-form"]').count()).toBe(0);
    } finally {
      await viewer.context().close();
    }
  });
  it('switches warehouse in the header: the open locations tab then lists only the second warehouse', async () => {
    // A page of its own: the shared one keeps the filters earlier tests typed into /loa.
    const page = await signedIn(browser, server, ADMIN.loginAccount, ADMIN.password);
    const totalOf = async (code: string) => {
      await apiCall(server, adminToken, '/user/whs', { code });
      return (await apiCall<{ total: number }>(server, adminToken, '/generic/selection', { moduleCode: 'masterdata', functionCode: 'loa', page: 1, pageSize: 1 })).total;
    };
    // WH1 last: a switch is remembered as the user's default, and the page below signs in afresh.
    const wh2 = await totalOf('WH2');
    const wh1 = await totalOf('WH1');
    expect(wh1).not.toBe(wh2);
    await openEnginePage(page, server, '/page/loa', 'loa');
    const panel = () => grid(page, 'loa').locator(':scope > [data-testid="engine-grid"] .ag-paging-row-summary-panel').innerText();
    const total = async () => Number((/of\s+([\d,]+)/.exec(await panel())?.[1] ?? '0').replace(/,/g, ''));
    await eventually(total).toBe(wh1);
    await page.getByTestId('warehouse-switcher').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'WH2' }).click();
    await eventually(total).toBe(wh2);
    // Back to the first warehouse for whoever uses this page next.
    await page.getByTestId('warehouse-switcher').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'WH1' }).click();
    await eventually(total).toBe(wh1);
    await page.context().close();
  });
  it('creates, edits and disables a user on /user through the engine, the writer enforcing the password policy', async () => {
    const page = admin;
    const login = 'e2e.picker';
    const signInStatus = async (password: string) =>
      (await fetch(new URL('api/user/login', server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ loginAccount: login, password }) })).status;
    await openEnginePage(page, server, '/page/user', 'user');

    await toolbar(page, 'user').getByTestId('engine-add').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
    await page.fill('#engine_user_login_account', login);
    await page.fill('#engine_user_display_name', 'Night picker');
    await page.fill('#engine_user_password', 'short');
    await page.click('#engine-form-save');
    // Refused by the writer: the form stays open with the policy's message, and nobody was created.
    await eventually(() => fieldError(page, 'engine_user_password').count()).toBeGreaterThan(0);
    expect(await signInStatus('short')).toBe(401);

    await page.fill('#engine_user_password', 'Pick3r!Night2026');
    await page.click('#engine-form-save');
    await toastShown(page, 'The record was added.');
    expect(await signInStatus('Pick3r!Night2026')).toBe(200);
    // Only the hash is stored, never the password.
    const stored = await apiCall<{ rows: Array<Record<string, unknown>> }>(server, adminToken, '/generic/selection', {
      moduleCode: 'identity',
      functionCode: 'user',
      page: 1,
      pageSize: 1,
      conditions: { combinator: 'and', rules: [{ field: 'login_account', operator: '=', value: login }] },
    });
    expect(stored.rows[0]).toMatchObject({ login_account: login, password: null });

    // edit: a new display name
    await grid(page, 'user').locator('#engine_search_user_login_account').fill(login);
    await grid(page, 'user').getByTestId('engine-search-submit').click();
    await selectOnlyRow(page, 'user');
    await toolbar(page, 'user').getByTestId('engine-edit').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="edit"]');
    await page.fill('#engine_user_display_name', 'Night shift picker');
    await page.click('#engine-form-save');
    await toastShown(page, 'The record was saved.');
    await eventually(async () => (await rowTexts(page, 'user'))[0] ?? '').toContain('Night shift');

    // disable: the account can no longer sign in
    await selectOnlyRow(page, 'user');
    await toolbar(page, 'user').getByTestId('engine-edit').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="edit"]');
    await page.uncheck('#engine_user_enabled');
    await page.click('#engine-form-save');
    await toastShown(page, 'The record was saved.');
    await eventually(() => signInStatus('Pick3r!Night2026')).not.toBe(200);
  });
});

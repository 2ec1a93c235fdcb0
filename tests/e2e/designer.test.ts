import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { launchBrowser, openPage, startE2eServer, type E2eServer } from '../helpers/browser.js';

const OPERATOR = { loginAccount: 'operator1', password: 'Op3r!Passw0rd' };

async function login(server: E2eServer, account: { loginAccount: string; password: string }): Promise<{ token: string; expiresAt: string }> {
  const response = await fetch(`${server.url}api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
  const body = (await response.json()) as { token?: string; expiresAt?: string };
  if (!body.token || !body.expiresAt) throw new Error(`sign-in of ${account.loginAccount} failed: ${JSON.stringify(body)}`);
  return { token: body.token, expiresAt: body.expiresAt };
}

async function api<T>(server: E2eServer, token: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${server.url}api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Opens a route signed in as `account`, storing the session the way the app does (api/token.ts). */
async function signedIn(browser: Browser, server: E2eServer, account: { loginAccount: string; password: string }, route: string): Promise<Page> {
  const page = await openPage(browser, server.url, '/login');
  const { token, expiresAt } = await login(server, account);
  await page.evaluate(
    ({ token, expiresAt }) => {
      sessionStorage.setItem('token', token);
      document.cookie = `token=${encodeURIComponent(token)}; expires=${new Date(expiresAt).toUTCString()}; path=/; SameSite=Strict`;
    },
    { token, expiresAt },
  );
  await page.goto(`${server.url}#${route}`);
  await page.reload();
  return page;
}

async function fill(page: Page, testId: string, value: string) {
  const input = page.getByTestId(testId);
  await input.fill(value);
}

/** A tab of the page editor, by its key. */
function tab(page: Page, key: string) {
  return page.locator(`[data-testid="designer-editor"] .ant-tabs-tab[data-node-key="${key}"]`);
}

async function fieldNames(page: Page): Promise<string[]> {
  const rows = page.locator('[data-testid^="designer-fields-row-"]:not([data-testid$="-handle"])');
  return (await rows.allInnerTexts()).map((text) => text.split('·')[0].trim());
}

describe('designer in Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a configurator builds, previews and publishes a page; an operator with the right finds it in the menu and uses it', async () => {
    const page = await signedIn(browser, server, ADMIN, '/page/generic');
    await page.waitForSelector('[data-designer-root]');

    // A new page over the existing sku table.
    await page.getByTestId('designer-new').click();
    await fill(page, 'designer-new-module', 'catalog');
    await fill(page, 'designer-new-function', 'skus');
    await fill(page, 'designer-new-title', 'ui.shell.route.sku');
    await fill(page, 'designer-new-table', 'sku');
    await page.getByTestId('designer-new-ok').click();
    await page.waitForSelector('[data-testid="designer-editor"][data-function="skus"]');

    // Fields: add two, name them, then move the last one up by keyboard drag-and-drop.
    await tab(page, 'fields').click();
    await page.getByTestId('designer-fields-add').click();
    await fill(page, 'designer-fields-prop-name', 'description');
    await fill(page, 'designer-fields-prop-labelCode', 'SKU_DESCRIPTION');
    await page.getByTestId('designer-fields-add').click();
    await fill(page, 'designer-fields-prop-name', 'code');
    await fill(page, 'designer-fields-prop-labelCode', 'SKU_CODE');
    await page.getByTestId('designer-fields-prop-searchable').click();
    expect(await fieldNames(page)).toEqual(['id', 'description', 'code']);
    await page.getByTestId('designer-fields-add').scrollIntoViewIfNeeded();
    const from = (await page.getByTestId('designer-fields-row-2-handle').boundingBox())!;
    const to = (await page.getByTestId('designer-fields-row-1-handle').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 4, { steps: 10 });
    await page.mouse.up();
    await expect.poll(() => fieldNames(page)).toEqual(['id', 'code', 'description']);
    // Undo puts it back, redo moves it again.
    await page.getByTestId('designer-undo').click();
    expect(await fieldNames(page)).toEqual(['id', 'description', 'code']);
    await page.getByTestId('designer-redo').click();
    expect(await fieldNames(page)).toEqual(['id', 'code', 'description']);

    // A behaviour backed by a named write SQL, edited in monaco.
    await tab(page, 'sqls').click();
    await page.getByTestId('designer-sqls-add').click();
    await fill(page, 'designer-sqls-prop-name', 'deactivate');
    await page.getByTestId('designer-sqls-prop-mode').click();
    await page.locator('.ant-select-item-option[title="write"]').click();
    await page.locator('[data-testid="designer-sql-editor"] .monaco-editor').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('update sku set active = false where project_id = :projectId and id = any(:keys', { delay: 10 });
    await expect.poll(() => page.getByTestId('designer-sql-params').innerText()).toContain(':keys');
    await tab(page, 'behaviours').click();
    await page.getByTestId('designer-behaviours-add').click();
    await fill(page, 'designer-behaviours-prop-code', 'deactivate');
    await fill(page, 'designer-behaviours-prop-action', 'sql:deactivate');
    await fill(page, 'designer-behaviours-prop-labelCode', 'DEACTIVATE');

    // A sub-page: the shipped UPC page of the SKU.
    await tab(page, 'subPages').click();
    await page.getByTestId('designer-subpages-add').click();
    await fill(page, 'designer-subpages-prop-code', 'upc');
    await fill(page, 'designer-subpages-prop-titleCode', 'UPC_TAB');
    await fill(page, 'designer-subpages-prop-moduleCode', 'masterdata');
    await fill(page, 'designer-subpages-prop-functionCode', 'skuUpc');
    await fill(page, 'designer-subpages-prop-links', '[{ "parentField": "id", "childField": "sku_id" }]');
    await page.getByTestId('designer-subpages-prop-code').click();

    // Texts: the missing English texts are flagged, then filled.
    await tab(page, 'texts').click();
    expect(await page.getByTestId('designer-text-SKU_CODE-en').getAttribute('class')).toContain('ant-input-status-warning');
    for (const [code, text] of [['SKU_CODE', 'Item'], ['SKU_DESCRIPTION', 'Description'], ['DEACTIVATE', 'Deactivate'], ['UPC_TAB', 'Barcodes']]) {
      await fill(page, `designer-text-${code}-en`, text);
    }
    await expect.poll(() => page.getByTestId('designer-problems').count()).toBe(0);

    // Save, preview through the real engine, publish with a menu entry.
    await page.getByTestId('designer-save').click();
    await page.waitForSelector('[data-testid="designer-dirty"]', { state: 'detached' });
    await tab(page, 'preview').click();
    await page.waitForSelector('[data-testid="designer-preview"] .ag-root-wrapper');
    await expect.poll(() => page.locator('[data-testid="designer-preview"]').innerText()).toContain('Item');
    await page.getByTestId('designer-publish').click();
    await page.getByTestId('designer-publish-menu').click();
    await page.getByTestId('designer-publish-group').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Master data' }).click();
    await page.getByTestId('designer-publish-ok').click();
    await expect.poll(() => page.locator('[data-testid="designer-editor"] .ant-tag-green').count()).toBe(1);
    await page.close();

    // An operator holding catalog:view finds it in the menu, with no restart, and uses it.
    const { token } = await login(server, ADMIN);
    const role = await api<{ id: number }>(server, token, '/role', { name: 'catalog operators', permissions: [{ module: 'catalog', view: true }] });
    await api(server, token, '/user/save', {
      loginAccount: OPERATOR.loginAccount,
      displayName: 'Operator',
      password: OPERATOR.password,
      organizationIds: [1],
      projectIds: [1],
      warehouseIds: [1],
      defaultProjectId: 1,
      defaultWarehouseId: 1,
      roleIds: [role.id],
    });
    const operator = await signedIn(browser, server, OPERATOR, '/page/home');
    await operator.locator('[data-testid="nav-left"], [data-testid="nav-top"]').first().waitFor();
    await operator.locator('.ant-menu-submenu-title').filter({ hasText: 'Master data' }).click();
    await operator.locator('.ant-menu-item').filter({ hasText: 'SKU' }).click();
    await operator.waitForSelector('.ag-root-wrapper');
    await expect.poll(() => operator.locator('.ag-header').innerText()).toContain('Item');
    await operator.close();
  });

  it('shows a refused second startup page with the spec message, diffs two versions side by side and rolls back', async () => {
    const { token } = await login(server, ADMIN);
    const page = (functionCode: string, startup: boolean, label: string) => ({
      moduleCode: 'stock',
      functionCode,
      content: {
        schemaVersion: 2,
        moduleCode: 'stock',
        functionCode,
        titleCode: 'ui.shell.route.balance',
        status: 'draft',
        startup,
        table: { name: 'owner' },
        scope: 'project',
        fields: [{ name: 'code', labelCode: label, type: 'string' }],
        texts: { [label]: { en: label } },
      },
    });
    const put = (body: unknown) =>
      fetch(`${server.url}api/generic/draft`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    expect((await put(page('owners', true, 'OWNER_CODE'))).status).toBe(200);
    await api(server, token, '/generic/publish', { moduleCode: 'stock', functionCode: 'owners' });
    expect((await put(page('owners', true, 'OWNER_KEY'))).status).toBe(200);
    await api(server, token, '/generic/publish', { moduleCode: 'stock', functionCode: 'owners' });
    expect((await put(page('ownersToo', true, 'OWNER_CODE'))).status).toBe(200);

    const browserPage = await signedIn(browser, server, ADMIN, '/page/generic');
    await browserPage.waitForSelector('[data-designer-root]');
    await browserPage.getByTestId('designer-page-stock/ownersToo').click();
    await browserPage.waitForSelector('[data-testid="designer-editor"][data-function="ownersToo"]');
    await browserPage.getByTestId('designer-publish').click();
    await browserPage.getByTestId('designer-publish-ok').click();
    await expect
      .poll(() => browserPage.getByTestId('designer-publish-refused').innerText())
      .toBe('Module stock already has a startup page (owners): one module may have only one startup generic.');
    await browserPage.locator('.ant-modal-confirm-btns button').click();
    await browserPage.locator('.ant-modal-confirm').waitFor({ state: 'detached' });

    await browserPage.getByTestId('designer-page-stock/owners').click();
    await browserPage.waitForSelector('[data-testid="designer-editor"][data-function="owners"]');
    await tab(browserPage, 'versions').click();
    await browserPage.getByTestId('designer-diff').click();
    await browserPage.waitForSelector('[data-testid="designer-diff-editor"] .monaco-diff-editor');
    await expect.poll(() => browserPage.locator('[data-testid="designer-diff-editor"]').innerText()).toContain('OWNER_KEY');
    await browserPage.getByTestId('designer-rollback-1').click();
    await browserPage.locator('.ant-popconfirm-buttons .ant-btn-primary').click();
    await expect.poll(() => browserPage.locator('[data-testid="designer-versions"] tbody tr').count()).toBe(3);
    const version3 = await fetch(`${server.url}api/generic/version?moduleCode=stock&functionCode=owners&version=3`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await version3.json()) as { status: string; content: { fields: Array<{ labelCode: string }> } }).content.fields[0].labelCode).toBe('OWNER_CODE');
    await browserPage.close();
  });
});

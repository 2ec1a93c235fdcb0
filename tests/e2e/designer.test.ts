import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { apiCall, apiLogin as login, eventually, releaseBrowser, sharedBrowser, startE2eServer, tokenSignedInPage, type E2eServer } from '../helpers/browser.js';

const OPERATOR = { loginAccount: 'operator1', password: 'Op3r!Passw0rd' };

/** Opens a route signed in as `account`, the session kept where the app keeps it, recording CSP violations. */
async function signedIn(browser: Browser, server: E2eServer, account: { loginAccount: string; password: string }, route: string): Promise<Page> {
  const page = await tokenSignedInPage(browser, server, account, route, { viewport: { width: 1280, height: 720 } });
  // Every violation of the Content-Security-Policy the server sends is recorded.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.reload();
  return page;
}

async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? ['(not recorded)']);
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


/**
 * The primary button of the popconfirm asking `question`, clicked once the popconfirm has opened:
 * while it zooms in from its arrow, its buttons move, and a click aimed at one can land beside it.
 */
async function confirmPop(page: Page, question: string) {
  const popconfirm = page.locator('.ant-popover').filter({ hasText: question });
  await eventually(() => popconfirm.getAttribute('class')).not.toMatch(/zoom/);
  await popconfirm.locator('.ant-popconfirm-buttons .ant-btn-primary').click();
}

/** Switches the browser session's project (POST /api/user/project with its own token) and reloads. */
async function switchProject(page: Page, server: E2eServer, code: string) {
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  await apiCall(server, token, '/user/project', { code });
  await page.reload();
}

/** The grid header of a published page, as the runtime (/mapTo) shows it. */
async function pageHeader(page: Page, server: E2eServer, moduleCode: string, functionCode: string): Promise<string> {
  await page.goto(`${server.url}#/page/mapTo?moduleCode=${moduleCode}&functionCode=${functionCode}`);
  await page.reload();
  const header = page.locator('.ag-header').filter({ visible: true });
  await header.waitFor();
  return header.innerText();
}

async function openInDesigner(page: Page, server: E2eServer, key: string) {
  await page.goto(`${server.url}#/page/generic`);
  await page.reload();
  await page.waitForSelector('[data-designer-root]');
  await page.getByTestId(`designer-page-${key}`).click();
  await page.waitForSelector(`[data-testid="designer-editor"][data-function="${key.split('/')[1]}"]`);
}

describe('designer in Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startE2eServer();
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await releaseBrowser(browser);
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
    await page.locator('.ant-select-item-option[title="Write"]').click();
    await page.locator('[data-testid="designer-sql-editor"] .monaco-editor').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('update sku set active = false where project_id = :projectId and id = any(:keys', { delay: 10 });
    await expect.poll(() => page.getByTestId('designer-sql-params').innerText()).toContain(':keys');
    // Monaco, its workers and the designer run under the strict policy without a violation.
    expect(await cspViolations(page)).toEqual([]);
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
    // The dialog may still be opening on a loaded machine: tick "with a menu entry" until it is
    // ticked (only while it is not, so a tick that landed is never undone), then its group shows.
    const withMenu = page.getByTestId('designer-publish-menu');
    await expect
      .poll(async () => {
        if (!(await withMenu.isChecked())) await withMenu.click();
        return withMenu.isChecked();
      })
      .toBe(true);
    const group = page.getByTestId('designer-publish-group');
    await group.click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Master data' }).click();
    await page.getByTestId('designer-publish-ok').click();
    await expect.poll(() => page.locator('[data-testid="designer-editor"] .ant-tag-green').count()).toBe(1);
    await page.close();

    // An operator holding catalog:view finds it in the menu, with no restart, and uses it.
    const { token } = await login(server, ADMIN);
    const role = await apiCall<{ id: number }>(server, token, '/role', { name: 'catalog operators', permissions: [{ module: 'catalog', view: true }] });
    await apiCall(server, token, '/user/save', {
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
    await apiCall(server, token, '/generic/publish', { moduleCode: 'stock', functionCode: 'owners' });
    expect((await put(page('owners', true, 'OWNER_KEY'))).status).toBe(200);
    await apiCall(server, token, '/generic/publish', { moduleCode: 'stock', functionCode: 'owners' });
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
    // The answer is awaited from before the clicks that ask for it, so a quick one is not missed;
    // a click that fails reports itself, not as this wait's timeout.
    const rolledBack = browserPage.waitForResponse((response) => response.url().includes('/api/generic/rollback'), { timeout: 60_000 });
    rolledBack.catch(() => undefined);
    await browserPage.getByTestId('designer-rollback-1').click();
    // The confirmation is the popconfirm asking about version 1, not whichever popover shows.
    await confirmPop(browserPage, 'Publish version 1 again as a new version?');
    expect((await rolledBack).status()).toBe(200);
    await expect.poll(() => browserPage.locator('[data-testid="designer-versions"] tbody tr').count(), { timeout: 30_000 }).toBe(3);
    const version3 = await fetch(`${server.url}api/generic/version?moduleCode=stock&functionCode=owners&version=3`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await version3.json()) as { status: string; content: { fields: Array<{ labelCode: string }> } }).content.fields[0].labelCode).toBe('OWNER_CODE');
    await browserPage.close();
  });

  /** A published page over `owner` in PRJ1 whose one label is `OWNER_LABEL`. */
  const labelPage = {
    schemaVersion: 2,
    moduleCode: 'stock',
    functionCode: 'ownerLabels',
    titleCode: 'ui.shell.route.balance',
    status: 'draft',
    table: { name: 'owner' },
    scope: 'project',
    fields: [
      { name: 'id', labelCode: 'ID', type: 'integer', editable: false, displayable: false },
      { name: 'code', labelCode: 'OWNER_LABEL', type: 'string', length: 20 },
    ],
    texts: { ID: { en: 'ID' }, OWNER_LABEL: { en: 'Owner code' } },
  };

  // Published through the API for the three tests below (building a page in the UI is the first test's).
  beforeAll(async () => {
    const { token } = await login(server, ADMIN);
    const put = await fetch(`${server.url}api/generic/draft`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ moduleCode: 'stock', functionCode: 'ownerLabels', content: labelPage }),
    });
    if (put.status !== 200) throw new Error(`draft of stock/ownerLabels: ${put.status} ${await put.text()}`);
    await apiCall(server, token, '/generic/publish', { moduleCode: 'stock', functionCode: 'ownerLabels' });
  });

  it('copies a published page to a second project, relabels and publishes it there, each project sees its own label, and a rollback there brings the earlier one back', async () => {
    const { token } = await login(server, ADMIN);
    // A code of its own per run, so that a second run of this test makes a new project.
    const second = `PRJ2${Date.now().toString(36).slice(-5).toUpperCase()}`;
    // The second project, through the projects page of the engine, and the admin granted to it.
    const project = await apiCall<{ row: { _key: number | string } }>(server, token, '/generic/adding', {
      moduleCode: 'masterdata',
      functionCode: 'project',
      record: { code: second, name: 'Second project', nav_layout: 'left' },
    });
    const admin = await apiCall<{ uid: number; loginAccount: string; displayName: string; projectIds: number[] }>(server, token, '/user/findOne', { uid: 1 });
    expect(admin.loginAccount).toBe(ADMIN.loginAccount);
    await apiCall(server, token, '/user/save', { uid: admin.uid, loginAccount: admin.loginAccount, displayName: admin.displayName, projectIds: [...admin.projectIds, Number(project.row._key)] });

    // Copy in the designer to the second project, published.
    const page = await signedIn(browser, server, ADMIN, '/page/generic');
    await page.waitForSelector('[data-designer-root]');
    await page.getByTestId('designer-copy-stock/ownerLabels').click();
    await page.getByTestId('designer-copy-mode-projects').click();
    await page.getByTestId('designer-copy-projects').click();
    await page.locator('.ant-select-item-option').filter({ hasText: second }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('designer-copy-publish').click();
    await page.getByTestId('designer-copy-ok').click();
    await expect.poll(() => page.getByTestId('designer-copy-report').innerText()).toMatch(new RegExp(`${second}: stock/ownerLabels → stock/ownerLabels v1\\s*Published`));
    await page.getByTestId('designer-copy-ok').click();

    // In the second project: change the label's text and publish.
    await switchProject(page, server, second);
    await openInDesigner(page, server, 'stock/ownerLabels');
    await tab(page, 'texts').click();
    await fill(page, 'designer-text-OWNER_LABEL-en', 'Owner code in PRJ2');
    await page.getByTestId('designer-publish').click();
    await page.getByTestId('designer-publish-ok').click();
    await expect.poll(() => page.locator('[data-testid="designer-editor"] .ant-tag-green').filter({ hasText: /v\d+$/ }).innerText()).toContain('v2');

    // Each project sees its own label on the page.
    expect(await pageHeader(page, server, 'stock', 'ownerLabels')).toContain('Owner code in PRJ2');
    await switchProject(page, server, 'PRJ1');
    const prj1Header = await pageHeader(page, server, 'stock', 'ownerLabels');
    expect(prj1Header).toContain('Owner code');
    expect(prj1Header).not.toContain('PRJ2');

    // A rollback in the second project brings version 1 back, as version 3, on the page too.
    await switchProject(page, server, second);
    await openInDesigner(page, server, 'stock/ownerLabels');
    await tab(page, 'versions').click();
    await page.getByTestId('designer-rollback-1').click();
    await confirmPop(page, 'Publish version 1 again as a new version?');
    await expect.poll(() => page.locator('[data-testid="designer-versions"] tbody tr').count()).toBe(3);
    await expect.poll(() => page.locator('[data-testid="designer-editor"] .ant-tag-green').filter({ hasText: /v\d+$/ }).innerText()).toContain('v3');
    const rolledBack = await pageHeader(page, server, 'stock', 'ownerLabels');
    expect(rolledBack).toContain('Owner code');
    expect(rolledBack).not.toContain('PRJ2');
    await switchProject(page, server, 'PRJ1');
    await page.close();
  });

  it('refuses to publish again or delete a published version with the spec messages', async () => {
    const page = await signedIn(browser, server, ADMIN, '/page/generic');
    await openInDesigner(page, server, 'stock/ownerLabels');
    await tab(page, 'versions').click();
    await page.getByTestId('designer-version-publish-1').click();
    await confirmPop(page, 'Publish version 1?');
    await expect.poll(() => page.locator('.wms-popup-content').innerText()).toBe('This page configuration is already published or inactive and cannot be published again.');
    await page.locator('.wms-popup-ok').click();
    await page.locator('.wms-popup-content').waitFor({ state: 'detached' });
    await page.getByTestId('designer-version-delete-1').click();
    await confirmPop(page, 'Delete version 1?');
    await expect.poll(() => page.locator('.wms-popup-content').innerText()).toBe('This page configuration is already published or inactive and cannot be deleted.');
    await page.locator('.wms-popup-ok').click();
    // Nothing changed: version 1 is still the published one.
    await expect.poll(() => page.locator('[data-testid="designer-versions"] tbody tr').count()).toBe(1);
    expect(await page.locator('[data-testid="designer-editor"] .ant-tag-green').filter({ hasText: /v\d+$/ }).innerText()).toContain('v1');
    await page.close();
  });

  it('exports the definitions, dry-runs an edited copy listing the difference before anything changes, then imports it', async () => {
    const { token } = await login(server, ADMIN);
    const published = async () => {
      const answer = await fetch(`${server.url}api/generic/page?moduleCode=stock&functionCode=ownerLabels`, { headers: { authorization: `Bearer ${token}` } });
      const detail = (await answer.json()) as { versions: Array<{ version: number; status: string }>; working: { content: { fields: Array<{ name: string; length?: number }> } } };
      return { version: detail.versions.find((v) => v.status === 'published')?.version, length: detail.working.content.fields.find((f) => f.name === 'code')?.length };
    };
    expect(await published()).toEqual({ version: 1, length: 20 });

    const page = await signedIn(browser, server, ADMIN, '/page/generic');
    await page.waitForSelector('[data-designer-root]');
    await page.getByTestId('designer-transfer').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('designer-export').click()]);
    const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as { projectCode: string; files: Array<{ path: string; content: string }> };
    expect(exported.projectCode).toBe('PRJ1');
    const file = exported.files.find((f) => f.path === 'stock/ownerLabels.page.json')!;
    const doc = JSON.parse(file.content) as typeof labelPage;
    doc.fields[1].length = 60;
    file.content = JSON.stringify(doc, null, 2);
    const edited = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'designer-import-')), 'definitions-PRJ1.json');
    fs.writeFileSync(edited, JSON.stringify(exported));

    await page.locator('.ant-modal input[type="file"]').setInputFiles(edited);
    const row = page.locator('[data-testid="designer-import-items"] tr[data-row-key="stock/ownerLabels.page.json"]');
    await expect.poll(() => row.innerText()).toMatch(/\bchanged\b/);
    await row.locator('.ant-table-row-expand-icon').click();
    await expect.poll(() => page.getByTestId('designer-import-items').innerText()).toContain('/fields/code/length');
    expect(await page.getByTestId('designer-import-items').innerText()).toMatch(/20 → 60/);
    // The dry run changed nothing.
    expect(await published()).toEqual({ version: 1, length: 20 });

    await page.getByTestId('designer-import-ok').click();
    await page.locator('.ant-modal .ant-alert-success').waitFor();
    await expect.poll(() => published()).toEqual({ version: 2, length: 60 });
    await page.close();
  });
});

/**
 * Users and roles administered from the screens, in Chromium against the built app: an
 * administrator creates a role with a right on /role and a user on /user, grants it a project, two
 * warehouses and the role on the tabs of /user; the user signs in, switches warehouse in the header
 * and sees only that warehouse's locations; a bookmark opens in a new tab without the sign-in page.
 * The success message of a save goes away by itself.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REDUCED_MOTION, apiCall, apiSignIn, enginePage, engineRowTexts as rowTexts, engineToolbar as toolbar, eventually, openEnginePage, selectFirstEngineRow, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/** Finds one row by a searchable field and selects it, so that its sub-page tabs show. */
async function findAndSelect(page: Page, functionCode: string, field: string, value: string): Promise<void> {
  await enginePage(page, functionCode).locator(`#engine_search_${functionCode}_${field}`).fill(value);
  await enginePage(page, functionCode).getByTestId('engine-search-submit').click();
  await eventually(() => rowTexts(page, functionCode)).toEqual([expect.stringContaining(value)]);
  await selectFirstEngineRow(page, functionCode);
}

/** Chooses an option of a dropdown; a long list renders only what is in view, so the keys walk down to it. */
async function chooseOption(page: Page, inputId: string, optionTitle: string): Promise<void> {
  await page.locator(`.ant-select:has(#${inputId})`).click();
  const dropdown = page.locator('.ant-select-dropdown:visible');
  await dropdown.locator('.ant-select-item-option').first().waitFor();
  const option = dropdown.locator(`.ant-select-item-option[title="${optionTitle}"]`);
  for (let step = 0; step < 500 && (await option.count()) === 0; step += 1) await page.keyboard.press('ArrowDown');
  await option.click();
}

/** Saves the open form and waits until it closed (the save was accepted). */
async function save(page: Page): Promise<void> {
  await page.click('#engine-form-save');
  await page.locator('[data-testid="engine-form"]').waitFor({ state: 'detached', timeout: 30_000 });
}

/** Opens a tab of the selected user and its add form, and chooses what to grant. */
async function openGrantForm(page: Page, tab: string, functionCode: string, field: string, choice: string): Promise<void> {
  const subPages = enginePage(page, 'user').getByTestId('engine-subpages');
  await subPages.locator('.ant-tabs-tab').filter({ hasText: tab }).click();
  const child = subPages.locator(`[data-testid="engine-page"][data-function="${functionCode}"]`).first();
  await child.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-add').click();
  await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
  await chooseOption(page, `engine_${functionCode}_${field}`, choice);
}

/** Adds one grant row on a tab of the selected user: the tab, its add button, the choice, save. */
async function grantOnTab(page: Page, tab: string, functionCode: string, field: string, choice: string): Promise<void> {
  await openGrantForm(page, tab, functionCode, field, choice);
  await save(page);
  // The list shows the code of a choice read as "CODE - Name" in the dropdown.
  await eventually(() => rowTexts(page, functionCode)).toContainEqual(expect.stringContaining(choice.split(' - ')[0]));
}

describe('users and roles administered from the screens in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({}), { freshServerOnRetry: true });
  const password = 'Cl3rk!Second2026';

  it('an administrator makes a role and a user and grants a second warehouse; the user switches to it and sees only its locations', async () => {
    const server = e2e.server;
    // The second warehouse and locations in both, through the API as the administrator.
    const token = await apiSignIn(server);
    await apiCall(server, token, '/generic/adding', { moduleCode: 'masterdata', functionCode: 'whs', record: { code: 'WH2', name: 'Second warehouse' } });
    await apiCall(server, token, '/generic/adding', { moduleCode: 'masterdata', functionCode: 'loa', record: { code: 'A-01' } });
    await apiCall(server, token, '/user/whs', { code: 'WH2' });
    for (const code of ['B-01', 'B-02']) await apiCall(server, token, '/generic/adding', { moduleCode: 'masterdata', functionCode: 'loa', record: { code } });
    await apiCall(server, token, '/user/whs', { code: 'WH1' });

    const page = await signedInPage(e2e.browser, server, '/login');
    const context = page.context();
    await page.waitForURL(/#\/page/);

    // A role with the right to view master data.
    await openEnginePage(page, server, '/page/role', 'role');
    await toolbar(page, 'role').getByTestId('engine-add').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
    await page.fill('#engine_role_name', 'Floor clerks');
    await page.click('#engine-form-save');
    // The success message goes away by itself: nothing is clicked or pressed until it is gone.
    const toast = page.locator('.wms-toast').filter({ hasText: 'The record was added.' });
    await toast.first().waitFor({ timeout: 30_000 });
    expect(await page.locator('.wms-popup-message').count()).toBe(0);
    await toast.first().waitFor({ state: 'detached', timeout: 30_000 });

    await findAndSelect(page, 'role', 'name', 'Floor clerks');
    const rights = enginePage(page, 'role').getByTestId('engine-subpages').locator('[data-testid="engine-page"][data-function="rolePermission"]').first();
    await rights.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-add').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
    await chooseOption(page, 'engine_rolePermission_module_code', 'masterdata');
    await save(page);
    await eventually(() => rowTexts(page, 'rolePermission')).toEqual([expect.stringContaining('masterdata')]);

    // A user, and its grants on the tabs of /user.
    await openEnginePage(page, server, '/page/user', 'user');
    await toolbar(page, 'user').getByTestId('engine-add').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
    await page.fill('#engine_user_login_account', 'clerk.two');
    await page.fill('#engine_user_display_name', 'Second warehouse clerk');
    await page.fill('#engine_user_password', password);
    await save(page);
    await findAndSelect(page, 'user', 'login_account', 'clerk.two');
    await grantOnTab(page, 'Projects', 'userProject', 'project_id', 'PRJ1 - Main project');
    await grantOnTab(page, 'Warehouses', 'userWarehouse', 'warehouse_id', 'WH1 - Main warehouse');
    await grantOnTab(page, 'Warehouses', 'userWarehouse', 'warehouse_id', 'WH2 - Second warehouse');
    await grantOnTab(page, 'Roles', 'userRole', 'role_id', 'Floor clerks');
    // A second grant of the same warehouse is refused with its own message, and nothing is added.
    await openGrantForm(page, 'Warehouses', 'userWarehouse', 'warehouse_id', 'WH2 - Second warehouse');
    await page.click('#engine-form-save');
    await eventually(() => page.locator('[data-testid="engine-form"]').innerText()).toContain('The user already holds this grant.');
    await page.locator('.ant-modal:has([data-testid="engine-form"]) .ant-modal-footer button:not(#engine-form-save)').click();
    await context.close();

    // The user signs in, switches to the second warehouse in the header and sees only its locations.
    const userContext = await e2e.browser.newContext({ ...REDUCED_MOTION, viewport: { width: 1600, height: 1000 } });
    try {
      const own = await userContext.newPage();
      await own.goto(`${server.url}#/page/loa`);
      await own.waitForURL(/#\/login/);
      await own.fill('#login_loginAccount', 'clerk.two');
      await own.fill('#login_password', password);
      await own.press('#login_password', 'Enter');
      await own.waitForURL(/#\/page\/loa/);
      await enginePage(own, 'loa').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
      await eventually(() => rowTexts(own, 'loa')).toEqual([expect.stringContaining('A-01')]);
      await own.getByTestId('warehouse-switcher').click();
      await own.locator('.ant-select-item-option').filter({ hasText: 'WH2' }).click();
      await eventually(async () => (await rowTexts(own, 'loa')).map((text) => text.split(/\s+/)[0]).sort()).toEqual(['B-01', 'B-02']);

      // A bookmark opened in a new tab of the same browser: no sign-in page.
      const bookmark = await userContext.newPage();
      await bookmark.goto(`${server.url}#/page/loa`);
      await enginePage(bookmark, 'loa').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
      expect(bookmark.url()).toMatch(/#\/page\/loa/);
      expect(await bookmark.locator('#login_password').count()).toBe(0);
      await eventually(async () => (await rowTexts(bookmark, 'loa')).map((text) => text.split(/\s+/)[0]).sort()).toEqual(['B-01', 'B-02']);
    } finally {
      await userContext.close();
    }
  });
});

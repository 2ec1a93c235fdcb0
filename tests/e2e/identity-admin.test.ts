/**
 * Users administered from the user list in Chromium against the built app: the "New user" dialog
 * makes an account with its grants in one step (the user signs in to the administrator's project and
 * warehouse), Disable on two selected users keeps both out, Sign out now ends a signed-in user's
 * session (its next call answers 401), and a role's "Enabled users" tab lists who holds it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiSignIn, enginePage, engineRows as rows, engineRowTexts as rowTexts, engineToolbar as toolbar, eventually, selectFirstEngineRow, signedInPage, toastShown, useServerAndBrowser, type E2eServer } from '../helpers/browser.js';

/** Searches the list by a field and waits for `count` rows. */
async function search(page: Page, functionCode: string, field: string, value: string, count: number): Promise<void> {
  await enginePage(page, functionCode).locator(`#engine_search_${functionCode}_${field}`).fill(value);
  await enginePage(page, functionCode).getByTestId('engine-search-submit').click();
  await eventually(async () => (await rowTexts(page, functionCode)).filter((text) => text.includes(value)).length).toBe(count);
  await eventually(async () => (await rowTexts(page, functionCode)).length).toBe(count);
}

/** Runs a behaviour of the user list and accepts its confirmation once it shows `expected`. */
async function runConfirmed(page: Page, code: string, expected: string): Promise<void> {
  const confirm = page.locator('.wms-popup-confirm.wms-popup-top');
  await toolbar(page, 'user').getByTestId(`engine-behaviour-${code}`).click();
  await eventually(() => confirm.innerText()).toContain(expected);
  await eventually(() => confirm.locator('.ant-modal').getAttribute('class')).not.toMatch(/zoom/);
  await confirm.locator('.wms-popup-ok').click();
  await confirm.waitFor({ state: 'detached' });
}

async function signInAnswer(server: E2eServer, loginAccount: string, password: string): Promise<number> {
  const response = await fetch(new URL('api/user/login', server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ loginAccount, password }) });
  return response.status;
}

async function statusAnswer(server: E2eServer, token: string): Promise<number> {
  return (await fetch(new URL('api/user/status', server.url), { headers: { authorization: `Bearer ${token}` } })).status;
}

describe('users administered from the user list in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({}), { freshServerOnRetry: true });
  const password = 'Dial0g!Made2026';

  it('creates a user in one dialog, disables two at once, signs one out and shows a role its users', async () => {
    const server = e2e.server;
    const admin = await apiSignIn(server);
    const role = await apiCall<{ row: { _key: number } }>(server, admin, '/generic/adding', { moduleCode: 'identity', functionCode: 'role', record: { name: 'Dockers' } });
    const page = await signedInPage(e2e.browser, server, '/page/user', { logToasts: true });
    await enginePage(page, 'user').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });

    // New user: one dialog, the grants defaulting to the administrator's project and warehouse.
    await toolbar(page, 'user').getByTestId('identity-new-user').click();
    const dialog = page.locator('.ant-modal:has([data-testid="identity-new-user-form"])');
    await dialog.waitFor();
    await eventually(() => dialog.locator('.ant-select:has([id="projectIds"]) .ant-select-selection-item').allInnerTexts()).toEqual([expect.stringContaining('PRJ1')]);
    await eventually(() => dialog.locator('.ant-select:has([id="warehouseIds"]) .ant-select-selection-item').allInnerTexts()).toEqual([expect.stringContaining('WH1')]);
    await page.getByTestId('identity-new-user-login').fill('dock.one');
    await page.getByTestId('identity-new-user-name').fill('Dock checker one');
    await page.getByTestId('identity-new-user-email').fill('dock.one@example.com');
    await page.getByTestId('identity-new-user-password').fill('short');
    await eventually(() => dialog.innerText()).toContain('The password needs');
    await page.getByTestId('identity-new-user-password').fill(password);
    await dialog.locator('.ant-select:has([id="roleIds"])').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Dockers' }).click();
    await page.keyboard.press('Escape');
    await page.click('#identity-new-user-ok');
    await eventually(() => page.getByTestId('identity-new-user-saved').innerText()).toContain('User dock.one was created.');
    await page.getByTestId('identity-new-user-open').click();
    await eventually(() => rowTexts(page, 'user')).toEqual([expect.stringContaining('dock.one')]);
    // The link's filter is dropped for what follows.
    await enginePage(page, 'user').getByTestId('engine-fixed-filter').locator('.ant-tag-close-icon').click();
    await enginePage(page, 'user').getByTestId('engine-fixed-filter').waitFor({ state: 'detached' });

    const dockOne = await apiSignIn(server, { loginAccount: 'dock.one', password });
    const status = await apiCall<{ project: { code: string } | null; warehouse: { code: string } | null }>(server, dockOne, '/user/status');
    expect([status.project?.code, status.warehouse?.code]).toEqual(['PRJ1', 'WH1']);

    // Two users disabled in one batch: neither can sign in.
    for (const login of ['e2e-off-1', 'e2e-off-2']) {
      await apiCall(server, admin, '/user/save', { loginAccount: login, displayName: login, password, projectIds: [1], warehouseIds: [1] });
    }
    expect(await signInAnswer(server, 'e2e-off-1', password)).toBe(200);
    await search(page, 'user', 'login_account', 'e2e-off', 2);
    await rows(page, 'user').first().click();
    await rows(page, 'user').nth(1).click({ modifiers: ['Shift'] });
    await eventually(() => toolbar(page, 'user').getByTestId('engine-total').innerText()).toContain('2 selected');
    await runConfirmed(page, 'disable', '2 user(s) will be disabled.');
    await toastShown(page, '2 user(s) disabled.');
    expect(await signInAnswer(server, 'e2e-off-1', password)).not.toBe(200);
    expect(await signInAnswer(server, 'e2e-off-2', password)).not.toBe(200);

    // Sign out now: the signed-in user's next call answers 401.
    expect(await statusAnswer(server, dockOne)).toBe(200);
    await search(page, 'user', 'login_account', 'dock.one', 1);
    await selectFirstEngineRow(page, 'user');
    await runConfirmed(page, 'signOut', '1 user(s) will be signed out.');
    await toastShown(page, '1 user(s) signed out');
    expect(await statusAnswer(server, dockOne)).toBe(401);

    // The role's tab of enabled users lists the new user.
    await page.goto(`${server.url}#/page/role`);
    await enginePage(page, 'role').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    await search(page, 'role', 'name', 'Dockers', 1);
    await rows(page, 'role').first().click();
    const subPages = enginePage(page, 'role').getByTestId('engine-subpages');
    await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Enabled users' }).click();
    await eventually(() => rowTexts(page, 'roleUser')).toEqual([expect.stringContaining('dock.one')]);
    expect(role.row._key).toBeGreaterThan(0);
    await page.context().close();
  });

  it("shows a selected user's grant tabs and their Add button without scrolling at 1440x900", async () => {
    const page = await signedInPage(e2e.browser, e2e.server, '/page/user', { viewport: { width: 1440, height: 900 } });
    await rows(page, 'user').first().waitFor({ timeout: 60_000 });
    // The user list's row is some 5,000 px wide: a click at its middle would first scroll the grid
    // sideways, and the cells it paints anew can take the click from the row. The row is clicked in
    // its first cell, in view, once the list has its count.
    const total = toolbar(page, 'user').getByTestId('engine-total');
    await eventually(() => total.innerText()).toMatch(/\d+ records/);
    await selectFirstEngineRow(page, 'user');
    const subPages = enginePage(page, 'user').getByTestId('engine-subpages');
    const tabs = subPages.locator('.ant-tabs-tab');
    await eventually(() => tabs.count()).toBe(4);
    for (const tab of await tabs.all()) expect(((await tab.boundingBox())?.y ?? Infinity) + 20).toBeLessThanOrEqual(900);
    const add = subPages.locator('[data-testid="engine-page"]').first().locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-add');
    await add.waitFor();
    const box = (await add.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    await page.context().close();
  });
});

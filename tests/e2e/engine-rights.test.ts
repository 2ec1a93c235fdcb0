import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiSignIn, eventually, selectFirstEngineRow, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * The engine offers only what the signed-in user may open or run: a refused call ends the session
 * in this client, so a sub-page tab without the view right of its page, or a behaviour whose action
 * needs a right the user lacks, is not shown. Users hold the wave page (with a demonstration wave
 * of two orders and its pick tasks) but not all of its sub-pages.
 */
describe('engine pages show only what the user may open', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);

  const grid = (page: Page, functionCode: string) => page.locator(`[data-testid="engine-page"][data-function="${functionCode}"]`).first();
  const toolbar = (page: Page, functionCode: string) => grid(page, functionCode).locator(':scope > [data-testid="engine-toolbar"]');
  const rows = (page: Page, functionCode: string) => grid(page, functionCode).locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)');
  const opened = async (page: Page, functionCode: string) => grid(page, functionCode).locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });

  /** A user of the admin session's project and warehouse with one role of these page rights. */
  async function userWith(login: string, permissions: Array<Record<string, unknown>>): Promise<{ loginAccount: string; password: string }> {
    const status = await call<{ project: { id: number }; warehouse: { id: number } }>('/user/status');
    const role = await call<{ id: number }>('/role', { name: `${login} role`, permissions });
    const password = 'Us3r!Passw0rd';
    await call('/user/save', { loginAccount: login, displayName: login, password, projectIds: [status.project.id], warehouseIds: [status.warehouse.id], roleIds: [role.id] });
    return { loginAccount: login, password };
  }

  /** Signs the user in on the wave page, records every sub-page the browser asks to open, and selects the first wave. */
  async function waveSelected(account: { loginAccount: string; password: string }): Promise<{ page: Page; openedPages: string[] }> {
    const page = await signedInPage(e2e.browser, e2e.server, '/page/wave', { account });
    const openedPages: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/api/generic/module/view')) openedPages.push(`${url.searchParams.get('moduleCode')}/${url.searchParams.get('functionCode')}`);
    });
    await opened(page, 'wave');
    await eventually(() => rows(page, 'wave').count()).toBeGreaterThan(0);
    await selectFirstEngineRow(page, 'wave');
    return { page, openedPages };
  }

  it('shows only the tab of the sub-page the user may view, and no behaviour whose action right he lacks', async () => {
    token = await apiSignIn(e2e.server);
    const planner = await userWith('wave-tasks-only', [
      { module: 'outbound', subModule: 'wave', view: true, edit: true },
      { module: 'outbound', subModule: 'pickTask', view: true },
    ]);
    const { page, openedPages } = await waveSelected(planner);
    const tabs = grid(page, 'wave').getByTestId('engine-subpages').locator('.ant-tabs-tab');
    await eventually(() => tabs.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node-key')))).toEqual(['tasks']);
    // The one tab left is the active one: the wave's pick tasks load under the user's session.
    await eventually(() => rows(page, 'pickTask').count()).toBeGreaterThan(0);
    expect(openedPages).not.toContain('outbound/so');
    // Setting the reference needs the wave's edit right, which he holds; releasing needs the release verb, which he does not.
    await toolbar(page, 'wave').getByTestId('engine-behaviour-batchUpdateRef').waitFor();
    expect(await toolbar(page, 'wave').getByTestId('engine-behaviour-release').count()).toBe(0);
    expect(await toolbar(page, 'wave').getByTestId('engine-behaviour-unwave').count()).toBe(0);
    expect(page.url()).toContain('#/page/wave');
    await page.context().close();
  });

  it('shows no tab at all to a user without the view right of any sub-page, who stays signed in', async () => {
    token = await apiSignIn(e2e.server);
    const viewer = await userWith('wave-viewer', [{ module: 'outbound', subModule: 'wave', view: true }]);
    const { page, openedPages } = await waveSelected(viewer);
    expect(await grid(page, 'wave').getByTestId('engine-subpages').count()).toBe(0);
    expect(await toolbar(page, 'wave').locator('[data-testid^="engine-behaviour-"]').count()).toBe(0);
    // Still signed in: the page opens again from the stored session, not the sign-in page.
    await page.reload();
    await opened(page, 'wave');
    expect(page.url()).toContain('#/page/wave');
    expect(await page.locator('#login_loginAccount').count()).toBe(0);
    expect(openedPages.filter((opened) => opened !== 'outbound/wave')).toEqual([]);
    await page.context().close();
  });
});

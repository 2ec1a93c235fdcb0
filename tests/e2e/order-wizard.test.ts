import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * Both order wizards in Chromium: the first two steps filled, the browser closed, signed in again:
 * the wizard resumes at step three with the same data (back to step two shows the item); the last
 * steps filled and submitted: a sales order with its line, found on the /so page.
 */
describe('order wizards in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  const run = `${Date.now()}`.slice(-7);

  /**
   * Opens the select, waits for its choices and only then types: a click that lands while the page
   * is still being drawn opens nothing (it clicks again), and keys typed before the list is open are lost.
   */
  async function choose(page: Page, testId: string, text: string) {
    const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
    await eventually(async () => {
      if ((await options.count()) === 0) await page.getByTestId(testId).click();
      return options.count();
    }).toBeGreaterThan(0);
    await page.keyboard.type(text);
    await options.filter({ hasText: text }).first().click();
  }
  const stepTitle = (page: Page) => page.getByTestId('wizard-step').textContent();
  /** The text box of a field, whether the test id sits on the box or on its wrapper. */
  const box = (page: Page, testId: string) => page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();

  for (const kind of ['wine', 'nonMer'] as const) {
    it(`${kind}: resumes at step three after the browser is closed, and submits a sales order`, async () => {
      const token = await apiSignIn(e2e.server);
      const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);
      const owner = (await apiSelection<{ _key: number; code: string }>(e2e.server, token, 'masterdata', 'ogr'))[0];
      const sku = `WZ-${kind}-${run}`;
      const carrier = `WZC-${kind}-${run}`;
      await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: sku, owner_id: owner._key, description: `Wizard item ${kind}`, base_uom: 'EA', gift: kind === 'nonMer' } });
      await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'partner', record: { partner_type: 'carrier', code: carrier, name: `Courier ${run}` } });
      await call(kind === 'wine' ? '/inv/wine/clearTemp' : '/inv/nonMer/resetTempOrder', {});

      const route = kind === 'wine' ? 'wineOrder' : 'nonMerOrder';
      let page = await signedInPage(e2e.browser, e2e.server, `/page/${route}`, { viewport: { width: 1440, height: 900 } });
      await page.getByTestId(`wizard-${kind}`).waitFor({ timeout: 60_000 });
      expect(await stepTitle(page)).toContain('Step 1 of 5');
      await choose(page, 'wizard-owner', owner.code);
      await page.getByTestId('wizard-ship-to-name').fill(`Wizard customer ${run}`);
      await page.getByTestId('wizard-address-en').fill('8 Cellar Lane, Kowloon');
      // Enter in a field goes on to the next step.
      await page.getByTestId('wizard-address-en').press('Enter');
      await eventually(() => stepTitle(page)).toContain('Step 2 of 5');

      await box(page, 'wizard-item-search').fill(sku);
      await box(page, 'wizard-item-search').press('Enter');
      await page.getByTestId(`wizard-add-${sku}`).click();
      await box(page, `wizard-qty-${sku}`).fill('3');
      await page.getByTestId('wizard-next').click();
      await eventually(() => stepTitle(page)).toContain('Step 3 of 5');

      // The browser is closed; the user signs in again in a new one.
      await page.context().close();
      page = await signedInPage(e2e.browser, e2e.server, `/page/${route}`, { viewport: { width: 1440, height: 900 } });
      await page.getByTestId('wizard-resumed').waitFor({ timeout: 60_000 });
      expect(await stepTitle(page)).toContain('Step 3 of 5');
      await page.getByTestId('wizard-back').click();
      await eventually(() => stepTitle(page)).toContain('Step 2 of 5');
      await expect.poll(() => box(page, `wizard-qty-${sku}`).inputValue()).toBe('3');
      await page.getByTestId('wizard-next').click();
      await eventually(() => stepTitle(page)).toContain('Step 3 of 5');

      await choose(page, 'wizard-courier', carrier);
      await page.getByTestId('wizard-vas').getByText('Gift wrapping').click();
      await page.getByTestId('wizard-next').click();
      await eventually(() => stepTitle(page)).toContain('Step 4 of 5');
      await page.getByTestId('wizard-ship-date').fill('2099-12-31');
      await page.getByTestId('wizard-next').click();
      await eventually(() => stepTitle(page)).toContain('Step 5 of 5');
      await expect.poll(() => page.getByTestId('wizard-review').textContent()).toContain(`Wizard customer ${run}`);
      await page.getByTestId('wizard-submit').click();
      const done = page.getByTestId('wizard-submitted');
      await done.waitFor({ timeout: 30_000 });
      const orderNo = /Order (\S+) created/.exec((await done.textContent()) ?? '')![1];

      // The order is on the /so page, with its line.
      const so = await signedInPage(e2e.browser, e2e.server, '/page/so', { viewport: { width: 1440, height: 900 } });
      const grid = so.locator('[data-testid="engine-page"][data-function="so"]').first();
      await grid.locator('#engine_search_so_order_no').fill(orderNo);
      await grid.getByTestId('engine-search-submit').click();
      await grid.locator('.ag-row:not(.ag-row-loading)').filter({ hasText: orderNo }).first().waitFor({ timeout: 60_000 });
      const [order] = await apiSelection<{ _key: number; order_no: string; remark: string | null }>(e2e.server, token, 'outbound', 'so', [{ field: 'order_no', operator: '=', value: orderNo }]);
      expect(order.order_no).toBe(orderNo);
      expect(order.remark).toContain('GIFTWRAP');
      const lines = await call<{ rows: Array<{ qty: string }> }>('/generic/tab', { moduleCode: 'outbound', functionCode: 'so', subPage: 'lines', parentKey: order._key, page: 1, pageSize: 10 });
      expect(lines.rows.map((l) => Number(l.qty))).toEqual([3]);
      await so.context().close();
      await page.context().close();
    });
  }
});

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ReportPageAnswer, ReportSpec } from '../../src/common/report-api.js';
import { apiCall, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

const labels = (en: string) => ({ en, zh: en, zh_tw: en, th: en, kor: en, jp: en });
const PASSWORD = 'Dashboard-e2e-1!';

/**
 * The start pages in Chromium: the home page draws its charts from the same figures the API gives,
 * and a configurator composes the project's dashboard (/blankHome) of three report widgets (a
 * number, a chart and a table) in the browser, without code, and publishes it. The project's users
 * see it; a user of another project sees an empty dashboard.
 */
describe('home charts and the configured dashboard in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  const run = `${Date.now()}`.slice(-7);

  /** Opens the antd select of `testId` and clicks the option whose label is `text`. */
  async function choose(page: Page, testId: string, text: string) {
    await page.getByTestId(testId).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
  }

  it('home page: stock by owner, activity and open work are drawn from the API figures', async () => {
    const token = await apiSignIn(e2e.server);
    const activity = await apiCall<{ owners: Array<{ owner: string; onHand: string }> }>(e2e.server, token, `/inventory/activity?timeZone=UTC`);
    expect(activity.owners.length).toBeGreaterThan(0);
    const page = await signedInPage(e2e.browser, e2e.server, '/page/home');
    try {
      const owners = page.getByTestId('home-chart-owners');
      await owners.waitFor({ timeout: 60_000 });
      expect((await owners.getAttribute('data-owners'))?.split(' ').sort()).toEqual(activity.owners.map((o) => `${o.owner}:${o.onHand}`).sort());
      // echarts draws SVG: one pie slice per owner, each named in the chart.
      const pie = page.getByTestId('home-chart-owners-canvas');
      await eventually(() => pie.locator('svg path').count()).toBeGreaterThanOrEqual(activity.owners.length);
      for (const o of activity.owners) await eventually(() => pie.locator('svg text', { hasText: o.owner }).count()).toBeGreaterThan(0);
      await page.getByTestId('home-chart-work').waitFor();
      await eventually(() => page.getByTestId('home-chart-work-canvas').locator('svg path').count()).toBeGreaterThan(0);
    } finally {
      await page.context().close();
    }
  });

  it('a dashboard of three widgets composed and published in the browser shows to its project only', async () => {
    const admin = await apiSignIn(e2e.server);
    const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, admin, path, body);
    const report = async (code: string, spec: ReportSpec) => {
      const saved = await call<{ id: number }>('/report/generic/save', { code, names: labels(code), displayOrder: 1, draft: spec });
      await call('/report/generic/publish', { id: saved.id });
      return saved.id;
    };
    const qty = { name: 'qty', labels: labels('Quantity'), type: 'number' as const, decimals: 0 };
    const skuCount = `DB-SKUS-${run}`;
    const byOwner = `DB-OWNERS-${run}`;
    const stock = `DB-STOCK-${run}`;
    const countId = await report(skuCount, { sql: 'select count(*) as skus from sku', params: [], columns: [{ name: 'skus', labels: labels('SKUs'), type: 'number', decimals: 0 }] });
    const ownerId = await report(byOwner, {
      sql: 'select o.code as owner, sum(b.on_hand_qty) as qty from inventory_balance b join owner o on o.id = b.owner_id group by o.code order by o.code',
      params: [],
      columns: [{ name: 'owner', labels: labels('Owner'), type: 'text' }, qty],
    });
    const stockId = await report(stock, {
      sql: 'select s.code as sku, b.on_hand_qty as qty from inventory_balance b join sku s on s.id = b.sku_id order by s.code, b.id',
      params: [],
      columns: [{ name: 'sku', labels: labels('SKU'), type: 'text' }, qty],
    });
    // What each report answers the project: the widgets must show the same.
    const runOf = (id: number) => call<ReportPageAnswer>('/report/generic/run', { id, pageSize: 100 });
    const skus = String((await runOf(countId)).rows[0].skus);
    const owners = (await runOf(ownerId)).rows.map((r) => String(r.owner));
    expect(owners.length).toBeGreaterThan(0);
    const stockRows = (await runOf(stockId)).rows;
    expect(stockRows.length).toBeGreaterThan(0);

    const page = await signedInPage(e2e.browser, e2e.server, '/page/blankHome');
    try {
      await page.getByTestId('dashboard-edit').click();
      await page.getByTestId('dashboard-editor').waitFor();
      const widgets: Array<{ kind: string; report: string; title: string; value?: string; label?: string }> = [
        { kind: 'number', report: skuCount, title: `SKUs ${run}`, value: 'SKUs' },
        { kind: 'chart', report: byOwner, title: `By owner ${run}`, value: 'Quantity', label: 'Owner' },
        { kind: 'table', report: stock, title: `Stock ${run}` },
      ];
      for (const [i, w] of widgets.entries()) {
        await page.getByTestId('widget-add').click();
        await choose(page, `widget-kind-${i}`, w.kind);
        await choose(page, `widget-report-${i}`, w.report);
        await page.getByTestId(`widget-title-${i}`).fill(w.title);
        if (w.value) await choose(page, `widget-value-${i}`, w.value);
        if (w.label) await choose(page, `widget-label-${i}`, w.label);
      }
      await page.getByTestId('dashboard-publish').click();
      await page.locator('.wms-popup-ok').click();
      await page.getByTestId('dashboard-editor').waitFor({ state: 'detached' });

      // The published dashboard, as the project's users see it after a reload.
      await page.reload();
      const number = page.getByTestId('widget-number');
      await number.waitFor({ timeout: 60_000 });
      expect(await number.innerText()).toContain(`SKUs ${run}`);
      expect((await number.locator('.ant-statistic-content').innerText()).replace(/[^\d]/g, '')).toBe(skus);
      const chart = page.getByTestId('chart-widget');
      for (const owner of owners) await eventually(() => chart.locator('svg text', { hasText: owner }).count()).toBeGreaterThan(0);
      const table = page.getByTestId('widget-table');
      expect(await table.innerText()).toContain(`Stock ${run}`);
      await eventually(() => table.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(Math.min(10, stockRows.length));
      expect(await table.locator('.ant-table-tbody tr.ant-table-row').first().innerText()).toContain(String(stockRows[0].sku));
    } finally {
      await page.context().close();
    }

    // A user of another project: the dashboard stays empty for them, in the browser and the API.
    const project = await call<{ row: { _key: number | string } }>('/generic/adding', {
      moduleCode: 'masterdata',
      functionCode: 'project',
      record: { code: `DBP${run}`, name: 'Other project', nav_layout: 'left' },
    });
    const status = await call<{ warehouse: { id: number } }>('/user/status');
    const role = await call<{ id: number }>('/role', { name: `Dashboard readers ${run}`, permissions: [{ module: 'report', view: true }] });
    const other = { loginAccount: `dash-${run}`, password: PASSWORD };
    await call('/user/save', { ...other, displayName: other.loginAccount, projectIds: [Number(project.row._key)], warehouseIds: [status.warehouse.id], roleIds: [role.id] });
    const otherToken = await apiSignIn(e2e.server, other);
    expect((await apiCall<{ widgets: unknown[] }>(e2e.server, otherToken, '/report/dashboard/get', {})).widgets).toHaveLength(0);
    const otherPage = await signedInPage(e2e.browser, e2e.server, '/page/blankHome', { account: other });
    try {
      await otherPage.getByTestId('dashboard').locator('.ant-empty').waitFor({ timeout: 60_000 });
      expect(await otherPage.getByTestId('widget-number').count()).toBe(0);
      expect(await otherPage.getByTestId('dashboard-edit').count()).toBe(0);
    } finally {
      await otherPage.context().close();
    }
  });
});

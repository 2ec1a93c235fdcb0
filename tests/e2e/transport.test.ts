import ExcelJS from 'exceljs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RoutesAnswer } from '../../src/common/transport-api.js';
import { apiCall, apiSignIn, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * The route planner in Chromium with the network limited to the app (every request to another host
 * is aborted): delivery orders are imported from an xlsx (a bad row is shown with its number, then a
 * good file), three are dragged onto a new route with the mouse, a stop is dragged into another
 * place, the route is split at a stop and merged back, confirmed (a drag onto it is refused by the
 * server and shown), unconfirmed, and the map draws the route on the plain coordinate canvas.
 */
describe('route planner in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  const run = `${Date.now()}`.slice(-8);
  const dir = mkdtempSync(join(tmpdir(), 'tms-e2e-'));
  const DO = (n: number) => `E2E-DO-${run}-${n}`;

  async function xlsx(name: string, rows: unknown[][]): Promise<string> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('DO');
    for (const row of rows) sheet.addRow(row);
    const file = join(dir, name);
    writeFileSync(file, Buffer.from(await workbook.xlsx.writeBuffer()));
    return file;
  }

  /** Drags one element onto another with the mouse, in small steps as a hand does. */
  async function drag(page: Page, from: Locator, to: Locator) {
    const a = (await from.boundingBox())!;
    await page.mouse.move(a.x + 20, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + 30, a.y + a.height / 2, { steps: 3 });
    const b = (await to.boundingBox())!;
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await page.mouse.move(b.x + b.width / 2 + 2, b.y + b.height / 2 + 2, { steps: 2 });
    await page.mouse.up();
  }

  const stopsOf = (route: Locator) => route.locator('[data-testid^="tms-stop-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace('tms-stop-', '')));

  it('imports, plans, reorders, splits, merges, confirms and maps a route offline', async () => {
    const token = await apiSignIn(e2e.server);
    const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);
    await call('/generic/adding', { moduleCode: 'transport', functionCode: 'vehicle', record: { plate_no: `E2E-${run}`, capacity_weight_kg: 250, capacity_volume_m3: 20, capacity_pallets: 2, active: true } });

    const page = await signedInPage(e2e.browser, e2e.server, '/page/doOrders', { viewport: { width: 1440, height: 900 } });
    const app = new URL(e2e.server.url);
    const aborted: string[] = [];
    await page.context().route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === app.hostname || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
      aborted.push(url.href);
      return route.abort('internetdisconnected');
    });
    await page.getByTestId('tms-planner').waitFor({ timeout: 30_000 });

    // A file with a bad row (no customer): its row is shown and nothing is imported.
    const header = ['DO No', 'Customer', 'City', 'Latitude', 'Longitude', 'Weight kg', 'Volume m3', 'Pallets'];
    const good = [
      [DO(1), 'Alpha Mart', 'Bangkok', 13.80, 100.55, 100, 1, 1],
      [DO(2), 'Beta Shop', 'Bangkok', 13.70, 100.60, 100, 1, 1],
      [DO(3), 'Gamma Store', 'Nonthaburi', 13.86, 100.51, 100, 1, 1],
      [DO(4), 'Delta Kiosk', 'Bangkok', 13.72, 100.52, 10, 1, 1],
    ];
    await page.getByTestId('tms-import-file').setInputFiles(await xlsx('bad.xlsx', [header, good[0], [DO(9), '', 'Bangkok', 13.7, 100.5, 1, 1, 1]]));
    await page.getByTestId('tms-import-errors').waitFor();
    expect(await page.getByTestId('tms-import-errors').innerText()).toContain('Row 3: customer is required.');
    expect(await page.getByTestId(`tms-do-${DO(1)}`).count()).toBe(0);
    await page.getByTestId('tms-import-file').setInputFiles(await xlsx('good.xlsx', [header, ...good]));
    await page.getByTestId(`tms-do-${DO(4)}`).waitFor();
    expect(await page.getByTestId('tms-import-errors').count()).toBe(0);

    // A new route with the vehicle.
    await page.getByTestId('tms-new-route').click();
    await page.getByTestId('tms-vehicle').click();
    await page.locator(`.ant-select-item-option[title^="E2E-${run}"]`).click();
    await page.getByTestId('tms-route-save').click();
    const routes = page.locator('[data-status]');
    await routes.first().waitFor();
    const routeNo = (await routes.first().getAttribute('data-testid'))!.replace('tms-route-', '');
    const route = page.getByTestId(`tms-route-${routeNo}`);

    // Three delivery orders dragged onto it with the mouse.
    for (const n of [1, 2, 3]) {
      await drag(page, page.getByTestId(`tms-do-${DO(n)}`), route);
      await route.getByTestId(`tms-stop-${DO(n)}`).waitFor();
    }
    expect(await stopsOf(route)).toEqual([DO(1), DO(2), DO(3)]);
    // Over the vehicle's 2 pallets and 250 kg: warned.
    await route.getByTestId('tms-over-capacity').waitFor();

    // The third stop dragged onto the first goes first.
    await drag(page, route.getByTestId(`tms-stop-${DO(3)}`), route.getByTestId(`tms-stop-${DO(1)}`));
    await expect.poll(() => stopsOf(route)).toEqual([DO(3), DO(1), DO(2)]);

    // Split at the second stop, then merge the new route back.
    await route.getByTestId(`tms-split-${DO(1)}`).click();
    await expect.poll(() => routes.count()).toBe(2);
    await expect.poll(() => stopsOf(route)).toEqual([DO(3)]);
    const newRouteNo = (await routes.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace('tms-route-', '')))).find((no) => no !== routeNo)!;
    expect(await stopsOf(page.getByTestId(`tms-route-${newRouteNo}`))).toEqual([DO(1), DO(2)]);
    await route.getByTestId('tms-merge-from').click();
    await page.locator(`.ant-select-item-option[title="${newRouteNo}"]`).click();
    await route.getByTestId('tms-merge').click();
    await expect.poll(() => routes.count()).toBe(1);
    await expect.poll(() => stopsOf(route)).toEqual([DO(3), DO(1), DO(2)]);

    // Confirmed after a question: a drag onto it is refused by the server, and shown.
    await route.getByTestId('tms-confirm').click();
    await page.locator('[data-popup-id="tms-confirm-route"]').waitFor();
    await page.locator('.wms-popup-ok').click();
    await expect.poll(() => route.getAttribute('data-status')).toBe('confirmed');
    await drag(page, page.getByTestId(`tms-do-${DO(4)}`), route);
    await page.getByTestId('tms-message-error').waitFor();
    expect(await page.getByTestId('tms-message-error').innerText()).toContain(`Route ${routeNo} is confirmed`);
    expect(await stopsOf(route)).toEqual([DO(3), DO(1), DO(2)]);
    await page.getByTestId(`tms-do-${DO(4)}`).waitFor();
    const onServer = await call<RoutesAnswer>('/tms/getRoutes', { ids: [Number((await call<RoutesAnswer>('/tms/getRoutes', {})).routes.find((r) => r.routeNo === routeNo)!.id)] });
    expect(onServer.routes[0].stops.map((s) => s.doNo)).toEqual([DO(3), DO(1), DO(2)]);

    // Unconfirmed: open again, and a drag is taken.
    await route.getByTestId('tms-unconfirm').click();
    await expect.poll(() => route.getAttribute('data-status')).toBe('open');
    await drag(page, page.getByTestId(`tms-do-${DO(4)}`), route);
    await route.getByTestId(`tms-stop-${DO(4)}`).waitFor();

    // The map: no tile server set, so a plain canvas with the route's line and its four stops, offline.
    await page.getByTestId('tms-map-toggle').click();
    const map = page.getByTestId('tms-map');
    await map.waitFor();
    expect(await map.getAttribute('data-tiles')).toBe('canvas');
    await map.locator(`path.tms-line-${routeNo}`).waitFor();
    await expect.poll(() => map.locator('path.tms-stop-marker').count()).toBeGreaterThanOrEqual(4);
    expect(await map.locator('img.leaflet-tile').count()).toBe(0);
    expect(aborted).toEqual([]);
    await page.close();
  });

  it('shows the planner on a phone', async () => {
    const page = await signedInPage(e2e.browser, e2e.server, '/page/doOrders', { viewport: { width: 360, height: 640 } });
    await page.getByTestId('tms-planner').waitFor({ timeout: 30_000 });
    const width = await page.getByTestId('tms-unplanned').evaluate((e) => e.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(360);
    await page.close();
  });
});

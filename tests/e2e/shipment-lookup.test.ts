import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiSelection, apiSignIn, eventually, popupText, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { startFakeCarrier, type FakeCarrier } from '../helpers/fake-carrier.js';

/**
 * The /shipment page's toolbar in Chromium, the carrier played by a local HTTP server: the selected
 * shipment is booked, then looked up at the carrier by its reference, which shows the carrier's
 * shipment id and status; a carrier error and a carrier that does not answer in time each show a
 * clear message, and the shipment stays as it was.
 */
describe('shipment look-up at the carrier in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  let carrier: FakeCarrier;
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);

  const grid = (page: Page) => page.locator('[data-testid="engine-page"][data-function="shipment"]').first();
  const toolbar = (page: Page) => grid(page).locator(':scope > [data-testid="engine-toolbar"]');
  const rows = (page: Page) => grid(page).locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)');

  beforeAll(async () => {
    carrier = await startFakeCarrier();
  });
  afterAll(async () => {
    await carrier?.close();
  });

  it('looks the selected shipment up at its carrier, and shows a carrier error or time-out without changing it', async () => {
    token = await apiSignIn(e2e.server);
    const tag = Date.now().toString(36).toUpperCase();
    const account = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'carrier', functionCode: 'carrierAccount', record: { code: `L${tag}`.slice(0, 20), base_url: carrier.url, api_key: 'k', timeout_ms: 1500 } })).row;
    const shipmentNo = `SH-L-${tag}`;
    const reference = `REF-L-${tag}`;
    await call('/generic/adding', {
      moduleCode: 'carrier',
      functionCode: 'shipment',
      record: { shipment_no: shipmentNo, carrier_account_id: account._key, shipment_reference: reference, expected_delivery_date: '2030-03-02', gateway: 'HKG', service: 'X', service_provider: 'P', battery: 'none' },
    });
    const stored = async () => (await apiSelection<{ status: string; carrier_shipment_id: string | null; updated_at: string }>(e2e.server, token, 'carrier', 'shipment', [{ field: 'shipment_no', operator: '=', value: shipmentNo }]))[0];

    const page = await signedInPage(e2e.browser, e2e.server, '/page/shipment');
    try {
      await grid(page).locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
      await eventually(() => rows(page).filter({ hasText: shipmentNo }).count()).toBe(1);
      // Nothing selected: nothing to look up.
      expect(await toolbar(page).getByTestId('shipment-lookup').isDisabled()).toBe(true);
      await rows(page).filter({ hasText: shipmentNo }).first().click();
      await toolbar(page).getByTestId('shipment-book').click();
      await eventually(async () => (await stored()).status).toBe('booked');
      const booked = await stored();
      expect(booked.carrier_shipment_id).toMatch(/^CS/);

      await eventually(() => rows(page).filter({ hasText: shipmentNo }).count()).toBe(1);
      await rows(page).filter({ hasText: shipmentNo }).first().click();
      await eventually(() => toolbar(page).getByTestId('shipment-lookup').isEnabled()).toBe(true);
      await toolbar(page).getByTestId('shipment-lookup').click();
      const answer = page.getByTestId('shipment-lookup-result');
      await eventually(() => answer.innerText()).toContain(booked.carrier_shipment_id!);
      expect(await page.getByTestId(`shipment-lookup-${shipmentNo}`).innerText()).toContain('booked');
      expect(carrier.calls.at(-1)).toMatchObject({ method: 'GET', path: `/shipments?reference=${encodeURIComponent(reference)}` });
      await page.keyboard.press('Escape');
      await answer.waitFor({ state: 'hidden' });

      // The carrier answers an error: its message, no answer window, nothing changed.
      carrier.mode = 'fail';
      await toolbar(page).getByTestId('shipment-lookup').click();
      expect(await popupText(page)).toMatch(/did not accept the request .*carrier is down.*Nothing was changed/);
      expect(await answer.count()).toBe(0);
      // The carrier does not answer within the account's time-out.
      carrier.mode = 'hang';
      await toolbar(page).getByTestId('shipment-lookup').click();
      expect(await popupText(page)).toContain('did not answer in time. Nothing was changed; try again.');
      expect(await answer.count()).toBe(0);
      expect(await stored()).toEqual(booked);
    } finally {
      carrier.mode = 'ok';
      await page.context().close();
    }
  });
});

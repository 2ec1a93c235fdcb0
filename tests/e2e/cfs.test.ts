import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * The container freight station in Chromium on a 360x640 handheld with a keyboard-wedge scanner:
 * two shippers' cartons are scanned in against an order, packed onto a new CFS pallet (F4), and
 * the pallet is scanned onto an open container by its SSCC; loading it twice is refused in the
 * user's words. On the orders tab another order is cancelled with a reason of the code master
 * after a confirmation. Every code is made per run.
 */
describe('the CFS in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);
  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(e2e.server, token, moduleCode, functionCode, rules);
  const run = `${Date.now()}`.slice(-9);

  async function newOrder(orderNo: string): Promise<number> {
    const owner = (await selection<{ _key: number; code: string }>('masterdata', 'ogr'))[0];
    const header = await call<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: orderNo, owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01' },
    });
    return header.row._key;
  }

  /** Types into the focused scan field and presses Enter, as a scanner does. */
  async function scan(page: Page, text: string) {
    const field = page.getByTestId('cfs-scan');
    await field.waitFor();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement && !(el as HTMLInputElement).disabled)).toBe(true);
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  const feedback = (page: Page) => page.getByTestId('handheld-feedback');

  it('scans in two cartons, packs them on a pallet, loads the pallet and cancels another order with a reason', async () => {
    token = await apiSignIn(e2e.server);
    const orderNo = `E2E-CFS-${run}`;
    const otherNo = `E2E-CFS-X-${run}`;
    await newOrder(orderNo);
    await newOrder(otherNo);
    const containerNo = `CFSU${run}`;
    const load = await call<{ id: number; loadNo: string }>('/loading/create', { containerNo });
    const cartons = [`CTN-${run}-1`, `CTN-${run}-2`];

    const page = await signedInPage(e2e.browser, e2e.server, '/page/cfs', { viewport: { width: 360, height: 640 } });
    await page.getByTestId('cfs-screen').waitFor();

    // Scan-in: the order, then its two cartons.
    await scan(page, orderNo);
    await eventually(() => feedback(page).innerText()).toBe(`Order ${orderNo}: scan its cartons.`);
    for (const carton of cartons) {
      await scan(page, carton);
      await eventually(() => feedback(page).innerText()).toBe(`Carton ${carton} received for order ${orderNo}.`);
    }
    await page.getByTestId(`cfs-carton-${cartons[1]}`).waitFor();
    // The same carton again is refused with the error tone.
    await scan(page, cartons[0]);
    await eventually(() => feedback(page).getAttribute('data-tone')).toBe('error');
    expect(await feedback(page).innerText()).toBe(`Carton ${cartons[0]} was already scanned in (order ${orderNo}).`);

    // Scan-pack: F4 makes a new pallet, the cartons go onto it.
    await page.getByRole('tab', { name: 'Scan pack' }).click();
    await page.getByTestId('cfs-scan-pack').waitFor();
    await expect.poll(() => page.getByTestId('cfs-scan').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('F4');
    await eventually(() => feedback(page).innerText()).toMatch(/^Pallet CP\d+ made \(SSCC \d{18}\)\.$/);
    const sscc = (await page.getByTestId('cfs-pallet-sscc').innerText()).replace('SSCC', '').trim();
    for (const carton of cartons) {
      await scan(page, carton);
      await eventually(() => feedback(page).innerText()).toMatch(new RegExp(`^Carton ${carton} is on pallet CP\\d+\\.$`));
    }
    await eventually(() => page.getByTestId(`cfs-carton-${cartons[1]}`).getAttribute('data-status')).toBe('packed');

    // Scan-load: the container, then the pallet by its SSCC.
    await page.getByRole('tab', { name: 'Scan load' }).click();
    await page.getByTestId('cfs-scan-load').waitFor();
    await scan(page, containerNo);
    await eventually(() => feedback(page).innerText()).toBe(`Load ${load.loadNo}, container ${containerNo}: scan pallets or cartons.`);
    await scan(page, sscc);
    await eventually(() => feedback(page).innerText()).toMatch(new RegExp(`^Pallet CP\\d+ \\(2 carton\\(s\\)\\) loaded on ${load.loadNo}\\.$`));
    expect(await feedback(page).getAttribute('data-tone')).toBe('success');
    await scan(page, sscc);
    await eventually(() => feedback(page).getAttribute('data-tone')).toBe('error');
    expect(await feedback(page).innerText()).toMatch(/^Pallet CP\d+ is already on a container\.$/);
    const status = await call<{ rows: Array<{ order: { status: string; cartons: { loaded: number } } }> }>('/cfs/checkOrderStatus', { orderNos: [orderNo] });
    expect(status.rows[0].order.cartons.loaded).toBe(2);

    // Orders: another order is cancelled with a reason, after a confirmation.
    await page.getByRole('tab', { name: 'Orders' }).click();
    await page.getByTestId('cfs-cancel-orders').fill(otherNo);
    await page.getByTestId('cfs-cancel-reason').click();
    await page.locator('.ant-select-item-option', { hasText: 'CUSTOMER - Cancelled by the customer' }).click();
    await page.getByTestId('cfs-cancel-remark').fill('booking withdrawn');
    await page.getByTestId('cfs-cancel').click();
    await page.locator('[data-popup-id="cfs-cancel-confirm"]').waitFor();
    await page.locator('.wms-popup-ok').click();
    await eventually(() => page.getByTestId('cfs-cancel-outcome').innerText()).toBe(`Cancelled: ${otherNo}.`);
    const cancelled = await call<{ rows: Array<{ order: { status: string; cancelReason: string } }> }>('/cfs/checkOrderStatus', { orderNos: [otherNo] });
    expect(cancelled.rows[0].order).toMatchObject({ status: 'cancelled', cancelReason: 'CUSTOMER' });
    await page.context().close();
  });
});

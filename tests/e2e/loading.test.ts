import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * Loading and shipping in Chromium: an order picked, packed into two cartons and put on a closed
 * pallet through the API is loaded on the desk by scanning the pallet's SSCC onto a new load with
 * its container, seal and vessel; the load is ship-confirmed after a confirmation, and the order is
 * delivered with the receiver's name. On a 360x640 handheld the same screen is one column and the
 * load is found by scanning its number. Every code is made per run.
 */
describe('loading and shipping in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);
  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(e2e.server, token, moduleCode, functionCode, rules);
  const run = `${Date.now()}`.slice(-9);
  const SKU = `E2E-LD-${run}`;

  /** A packed order of two cartons on a closed pallet: received, ordered, waved, picked, packed and palletised through the API. */
  async function palletisedOrder(orderNo: string): Promise<{ soId: number; palletSscc: string }> {
    const owner = (await selection<{ _key: number; code: string }>('masterdata', 'ogr'))[0];
    await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: SKU, owner_id: owner._key, description: `Load item ${SKU}`, base_uom: 'EA' } });
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: SKU, expectedQty: 10 }] });
    const asnLines = (await call<{ lines: { id: number }[] }>('/asn/getDetail', { id: asn.id })).lines;
    await call('/inbound/batch/receive', { lines: asnLines.map((l) => ({ asnLineId: l.id, qty: 10, locationCode: 'A-01-2' })) });
    const header = (
      await call<{ row: { _key: number } }>('/generic/adding', {
        moduleCode: 'outbound',
        functionCode: 'so',
        record: { order_no: orderNo, owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01' },
      })
    ).row;
    const sku = (await selection<{ _key: number }>('masterdata', 'sku', [{ field: 'code', operator: '=', value: SKU }]))[0];
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: header._key, sku_id: sku._key, qty: '4' } });
    const wave = await call<{ waveId: number }>('/so/wave/save', { orderIds: [header._key] });
    await call('/wave/release', { waveId: wave.waveId });
    const tasks = (await call<{ tasks: Array<{ id: number; location_code: string; sku_code: string; qty: string }> }>('/pick/tasks', { soId: header._key, openOnly: true })).tasks;
    for (const task of tasks) await call('/pick/confirm', { taskId: task.id, locationCode: task.location_code, sku: task.sku_code, qty: String(Number(task.qty)), toLpn: `TOTE-${run}` });
    await call('/scanPack', { orderNo });
    const cartonNos: string[] = [];
    for (const qty of [3, 1]) {
      const carton = (await call<{ openCarton: { id: number; cartonNo: string } }>('/pack/scan/open', { soId: header._key })).openCarton;
      await call('/pack/scan/sku', { cartonId: carton.id, barcode: SKU, qty });
      await call('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });
      cartonNos.push(carton.cartonNo);
    }
    await call('/scanPack/closeOrder', { soId: header._key });
    const pallet = await call<{ id: number; sscc: string }>('/pallet/create', { locationCode: 'A-01-2' });
    for (const carton of cartonNos) await call('/pallet/addCarton', { palletId: pallet.id, carton });
    await call('/pallet/close', { palletId: pallet.id, grossWeight: 20, weightUom: 'KG' });
    return { soId: header._key, palletSscc: pallet.sscc };
  }

  /** Types into the focused scan field and presses Enter, as a scanner does. */
  async function scan(page: Page, testId: string, text: string) {
    const field = page.getByTestId(testId);
    await field.waitFor();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement && !(el as HTMLInputElement).disabled)).toBe(true);
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  const feedback = (page: Page) => page.getByTestId('handheld-feedback');
  const orderStatus = async (orderNo: string) => (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: orderNo }]))[0].status;

  it('loads a pallet by its SSCC onto a new load, ships it and delivers the order', async () => {
    token = await apiSignIn(e2e.server);
    const orderNo = `E2E-LD-${run}`;
    const { palletSscc } = await palletisedOrder(orderNo);
    expect(await orderStatus(orderNo)).toBe('packed');

    const page = await signedInPage(e2e.browser, e2e.server, '/page/loading', { viewport: { width: 1440, height: 900 } });
    await page.getByTestId('loading-screen').waitFor();
    expect(await page.getByTestId('loading-screen').getAttribute('data-layout')).toBe('desk');

    // A new load with its container, seal and vessel.
    await page.getByTestId('loading-new').click();
    await page.getByTestId('loading-field-containerNo').fill(`MSKU${run}`);
    await page.getByTestId('loading-field-sealNo').fill(`SEAL-${run}`);
    await page.getByTestId('loading-field-vessel').fill('Ever Ace');
    await page.getByTestId('loading-header-save').click();
    await eventually(() => feedback(page).innerText()).toMatch(/^Load LD\d+ created\.$/);
    const loadNo = await page.getByTestId('loading-current-no').innerText();
    const load = await call<{ containerNo: string; sealNo: string; vessel: string; status: string }>('/loading/getLoadByUid', { loadNo });
    expect(load).toMatchObject({ containerNo: `MSKU${run}`, sealNo: `SEAL-${run}`, vessel: 'Ever Ace', status: 'open' });

    // The pallet's SSCC loads both its cartons: the order is loaded.
    await scan(page, 'loading-scan', palletSscc);
    await eventually(() => feedback(page).innerText()).toMatch(/^Loaded 2 carton\(s\): /);
    expect(await feedback(page).getAttribute('data-tone')).toBe('success');
    await eventually(() => page.getByTestId('loading-carton-qty').innerText()).toBe('2');
    expect(await orderStatus(orderNo)).toBe('loaded');

    // An unknown code is refused in the user's words and changes nothing.
    await scan(page, 'loading-scan', `NO-SUCH-${run}`);
    await eventually(() => feedback(page).getAttribute('data-tone')).toBe('error');
    expect(await feedback(page).innerText()).toContain('No record found');
    expect(await page.getByTestId('loading-carton-qty').innerText()).toBe('2');

    // Ship confirm asks first; the stock leaves and the order is shipped.
    await page.getByTestId('loading-ship').click();
    await page.locator('[data-popup-id="loading-ship-confirm"]').waitFor();
    await page.locator('.wms-popup-ok').click();
    await eventually(() => feedback(page).innerText()).toBe(`Load ${loadNo} shipped.`);
    expect(await orderStatus(orderNo)).toBe('shipped');
    await eventually(() => page.getByTestId('loading-current').getAttribute('data-status')).toBe('shipped');

    // Delivered: the receiver's name is required.
    await page.getByTestId(`loading-deliver-${orderNo}`).click();
    await page.getByTestId('loading-deliver-dialog').waitFor();
    await page.locator('#loading-deliver-ok').click();
    await page.getByText("Give the receiver's name.").waitFor();
    await page.getByTestId('loading-deliver-receiver').fill('Mei Chen');
    await page.keyboard.press('Enter');
    await eventually(() => feedback(page).innerText()).toBe(`Order ${orderNo} delivered.`);
    expect(await orderStatus(orderNo)).toBe('delivered');
    await page.context().close();

    // The handheld: one column; the load is found by scanning its number, and Escape steps back to the loads.
    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/loading', { viewport: { width: 360, height: 640 } });
    await handheld.getByTestId('loading-screen').waitFor();
    expect(await handheld.getByTestId('loading-screen').getAttribute('data-layout')).toBe('handheld');
    await scan(handheld, 'loading-scan-load', loadNo);
    await eventually(() => handheld.getByTestId('loading-current-no').innerText()).toBe(loadNo);
    expect(await handheld.getByTestId('loading-carton-qty').innerText()).toBe('2');
    // The shipped load takes no scans; Escape steps back to the loads.
    await handheld.keyboard.press('Escape');
    await handheld.getByTestId('loading-scan-load').waitFor();
    await handheld.context().close();
  });
});

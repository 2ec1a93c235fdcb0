import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiSignIn, eventually, selectEngineRow, signedInPage, toastShown, useServerAndBrowser } from '../helpers/browser.js';

/**
 * Cancelling an order on /so in Chromium (cancel needs confirmation and cannot be
 * undone): the confirmation says, from the server's preview, how much allocated stock will be
 * given back; Cancel in the dialog changes nothing, OK cancels the order.
 */
function engine(page: Page) {
  return page.locator('[data-testid="engine-page"][data-function="so"]').first();
}

describe('cancel of an order shows what it will give back', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);

  async function orderNamed(orderNo: string) {
    const answer = await call<{ rows: Array<{ order_no: string; status: string }> }>('/generic/selection', {
      moduleCode: 'outbound',
      functionCode: 'so',
      page: 1,
      pageSize: 10,
      conditions: { combinator: 'and', rules: [{ field: 'order_no', operator: '=', value: orderNo }] },
    });
    return answer.rows[0];
  }

  it('shows the allocated qty in the dialog; Cancel keeps the order, OK cancels it', async () => {
    token = await apiSignIn(e2e.server);
    const owner = (await call<{ rows: Array<{ _key: number; code: string }> }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'ogr', page: 1, pageSize: 1 })).rows[0];
    const sku = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: 'E2E-PREVIEW-1', owner_id: owner._key, description: 'Preview item', base_uom: 'EA' } })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soRule', record: { owner_id: owner._key, sku_id: sku._key, strategy: 'fefo', min_shelf_life_days: 0, pick_face_first: false, active: true } });
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: 'E2E-PREVIEW-1', expectedQty: 10, lotNo: 'PV', expiryDate: '2031-06-30' }] });
    const [asnLine] = (await call<{ lines: { id: number }[] }>('/asn/getDetail', { id: asn.id })).lines;
    await call('/inbound/batch/receive', { lines: [{ asnLineId: asnLine.id, qty: 10, locationCode: 'A-01-2', lotNo: 'PV', expiryDate: '2031-06-30' }] });
    const order = (await call<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: 'E2E-PREVIEW-SO', owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01', carrier_code: 'E2E-PREVIEW' },
    })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: order._key, sku_id: sku._key, qty: '6' } });
    await call('/generic/behavior', { moduleCode: 'outbound', functionCode: 'so', behaviour: 'allocate', keys: [order._key], inputs: {} });
    expect((await orderNamed('E2E-PREVIEW-SO')).status).toBe('allocated');

    const page = await signedInPage(e2e.browser, e2e.server, '/page/so', { logToasts: true });
    // Many demo orders: find this one by its number.
    await engine(page).locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    await engine(page).locator('#engine_search_so_order_no').fill('E2E-PREVIEW-SO');
    await engine(page).getByTestId('engine-search-submit').click();
    const row = engine(page).locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)').filter({ hasText: 'E2E-PREVIEW-SO' });
    await row.first().waitFor({ timeout: 60_000 });
    const toolbar = engine(page).locator(':scope > [data-testid="engine-toolbar"]');
    await selectEngineRow(row.first(), toolbar.getByTestId('engine-total'));

    const confirm = page.locator('.wms-popup-confirm.wms-popup-top');
    await toolbar.getByTestId('engine-behaviour-cancel').click();
    await eventually(() => confirm.innerText()).toContain('1 order(s): 6 allocated unit(s) will be given back, 0 picked unit(s) must go back to stock, 0 open pick task(s) will be cancelled.');
    expect(await confirm.innerText()).toContain('This cannot be undone.');
    // A click during the dialog's opening animation is lost: wait until it has settled.
    await eventually(() => confirm.locator('.ant-modal').getAttribute('class')).not.toMatch(/zoom/);
    await confirm.locator('.wms-popup-cancel').click();
    await confirm.waitFor({ state: 'detached' });
    expect((await orderNamed('E2E-PREVIEW-SO')).status).toBe('allocated');

    await toolbar.getByTestId('engine-behaviour-cancel').click();
    await eventually(() => confirm.innerText()).toContain('6 allocated unit(s) will be given back');
    await eventually(() => confirm.locator('.ant-modal').getAttribute('class')).not.toMatch(/zoom/);
    await confirm.locator('.wms-popup-ok').click();
    await toastShown(page, '1 order(s) cancelled.');
    await eventually(async () => (await orderNamed('E2E-PREVIEW-SO')).status).toBe('cancelled');
    await page.context().close();
  });
});

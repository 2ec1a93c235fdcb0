import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiSelection, apiSignIn, chooseByTyping, eventually, saveEngineForm, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * Waves, shipment orders and the maintenance list in Chromium, each walked by a user holding only
 * the rights it needs: create wave shows the orders its filters select and takes only the ticked
 * ones; the wave list sets the reference of the selected waves; a shipment order needs its
 * reference, delivery date, gateway, service, provider and battery, takes orders by number and
 * lets them go again; the maintenance list adds and deletes entries after confirmation.
 */
describe('waves, shipment orders and the maintenance list in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }));
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);
  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(e2e.server, token, moduleCode, functionCode, rules);

  const grid = (page: Page, functionCode: string) => page.locator(`[data-testid="engine-page"][data-function="${functionCode}"]`).first();
  const toolbar = (page: Page, functionCode: string) => grid(page, functionCode).locator(':scope > [data-testid="engine-toolbar"]');
  const rows = (page: Page, functionCode: string) => grid(page, functionCode).locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)');
  const opened = async (page: Page, functionCode: string) => grid(page, functionCode).locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });

  let ownerId = 0;
  const orderIds = new Map<string, number>();

  /** A user of the session's project and warehouse with one role of these page rights. */
  async function userWith(login: string, permissions: Array<Record<string, unknown>>): Promise<{ loginAccount: string; password: string }> {
    const status = await call<{ project: { id: number }; warehouse: { id: number } }>('/user/status');
    const role = await call<{ id: number }>('/role', { name: `${login} role`, permissions });
    const password = 'Us3r!Passw0rd';
    await call('/user/save', { loginAccount: login, displayName: login, password, projectIds: [status.project.id], warehouseIds: [status.warehouse.id], roleIds: [role.id] });
    return { loginAccount: login, password };
  }

  async function newOrder(orderNo: string, carrier: string): Promise<number> {
    const added = await call<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: orderNo, owner_id: ownerId, ship_to_name: `Shop ${orderNo}`, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01', carrier_code: carrier },
    });
    orderIds.set(orderNo, added.row._key);
    return added.row._key;
  }

  const waveOf = async (orderNo: string) => (await selection<{ wave_id: string | null }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: orderNo }]))[0]?.wave_id ?? null;

  it('creates a wave with only the ticked orders of the preview, then sets the reference of the selected wave', async () => {
    token = await apiSignIn(e2e.server);
    ownerId = (await selection<{ _key: number }>('masterdata', 'ogr'))[0]._key;
    for (const no of ['E2E-PV-1', 'E2E-PV-2', 'E2E-PV-3']) await newOrder(no, 'E2E-PREV');
    // The wave page with its edit verb, and the view of its two tabs (the wave's orders and pick tasks).
    const planner = await userWith('wave-planner', [
      { module: 'outbound', subModule: 'wave', view: true, edit: true },
      { module: 'outbound', subModule: 'so', view: true },
      { module: 'outbound', subModule: 'pickTask', view: true },
    ]);

    const page = await signedInPage(e2e.browser, e2e.server, '/page/wave', { account: planner });
    await opened(page, 'wave');
    await toolbar(page, 'wave').getByTestId('outbound-create-wave').click();
    await page.getByTestId('outbound-create-wave-dialog').waitFor();
    await chooseByTyping(page, 'outbound_create_wave_carrierCode', 'E2E-PREV');
    await page.getByTestId('outbound-create-wave-show').click();
    const preview = page.getByTestId('outbound-create-wave-orders').locator('tbody tr.ant-table-row');
    await eventually(() => preview.count()).toBe(3);
    const second = preview.filter({ hasText: 'E2E-PV-2' });
    await expect(second.textContent()).resolves.toContain('Shop E2E-PV-2');
    // Only the first order is wanted: the other two are unticked.
    await second.locator('input[type="checkbox"]').click();
    await preview.filter({ hasText: 'E2E-PV-3' }).locator('input[type="checkbox"]').click();
    await expect(page.getByTestId('outbound-create-wave-ok').textContent()).resolves.toContain('1');
    await page.getByTestId('outbound-create-wave-ok').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await eventually(() => waveOf('E2E-PV-1')).not.toBeNull();
    expect(await waveOf('E2E-PV-2')).toBeNull();
    expect(await waveOf('E2E-PV-3')).toBeNull();
    const waveNo = (await waveOf('E2E-PV-1'))!;
    const wave = (await call<{ rows: Array<{ id: number; wave_no: string; order_count: number; reference: string | null }> }>('/wave/list', {})).rows.find((w) => w.wave_no === waveNo)!;
    expect(wave.order_count).toBe(1);

    // Update reference: the dialog asks the reference and is the confirmation.
    await page.reload();
    await opened(page, 'wave');
    await eventually(() => rows(page, 'wave').filter({ hasText: waveNo }).count()).toBe(1);
    await rows(page, 'wave').filter({ hasText: waveNo }).first().click();
    await toolbar(page, 'wave').getByTestId('engine-behaviour-batchUpdateRef').click();
    await expect(page.getByTestId('engine-behaviour-inputs-confirm').textContent()).resolves.toContain('Set this reference on every selected wave?');
    await page.getByTestId('engine-input-reference').fill('TRUCK-42');
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    await eventually(async () => (await call<{ rows: Array<{ id: number; reference: string | null }> }>('/wave/list', {})).rows.find((w) => w.id === wave.id)?.reference).toBe('TRUCK-42');
    await eventually(() => rows(page, 'wave').filter({ hasText: 'TRUCK-42' }).count()).toBe(1);
    await page.context().close();
  });

  it('makes a shipment order only with its required fields, adds orders by number and removes one', async () => {
    token = await apiSignIn(e2e.server);
    await newOrder('E2E-SH-1', 'DHL');
    await newOrder('E2E-SH-2', 'DHL');
    const clerk = await userWith('shipment-clerk', [
      { module: 'outbound', subModule: 'shipmentOrder', view: true, add: true, edit: true },
      { module: 'outbound', subModule: 'shipmentOrderSo', view: true },
    ]);
    const page = await signedInPage(e2e.browser, e2e.server, '/page/shipmentOrder', { account: clerk });
    await opened(page, 'shipmentOrder');
    await toolbar(page, 'shipmentOrder').getByTestId('engine-add').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
    await page.fill('#engine_shipmentOrder_shipment_no', 'E2E-SHP-1');
    await page.fill('#engine_shipmentOrder_shipment_reference', 'REF-E2E');
    await page.locator('#engine_shipmentOrder_expected_delivery_date').click();
    await page.locator('#engine_shipmentOrder_expected_delivery_date').fill('2030-03-05');
    await page.keyboard.press('Enter');
    await page.fill('#engine_shipmentOrder_service', 'EXPRESS');
    await page.fill('#engine_shipmentOrder_service_provider', 'DHL Express');
    await chooseByTyping(page, 'engine_shipmentOrder_battery', 'No battery');
    // Without the gateway the form is refused and nothing is saved.
    await page.click('#engine-form-save');
    await eventually(() => page.locator('[data-testid="engine-form"] .ant-form-item-explain-error').count()).toBeGreaterThan(0);
    expect(await selection('outbound', 'shipmentOrder', [{ field: 'shipment_no', operator: '=', value: 'E2E-SHP-1' }])).toEqual([]);
    await page.fill('#engine_shipmentOrder_gateway', 'HKG');
    await saveEngineForm(page);
    const shipment = (await selection<{ _key: number; gateway: string; battery: string; expected_delivery_date: string }>('outbound', 'shipmentOrder', [{ field: 'shipment_no', operator: '=', value: 'E2E-SHP-1' }]))[0];
    expect(shipment).toMatchObject({ gateway: 'HKG', battery: 'none' });
    expect(String(shipment.expected_delivery_date).slice(0, 10)).toBe('2030-03-05');

    // Add orders: an unknown number is refused under the input and nothing changes; then both go on.
    await eventually(() => rows(page, 'shipmentOrder').filter({ hasText: 'E2E-SHP-1' }).count()).toBe(1);
    await rows(page, 'shipmentOrder').filter({ hasText: 'E2E-SHP-1' }).first().click();
    await toolbar(page, 'shipmentOrder').getByTestId('engine-behaviour-addOrders').click();
    await page.getByTestId('engine-input-orderNos').fill('E2E-SH-1 E2E-NOPE');
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    await eventually(() => page.locator('[data-testid="engine-behaviour-inputs"] .ant-form-item-explain-error').first().textContent()).toContain('E2E-NOPE');
    const onShipment = async () => (await call<{ orders: Array<{ order_no: string }> }>('/so/findShipmentReference', { shipmentNo: 'E2E-SHP-1' })).orders.map((o) => o.order_no);
    expect(await onShipment()).toEqual([]);
    await page.getByTestId('engine-input-orderNos').fill('E2E-SH-1, E2E-SH-2');
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    await eventually(onShipment).toEqual(['E2E-SH-1', 'E2E-SH-2']);

    // Remove from shipment on the orders tab of the shipment order, after confirmation.
    await rows(page, 'shipmentOrder').filter({ hasText: 'E2E-SHP-1' }).first().click();
    const subPages = grid(page, 'shipmentOrder').getByTestId('engine-subpages');
    await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Orders' }).click();
    const orders = subPages.locator('[data-testid="engine-page"][data-function="shipmentOrderSo"]').first();
    const orderRows = orders.locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)');
    await eventually(() => orderRows.count()).toBe(2);
    await orderRows.filter({ hasText: 'E2E-SH-2' }).first().click();
    await orders.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-behaviour-removeFromShipment').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await eventually(onShipment).toEqual(['E2E-SH-1']);
    await page.context().close();
  });

  it('adds an order to the maintenance list and deletes it after confirmation', async () => {
    token = await apiSignIn(e2e.server);
    await newOrder('E2E-MT-1', 'DHL');
    const keeper = await userWith('maintenance-keeper', [
      { module: 'outbound', subModule: 'soMaintenance', view: true },
      { module: 'outbound', subModule: 'so', view: true, edit: true },
    ]);
    const page = await signedInPage(e2e.browser, e2e.server, '/page/soMaintenance', { account: keeper });
    await opened(page, 'soMaintenance');
    await toolbar(page, 'soMaintenance').getByTestId('engine-behaviour-add').click();
    await page.getByTestId('engine-input-orderNo').fill('E2E-MT-1');
    await page.getByTestId('engine-input-reason').fill('recheck');
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    await eventually(() => rows(page, 'soMaintenance').filter({ hasText: 'E2E-MT-1' }).count()).toBe(1);
    expect(await rows(page, 'soMaintenance').filter({ hasText: 'E2E-MT-1' }).first().textContent()).toContain('recheck');

    await rows(page, 'soMaintenance').filter({ hasText: 'E2E-MT-1' }).first().click();
    await toolbar(page, 'soMaintenance').getByTestId('engine-behaviour-delete').click();
    // Cancel keeps the entry; OK deletes it.
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-cancel').click();
    expect((await call<{ entries: Array<{ order_no: string | null }> }>('/so/getMaintenanceList', {})).entries.map((e) => e.order_no)).toContain('E2E-MT-1');
    await toolbar(page, 'soMaintenance').getByTestId('engine-behaviour-delete').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await eventually(async () => (await call<{ entries: Array<{ order_no: string | null }> }>('/so/getMaintenanceList', {})).entries.map((e) => e.order_no)).not.toContain('E2E-MT-1');
    await eventually(() => rows(page, 'soMaintenance').filter({ hasText: 'E2E-MT-1' }).count()).toBe(0);
    await page.context().close();
  });
});

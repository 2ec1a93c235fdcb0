import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { startFakeCarrier, type FakeCarrier } from '../helpers/fake-carrier.js';

/**
 * The courier check in Chromium with the keyboard only (a keyboard-wedge scanner types and presses
 * Enter): an order is scanned, then its parcel, which shows its carrier shipment id and that it
 * belongs to the order; an unknown code is refused with a message, and Escape starts again. The
 * carrier is a local HTTP server.
 */
describe('courier check in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  let carrier: FakeCarrier;
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);

  beforeAll(async () => {
    carrier = await startFakeCarrier();
  });
  afterAll(async () => {
    await carrier?.close();
  });

  async function scan(page: Page, text: string) {
    const field = page.getByTestId('courier-check-scan');
    await eventually(() => field.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))).toBe(true);
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  it('shows a parcel of the scanned order with its carrier shipment, refuses an unknown code, and starts again on Escape', async () => {
    token = await apiSignIn(e2e.server);
    const tag = Date.now().toString(36).toUpperCase();
    const code = `E2E-CC-${tag}`;
    const owner = (await apiSelection<{ _key: number; code: string }>(e2e.server, token, 'masterdata', 'ogr'))[0];
    const sku = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code, owner_id: owner._key, description: 'Courier item', base_uom: 'EA' } })).row;
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: code, expectedQty: 2 }] });
    const [asnLine] = (await call<{ lines: { id: number }[] }>('/asn/getDetail', { id: asn.id })).lines;
    await call('/inbound/batch/receive', { lines: [{ asnLineId: asnLine.id, qty: 2, locationCode: 'A-01-2' }] });
    const orderNo = `E2E-CC-SO-${tag}`;
    const header = (await call<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: orderNo, owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01' },
    })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: header._key, sku_id: sku._key, qty: '2' } });
    await call('/generic/behavior', { moduleCode: 'outbound', functionCode: 'so', behaviour: 'allocate', keys: [header._key], inputs: {} });
    const made = await call<{ tasks: Array<{ id: number; location_code: string; qty: string }> }>('/so/pick', { soId: header._key });
    for (const task of made.tasks) await call('/pick/confirm', { taskId: task.id, locationCode: task.location_code, sku: code, qty: task.qty, toLpn: `TOTE-${tag}` });
    const carton = (await call<{ openCarton: { id: number; cartonNo: string } }>('/pack/scan/open', { soId: header._key })).openCarton;
    await call('/pack/scan/sku', { cartonId: carton.id, barcode: code, qty: '2' });
    await call('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });

    const account = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'carrier', functionCode: 'carrierAccount', record: { code: `C${tag}`.slice(0, 20), base_url: carrier.url, api_key: 'k', timeout_ms: 2000 } })).row;
    const shipment = (await call<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'carrier',
      functionCode: 'shipment',
      record: { shipment_no: `SH-${tag}`, carrier_account_id: account._key, shipment_reference: `R-${tag}`, expected_delivery_date: '2030-03-02', gateway: 'HKG', service: 'X', service_provider: 'P', battery: 'none' },
    })).row;
    const booked = await call<{ carrierShipmentId: string }>('/so/createDhlShipmentId', { shipmentId: shipment._key });
    await call('/so/addOrderToDhlShipmentId', { shipmentId: shipment._key, soIds: [header._key] });

    const page = await signedInPage(e2e.browser, e2e.server, '/page/courierCheck');
    await scan(page, orderNo);
    await eventually(() => page.getByTestId('courier-check-order').textContent()).toContain(orderNo);
    await scan(page, carton.cartonNo);
    await eventually(() => page.getByTestId('courier-check-carrier-id').textContent()).toBe(booked.carrierShipmentId);
    await eventually(() => page.getByTestId('courier-check').textContent()).toContain(`Parcel ${carton.cartonNo} belongs to order ${orderNo}.`);
    await expect(page.getByTestId('courier-check-pdf').isVisible()).resolves.toBe(true);

    await scan(page, `NOPE-${tag}`);
    await eventually(() => page.getByTestId('courier-check').textContent()).toMatch(/not found|no record|does not exist/i);

    await page.keyboard.press('Escape');
    await eventually(() => page.getByTestId('courier-check-order').count()).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { gs1CheckDigit } from '../../src/common/gs1.js';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * The SKU and UPC search and the split scan in Chromium at 360x640 with the keyboard only (a
 * keyboard-wedge scanner types and presses Enter): a UPC and a GS1-128 label show the SKU and its
 * stock, and a split scan moves one item of a packed carton into a new carton, which is closed
 * with its weights, the source carton holding one less.
 */

const PHONE = { width: 360, height: 640 };

describe('SKU search and split scan in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }));
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);

  async function scan(page: Page, testId: string, text: string) {
    const field = page.getByTestId(testId);
    await eventually(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  it('finds a SKU by UPC and GS1-128 with its stock, and splits one item of a packed carton into a new one', async () => {
    token = await apiSignIn(e2e.server);
    // Per-run codes: the test may run twice against the same server.
    const tag = Date.now().toString(36).toUpperCase();
    const twelve = `2${String(Date.now()).slice(-11)}`;
    const ean = twelve + gs1CheckDigit(twelve);
    const code = `E2E-PS-${tag}`;
    const lotNo = `L${tag}`;
    const tote = `TOTE-${tag}`;

    const owner = (await apiSelection<{ _key: number; code: string }>(e2e.server, token, 'masterdata', 'ogr'))[0];
    const sku = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code, owner_id: owner._key, description: 'Split item', base_uom: 'EA' } })).row;
    await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'skuUpc', record: { sku_id: sku._key, upc: ean, uom: 'EA', qty: '1', is_default: true } });
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: code, expectedQty: 5, lotNo }] });
    const [asnLine] = (await call<{ lines: { id: number }[] }>('/asn/getDetail', { id: asn.id })).lines;
    await call('/inbound/batch/receive', { lines: [{ asnLineId: asnLine.id, qty: 5, locationCode: 'A-01-2', lotNo }] });

    // A picked order of 3, packed into one carton and closed.
    const header = (await call<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: `E2E-PS-SO-${tag}`, owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01' },
    })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: header._key, sku_id: sku._key, qty: '3' } });
    await call('/generic/behavior', { moduleCode: 'outbound', functionCode: 'so', behaviour: 'allocate', keys: [header._key], inputs: {} });
    const made = await call<{ tasks: Array<{ id: number; location_code: string; qty: string }> }>('/so/pick', { soId: header._key });
    for (const task of made.tasks) await call('/pick/confirm', { taskId: task.id, locationCode: task.location_code, sku: code, qty: task.qty, toLpn: tote });
    const carton = (await call<{ openCarton: { id: number; cartonNo: string } }>('/pack/scan/open', { soId: header._key })).openCarton;
    await call('/pack/scan/sku', { cartonId: carton.id, barcode: ean, qty: '3' });
    await call('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });

    // --- SKU and UPC search: by the UPC, then by a GS1-128 label of its GTIN-14 and batch.
    const search = await signedInPage(e2e.browser, e2e.server, '/page/skuSearch', { viewport: PHONE });
    await search.getByTestId('sku-search').waitFor();
    await scan(search, 'sku-search-scan', ean);
    const result = search.locator(`[data-testid="sku-search-result"][data-sku="${code}"]`);
    await result.waitFor();
    await eventually(() => result.getByTestId('sku-search-available').innerText()).toBe('2');
    const stockText = await result.getByTestId('sku-search-stock').innerText();
    expect(stockText).toContain('A-01-2');
    expect(stockText).toContain(carton.cartonNo);
    expect(stockText).toContain(lotNo);

    await scan(search, 'sku-search-scan', `(01)0${ean}(10)${lotNo}`);
    await eventually(() => search.getByTestId('sku-search-gs1').innerText()).toContain(lotNo);
    await eventually(() => search.locator('[data-testid="sku-search-result"]').getAttribute('data-sku')).toBe(code);
    await scan(search, 'sku-search-scan', `NOPE-${tag}`);
    await eventually(() => search.getByTestId('handheld-feedback').innerText()).toContain('Invalid SKU');
    await search.close();

    // --- Split scan: the closed carton, one item out into a new carton, which is closed.
    const split = await signedInPage(e2e.browser, e2e.server, '/page/packSplit', { viewport: PHONE });
    await split.getByTestId('split-scan').waitFor();
    await scan(split, 'split-source-scan', carton.cartonNo);
    await eventually(() => split.getByTestId('split-source-total').innerText()).toBe('3');
    await scan(split, 'split-item-scan', code);
    await eventually(() => split.getByTestId('split-source-total').innerText()).toBe('2');
    await eventually(() => split.getByTestId('split-target-total').innerText()).toBe('1');
    const newCarton = await split.getByTestId('split-target').getAttribute('data-carton');
    expect(newCarton).not.toBe(carton.cartonNo);
    // antd puts the test id on the input itself or on its wrapper.
    const input = (testId: string) => split.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
    // More than the carton holds is refused with its message.
    await input('split-qty').fill('5');
    await split.keyboard.press('Enter');
    await scan(split, 'split-item-scan', code);
    await eventually(() => split.getByTestId('handheld-feedback').innerText()).toContain('Not enough quantity to remove');
    await eventually(() => split.getByTestId('split-source-total').innerText()).toBe('2');

    // Closing opens the weights form (clicking again only keeps it open): clicked until the form shows.
    await eventually(async () => {
      if ((await input('split-gross').count()) === 0) await split.getByTestId('split-close').click();
      return input('split-gross').count();
    }).toBe(1);
    await input('split-gross').fill('1');
    await input('split-net').fill('0.5');
    await eventually(() => split.getByTestId('split-uom').innerText()).not.toBe('');
    await split.getByTestId('split-close-ok').click();
    await eventually(() => split.getByTestId('handheld-feedback').innerText()).toContain(newCarton!);

    // The server agrees: the source carton holds one less, the new one is closed with the item.
    const source = await call<{ source: { total: string } }>('/pack/split/source', { cartonNo: carton.cartonNo });
    expect(source.source.total).toBe('2');
    const moved = await call<{ source: { total: string; status: string } }>('/pack/split/source', { cartonNo: newCarton });
    expect(moved.source).toMatchObject({ total: '1', status: 'closed' });
    await split.close();
  });
});

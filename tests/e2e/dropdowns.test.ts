import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { apiCall, apiSelection, apiSignIn, chooseByTyping, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * Dropdowns a shift can use, in Chromium on the demonstration data: the supplier list of a purchase
 * order offers suppliers only and the consignee list of a sales order consignees only, each choice
 * read as code and name and found by a part of its name; a chosen consignee fills the order's
 * ship-to; the lot list of an order line offers the chosen SKU's lots; and the allocated-stock tab
 * of an order shows order, line, SKU, location and lot, no internal ids.
 */
describe('dropdowns in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);

  const grid = (page: Page, functionCode: string) => page.locator(`[data-testid="engine-page"][data-function="${functionCode}"]`).first();
  const toolbar = (page: Page, functionCode: string) => grid(page, functionCode).locator(':scope > [data-testid="engine-toolbar"]');
  const listed = (page: Page) => page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  const titles = (options: Locator) => options.evaluateAll((items) => items.map((item) => item.getAttribute('title') ?? ''));

  /** Opens a dropdown of the open form and waits for its choices. */
  async function openDropdown(page: Page, inputId: string): Promise<Locator> {
    await page.locator(`.ant-select:has(#${inputId})`).click();
    await eventually(() => listed(page).count()).toBeGreaterThan(0);
    return listed(page);
  }

  /** Types into the open dropdown (replacing what was typed) and answers the choices it then shows. */
  async function typeAndList(page: Page, inputId: string, text: string): Promise<string[]> {
    await page.locator(`#${inputId}`).fill(text);
    await page.waitForTimeout(300);
    return titles(listed(page));
  }

  async function openAddForm(page: Page, functionCode: string, owner: Locator = toolbar(page, functionCode)): Promise<void> {
    await owner.getByTestId('engine-add').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
  }

  /** Leaves the open form without saving. */
  async function closeForm(page: Page): Promise<void> {
    await page.locator('.ant-modal-footer button:not(#engine-form-save)').click();
    await page.locator('[data-testid="engine-form"]').waitFor({ state: 'detached' });
  }

  it('offers suppliers and consignees only, with code and name, fills the ship-to, follows the SKU and shows no ids', async () => {
    token = await apiSignIn(e2e.server);

    // Two SKUs of one owner with lots of their own, and an order allocated from the first.
    const owner = (await apiSelection<{ _key: number; code: string }>(e2e.server, token, 'masterdata', 'ogr'))[0];
    const skuOf = async (code: string) =>
      (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code, owner_id: owner._key, description: `Item ${code}`, base_uom: 'EA' } })).row._key;
    const sku1 = await skuOf('E2E-DD-1');
    await skuOf('E2E-DD-2');
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soRule', record: { owner_id: owner._key, sku_id: sku1, strategy: 'fefo', min_shelf_life_days: 0, pick_face_first: false, active: true } });
    const received = [
      { skuCode: 'E2E-DD-1', lotNo: 'DD1-LATE', expiryDate: '2031-06-30', locationCode: 'A-01-2' },
      { skuCode: 'E2E-DD-1', lotNo: 'DD1-EARLY', expiryDate: '2030-06-30', locationCode: 'A-02-2' },
      { skuCode: 'E2E-DD-2', lotNo: 'DD2-ONLY', expiryDate: '2030-09-30', locationCode: 'A-01-2' },
    ];
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', { asnId: asn.id, lines: received.map((r) => ({ skuCode: r.skuCode, expectedQty: 5, lotNo: r.lotNo, expiryDate: r.expiryDate })) });
    const asnLines = (await call<{ lines: { id: number; lot_no: string }[] }>('/asn/getDetail', { id: asn.id })).lines;
    await call('/inbound/batch/receive', {
      lines: received.map((r) => ({ asnLineId: asnLines.find((l) => l.lot_no === r.lotNo)!.id, qty: 5, locationCode: r.locationCode, lotNo: r.lotNo, expiryDate: r.expiryDate })),
    });
    const order = (await call<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: 'E2E-DD-SO', owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01' },
    })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: order._key, line_no: 1, sku_id: sku1, qty: '3' } });
    await call('/generic/behavior', { moduleCode: 'outbound', functionCode: 'so', behaviour: 'allocate', keys: [order._key], inputs: {} });
    const partner = (await apiSelection<{ name: string; address1: string }>(e2e.server, token, 'masterdata', 'partner', [{ field: 'code', operator: '=', value: 'STORE011' }]))[0];

    // A purchase order's supplier list: suppliers only, found by a part of their name.
    const po = await signedInPage(e2e.browser, e2e.server, '/page/po', { viewport: { width: 1440, height: 900 } });
    await grid(po, 'po').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    await openAddForm(po, 'po');
    const suppliers = await titles(await openDropdown(po, 'engine_po_supplier_code'));
    expect(suppliers.length).toBeGreaterThan(0);
    expect(suppliers.filter((title) => !/^SUP\d{3} - \S/.test(title))).toEqual([]);
    expect(await typeAndList(po, 'engine_po_supplier_code', 'CityMart')).toEqual([]);
    expect(await typeAndList(po, 'engine_po_supplier_code', 'DHL')).toEqual([]);
    expect(await typeAndList(po, 'engine_po_supplier_code', 'bright')).toEqual(['SUP001 - Shenzhen Bright Electronics']);
    await po.context().close();

    // A sales order's consignee list: consignees only, as code and name; a name part finds one.
    const so = await signedInPage(e2e.browser, e2e.server, '/page/so', { viewport: { width: 1440, height: 900 } });
    await grid(so, 'so').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    await openAddForm(so, 'so');
    const consignees = await titles(await openDropdown(so, 'engine_so_consignee_id'));
    expect(consignees.length).toBeGreaterThan(0);
    expect(consignees.filter((title) => !/^STORE\d{3} - (CityMart|HomePlus) /.test(title))).toEqual([]);
    expect(await typeAndList(so, 'engine_so_consignee_id', 'DHL')).toEqual([]);
    expect(await typeAndList(so, 'engine_so_consignee_id', 'Shenzhen Bright')).toEqual([]);
    expect(await typeAndList(so, 'engine_so_consignee_id', 'HomePlus Mong')).toEqual(['STORE011 - HomePlus Mong Kok']);
    // Picking it fills the empty ship-to fields from the consignee's master data.
    await listed(so).filter({ hasText: 'STORE011 - HomePlus Mong Kok' }).click();
    await eventually(() => so.locator('#engine_so_ship_to_name').inputValue()).toBe(partner.name);
    expect(await so.locator('#engine_so_ship_to_address_en').inputValue()).toBe(partner.address1);
    await closeForm(so);

    // The order's line: the lot list offers the chosen SKU's lots only, and follows another SKU.
    await grid(so, 'so').locator('#engine_search_so_order_no').fill('E2E-DD-SO');
    await grid(so, 'so').getByTestId('engine-search-submit').click();
    const row = grid(so, 'so').locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)').filter({ hasText: 'E2E-DD-SO' });
    await row.first().waitFor({ timeout: 60_000 });
    await row.first().click();
    const subPages = grid(so, 'so').getByTestId('engine-subpages');
    await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Lines' }).click();
    const lines = subPages.locator('[data-testid="engine-page"][data-function="soDetail"]').first();
    // The line list shows the SKU's code, not its key, and no order id column.
    await eventually(() => lines.locator('.ag-row .ag-cell').allInnerTexts()).toContain('E2E-DD-1');
    await openAddForm(so, 'soDetail', lines.locator(':scope > [data-testid="engine-toolbar"]'));
    await chooseByTyping(so, 'engine_soDetail_sku_id', 'E2E-DD-1');
    await openDropdown(so, 'engine_soDetail_lot_no');
    await eventually(() => titles(listed(so))).toEqual(['DD1-EARLY - 2030-06-30', 'DD1-LATE - 2031-06-30']);
    await so.locator('.ant-modal-title').click();
    await chooseByTyping(so, 'engine_soDetail_sku_id', 'E2E-DD-2');
    await openDropdown(so, 'engine_soDetail_lot_no');
    await eventually(() => titles(listed(so))).toEqual(['DD2-ONLY - 2030-09-30']);
    await so.locator('.ant-modal-title').click();
    await closeForm(so);

    // The allocated stock of the order: order number, line, SKU, location and lot, no ids.
    await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Allocated stock' }).click();
    const allocations = subPages.locator('[data-testid="engine-page"][data-function="soAllocation"]').first();
    const headers = allocations.locator('.ag-header-cell-text');
    await eventually(() => allocations.locator('.ag-row:not(.ag-row-loading)').count()).toBe(1);
    const headerTexts = (await headers.allInnerTexts()).filter((text) => text.trim() !== '');
    expect(headerTexts.filter((text) => /\bid\b/i.test(text))).toEqual([]);
    const rowCells = () =>
      allocations
        .locator('.ag-row:not(.ag-row-loading) .ag-cell')
        .evaluateAll((items) => items.map((item) => (item.querySelector('[data-full-text]')?.getAttribute('data-full-text') ?? item.textContent ?? '').trim()));
    await eventually(rowCells).toEqual(expect.arrayContaining(['E2E-DD-SO', '1', 'E2E-DD-1', 'A-02-2', 'DD1-EARLY']));
    const cells = await rowCells();
    const ids = [order._key, sku1].map(String);
    expect(cells.filter((cell) => ids.includes(cell))).toEqual([]);
    await so.context().close();
  });
});

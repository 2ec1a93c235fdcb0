import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiSelection, apiSignIn, eventually, popupText, saveEngineForm, selectEngineRow, signedInPage, toastShown, useServerAndBrowser, type E2eServer } from '../helpers/browser.js';

/**
 * The sales order features reached from the order's lines tab and the toolbars in Chromium, each by
 * a user whose role holds only the rights it needs: the owner's SKUs with their available qty as the
 * SKU choice of a new line (adding), manual allocation of the selected line (editing and the
 * allocate verb), the check before packing of selected orders (viewing) and "Find shipment" on the
 * shipment order list (viewing shipment orders). What each wrote is read back through the API.
 */
function engine(page: Page, functionCode: string) {
  return page.locator(`[data-testid="engine-page"][data-function="${functionCode}"]`).first();
}

function rowsOf(scope: Locator) {
  return scope.locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)');
}

function toolbarOf(scope: Locator) {
  return scope.locator(':scope > [data-testid="engine-toolbar"]');
}

const PASSWORD = 'Ord3r!Gaps9';
const squash = (texts: string[]) => texts.map((text) => text.replace(/\s+/g, ' ').trim());

describe('sales order gaps: line SKU picker, manual allocation of a line, check before packing, find shipment', () => {
  const ctx = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }));
  let admin = '';
  let owner: { _key: number; code: string };
  const orderIds: Record<string, number> = {};
  const call = <T>(path: string, body?: unknown) => apiCall<T>(ctx.server, admin, path, body);
  const linesOf = async (orderNo: string) =>
    (
      await call<{ rows: Array<{ line_no: number; sku_id: number; qty: string; allocated_qty: string; picked_qty: string }> }>('/generic/tab', {
        moduleCode: 'outbound',
        functionCode: 'so',
        subPage: 'lines',
        parentKey: orderIds[orderNo],
        page: 1,
        pageSize: 20,
      })
    ).rows
      .map((r) => ({ lineNo: r.line_no, skuId: Number(r.sku_id), qty: Number(r.qty), allocated: Number(r.allocated_qty), picked: Number(r.picked_qty) }))
      .sort((a, b) => a.lineNo - b.lineNo);
  const skuId = async (code: string) => (await apiSelection<{ _key: number }>(ctx.server, admin, 'masterdata', 'sku', [{ field: 'code', operator: '=', value: code }]))[0]._key;

  /** A user whose one role holds `permissions` and the given verbs. */
  async function userWith(server: E2eServer, login: string, permissions: Array<Record<string, unknown>>, verbs: string[] = []) {
    const status = await call<{ project: { id: number }; warehouse: { id: number } }>('/user/status');
    const role = await call<{ id: number }>('/role', { name: `Gaps ${login}`, permissions });
    for (const right of verbs) await call('/generic/adding', { moduleCode: 'identity', functionCode: 'roleVerb', record: { role_id: role.id, right_code: right } });
    await apiCall(server, admin, '/user/save', { loginAccount: login, displayName: login, password: PASSWORD, projectIds: [status.project.id], warehouseIds: [status.warehouse.id], roleIds: [role.id] });
    return { loginAccount: login, password: PASSWORD };
  }

  async function addOrder(orderNo: string, lines: Array<{ skuCode: string; qty: number }>) {
    orderIds[orderNo] = (
      await call<{ row: { _key: number } }>('/generic/adding', {
        moduleCode: 'outbound',
        functionCode: 'so',
        record: { order_no: orderNo, owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-04-01', carrier_code: 'E2E-OG' },
      })
    ).row._key;
    for (const line of lines) await call('/so/create/soDetail', { soId: orderIds[orderNo], ...line });
  }

  /** The /so page with the order `orderNo` selected and its lines tab open. */
  async function openLines(account: { loginAccount: string; password: string }, orderNo: string) {
    const page = await signedInPage(ctx.browser, ctx.server, '/page/so', { account, logToasts: true });
    const so = engine(page, 'so');
    const row = rowsOf(so).filter({ hasText: orderNo });
    await row.first().waitFor({ timeout: 60_000 });
    await selectEngineRow(row.first(), toolbarOf(so).getByTestId('engine-total'));
    const subPages = so.getByTestId('engine-subpages');
    await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Lines' }).click();
    const lines = subPages.locator('[data-testid="engine-page"][data-function="soDetail"]').first();
    await rowsOf(lines).first().waitFor({ timeout: 30_000 });
    return { page, lines };
  }

  it('prepares an order, SKUs of its owner and two lots of stock', async () => {
    admin = await apiSignIn(ctx.server);
    owner = (await apiSelection<{ _key: number; code: string }>(ctx.server, admin, 'masterdata', 'ogr'))[0];
    await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: 'E2E-OG-1', owner_id: owner._key, description: 'Gaps item', base_uom: 'EA' } });
    await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: 'E2E-OG-2', owner_id: owner._key, description: 'Gaps spare', base_uom: 'EA' } });
    // A SKU of another owner of the project, which an order of this owner cannot take.
    const owners = await apiSelection<{ _key: number; code: string }>(ctx.server, admin, 'masterdata', 'ogr');
    expect(owners.length).toBeGreaterThan(1);
    await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: 'E2E-OG-3', owner_id: owners[1]._key, description: 'Other owner item', base_uom: 'EA' } });
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: 'E2E-OG-1', expectedQty: 10, lotNo: 'OG-A' }, { skuCode: 'E2E-OG-1', expectedQty: 5, lotNo: 'OG-B' }] });
    const asnLines = (await call<{ lines: { id: number; lot_no: string }[] }>('/asn/getDetail', { id: asn.id })).lines;
    await call('/inbound/batch/receive', {
      lines: [
        { asnLineId: asnLines.find((l) => l.lot_no === 'OG-A')!.id, qty: 10, locationCode: 'A-01-2', lotNo: 'OG-A', expiryDate: '2031-01-31' },
        { asnLineId: asnLines.find((l) => l.lot_no === 'OG-B')!.id, qty: 5, locationCode: 'A-02-2', lotNo: 'OG-B', expiryDate: '2030-12-31' },
      ],
    });
    await addOrder('E2E-OG-1', [{ skuCode: 'E2E-OG-1', qty: 4 }]);
    expect(await linesOf('E2E-OG-1')).toEqual([{ lineNo: 1, skuId: await skuId('E2E-OG-1'), qty: 4, allocated: 0, picked: 0 }]);
  });

  it("offers the order owner's SKUs with their name and available qty as the SKU of a new line", async () => {
    const { page, lines } = await openLines(await userWith(ctx.server, 'og-clerk', [{ module: 'outbound', view: true, add: true }]), 'E2E-OG-1');
    await toolbarOf(lines).getByTestId('engine-add').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
    const picker = page.locator('.ant-select:has(#engine_soDetail_sku_id)');
    await picker.click();
    await page.locator('#engine_soDetail_sku_id').pressSequentially('E2E-OG');
    const offered = page.locator('.ant-select-dropdown:visible [data-testid="so-sku-option"]');
    // Code and name, and what the warehouse has available: 15 received of the first, nothing of the second.
    await eventually(async () => squash(await offered.allInnerTexts())).toEqual(['E2E-OG-1 - Gaps item 15 EA available', 'E2E-OG-2 - Gaps spare 0 EA available']);
    // The other owner's E2E-OG-3 is not offered; a text narrows the list.
    await page.locator('#engine_soDetail_sku_id').fill('');
    await page.locator('#engine_soDetail_sku_id').pressSequentially('spare');
    await eventually(async () => squash(await offered.allInnerTexts())).toEqual(['E2E-OG-2 - Gaps spare 0 EA available']);
    await page.locator('#engine_soDetail_sku_id').fill('');
    await page.locator('#engine_soDetail_sku_id').pressSequentially('E2E-OG-1');
    await eventually(async () => squash(await offered.allInnerTexts())).toEqual(['E2E-OG-1 - Gaps item 15 EA available']);
    await offered.first().click();
    await eventually(() => picker.locator('.ant-select-selection-item').innerText()).toContain('E2E-OG-1');
    await page.fill('#engine_soDetail_qty', '2');
    await saveEngineForm(page);
    const sku = await skuId('E2E-OG-1');
    await eventually(() => linesOf('E2E-OG-1')).toEqual([
      { lineNo: 1, skuId: sku, qty: 4, allocated: 0, picked: 0 },
      { lineNo: 2, skuId: sku, qty: 2, allocated: 0, picked: 0 },
    ]);
    // Without the editing right the lines tab offers no manual allocation.
    expect(await toolbarOf(lines).getByTestId('so-line-manual-allocation').count()).toBe(0);
    await page.context().close();
  });

  it('allocates the selected line by hand from its lines tab, showing the stock without internal ids', async () => {
    const allocator = await userWith(ctx.server, 'og-allocator', [{ module: 'outbound', view: true, edit: true }], ['outbound.so:allocate']);
    const { page, lines } = await openLines(allocator, 'E2E-OG-1');
    const button = toolbarOf(lines).getByTestId('so-line-manual-allocation');
    expect(await button.isDisabled()).toBe(true);
    await selectEngineRow(rowsOf(lines).first(), toolbarOf(lines).getByTestId('engine-total'));
    await button.click();
    // The dialog opens on the selected line.
    await eventually(() => page.getByTestId('so-manual-line').innerText()).toContain('Line 1: E2E-OG-1');
    const candidates = page.getByTestId('so-manual-candidates');
    const lotA = candidates.locator('tr.ant-table-row').filter({ hasText: 'OG-A' });
    const lotB = candidates.locator('tr.ant-table-row').filter({ hasText: 'OG-B' });
    await lotB.waitFor({ timeout: 30_000 });
    expect(squash(await candidates.locator('thead th').allInnerTexts())).toEqual(['SKU', 'Location', 'Lot', 'Expiry', 'Available', 'Qty to allocate']);
    expect(squash([await lotA.innerText()])[0]).toMatch(/^E2E-OG-1 A-01-2 OG-A 2031-01-31 10(\.0+)?$/);
    expect(squash([await lotB.innerText()])[0]).toMatch(/^E2E-OG-1 A-02-2 OG-B 2030-12-31 5(\.0+)?$/);
    await lotA.getByTestId('so-manual-qty').fill('1');
    await lotB.getByTestId('so-manual-qty').fill('3');
    await page.click('#so-manual-allocation-ok');
    await toastShown(page, '4 allocated.');
    const sku = await skuId('E2E-OG-1');
    await eventually(() => linesOf('E2E-OG-1')).toEqual([
      { lineNo: 1, skuId: sku, qty: 4, allocated: 4, picked: 0 },
      { lineNo: 2, skuId: sku, qty: 2, allocated: 0, picked: 0 },
    ]);
    const balances = await apiSelection<{ lot_no: string; allocated_qty: string }>(ctx.server, admin, 'inventory', 'balance', [{ field: 'sku_code', operator: '=', value: 'E2E-OG-1' }]);
    expect(balances.map((b) => [b.lot_no, Number(b.allocated_qty)]).sort()).toEqual([
      ['OG-A', 1],
      ['OG-B', 3],
    ]);
    await page.context().close();
  });

  it('checks selected orders before packing with view rights only: fully picked, or which lines are short', async () => {
    // E2E-OGP-1 picked whole; E2E-OGP-2 picked on its first line, nothing of its second (no stock).
    await addOrder('E2E-OGP-1', [{ skuCode: 'E2E-OG-1', qty: 2 }]);
    await addOrder('E2E-OGP-2', [
      { skuCode: 'E2E-OG-1', qty: 1 },
      { skuCode: 'E2E-OG-2', qty: 3 },
    ]);
    for (const orderNo of ['E2E-OGP-1', 'E2E-OGP-2']) {
      await call('/generic/behavior', { moduleCode: 'outbound', functionCode: 'so', behaviour: 'allocate', keys: [orderIds[orderNo]], inputs: {} });
      const tasks = (await call<{ tasks: Array<{ id: number; location_code: string; sku_code: string; qty: string }> }>('/so/pick', { soId: orderIds[orderNo] })).tasks;
      expect(tasks.length).toBeGreaterThan(0);
      for (const task of tasks) await call('/pick/confirm', { taskId: task.id, locationCode: task.location_code, sku: task.sku_code, qty: task.qty, toLpn: 'TOTE-OG' });
    }
    expect((await linesOf('E2E-OGP-2')).map((l) => [l.lineNo, l.qty, l.picked])).toEqual([
      [1, 1, 1],
      [2, 3, 0],
    ]);

    const viewer = await userWith(ctx.server, 'og-viewer', [{ module: 'outbound', view: true }]);
    const page = await signedInPage(ctx.browser, ctx.server, '/page/so', { account: viewer });
    const so = engine(page, 'so');
    for (const hidden of ['so-manual-allocation', 'so-import-orders']) expect(await toolbarOf(so).getByTestId(hidden).count()).toBe(0);
    await so.locator('#engine_search_so_order_no').fill('E2E-OGP-');
    await so.getByTestId('engine-search-submit').click();
    await eventually(() => rowsOf(so).filter({ hasText: 'E2E-OGP-' }).count()).toBeGreaterThanOrEqual(2);
    await eventually(() => rowsOf(so).filter({ hasText: 'E2E-OG-1' }).count()).toBe(0);
    const check = toolbarOf(so).getByTestId('so-pack-check');
    expect(await check.isDisabled()).toBe(true);
    await rowsOf(so).filter({ hasText: 'E2E-OGP-1' }).first().click();
    await rowsOf(so).filter({ hasText: 'E2E-OGP-2' }).first().click({ modifiers: ['Shift'] });
    await eventually(() => toolbarOf(so).getByTestId('engine-total').innerText()).toContain('2 selected');
    await check.click();
    const first = page.locator('[data-testid="so-pack-check-order"][data-order="E2E-OGP-1"]');
    const second = page.locator('[data-testid="so-pack-check-order"][data-order="E2E-OGP-2"]');
    await second.waitFor({ timeout: 30_000 });
    expect(await first.getByTestId('so-pack-check-verdict').innerText()).toBe('Fully picked');
    expect(await first.locator('tr.ant-table-row').count()).toBe(0);
    expect(await second.getByTestId('so-pack-check-verdict').innerText()).toBe('Picked short');
    // Only the short line is listed: line 2, 3 ordered, none picked.
    expect(squash(await second.locator('tr.ant-table-row').allInnerTexts())).toEqual([expect.stringMatching(/^2 E2E-OG-2 3 0 3$/)]);
    await page.click('#so-pack-check-close');
    // Reads only: nothing changed.
    expect((await linesOf('E2E-OGP-2')).map((l) => l.picked)).toEqual([1, 0]);
    await page.context().close();
  });

  it('finds a shipment order by its number on the shipment order list and opens it with its orders', async () => {
    const shipment = (
      await call<{ row: { _key: number } }>('/generic/adding', {
        moduleCode: 'outbound',
        functionCode: 'shipmentOrder',
        record: {
          shipment_no: 'E2E-OGS-1',
          carrier_code: 'E2E-OG',
          shipment_reference: 'REF-OG',
          expected_delivery_date: '2030-04-05',
          gateway: 'HKG',
          service: 'EXPRESS',
          service_provider: 'DHL Express',
          battery: 'none',
        },
      })
    ).row._key;
    await call('/so/addOrderToShipmentId', { shipmentOrderId: shipment, soIds: [orderIds['E2E-OGP-1'], orderIds['E2E-OGP-2']] });

    const clerk = await userWith(ctx.server, 'og-shipments', [
      { module: 'outbound', subModule: 'shipmentOrder', view: true },
      { module: 'outbound', subModule: 'shipmentOrderSo', view: true },
    ]);
    const page = await signedInPage(ctx.browser, ctx.server, '/page/shipmentOrder', { account: clerk });
    const list = engine(page, 'shipmentOrder');
    const find = toolbarOf(list).getByTestId('shipment-find').locator('input');
    await find.waitFor({ timeout: 60_000 });
    await find.fill('NO-SUCH-SHIPMENT');
    await find.press('Enter');
    expect(await popupText(page)).toContain('No record found.');
    expect(await page.getByTestId('shipment-find-result').count()).toBe(0);

    await find.fill('E2E-OGS-1');
    await find.press('Enter');
    const result = page.getByTestId('shipment-find-result');
    await result.waitFor({ timeout: 30_000 });
    expect(await page.locator('.ant-modal-title').filter({ hasText: 'E2E-OGS-1' }).count()).toBe(1);
    expect(squash([await result.locator('.ant-descriptions').innerText()])[0]).toContain('REF-OG');
    const orders = page.getByTestId('shipment-find-orders').locator('tr.ant-table-row');
    await eventually(async () => squash(await orders.allInnerTexts())).toEqual([
      expect.stringMatching(/^E2E-OGP-1 Picked E2E-OG$/),
      expect.stringMatching(/^E2E-OGP-2 Partial picked E2E-OG$/),
    ]);
    // "Show in list" filters the shipment order list to it.
    await page.getByTestId('shipment-find-filter').click();
    await eventually(() => rowsOf(engine(page, 'shipmentOrder')).filter({ hasText: 'E2E-OGS-1' }).count()).toBeGreaterThan(0);
    await page.context().close();
  });
});

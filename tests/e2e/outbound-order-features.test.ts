import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiSelection, apiSignIn, enginePage as engine, engineRows as rowsOf, engineToolbar as toolbarOf, eventually, selectEngineRow, signedInPage, toastShown, useServerAndBrowser, type E2eServer } from '../helpers/browser.js';

/**
 * Every sales order feature reached from the /so page in Chromium, each by a user whose role holds
 * only the rights it needs: split line on the lines tab (editing), the order and store-arrival
 * imports (adding and editing), manual allocation from chosen stock (editing and the allocate
 * verb), and the order's stock balance with the owner's SKUs, the pick list of the order and the
 * allocation rules (viewing only). The database effect of each is read back through the API.
 */
const PASSWORD = 'Ord3r!Features9';

async function sheet(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const worksheet = workbook.addWorksheet('rows');
  for (const row of rows) worksheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function upload(page: Page, button: string, buffer: Buffer) {
  await toolbarOf(page, 'so').getByTestId(button).click();
  await page.setInputFiles('[data-testid="so-import-file"]', { name: 'rows.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
  await page.click('#so-import-run');
}

describe('sales order features on the /so page', () => {
  const ctx = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { pdfViewer: true });
  let admin = '';
  let owner: { _key: number; code: string };
  let orderId = 0;
  const call = <T>(path: string, body?: unknown) => apiCall<T>(ctx.server, admin, path, body);
  const lines = async () =>
    (await call<{ rows: Array<{ _key: number; line_no: number; qty: string; uom: string; allocated_qty: string }> }>('/generic/tab', { moduleCode: 'outbound', functionCode: 'so', subPage: 'lines', parentKey: orderId, page: 1, pageSize: 20 })).rows
      .map((r) => ({ lineNo: r.line_no, qty: Number(r.qty), uom: r.uom, allocated: Number(r.allocated_qty) }))
      .sort((a, b) => a.lineNo - b.lineNo);
  const orders = (prefix: string) => apiSelection<{ _key: number; order_no: string; status: string }>(ctx.server, admin, 'outbound', 'so', [{ field: 'order_no', operator: 'beginsWith', value: prefix }]);

  /** A user whose one role holds `permissions` on the outbound module and the given verbs. */
  async function userWith(server: E2eServer, login: string, permission: { view?: boolean; add?: boolean; edit?: boolean }, verbs: string[] = []) {
    const status = await call<{ project: { id: number }; warehouse: { id: number } }>('/user/status');
    const role = await call<{ id: number }>('/role', { name: `Orders ${login}`, permissions: [{ module: 'outbound', view: true, ...permission }] });
    for (const right of verbs) await call('/generic/adding', { moduleCode: 'identity', functionCode: 'roleVerb', record: { role_id: role.id, right_code: right } });
    await apiCall(server, admin, '/user/save', { loginAccount: login, displayName: login, password: PASSWORD, projectIds: [status.project.id], warehouseIds: [status.warehouse.id], roleIds: [role.id] });
    return { loginAccount: login, password: PASSWORD };
  }

  async function openOrder(account: { loginAccount: string; password: string }, options: { logToasts?: boolean } = {}) {
    const page = await signedInPage(ctx.browser, ctx.server, '/page/so', { account, logToasts: options.logToasts });
    const row = rowsOf(page, 'so').filter({ hasText: 'E2E-OF-1' });
    await row.first().waitFor({ timeout: 60_000 });
    await selectEngineRow(row.first(), toolbarOf(page, 'so').getByTestId('engine-total'));
    return page;
  }

  it('prepares an order of 8 and two lots of stock', async () => {
    admin = await apiSignIn(ctx.server);
    owner = (await apiSelection<{ _key: number; code: string }>(ctx.server, admin, 'masterdata', 'ogr'))[0];
    await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: 'E2E-OF-1', owner_id: owner._key, description: 'Order features item', base_uom: 'EA' } });
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: 'E2E-OF-1', expectedQty: 10, lotNo: 'LOT-A' }, { skuCode: 'E2E-OF-1', expectedQty: 5, lotNo: 'LOT-B' }] });
    const asnLines = (await call<{ lines: { id: number; lot_no: string }[] }>('/asn/getDetail', { id: asn.id })).lines;
    await call('/inbound/batch/receive', {
      lines: [
        { asnLineId: asnLines.find((l) => l.lot_no === 'LOT-A')!.id, qty: 10, locationCode: 'A-01-2', lotNo: 'LOT-A' },
        { asnLineId: asnLines.find((l) => l.lot_no === 'LOT-B')!.id, qty: 5, locationCode: 'A-02-2', lotNo: 'LOT-B' },
      ],
    });
    orderId = (await call<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: 'E2E-OF-1', owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-04-01' },
    })).row._key;
    await call('/so/create/soDetail', { soId: orderId, skuCode: 'E2E-OF-1', qty: 8 });
    expect(await lines()).toEqual([{ lineNo: 1, qty: 8, uom: 'EA', allocated: 0 }]);
  });

  it('splits 3 of a line into a new line in cases on the lines tab with edit rights, and shows the refusal of a split of the whole line', async () => {
    const page = await openOrder(await userWith(ctx.server, 'of-splitter', { edit: true }), { logToasts: true });
    // Without the add right the order import is not offered.
    expect(await toolbarOf(page, 'so').getByTestId('so-import-orders').count()).toBe(0);
    const subPages = engine(page, 'so').getByTestId('engine-subpages');
    await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Lines' }).click();
    const linePage = subPages.locator('[data-testid="engine-page"][data-function="soDetail"]').first();
    const lineRow = linePage.locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)').first();
    await lineRow.waitFor({ timeout: 30_000 });
    const lineTotal = linePage.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-total');
    await selectEngineRow(lineRow, lineTotal);
    const split = linePage.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-behaviour-splitLine');
    await split.click();
    // The whole line cannot move: the new line must keep something on the old one.
    await page.getByTestId('engine-input-qty').fill('8');
    // The field to change is a choice among the fields a split may change, the unit first.
    await eventually(() => page.getByTestId('engine-input-field').innerText()).toContain('UOM');
    await page.getByTestId('engine-input-field').click();
    await eventually(() => page.locator('.ant-select-dropdown:visible .ant-select-item-option').allInnerTexts()).toEqual(expect.arrayContaining(['UOM', 'Lot no.']));
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="UOM"]').click();
    await page.getByTestId('engine-input-toValue').fill('CS');
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    await eventually(() => page.locator('.wms-popup-message .wms-popup-content').innerText()).toBe('Not allowed to split.');
    await page.locator('.wms-popup-message .wms-popup-ok').click();
    expect(await lines()).toEqual([{ lineNo: 1, qty: 8, uom: 'EA', allocated: 0 }]);

    // The dialog stays open after the refusal, with what was entered, for a correction.
    expect(await page.getByTestId('engine-input-toValue').inputValue()).toBe('CS');
    await page.getByTestId('engine-input-qty').fill('3');
    await page.getByTestId('engine-input-toValue').fill('CS');
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    await toastShown(page, '3 moved to the new line 2.');
    await eventually(lines).toEqual([
      { lineNo: 1, qty: 5, uom: 'EA', allocated: 0 },
      { lineNo: 2, qty: 3, uom: 'CS', allocated: 0 },
    ]);
    await page.context().close();
  });

  it('imports orders and store-arrival times from the toolbar: a bad row refuses the file whole and is listed', async () => {
    const page = await openOrder(await userWith(ctx.server, 'of-importer', { add: true, edit: true }), { logToasts: true });
    const header = ['Order no', 'Owner', 'SKU', 'Qty', 'Address (English)'];
    await upload(page, 'so-import-orders', await sheet([header, ['E2E-OFI-1', owner.code, 'E2E-OF-1', 2, '2 Harbour Road'], ['E2E-OFI-2', owner.code, 'NO-SUCH-SKU', 1, '3 Harbour Road']]));
    const problems = page.getByTestId('so-import-problems');
    await problems.waitFor({ timeout: 30_000 });
    expect(await problems.innerText()).toContain('row 3: skuCode: Invalid SKU.');
    expect(await problems.innerText()).not.toContain('row 2');
    expect(await orders('E2E-OFI-')).toEqual([]);
    await page.locator('.ant-modal-footer button').filter({ hasText: 'Cancel' }).click();

    await upload(page, 'so-import-orders', await sheet([header, ['E2E-OFI-1', owner.code, 'E2E-OF-1', 2, '2 Harbour Road'], ['E2E-OFI-2', owner.code, 'E2E-OF-1', 1, '3 Harbour Road']]));
    await toastShown(page, '2 order(s) with 2 line(s) imported.');
    expect((await orders('E2E-OFI-')).map((o) => [o.order_no, o.status]).sort()).toEqual([
      ['E2E-OFI-1', 'new'],
      ['E2E-OFI-2', 'new'],
    ]);

    await upload(page, 'so-import-arrival', await sheet([['Order no', 'Arrival'], ['E2E-OF-1', '2030-04-03 09:30'], ['NO-SUCH-ORDER', '2030-04-03 10:00']]));
    await problems.waitFor({ timeout: 30_000 });
    expect(await problems.innerText()).toContain('row 3: orderNo');
    await page.locator('.ant-modal-footer button').filter({ hasText: 'Cancel' }).click();
    const arrivalOf = async () => {
      const answer = await fetch(new URL('api/so/export', ctx.server.url), { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ format: 'csv' }) });
      const row = (await answer.text()).split('\r\n').find((line) => line.split(',')[0].replace(/"/g, '') === 'E2E-OF-1');
      return row?.split(',')[7] ?? '';
    };
    expect(await arrivalOf()).toBe('');
    await upload(page, 'so-import-arrival', await sheet([['Order no', 'Arrival'], ['E2E-OF-1', '2030-04-03 09:30']]));
    await toastShown(page, 'Store arrival set on 1 order(s).');
    expect(await arrivalOf()).toContain('2030-04-03');
    await page.context().close();
  });

  it('allocates a line by hand from chosen stock, refusing more than a lot has', async () => {
    const page = await openOrder(await userWith(ctx.server, 'of-allocator', { edit: true }, ['outbound.so:allocate']), { logToasts: true });
    await toolbarOf(page, 'so').getByTestId('so-manual-allocation').click();
    const candidates = page.getByTestId('so-manual-candidates');
    const lotA = candidates.locator('tr.ant-table-row').filter({ hasText: 'LOT-A' });
    const lotB = candidates.locator('tr.ant-table-row').filter({ hasText: 'LOT-B' });
    await lotB.waitFor({ timeout: 30_000 });
    // Location, lot, available qty and SKU code are shown; no internal id.
    expect(await lotA.innerText()).toMatch(/E2E-OF-1\s+A-01-2\s+LOT-A/);
    expect(await lotB.innerText()).toContain('A-02-2');
    expect(await lotB.innerText()).toMatch(/LOT-B\s+5(\.0+)?(\s|$)/);
    await lotA.getByTestId('so-manual-qty').fill('2');
    await lotB.getByTestId('so-manual-qty').fill('6');
    await page.click('#so-manual-allocation-ok');
    await eventually(() => page.locator('.wms-popup-message .wms-popup-content').innerText()).toContain('Not enough inventory');
    await page.locator('.wms-popup-message .wms-popup-ok').click();
    expect(await lines()).toEqual([
      { lineNo: 1, qty: 5, uom: 'EA', allocated: 0 },
      { lineNo: 2, qty: 3, uom: 'CS', allocated: 0 },
    ]);

    await lotB.getByTestId('so-manual-qty').fill('3');
    await page.click('#so-manual-allocation-ok');
    await toastShown(page, '5 allocated.');
    await eventually(lines).toEqual([
      { lineNo: 1, qty: 5, uom: 'EA', allocated: 5 },
      { lineNo: 2, qty: 3, uom: 'CS', allocated: 0 },
    ]);
    expect((await orders('E2E-OF-1')).find((o) => o._key === orderId)?.status).toBe('partial_allocated');
    const balances = await apiSelection<{ lot_no: string; allocated_qty: string }>(ctx.server, admin, 'inventory', 'balance', [{ field: 'sku_code', operator: '=', value: 'E2E-OF-1' }]);
    expect(balances.map((b) => [b.lot_no, Number(b.allocated_qty)]).sort()).toEqual([
      ['LOT-A', 2],
      ['LOT-B', 3],
    ]);
    await page.context().close();
  });

  it('shows the stock balance and the owner SKUs, prints the pick list and opens the allocation rules with view rights only', async () => {
    const page = await openOrder(await userWith(ctx.server, 'of-viewer', {}));
    const toolbar = toolbarOf(page, 'so');
    for (const hidden of ['so-manual-allocation', 'so-import-orders', 'so-import-arrival']) expect(await toolbar.getByTestId(hidden).count()).toBe(0);

    await toolbar.getByTestId('so-balance').click();
    const balanceLines = page.getByTestId('so-balance-lines');
    await balanceLines.locator('tr').filter({ hasText: 'E2E-OF-1' }).first().waitFor({ timeout: 30_000 });
    // Line 2 (3 open) against 10 available of the 15 received: 5 are allocated to line 1.
    expect((await balanceLines.locator('tr.ant-table-row').nth(1).innerText()).trim()).toMatch(/^2\s+E2E-OF-1\s+3(\.0+)?\s+3\s+10(\.0+)?\s+0$/);
    await page.getByTestId('so-sku-search').locator('input').fill('E2E-OF');
    await page.getByTestId('so-sku-search').locator('input').press('Enter');
    const skus = page.getByTestId('so-sku-results');
    await eventually(() => skus.locator('tr.ant-table-row').first().innerText()).toMatch(/E2E-OF-1\s+Order features item\s+EA\s+10(\.0+)?/);
    await page.click('#so-balance-close');

    const [pdf, viewer] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/pick/list.pdf')),
      page.context().waitForEvent('page'),
      toolbar.getByTestId('so-pick-list').click(),
    ]);
    expect(pdf.status()).toBe(200);
    expect(pdf.url()).toContain(`soId=${orderId}`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    await eventually(() => viewer.url()).toMatch(/^blob:/);

    await toolbar.getByTestId('so-rules').click();
    await eventually(() => page.url()).toContain('/page/soRule');
    await engine(page, 'soRule').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 30_000 });
    await page.context().close();
  });
});

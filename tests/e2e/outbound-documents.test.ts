import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { apiCall, apiSignIn, enginePage as engine, engineRows as rowsOf, engineToolbar as toolbarOf, eventually, selectEngineRow, signedInPage, toastShown, useServerAndBrowser, type E2eServer } from '../helpers/browser.js';

async function ordersNamed(server: E2eServer, token: string, orderNo: string) {
  const answer = await apiCall<{ rows: Array<{ order_no: string; status: string }> }>(server, token, '/generic/selection', {
    moduleCode: 'outbound',
    functionCode: 'so',
    page: 1,
    pageSize: 10,
    conditions: { combinator: 'and', rules: [{ field: 'order_no', operator: 'beginsWith', value: orderNo }] },
  });
  return answer.rows;
}

/**
 * Order entry in Chromium on the demo data: a pre-sales order confirmed into a sales order on the
 * /pso page, an order import with two bad rows refused whole with both rows listed, and a wave
 * unwaved on the /wave page.
 */
describe('outbound order entry', () => {
  const ctx = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });

  it('confirms a pre-sales order into a sales order on /pso', async () => {
    const { server, browser } = ctx;
    const token = await apiSignIn(server);
    expect(await ordersNamed(server, token, 'PSO-DEMO-1')).toEqual([]);
    const page = await signedInPage(browser, server, '/page/pso');
    const row = rowsOf(page, 'pso').filter({ hasText: 'PSO-DEMO-1' });
    await row.first().waitFor({ timeout: 60_000 });
    await selectEngineRow(row.first(), toolbarOf(page, 'pso').getByTestId('engine-total'));
    await toolbarOf(page, 'pso').getByTestId('engine-behaviour-confirm').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await eventually(() => ordersNamed(server, token, 'PSO-DEMO-1')).toEqual([expect.objectContaining({ order_no: 'PSO-DEMO-1', status: 'new' })]);
    await eventually(() => rowsOf(page, 'pso').filter({ hasText: 'PSO-DEMO-1' }).first().innerText()).toContain('Confirmed');
    await page.context().close();
  });

  it('shows the shipped project order page on /proj_ge until the project publishes its own', async () => {
    const page = await signedInPage(ctx.browser, ctx.server, '/page/proj_ge');
    const shipped = page.locator('[data-testid="engine-page"][data-function="proj_ge"]').first();
    await shipped.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('engine-page-missing').count()).toBe(0);
    await page.context().close();
  });

  it('unwaves a wave of one order on /wave: the order is free again, a second unwave shows the refusal', async () => {
    const { server, browser } = ctx;
    const token = await apiSignIn(server);
    const call = <T>(path: string, body: unknown) => apiCall<T>(server, token, path, body);
    const owner = (await call<{ rows: Array<{ _key: number; code: string }> }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'ogr', page: 1, pageSize: 10, conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: 'ACME' }] } })).rows[0];
    const sku = (await call<{ rows: Array<{ code: string }> }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'sku', page: 1, pageSize: 1, conditions: { combinator: 'and', rules: [{ field: 'owner_id', operator: '=', value: owner._key }] } })).rows[0];
    const order = (await call<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: 'E2E-UNWAVE-1', owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-04-01', carrier_code: 'E2E-UNWAVE' },
    })).row._key;
    await call('/so/create/soDetail', { soId: order, skuCode: sku.code, qty: 1 });
    const wave = await call<{ waveId: number; waveNo: string }>('/so/wave/save', { orderIds: [order] });
    const orderNamed = async () => (await ordersNamed(server, token, 'E2E-UNWAVE-1'))[0] as { order_no: string; status: string; wave_id: string | null };
    expect((await orderNamed()).wave_id).toBe(wave.waveNo);

    const page = await signedInPage(browser, server, '/page/wave', { logToasts: true });
    const row = rowsOf(page, 'wave').filter({ hasText: wave.waveNo });
    await row.first().waitFor({ timeout: 60_000 });
    await selectEngineRow(row.first(), toolbarOf(page, 'wave').getByTestId('engine-total'));
    const button = toolbarOf(page, 'wave').getByTestId('engine-behaviour-unwave');
    await button.click();
    const confirm = page.locator('.wms-popup-confirm.wms-popup-top');
    expect(await confirm.innerText()).toContain('Take every order of the selected waves off its wave?');
    await confirm.locator('.wms-popup-ok').click();
    await toastShown(page, '1 order(s) taken off their wave.');
    await eventually(async () => (await orderNamed()).wave_id).toBeNull();
    expect((await orderNamed()).status).toBe('new');
    await eventually(async () => (await call<{ rows: Array<{ id: number; order_count: number }> }>('/wave/list', {})).rows.find((w) => w.id === wave.waveId)?.order_count).toBe(0);

    // The wave has no order left: unwaving it again is refused with the server's message.
    await selectEngineRow(row.first(), toolbarOf(page, 'wave').getByTestId('engine-total'));
    await button.click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await eventually(() => page.locator('.wms-popup-message .wms-popup-content').innerText()).toBe('The document has no lines.');
    await page.locator('.wms-popup-message .wms-popup-ok').click();
    expect((await orderNamed()).wave_id).toBeNull();
    await page.context().close();
  });

  it('refuses an order import with two bad rows whole and lists both', async () => {
    const { server, browser } = ctx;
    const token = await apiSignIn(server);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('orders');
    sheet.addRow(['Order no', 'Owner', 'Customer order no', 'Ship-to name', 'Address (English)', 'Address (Chinese)', 'Carrier', 'Ship date']);
    sheet.addRow(['E2E-IMP-1', 'ACME', '', 'Shop 1', '1 Nathan Road', '', 'DHL', '2030-06-30']);
    sheet.addRow(['E2E-IMP-2', 'ACME', '', 'Shop 2', '', '', 'DHL', '2030-06-30']);
    sheet.addRow(['E2E-IMP-3', 'NO-SUCH-OWNER', '', 'Shop 3', '3 Nathan Road', '', 'DHL', '2030-06-30']);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());

    const page = await signedInPage(browser, server, '/page/so');
    await engine(page, 'so').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    await toolbarOf(page, 'so').getByTestId('engine-import').click();
    await page.setInputFiles('[data-testid="engine-import-file"]', { name: 'orders.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file });
    await page.click('#engine-import-run');
    const problems = page.getByTestId('engine-import-problems');
    await problems.waitFor({ timeout: 30_000 });
    const text = await problems.innerText();
    expect(text).toContain('row 3');
    expect(text).toContain('row 4');
    expect(text).not.toContain('row 2');
    expect(await ordersNamed(server, token, 'E2E-IMP-')).toEqual([]);
    await page.context().close();
  });
});

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiSelection, apiSignIn, chooseByTyping, eventually, saveEngineForm, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { rfEnter, rfReady } from '../helpers/rf-flow-e2e.js';

/**
 * Outbound in Chromium against the built app on demo data: two orders entered on the /so page, the
 * first allocated there by FEFO (earliest expiry first), a wave built on the /wave page from both and released there, the pick
 * list printed as a PDF, picking on the handheld screen size (360x640) with the keyboard on /pick's
 * handheld tab (the handheld runtime's pick function), each task by its number, one pick short; the
 * orders, the wave and the balance agree afterwards.
 */
describe('outbound from order to pick in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true, pdfViewer: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);

  const grid = (page: Page, functionCode: string) => page.locator(`[data-testid="engine-page"][data-function="${functionCode}"]`).first();
  const toolbar = (page: Page, functionCode: string) => grid(page, functionCode).locator(':scope > [data-testid="engine-toolbar"]');
  const rows = (page: Page, functionCode: string) => grid(page, functionCode).locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)');

  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(e2e.server, token, moduleCode, functionCode, rules);

  it('allocates by FEFO, builds and releases a wave, prints the pick list, picks on the handheld with a short pick', async () => {
    token = await apiSignIn(e2e.server);
    const owner = (await selection<{ _key: number; code: string }>('masterdata', 'ogr'))[0];
    const sku = (await call<{ row: { _key: number; code: string } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: 'E2E-PICK-1', owner_id: owner._key, description: 'Pick test item', base_uom: 'EA' } })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soRule', record: { owner_id: owner._key, sku_id: sku._key, strategy: 'fefo', min_shelf_life_days: 0, pick_face_first: false, active: true } });

    // Stock of two lots: 10 expiring late in A-01-2, 4 expiring early in A-02-2, received through inbound.
    const asn = await call<{ id: number; asn_no: string }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', {
      asnId: asn.id,
      lines: [
        { skuCode: 'E2E-PICK-1', expectedQty: 10, lotNo: 'LATE', expiryDate: '2031-06-30' },
        { skuCode: 'E2E-PICK-1', expectedQty: 4, lotNo: 'EARLY', expiryDate: '2030-06-30' },
      ],
    });
    const asnLines = (await call<{ lines: { id: number; lot_no: string }[] }>('/asn/getDetail', { id: asn.id })).lines;
    const late = asnLines.find((l) => l.lot_no === 'LATE')!;
    const early = asnLines.find((l) => l.lot_no === 'EARLY')!;
    await call('/inbound/batch/receive', {
      lines: [
        { asnLineId: late.id, qty: 10, locationCode: 'A-01-2', lotNo: 'LATE', expiryDate: '2031-06-30' },
        { asnLineId: early.id, qty: 4, locationCode: 'A-02-2', lotNo: 'EARLY', expiryDate: '2030-06-30' },
      ],
    });

    // Both orders entered on the /so page: the header, then its line on the line tab.
    const ui = await signedInPage(e2e.browser, e2e.server, '/page/so', { viewport: { width: 1440, height: 900 } });
    await grid(ui, 'so').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    const enterOrder = async (orderNo: string, qty: number): Promise<number> => {
      await toolbar(ui, 'so').getByTestId('engine-add').click();
      await ui.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
      await ui.fill('#engine_so_order_no', orderNo);
      await chooseByTyping(ui, 'engine_so_owner_id', owner.code);
      await ui.fill('#engine_so_ship_to_address_en', '1 Harbour Road');
      await ui.locator('#engine_so_required_ship_date').click();
      await ui.locator('#engine_so_required_ship_date').fill('2030-03-01');
      await ui.keyboard.press('Enter');
      await ui.fill('#engine_so_carrier_code', 'E2E-WAVE');
      await saveEngineForm(ui);
      const entered = (await selection<{ _key: number; owner_id: number; ship_to_address_en: string; required_ship_date: string; carrier_code: string }>('outbound', 'so', [
        { field: 'order_no', operator: '=', value: orderNo },
      ]))[0];
      expect(entered).toMatchObject({ owner_id: owner._key, ship_to_address_en: '1 Harbour Road', carrier_code: 'E2E-WAVE' });
      expect(String(entered.required_ship_date).slice(0, 10)).toBe('2030-03-01');
      await eventually(() => rows(ui, 'so').filter({ hasText: orderNo }).count()).toBeGreaterThan(0);
      await rows(ui, 'so').filter({ hasText: orderNo }).first().click();
      const subPages = grid(ui, 'so').getByTestId('engine-subpages');
      await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Lines' }).click();
      const linePage = subPages.locator('[data-testid="engine-page"][data-function="soDetail"]').first();
      await linePage.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-add').click();
      await ui.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
      await chooseByTyping(ui, 'engine_soDetail_sku_id', 'E2E-PICK-1');
      await ui.fill('#engine_soDetail_qty', String(qty));
      await saveEngineForm(ui);
      const lines = await call<{ rows: { sku_id: number; qty: string }[] }>('/generic/tab', { moduleCode: 'outbound', functionCode: 'so', subPage: 'lines', parentKey: entered._key, page: 1, pageSize: 10 });
      expect(lines.rows.map((r) => [r.sku_id, Number(r.qty)])).toEqual([[sku._key, qty]]);
      return entered._key;
    };

    // The first order allocated there: FEFO takes the early lot. The second stays new until its wave is released.
    const first = await enterOrder('E2E-SO-1', 3);
    await rows(ui, 'so').filter({ hasText: 'E2E-SO-1' }).first().click();
    // Allocating asks no confirmation (it can be undone by unallocate).
    await toolbar(ui, 'so').getByTestId('engine-behaviour-allocate').click();
    await eventually(async () => (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: 'E2E-SO-1' }]))[0]?.status).toBe('allocated');
    const second = await enterOrder('E2E-SO-2', 6);
    expect((await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: 'E2E-SO-2' }]))[0]?.status).toBe('new');
    await ui.context().close();

    const balances = async () =>
      selection<{ location_code: string; lot_no: string; lpn: string; on_hand_qty: string; allocated_qty: string; picked_qty: string }>('inventory', 'balance', [{ field: 'sku_code', operator: '=', value: 'E2E-PICK-1' }]);
    const earlyRow = (await balances()).find((b) => b.lot_no === 'EARLY')!;
    expect(Number(earlyRow.allocated_qty)).toBe(3);
    expect(Number((await balances()).find((b) => b.lot_no === 'LATE')!.allocated_qty)).toBe(0);

    // The /wave page: create wave by carrier (the dialog shows both orders first), then release it.
    const page = await signedInPage(e2e.browser, e2e.server, '/page/wave');
    await grid(page, 'wave').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    await toolbar(page, 'wave').getByTestId('outbound-create-wave').click();
    await chooseByTyping(page, 'outbound_create_wave_carrierCode', 'E2E-WAVE');
    await page.getByTestId('outbound-create-wave-show').click();
    await eventually(() => page.getByTestId('outbound-create-wave-orders').locator('tbody tr.ant-table-row').count()).toBe(2);
    await page.getByTestId('outbound-create-wave-ok').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    const wave = await (async () => {
      let found: { id: number; wave_no: string; status: string; order_count: number } | undefined;
      await eventually(async () => {
        found = (await call<{ rows: Array<{ id: number; wave_no: string; status: string; order_count: number; carrier_code: string }> }>('/wave/list', {})).rows.find((w) => w.carrier_code === 'E2E-WAVE');
        return found?.order_count;
      }).toBe(2);
      return found!;
    })();
    expect(wave.status).toBe('new');

    // Before release the pick list is refused: allocate first.
    const refused = await fetch(new URL(`api/pick/list.pdf?waveId=${wave.id}`, e2e.server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe('Not allowed to print: allocate or scan-pack first.');

    await page.reload();
    await eventually(() => rows(page, 'wave').filter({ hasText: wave.wave_no }).count()).toBe(1);
    await rows(page, 'wave').filter({ hasText: wave.wave_no }).first().click();
    await toolbar(page, 'wave').getByTestId('engine-behaviour-release').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await eventually(async () => (await call<{ rows: Array<{ id: number; status: string }> }>('/wave/list', {})).rows.find((w) => w.id === wave.id)?.status).toBe('released');
    await page.context().close();

    // The pick list on the /pick page: a PDF.
    const desk = await signedInPage(e2e.browser, e2e.server, '/page/pick');
    await desk.getByTestId('pick-tasks').waitFor();
    await desk.getByTestId('pick-wave').click();
    await desk.locator('.ant-select-item-option').filter({ hasText: wave.wave_no }).click();
    await eventually(() => desk.getByTestId('pick-wave-progress').innerText()).toContain('2 order(s)');
    const [pdf, viewer] = await Promise.all([
      desk.waitForResponse((r) => r.url().includes('/api/pick/list.pdf')),
      desk.context().waitForEvent('page'),
      desk.getByTestId('pick-print').click(),
    ]);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    // The PDF opens in a tab of its own; the same call answers a PDF document.
    await eventually(() => viewer.url()).toMatch(/^blob:/);
    const file = await fetch(pdf.url(), { headers: { authorization: `Bearer ${token}` } });
    expect(Buffer.from(await file.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    await desk.context().close();

    // Handheld picking at 360x640 with the keyboard: scan location, SKU, qty and tote; the last pick short.
    const tasks = (await call<{ tasks: Array<{ id: number; order_no: string; location_code: string; lot_no: string; qty: string }> }>('/pick/tasks', { waveId: wave.id })).tasks;
    expect(tasks.map((x) => [x.order_no, x.lot_no, Number(x.qty)]).sort()).toEqual([
      ['E2E-SO-1', 'EARLY', 3],
      ['E2E-SO-2', 'EARLY', 1],
      ['E2E-SO-2', 'LATE', 5],
    ]);
    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/pick', { viewport: { width: 360, height: 640 } });
    await rfReady(handheld, `E2E-PICK-${Date.now().toString(36)}`);
    const feedback = handheld.getByTestId('handheld-feedback');
    // Each task by its number: the runtime's order search finds the task, and starts over once it is picked.
    const pick = async (task: (typeof tasks)[number], qty: number, tote: string, reason?: string) => {
      await rfEnter(handheld, String(task.id), 'location');
      await rfEnter(handheld, 'WRONG-LOC', 'location');
      await eventually(() => feedback.getAttribute('data-tone')).toBe('error');
      await rfEnter(handheld, task.location_code, 'sku');
      await rfEnter(handheld, 'E2E-PICK-1', 'qty');
      // A short pick asks for its reason (nothing of the SKU is free elsewhere: the rest is given back, unasked).
      if (reason) {
        await rfEnter(handheld, String(qty), 'reason');
        await rfEnter(handheld, reason, 'tote');
      } else await rfEnter(handheld, String(qty), 'tote');
      await rfEnter(handheld, tote, 'search');
      // The pick's own answer names its order: the short pick's question before it is a warning too.
      await eventually(async () => `${await feedback.getAttribute('data-tone')} ${await feedback.innerText()}`).toContain(`${reason ? 'warning' : 'success'} Picked ${qty} of`);
      await eventually(() => feedback.innerText()).toContain(`for ${task.order_no};`);
    };
    const byKey = (order: string, lot: string) => tasks.find((x) => x.order_no === order && x.lot_no === lot)!;
    // More than the task holds is refused on the screen, nothing picked.
    await rfEnter(handheld, String(byKey('E2E-SO-1', 'EARLY').id), 'location');
    await rfEnter(handheld, byKey('E2E-SO-1', 'EARLY').location_code, 'sku');
    await rfEnter(handheld, 'E2E-PICK-1', 'qty');
    await rfEnter(handheld, '4', 'qty');
    await eventually(() => feedback.innerText()).toContain('Not allowed to pick more than allocated');
    await handheld.getByTestId('handheld-back').click();
    await eventually(() => handheld.getByTestId('rf-prompt').getAttribute('data-step')).toBe('search');
    await pick(byKey('E2E-SO-1', 'EARLY'), 3, 'TOTE-E2E-1');
    await pick(byKey('E2E-SO-2', 'EARLY'), 1, 'TOTE-E2E-2');
    await pick(byKey('E2E-SO-2', 'LATE'), 4, 'TOTE-E2E-2', 'Damaged');
    await handheld.context().close();

    // Orders, wave and balance agree.
    const orders = await selection<{ _key: number; status: string }>('outbound', 'so', [{ field: 'order_no', operator: 'in', value: ['E2E-SO-1', 'E2E-SO-2'] }]);
    expect(orders.find((o) => o._key === first)?.status).toBe('picked');
    expect(orders.find((o) => o._key === second)?.status).toBe('partial_picked');
    const finalWave = (await call<{ rows: Array<{ id: number; status: string; picked_qty: string; allocated_qty: string }> }>('/wave/list', {})).rows.find((w) => w.id === wave.id)!;
    expect(finalWave).toMatchObject({ status: 'picked' });
    expect(Number(finalWave.picked_qty)).toBe(8);
    expect(Number(finalWave.allocated_qty)).toBe(0);
    const after = await balances();
    const sum = (field: 'on_hand_qty' | 'allocated_qty' | 'picked_qty') => after.reduce((n, b) => n + Number(b[field]), 0);
    expect(sum('on_hand_qty')).toBe(14);
    expect(sum('picked_qty')).toBe(8);
    expect(sum('allocated_qty')).toBe(0);
    expect(after.filter((b) => b.lpn.startsWith('TOTE-E2E')).reduce((n, b) => n + Number(b.picked_qty), 0)).toBe(8);
    expect(Number(after.find((b) => b.lot_no === 'LATE' && b.location_code === 'A-01-2')!.on_hand_qty)).toBe(6);
  });
});

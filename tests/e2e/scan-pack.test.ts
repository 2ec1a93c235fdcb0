import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gs1CheckDigit } from '../../src/common/gs1.js';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * Scan and pack in Chromium with the keyboard alone, as a keyboard-wedge scanner works: an order of
 * two lines, waved, released and picked through the API, is packed on the desk by a GS1-128 label
 * (GTIN and count) and by a UPC into two cartons, which close with weights and dimensions, and is
 * checked complete: packed. On the way an over-pack, an unknown SKU and a scan into the closed
 * carton are refused with their messages and change nothing; the pack list opens once a carton is
 * closed; two scans in a dead spot (the browser online, the server out of reach) wait in the offline
 * queue and apply once each when the server answers again. A second order is packed on a
 * 360x640 handheld. Every code is made per run.
 */
interface Pack {
  order: { id: number; orderNo: string; status: string };
  lines: Array<{ skuCode: string; picked: string; packed: string }>;
  cartons: Array<{ cartonNo: string; status: string; grossWeight: string | null; netWeight: string | null; weightUom: string | null; length: string | null; lines: Array<{ skuCode: string; qty: string }> }>;
}

describe('scan and pack in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { pdfViewer: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);
  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(e2e.server, token, moduleCode, functionCode, rules);

  const run = `${Date.now()}`.slice(-9);
  const ean13 = (twelve: string) => twelve + gs1CheckDigit(twelve);
  const EAN_A = ean13(`20${run}1`);
  const EAN_B = ean13(`20${run}2`);
  const SKU_A = `E2E-PK-A-${run}`;
  const SKU_B = `E2E-PK-B-${run}`;

  /** A picked order of these lines: entered, put on a wave, released and every task picked onto a tote. */
  async function pickedOrder(orderNo: string, lines: Array<[string, number]>): Promise<{ soId: number; waveNo: string }> {
    const owner = (await selection<{ _key: number; code: string }>('masterdata', 'ogr'))[0];
    const header = (
      await call<{ row: { _key: number } }>('/generic/adding', {
        moduleCode: 'outbound',
        functionCode: 'so',
        record: { order_no: orderNo, owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01', carrier_code: `PK${run}` },
      })
    ).row;
    for (const [skuCode, qty] of lines) {
      const sku = (await selection<{ _key: number }>('masterdata', 'sku', [{ field: 'code', operator: '=', value: skuCode }]))[0];
      await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: header._key, sku_id: sku._key, qty: String(qty) } });
    }
    const wave = await call<{ waveId: number; waveNo: string }>('/so/wave/save', { orderIds: [header._key] });
    await call('/wave/release', { waveId: wave.waveId });
    const tasks = (await call<{ tasks: Array<{ id: number; location_code: string; sku_code: string; qty: string }> }>('/pick/tasks', { soId: header._key, openOnly: true })).tasks;
    expect(tasks.length).toBeGreaterThanOrEqual(lines.length);
    for (const task of tasks) await call('/pick/confirm', { taskId: task.id, locationCode: task.location_code, sku: task.sku_code, qty: String(Number(task.qty)), toLpn: `TOTE-${run}` });
    const order = (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: orderNo }]))[0];
    expect(order.status).toBe('picked');
    return { soId: header._key, waveNo: wave.waveNo };
  }

  /** Types into the focused scan field and presses Enter, as a scanner does. */
  async function scan(page: Page, text: string) {
    const field = page.getByTestId('pack-scan');
    await field.waitFor();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement && !(el as HTMLInputElement).disabled)).toBe(true);
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  const packOf = (orderNo: string) => call<Pack>('/scanPack', { orderNo });
  const feedback = (page: Page) => page.getByTestId('handheld-feedback');
  const step = (page: Page) => page.getByTestId('pack-flow').getAttribute('data-step');

  /** Waits until the feedback line says this with this tone. */
  async function told(page: Page, tone: string, text: string | RegExp) {
    await eventually(async () => `${await feedback(page).getAttribute('data-tone')}|${await feedback(page).innerText()}`).toMatch(
      typeof text === 'string' ? new RegExp(`^${tone}\\|${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) : new RegExp(`^${tone}\\|${text.source}`),
    );
  }

  /** The close form with the keyboard alone: Enter goes down the fields and closes at the last. */
  async function closeWith(page: Page, values: string[]) {
    await page.keyboard.press('F2');
    await page.getByTestId('pack-close-form').waitFor();
    await expect.poll(() => page.getByTestId('pack-close-grossWeight').evaluate((el) => el === document.activeElement)).toBe(true);
    for (const value of values) {
      if (value) await page.keyboard.type(value);
      await page.keyboard.press('Enter');
    }
  }

  it('packs two lines by GS1-128 label and UPC into two cartons with the keyboard, refusing what it must, and checks the order complete', async () => {
    token = await apiSignIn(e2e.server);
    const owner = (await selection<{ _key: number; code: string }>('masterdata', 'ogr'))[0];
    for (const [code, ean] of [
      [SKU_A, EAN_A],
      [SKU_B, EAN_B],
    ]) {
      const sku = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code, owner_id: owner._key, description: `Pack item ${code}`, base_uom: 'EA' } })).row;
      await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'skuUpc', record: { sku_id: sku._key, upc: ean, uom: 'EA', qty: '1' } });
    }
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', {
      asnId: asn.id,
      lines: [
        { skuCode: SKU_A, expectedQty: 10 },
        { skuCode: SKU_B, expectedQty: 10 },
      ],
    });
    const asnLines = (await call<{ lines: { id: number; sku_code: string }[] }>('/asn/getDetail', { id: asn.id })).lines;
    await call('/inbound/batch/receive', { lines: asnLines.map((l) => ({ asnLineId: l.id, qty: 10, locationCode: 'A-01-2' })) });

    const orderNo = `E2E-PK-${run}`;
    await pickedOrder(orderNo, [
      [SKU_A, 3],
      [SKU_B, 2],
    ]);

    const page = await signedInPage(e2e.browser, e2e.server, '/page/pack', { viewport: { width: 1440, height: 900 } });
    await page.getByTestId('pack-screen').waitFor();
    expect(await page.getByTestId('pack-screen').getAttribute('data-layout')).toBe('desk');

    // The order: its lines in view, nothing packed; no carton yet, so the carton type is asked.
    await scan(page, orderNo);
    await told(page, 'success', `Order ${orderNo}`);
    await eventually(() => step(page)).toBe('carton');
    await eventually(() => page.getByTestId('pack-line-1').getAttribute('data-left')).toBe('3');
    expect(await page.getByTestId('pack-line-2').getAttribute('data-left')).toBe('2');

    // Carton 1 (type S), line 1 by its GS1-128 label: GTIN and count 3.
    await scan(page, 'S');
    await told(page, 'success', 'Carton ');
    const first = (await packOf(orderNo)).cartons[0];
    await scan(page, `(01)0${EAN_A}(37)3`);
    await told(page, 'success', `Packed into ${first.cartonNo}: ${SKU_A} +3`);
    await eventually(() => page.getByTestId('pack-line-1').getAttribute('data-left')).toBe('0');

    // Over-pack: 5 of line 2, of which 2 are picked. Refused, nothing changed.
    const before = await packOf(orderNo);
    await page.keyboard.press('+');
    await scan(page, '5');
    await page.getByTestId('pack-next-qty').waitFor();
    await scan(page, EAN_B);
    await told(page, 'error', 'Overpack is not allowed.');
    // An unknown code.
    await scan(page, `NOPE-${run}`);
    await told(page, 'error', 'Invalid SKU.');
    expect(await packOf(orderNo)).toEqual(before);

    // The pack list lists closed cartons: not before one is closed.
    const packList = page.getByTestId('pack-list');
    expect(await packList.isDisabled()).toBe(true);

    // Carton 1 closes with weights, unit (the first offered) and dimensions.
    await closeWith(page, ['2.5', '2', '30', '20', '10']);
    await told(page, 'success', `Carton ${first.cartonNo} is closed.`);

    // Now the pack list opens: the order's PDF, in a window of its own.
    await eventually(() => packList.isDisabled()).toBe(false);
    const [pdfAnswer, popup] = await Promise.all([
      page.waitForResponse((response) => response.url().includes('/api/pack/list.pdf')),
      page.waitForEvent('popup'),
      packList.click(),
    ]);
    expect(pdfAnswer.status()).toBe(200);
    expect(pdfAnswer.headers()['content-type']).toBe('application/pdf');
    await eventually(() => popup.url()).toMatch(/^blob:/);
    const pdf = await fetch(new URL(`api/pack/list.pdf?soId=${(await packOf(orderNo)).order.id}`, e2e.server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await popup.close();
    const closed = (await packOf(orderNo)).cartons[0];
    const firstUnit = (await call<{ rows: Array<{ code: string }> }>('/pack/scan/wgtUom')).rows[0].code;
    expect(closed).toMatchObject({ status: 'closed', grossWeight: '2.5', netWeight: '2', weightUom: firstUnit, length: '30' });

    // A scan into the closed carton (chosen by scanning its number) is refused.
    await eventually(() => step(page)).toBe('carton');
    await scan(page, first.cartonNo);
    await told(page, 'warning', `Carton ${first.cartonNo} is closed`);
    await scan(page, EAN_B);
    await told(page, 'error', 'The carton is closed.');
    expect(await packOf(orderNo)).toEqual({ ...before, openCarton: null, cartons: [closed] });

    // Carton 2 (type M), line 2 by UPC: 2 scans, one taken out and scanned again.
    await page.keyboard.press('F4');
    await eventually(() => step(page)).toBe('carton');
    await scan(page, 'M');
    await told(page, 'success', 'Carton ');
    const second = (await packOf(orderNo)).cartons[1];
    // A dead spot while the browser thinks it is online: the pack scans get no answer, wait in the
    // offline queue, and apply once each, in order, when the server answers again.
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/pack/scan/sku')) sent.push(request.headers()['idempotency-key'] ?? '');
    });
    await page.route('**/api/pack/scan/sku', (route) => route.abort('internetdisconnected'));
    const banner = page.getByTestId('offline-banner');
    await scan(page, EAN_B);
    await told(page, 'warning', 'No connection: the scan is kept');
    await scan(page, EAN_B);
    await eventually(() => banner.innerText()).toBe('Offline — 2 scans waiting');
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    expect((await packOf(orderNo)).cartons[1].lines).toEqual([]);
    await page.unroute('**/api/pack/scan/sku');
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    await eventually(() => page.getByTestId('pack-line-2').getAttribute('data-left')).toBe('0');
    expect((await packOf(orderNo)).cartons[1].lines.map((l) => [l.skuCode, Number(l.qty)])).toEqual([[SKU_B, 2]]);
    const keys = [...new Set(sent)];
    expect(keys.length).toBe(2);
    expect(keys.every((key) => /^[0-9a-f-]{36}$/.test(key))).toBe(true);
    await page.keyboard.press('-');
    await page.getByTestId('pack-removing').waitFor();
    await scan(page, EAN_B);
    await told(page, 'success', `Taken out of ${second.cartonNo}: ${SKU_B} -1`);
    await eventually(() => page.getByTestId('pack-line-2').getAttribute('data-left')).toBe('1');
    await page.keyboard.press('-');
    await eventually(() => page.getByTestId('pack-removing').count()).toBe(0);
    await scan(page, EAN_B);
    await eventually(() => page.getByTestId('pack-line-2').getAttribute('data-left')).toBe('0');
    await expect(page.getByTestId(`pack-carton-${second.cartonNo}`).innerText()).resolves.toContain(`${SKU_B} × 2`);
    await closeWith(page, ['1.2', '1', '', '', '']);
    await told(page, 'success', `Carton ${second.cartonNo} is closed.`);

    // Check complete, confirmed with the keyboard (the OK button has the focus).
    await page.keyboard.press('F8');
    const confirm = page.locator('.wms-popup-confirm.wms-popup-top');
    await confirm.waitFor();
    await expect(confirm.innerText()).resolves.toContain(`Check order ${orderNo} complete? All 5 picked unit(s) are packed`);
    await expect.poll(() => confirm.locator('.wms-popup-ok').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    await told(page, 'success', `Order ${orderNo}: Packed.`);
    await eventually(() => page.getByTestId('pack-order-status').getAttribute('data-status')).toBe('packed');
    const order = (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: orderNo }]))[0];
    expect(order.status).toBe('packed');
    // A packed order is no longer one packing takes.
    await expect(packOf(orderNo)).rejects.toThrow(/answered 409/);
    await page.context().close();
  });

  it('packs an order by its wave on a 360x640 handheld: wave, order, carton, scan, close, check complete', async () => {
    token = await apiSignIn(e2e.server);
    const orderNo = `E2E-PKH-${run}`;
    const { waveNo } = await pickedOrder(orderNo, [[SKU_B, 1]]);

    const page = await signedInPage(e2e.browser, e2e.server, '/page/pack', { viewport: { width: 360, height: 640 } });
    await page.getByTestId('pack-screen').waitFor();
    expect(await page.getByTestId('pack-screen').getAttribute('data-layout')).toBe('handheld');
    // By wave (a tap): the order must be on the scanned wave; Escape goes back to the wave.
    await page.getByTestId('pack-mode').getByText('By wave').click();
    await eventually(() => step(page)).toBe('wave');
    await scan(page, `${waveNo}-X`);
    await scan(page, orderNo);
    await told(page, 'error', 'Please scan by the given wave id.');
    await page.keyboard.press('Escape');
    await eventually(() => step(page)).toBe('wave');
    await scan(page, waveNo);
    await expect(page.getByTestId('pack-wave').innerText()).resolves.toContain(waveNo);
    await scan(page, orderNo);
    await eventually(() => step(page)).toBe('carton');
    await scan(page, 'S');
    await told(page, 'success', 'Carton ');
    await scan(page, EAN_B);
    await told(page, 'success', 'Packed into ');
    // The big targets fit the handheld's width.
    for (const id of ['pack-scan', 'pack-close-carton', 'pack-complete']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box!.x + box!.width, id).toBeLessThanOrEqual(360);
      expect(box!.height, id).toBeGreaterThanOrEqual(40);
    }
    await closeWith(page, ['0.6', '0.5', '', '', '']);
    await told(page, 'success', 'Carton ');
    await eventually(() => step(page)).toBe('carton');
    await page.keyboard.press('F8');
    const confirm = page.locator('.wms-popup-confirm.wms-popup-top');
    await confirm.waitFor();
    await expect.poll(() => confirm.locator('.wms-popup-ok').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    await eventually(() => page.getByTestId('pack-order-status').getAttribute('data-status')).toBe('packed');
    // Back at the order: the next order can be scanned at once.
    await eventually(() => step(page)).toBe('order');
    await page.context().close();
  });
});

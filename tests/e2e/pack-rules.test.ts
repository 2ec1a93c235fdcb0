import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * The refusals of scan-pack in Chromium, with the scanner alone (typing into the focused scan field
 * and Enter, and the screen's function keys): a card still on an open carton, an empty carton
 * unpacked, an unknown SKU, a wrong barcode format, over pack and over remove, the anti-counterfeit
 * code asked as a second scan and refused when already packed, a woolen collar that does not match,
 * a take-out that gets no answer (not saved, its text kept), a scan into a closed carton, and another
 * order's SSCC scanned to append to. Each shows its message in English and changes nothing; a closed
 * carton is reopened with F6 and closes again with its SSCC. Every code is made per run.
 */
interface Pack {
  order: { id: number; orderNo: string; status: string };
  cartons: Array<{ id: number; cartonNo: string; status: string; sscc: string | null; cardId: string | null; lines: Array<{ skuCode: string; qty: string }> }>;
}

describe('scan-pack rules in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);
  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(e2e.server, token, moduleCode, functionCode, rules);

  const run = `${Date.now()}`.slice(-9);
  const PLAIN = `E2E-PR-P-${run}`;
  const CODED = `E2E-PR-C-${run}`;
  const COLLAR = `E2E-PR-W-${run}`;
  const CARD = `CARD-${run}`;

  /** A picked order of these lines: entered, put on a wave, released and every task picked onto a tote. */
  async function pickedOrder(orderNo: string, lines: Array<[string, number]>): Promise<number> {
    const owner = (await selection<{ _key: number; code: string }>('masterdata', 'ogr'))[0];
    const header = (
      await call<{ row: { _key: number } }>('/generic/adding', {
        moduleCode: 'outbound',
        functionCode: 'so',
        record: { order_no: orderNo, owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01', carrier_code: `PR${run}` },
      })
    ).row;
    for (const [skuCode, qty] of lines) {
      const sku = (await selection<{ _key: number }>('masterdata', 'sku', [{ field: 'code', operator: '=', value: skuCode }]))[0];
      await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: header._key, sku_id: sku._key, qty: String(qty) } });
    }
    const wave = await call<{ waveId: number }>('/so/wave/save', { orderIds: [header._key] });
    await call('/wave/release', { waveId: wave.waveId });
    const tasks = (await call<{ tasks: Array<{ id: number; location_code: string; sku_code: string; qty: string }> }>('/pick/tasks', { soId: header._key, openOnly: true })).tasks;
    for (const task of tasks) await call('/pick/confirm', { taskId: task.id, locationCode: task.location_code, sku: task.sku_code, qty: String(Number(task.qty)), toLpn: `TOTE-${run}` });
    return header._key;
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
  async function told(page: Page, tone: string, text: string) {
    const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await eventually(async () => `${await feedback(page).getAttribute('data-tone')}|${await feedback(page).innerText()}`).toMatch(new RegExp(`^${tone}\\|${escaped}`));
  }

  /** The scan is refused with this message and the order's packing is as it was. */
  async function refusedScan(page: Page, orderNo: string, text: string, message: string, tone = 'error') {
    const before = await packOf(orderNo);
    await scan(page, text);
    await told(page, tone, message);
    expect(await packOf(orderNo)).toEqual(before);
  }

  async function closeWith(page: Page, values: string[]) {
    await page.keyboard.press('F2');
    await page.getByTestId('pack-close-form').waitFor();
    await expect.poll(() => page.getByTestId('pack-close-grossWeight').evaluate((el) => el === document.activeElement)).toBe(true);
    for (const value of values) {
      if (value) await page.keyboard.type(value);
      await page.keyboard.press('Enter');
    }
  }

  it('refuses each wrong scan with its message, asks the second scans, reopens a closed carton with F6 and keeps an unsaved scan', async () => {
    token = await apiSignIn(e2e.server);
    const owner = (await selection<{ _key: number; code: string }>('masterdata', 'ogr'))[0];
    for (const [code, extra] of [
      [PLAIN, {}],
      [CODED, { anti_counterfeit: true }],
      [COLLAR, { collar_barcode: 'WC-*' }],
    ] as const) {
      await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code, owner_id: owner._key, description: `Pack rule item ${code}`, base_uom: 'EA', ...extra } });
    }
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', { asnId: asn.id, lines: [PLAIN, CODED, COLLAR].map((skuCode) => ({ skuCode, expectedQty: 10 })) });
    const asnLines = (await call<{ lines: { id: number }[] }>('/asn/getDetail', { id: asn.id })).lines;
    await call('/inbound/batch/receive', { lines: asnLines.map((l) => ({ asnLineId: l.id, qty: 10, locationCode: 'A-01-2' })) });
    const orderNo = `E2E-PR-${run}`;
    const otherNo = `E2E-PR-${run}-B`;
    await pickedOrder(orderNo, [
      [PLAIN, 2],
      [CODED, 2],
      [COLLAR, 1],
    ]);
    await pickedOrder(otherNo, [[PLAIN, 1]]);

    const page = await signedInPage(e2e.browser, e2e.server, '/page/pack', { viewport: { width: 1440, height: 900 } });
    await page.getByTestId('pack-screen').waitFor();
    await scan(page, orderNo);
    await told(page, 'success', `Order ${orderNo}`);
    await eventually(() => step(page)).toBe('carton');

    // A carton opened with its card (F7, then the card's scan).
    await page.keyboard.press('F7');
    await eventually(() => step(page)).toBe('card');
    await scan(page, CARD);
    await told(page, 'success', `Card ${CARD}`);
    await scan(page, 'S');
    await told(page, 'success', 'Carton ');
    const carton = (await packOf(orderNo)).cartons[0];
    expect(carton.cardId).toBe(CARD);

    // The same card for another carton: it needs replacing, and no carton is opened.
    await page.keyboard.press('F4');
    await eventually(() => step(page)).toBe('carton');
    await page.keyboard.press('F7');
    await scan(page, CARD);
    await refusedScan(page, orderNo, 'M', 'The card needs replacing.');
    expect((await packOf(orderNo)).cartons.length).toBe(1);
    await scan(page, carton.cartonNo);
    await told(page, 'success', `Scanning into carton ${carton.cartonNo}`);

    // Nothing to take out of an empty carton.
    await page.keyboard.press('-');
    await page.getByTestId('pack-removing').waitFor();
    await refusedScan(page, orderNo, PLAIN, `Carton ${carton.cartonNo} is empty: there is nothing to take out.`);
    await page.keyboard.press('-');
    await eventually(() => page.getByTestId('pack-removing').count()).toBe(0);

    // Unknown SKU, wrong barcode format.
    await refusedScan(page, orderNo, `NOPE-${run}`, 'Invalid SKU.');
    await refusedScan(page, orderNo, '(01)12345', 'Incorrect barcode format.');

    // Over pack, over remove.
    await scan(page, PLAIN);
    await told(page, 'success', `Packed into ${carton.cartonNo}: ${PLAIN} +1`);
    await scan(page, PLAIN);
    // The second scan's message reads like the first: the carton holding both tells it applied.
    const packedOf = async () => (await packOf(orderNo)).cartons.flatMap((c) => c.lines).filter((l) => l.skuCode === PLAIN).reduce((sum, l) => sum + Number(l.qty), 0);
    await eventually(packedOf).toBe(2);
    await told(page, 'success', `Packed into ${carton.cartonNo}: ${PLAIN} +1`);
    await refusedScan(page, orderNo, PLAIN, 'Overpack is not allowed.');
    await page.keyboard.press('-');
    await page.keyboard.press('+');
    await scan(page, '3');
    await page.getByTestId('pack-next-qty').waitFor();
    await refusedScan(page, orderNo, PLAIN, 'Not enough quantity to remove.');
    await page.keyboard.press('-');
    await eventually(() => page.getByTestId('pack-removing').count()).toBe(0);

    // The anti-counterfeit code: asked as a second scan, kept, and refused when packed already.
    await refusedScan(page, orderNo, CODED, `Scan the anti-counterfeit code of ${CODED}`, 'warning');
    await eventually(() => step(page)).toBe('code');
    await expect(page.getByTestId('pack-flow').innerText()).resolves.toContain('Scan the anti-counterfeit code');
    await scan(page, `AC-${run}-1`);
    await told(page, 'success', `Packed into ${carton.cartonNo}: ${CODED} +1`);
    await eventually(() => step(page)).toBe('item');
    await scan(page, CODED);
    await eventually(() => step(page)).toBe('code');
    await refusedScan(page, orderNo, `AC-${run}-1`, `Anti-counterfeit code AC-${run}-1 is already packed in carton ${carton.cartonNo}.`);
    expect(await step(page)).toBe('code');
    // Escape steps back to the item scan.
    await page.keyboard.press('Escape');
    await eventually(() => step(page)).toBe('item');

    // The woolen collar: asked after the item, refused when it does not match.
    await scan(page, COLLAR);
    await told(page, 'warning', `Scan the woolen collar barcode of ${COLLAR}`);
    await eventually(() => step(page)).toBe('collar');
    await expect(page.getByTestId('pack-flow').innerText()).resolves.toContain('Scan the woolen collar barcode');
    await refusedScan(page, orderNo, `XX-${run}`, 'The woolen collar barcode does not match the item.');
    expect(await step(page)).toBe('collar');
    await scan(page, `WC-${run}`);
    await told(page, 'success', `Packed into ${carton.cartonNo}: ${COLLAR} +1`);

    // A take-out that gets no answer from the server: not saved, and the scan stays in the field to
    // be sent again (a scan that packs waits in the offline queue instead: scan-pack.test.ts).
    await page.keyboard.press('-');
    await page.getByTestId('pack-removing').waitFor();
    await page.route('**/api/pack/scan/remove', (route) => route.abort('internetdisconnected'));
    await refusedScan(page, orderNo, PLAIN, 'The modified data is not saved.');
    await eventually(() => page.getByTestId('pack-scan').inputValue()).toBe(PLAIN);
    await page.unroute('**/api/pack/scan/remove');
    await expect.poll(() => page.getByTestId('pack-scan').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await told(page, 'success', `Taken out of ${carton.cartonNo}: ${PLAIN} -1`);
    await page.keyboard.press('-');
    await eventually(() => page.getByTestId('pack-removing').count()).toBe(0);
    await scan(page, PLAIN);
    await told(page, 'success', `Packed into ${carton.cartonNo}: ${PLAIN} +1`);
    await scan(page, CODED);
    await told(page, 'warning', `Scan the anti-counterfeit code of ${CODED}`);
    await scan(page, `AC-${run}-2`);
    await told(page, 'success', `Packed into ${carton.cartonNo}: ${CODED} +1`);

    // Closed, the carton takes nothing.
    await closeWith(page, ['2', '1', '', '', '']);
    await told(page, 'success', `Carton ${carton.cartonNo} is closed.`);
    const sscc = (await packOf(orderNo)).cartons[0].sscc!;
    expect(sscc).toMatch(/^\d{18}$/);
    await eventually(() => step(page)).toBe('carton');
    await scan(page, sscc);
    await told(page, 'warning', `Carton ${carton.cartonNo} is closed`);
    await refusedScan(page, orderNo, PLAIN, 'The carton is closed.');

    // F6 reopens it after a confirmation; it closes again with its SSCC.
    await page.keyboard.press('F6');
    const confirm = page.locator('.wms-popup-confirm.wms-popup-top');
    await confirm.waitFor();
    await expect(confirm.innerText()).resolves.toContain(`Reopen carton ${carton.cartonNo} to add to it? It keeps its SSCC ${sscc}`);
    await expect.poll(() => confirm.locator('.wms-popup-ok').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    await told(page, 'success', `Carton ${carton.cartonNo} is open again`);
    expect((await packOf(orderNo)).cartons[0]).toMatchObject({ status: 'open', sscc });
    await closeWith(page, ['2', '1', '', '', '']);
    await told(page, 'success', `Carton ${carton.cartonNo} is closed.`);
    expect((await packOf(orderNo)).cartons[0]).toMatchObject({ status: 'closed', sscc });

    // Another order: the first order's SSCC scanned to append to is refused.
    await eventually(() => step(page)).toBe('carton');
    await page.keyboard.press('Escape');
    await eventually(() => step(page)).toBe('order');
    await scan(page, otherNo);
    await told(page, 'success', `Order ${otherNo}`);
    await eventually(() => step(page)).toBe('carton');
    await page.keyboard.press('F6');
    await eventually(() => step(page)).toBe('reopen');
    const first = await packOf(orderNo);
    await refusedScan(page, otherNo, sscc, 'Mixed-packaging orders are not allowed for this SSCC.');
    expect(await packOf(orderNo)).toEqual(first);
    await page.context().close();
  }, 240_000);
});

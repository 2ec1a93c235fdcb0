import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { fakePrinter, packSetup, scanInto, toldOn } from '../helpers/pack-e2e.js';

/**
 * The handheld pallet screen in Chromium at 360x640, with the keyboard alone: a new pallet (F4,
 * then its location) takes the two closed cartons of a packed order, one scanned by its number and
 * one by its label's SSCC barcode; one comes off (-) and goes on again; an unknown carton is
 * refused with its message; F2 closes the pallet after a confirmation and its label, with the
 * pallet's own SSCC, reaches the warehouse's printer for automatic labels (a local listener).
 * Scanned again, the closed pallet says so and refuses a carton; Escape steps back to the pallet scan.
 */
interface Pack {
  cartons: Array<{ id: number; cartonNo: string; sscc: string | null }>;
  openCarton: { id: number } | null;
}
interface Pallet {
  id: number;
  palletNo: string;
  sscc: string;
  status: string;
  cartons: Array<{ cartonNo: string }>;
}

describe('the handheld pallet screen in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const setup = packSetup(() => e2e.server, () => token, 'PLH');
  const scan = (page: Page, text: string) => scanInto(page, 'pallet-scan', text);
  const step = (page: Page) => page.getByTestId('pallet-screen').getAttribute('data-step');

  it('makes a pallet, scans cartons on and off, refuses an unknown one, closes it and prints its label', async () => {
    token = await apiSignIn(e2e.server);
    const { call, run, skus } = setup;
    const printer = await fakePrinter();
    try {
      await call('/generic/adding', { moduleCode: 'printing', functionCode: 'printer', record: { name: `E2E-PLH-${run}`, ip: '127.0.0.1', port: printer.port, printer_type: 'raw_zpl', auto_print_labels: true } });
      await setup.receive(5);
      const orderNo = `E2E-PLH-${run}`;
      const { soId } = await setup.pickedOrder(orderNo, [
        [0, 2],
        [1, 1],
      ]);
      // Packed through the API: one carton per line, closed.
      await call('/scanPack', { orderNo });
      for (const [index, qty] of [
        [0, 2],
        [1, 1],
      ]) {
        const carton = (await call<Pack>('/pack/scan/open', { soId })).openCarton!;
        await call('/pack/scan/sku', { cartonId: carton.id, barcode: skus[index].code, qty });
        await call('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });
      }
      const [first, second] = (await call<Pack>('/scanPack', { orderNo })).cartons;
      await eventually(() => printer.received.length).toBe(2);

      const page = await signedInPage(e2e.browser, e2e.server, '/page/palletScan', { viewport: { width: 360, height: 640 } });
      await page.getByTestId('pallet-screen').waitFor();
      expect(await step(page)).toBe('pallet');

      // F4: a new pallet at the scanned location. The key works once the user's rights have loaded,
      // which is when the screen offers its button.
      await page.getByTestId('pallet-scan').waitFor();
      await page.getByTestId('pallet-new').waitFor();
      await page.keyboard.press('F4');
      await eventually(() => step(page)).toBe('location');
      await scan(page, 'A-01-2');
      await toldOn(page, 'success', 'Pallet ');
      await eventually(() => step(page)).toBe('carton');
      const sscc = ((await page.getByTestId('pallet-sscc').innerText()).match(/[0-9]{18}/) ?? [''])[0];
      expect(sscc[0]).toBe('1');
      const pallet = await call<Pallet>('/pallet/find', { code: sscc });
      expect(pallet).toMatchObject({ status: 'open', cartons: [] });

      // Carton 1 by its number, carton 2 by its label's barcode (AI 00 and the SSCC).
      await scan(page, first.cartonNo);
      await toldOn(page, 'success', `Carton ${first.cartonNo} is on pallet ${pallet.palletNo}.`);
      await scan(page, `00${second.sscc}`);
      await toldOn(page, 'success', `Carton 00${second.sscc} is on pallet ${pallet.palletNo}.`);
      await page.getByTestId(`pallet-carton-${second.cartonNo}`).waitFor();
      expect((await call<Pallet>('/pallet/detail', { palletId: pallet.id })).cartons.map((c) => c.cartonNo)).toEqual([first.cartonNo, second.cartonNo]);

      // An unknown carton: refused in the user's words, nothing changes.
      await scan(page, `NOPE-${run}`);
      await toldOn(page, 'error', 'No record found');

      // "-": carton 2 comes off; "-" again and it goes back on.
      await page.keyboard.press('-');
      await page.getByTestId('pallet-removing').waitFor();
      await scan(page, second.cartonNo);
      await toldOn(page, 'success', `Carton ${second.cartonNo} is off pallet ${pallet.palletNo}.`);
      await eventually(() => page.getByTestId(`pallet-carton-${second.cartonNo}`).count()).toBe(0);
      // Escape ends taking off first, staying on the pallet.
      await page.keyboard.press('Escape');
      await eventually(() => page.getByTestId('pallet-removing').count()).toBe(0);
      expect(await step(page)).toBe('carton');
      await scan(page, second.cartonNo);
      await page.getByTestId(`pallet-carton-${second.cartonNo}`).waitFor();

      // Big targets within the handheld's width.
      for (const id of ['pallet-scan', 'pallet-close', 'pallet-new', 'pallet-remove-mode']) {
        const box = await page.getByTestId(id).boundingBox();
        expect(box!.x + box!.width, id).toBeLessThanOrEqual(360);
        expect(box!.height, id).toBeGreaterThanOrEqual(40);
      }

      // F2 closes after a confirmation (Space on its focused OK); the label prints with the pallet's SSCC.
      await page.keyboard.press('F2');
      const confirm = page.locator('.wms-popup-confirm.wms-popup-top');
      await confirm.waitFor();
      await expect(confirm.innerText()).resolves.toContain('Close this pallet?');
      await expect.poll(() => confirm.locator('.wms-popup-ok').evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Space');
      // Its gross weight (the cartons' and the pallet's tare) is said with it.
      await toldOn(page, 'success', `Pallet ${pallet.palletNo} is closed, SSCC ${sscc}. Gross weight `);
      expect(await page.getByTestId('handheld-feedback').innerText()).toMatch(new RegExp(`Gross weight [0-9.]+ KG\\. Label sent to E2E-PLH-${run}\\.$`));
      await eventually(() => step(page)).toBe('pallet');
      await eventually(() => printer.received.length).toBe(3);
      const label = printer.received[2];
      expect(label).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
      expect(label).toContain(`>;>800${sscc}`);
      expect(label).toContain('PALLET 1 OF 1');
      expect(await call<Pallet>('/pallet/detail', { palletId: pallet.id })).toMatchObject({ status: 'closed' });

      // The closed pallet scanned again: shown, taking nothing; Escape goes back to the pallet scan.
      await scan(page, pallet.palletNo);
      await toldOn(page, 'warning', `Pallet ${pallet.palletNo} is closed`);
      expect(await page.getByTestId('pallet-current').getAttribute('data-status')).toBe('closed');
      await scan(page, first.cartonNo);
      await toldOn(page, 'error', `Pallet ${pallet.palletNo} is closed.`);
      await page.keyboard.press('Escape');
      await eventually(() => step(page)).toBe('pallet');
      await page.context().close();
    } finally {
      await printer.close();
    }
  });
});

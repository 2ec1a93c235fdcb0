import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { closedPort, fakePrinter, packSetup, scanInto, toldOn } from '../helpers/pack-e2e.js';

/**
 * Scan-pack acceptance in Chromium, with the scanner alone (typing into the focused field, Enter,
 * F2/F4/F8): a picked order of two lines is packed, line one by its GS1-128 label as the scanner
 * hands it on (symbology identifier, GTIN, lot, group separator, count) into carton 1, line two by
 * its UPC into carton 2; each carton closes with weights and its label reaches the warehouse's
 * printer for automatic labels (a local listener playing a ZPL printer) as one ^XA...^XZ format
 * whose GS1-128 barcode holds AI 00 and the carton's SSCC. Each label printed on a PDF printer
 * shows the SSCC as text and as a barcode (pdftotext, pdftoppm, zbarimg). Checked complete, the
 * order is packed and the ledger sums to the balance; cancelling the check-complete with both
 * questions answered yes removes the cartons and puts the stock back at the pick location. A
 * printer that refuses the connection: scan to print says so within the product's time limit, the job
 * stays queued, and retry in the print queue sends it once the printer listens.
 */
interface Pack {
  order: { id: number; orderNo: string; status: string };
  cartons: Array<{ id: number; cartonNo: string; status: string; sscc: string | null }>;
}
interface BalanceRow {
  sku_code: string;
  lot_no: string | null;
  location_code: string;
  lpn: string | null;
  on_hand_qty: string;
  allocated_qty: string;
  picked_qty: string;
}
interface LedgerRow {
  sku_code: string;
  lot_no: string | null;
  location_code: string;
  lpn: string | null;
  qty: string;
}

const GS = '\u001d';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-pack-acceptance-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('scan-pack acceptance in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }));
  let token = '';
  const setup = packSetup(() => e2e.server, () => token, 'ACC');
  const { call, selection, run, skus } = setup;
  const LOT = `LOT${run}`;
  const scan = (page: Page, text: string) => scanInto(page, 'pack-scan', text);
  const step = (page: Page) => page.getByTestId('pack-flow').getAttribute('data-step');
  const orderNo = `E2E-ACC-${run}`;

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

  /** Space on the focused OK of the confirmation on top. */
  async function confirmWithKeyboard(page: Page, text: string) {
    const confirm = page.locator('.wms-popup-confirm.wms-popup-top');
    await confirm.waitFor();
    await expect(confirm.innerText()).resolves.toContain(text);
    await expect.poll(() => confirm.locator('.wms-popup-ok').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
  }

  /** A print job's document as the print queue hands it out. */
  async function jobDocument(jobId: number): Promise<Buffer> {
    const response = await fetch(new URL(`api/print/job/${jobId}/document`, e2e.server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  /** Stock of this run's SKUs: every balance row's on-hand equals the sum of the ledger's movements of its key. */
  async function expectLedgerAgrees() {
    const key = (r: { sku_code: string; lot_no: string | null; location_code: string; lpn: string | null }) => `${r.sku_code}|${r.lot_no ?? ''}|${r.location_code}|${r.lpn ?? ''}`;
    const ledger = new Map<string, number>();
    const balance = new Map<string, number>();
    for (const sku of skus) {
      const rule = [{ field: 'sku_code', operator: '=', value: sku.code }];
      for (const row of await selection<LedgerRow>('inventory', 'enquiryUser', rule)) ledger.set(key(row), Math.round(((ledger.get(key(row)) ?? 0) + Number(row.qty)) * 10000) / 10000);
      for (const row of await selection<BalanceRow>('inventory', 'balance', rule)) balance.set(key(row), Number(row.on_hand_qty));
    }
    expect(ledger.size).toBeGreaterThan(0);
    for (const [k, qty] of ledger) expect(balance.get(k) ?? 0, k).toBe(qty);
    for (const [k, qty] of balance) expect(ledger.get(k) ?? 0, k).toBe(qty);
  }

  it('packs by GS1-128 and UPC into two cartons, prints their labels as ZPL and PDF, checks complete, and cancels it with both answers yes', async () => {
    token = await apiSignIn(e2e.server);
    const zpl = await fakePrinter();
    const pdf = await fakePrinter();
    try {
      await call('/generic/adding', { moduleCode: 'printing', functionCode: 'printer', record: { name: `ZPL-${run}`, ip: '127.0.0.1', port: zpl.port, printer_type: 'raw_zpl', auto_print_labels: true } });
      const pdfPrinter = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'printing', functionCode: 'printer', record: { name: `PDF-${run}`, ip: '127.0.0.1', port: pdf.port, printer_type: 'pdf' } })).row._key;
      await setup.receive(10, LOT);
      const stockOf = async () => (await Promise.all(skus.map((s) => selection<BalanceRow>('inventory', 'balance', [{ field: 'sku_code', operator: '=', value: s.code }])))).flat().filter((r) => Number(r.on_hand_qty) > 0);
      const stockBefore = await stockOf();
      expect(stockBefore).toHaveLength(2);
      await setup.pickedOrder(orderNo, [
        [0, 3],
        [1, 2],
      ]);

      const page = await signedInPage(e2e.browser, e2e.server, '/page/pack', { viewport: { width: 1440, height: 900 } });
      await page.getByTestId('pack-screen').waitFor();
      await scan(page, orderNo);
      await toldOn(page, 'success', `Order ${orderNo}`);
      await eventually(() => step(page)).toBe('carton');

      // Carton 1: line one by its GS1-128 label, raw as the scanner sends it: ]C1, (01) GTIN, (10) lot, GS, (37) count.
      await scan(page, 'S');
      await toldOn(page, 'success', 'Carton ');
      await scan(page, `]C101${'0' + skus[0].ean}10${LOT}${GS}373`);
      await toldOn(page, 'success', 'Packed into ');
      await eventually(() => page.getByTestId('pack-line-1').getAttribute('data-left')).toBe('0');
      await closeWith(page, ['2.5', '2', '30', '20', '10']);
      await toldOn(page, 'success', 'Carton ');
      await eventually(() => page.getByTestId('handheld-feedback').innerText()).toContain(`Label sent to ZPL-${run}.`);

      // Carton 2 (F4): line two by its UPC, twice.
      await page.keyboard.press('F4');
      await eventually(() => step(page)).toBe('carton');
      await scan(page, 'M');
      await toldOn(page, 'success', 'Carton ');
      await scan(page, skus[1].ean);
      await toldOn(page, 'success', 'Packed into ');
      await scan(page, skus[1].ean);
      await eventually(() => page.getByTestId('pack-line-2').getAttribute('data-left')).toBe('0');
      await closeWith(page, ['1.2', '1', '', '', '']);
      await eventually(() => page.getByTestId('handheld-feedback').innerText()).toContain(`Label sent to ZPL-${run}.`);

      const cartons = (await call<Pack>('/scanPack', { orderNo })).cartons;
      expect(cartons.map((c) => c.status)).toEqual(['closed', 'closed']);
      const ssccs = cartons.map((c) => c.sscc!);

      // The ZPL printer got one format per label, each with its carton's SSCC in a GS1-128 barcode (FNC1, AI 00).
      await eventually(() => zpl.received.length).toBe(2);
      for (const sscc of ssccs) {
        const label = zpl.received.find((d) => d.includes(sscc));
        expect(label, sscc).toBeDefined();
        expect(label).toMatch(/^\^XA[^]*\^XZ\s*$/);
        expect(label!.match(/\^XA/g)).toHaveLength(1);
        expect(label).toMatch(new RegExp(`\\^BCN,\\d+,N,N,N\\^FD>;>800${sscc}\\^FS`));
      }
      // Carton 1 holds one SKU of one lot: its label shows the lot scanned.
      expect(zpl.received.find((d) => d.includes(ssccs[0]))).toContain(`(10) ${LOT}`);

      // Each label on the PDF printer: the SSCC as text and as a barcode that decodes to AI 00 and the SSCC.
      for (const [i, sscc] of ssccs.entries()) {
        const printed = await call<{ jobId: number; sscc: string }>('/pack/label/print', { code: sscc, printerId: pdfPrinter });
        const document = await jobDocument(printed.jobId);
        expect(document.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        const file = path.join(dir, `label-${i}.pdf`);
        fs.writeFileSync(file, document);
        expect(execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })).toContain(sscc);
        execFileSync('pdftoppm', ['-r', '300', '-gray', '-singlefile', '-png', file, path.join(dir, `label-${i}`)]);
        const decoded = execFileSync('zbarimg', ['-q', '--raw', path.join(dir, `label-${i}.png`)], { encoding: 'utf8' }).split('\n').filter(Boolean);
        expect(decoded).toContain(`00${sscc}`);
      }
      await eventually(() => pdf.received.length).toBe(2);
      expect(pdf.received.every((d) => d.startsWith('%PDF-'))).toBe(true);

      // Check complete: F8 and the confirmation.
      await page.keyboard.press('F8');
      await confirmWithKeyboard(page, `Check order ${orderNo} complete? All 5 picked unit(s) are packed`);
      await toldOn(page, 'success', `Order ${orderNo}: Packed.`);
      const order = (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: orderNo }]))[0];
      expect(order.status).toBe('packed');
      await expectLedgerAgrees();

      // Cancel the check-complete: remove all packed cartons, yes; move the stock back, yes.
      await page.getByTestId('pack-cancel-cc').click();
      const box = (id: string) => page.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();
      await box('pack-cancel-cc-remove').waitFor();
      await expect.poll(() => box('pack-cancel-cc-remove').evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Space');
      await eventually(() => box('pack-cancel-cc-remove').isChecked()).toBe(true);
      await eventually(() => box('pack-cancel-cc-move').isDisabled()).toBe(false);
      await page.keyboard.press('Tab');
      await expect.poll(() => box('pack-cancel-cc-move').evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Space');
      await eventually(() => box('pack-cancel-cc-move').isChecked()).toBe(true);
      await page.getByTestId('pack-cancel-cc-ok').click();
      await confirmWithKeyboard(page, `move the stock back to where it was picked?`);
      await toldOn(page, 'success', `Check-complete of order ${orderNo} cancelled (2 carton(s) removed)`);

      const after = (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: orderNo }]))[0];
      expect(after.status).toBe('allocated');
      const balance = await stockOf();
      // Nothing is on a carton or a tote any more: all of it is back at the pick location, allocated to the order again.
      expect(balance.map((r) => `${r.sku_code}@${r.location_code}/${r.lpn ?? ''}`).sort()).toEqual(stockBefore.map((r) => `${r.sku_code}@${r.location_code}/${r.lpn ?? ''}`).sort());
      for (const row of balance) {
        const sku = skus.findIndex((s) => s.code === row.sku_code);
        expect({ onHand: Number(row.on_hand_qty), allocated: Number(row.allocated_qty), picked: Number(row.picked_qty) }, row.sku_code).toEqual({ onHand: 10, allocated: sku === 0 ? 3 : 2, picked: 0 });
      }
      await expectLedgerAgrees();
      await page.context().close();
    } finally {
      await zpl.close();
      await pdf.close();
    }
  });

  it('says at once when a printer does not take the label, keeps the job queued, and sends it once the printer listens', async () => {
    token = await apiSignIn(e2e.server);
    // A closed carton of a new order of its own SKUs, packed through the API.
    const own = packSetup(() => e2e.server, () => token, 'ACP');
    await own.receive(2);
    const other = `E2E-ACP-${run}`;
    const { soId } = await own.pickedOrder(other, [[1, 1]]);
    await call('/scanPack', { orderNo: other });
    const carton = (await call<Pack & { openCarton: { id: number } }>('/pack/scan/open', { soId })).openCarton;
    await call('/pack/scan/sku', { cartonId: carton.id, barcode: own.skus[1].ean });
    const sscc = (await call<Pack>('/pack/scan/close', { cartonId: carton.id, grossWeight: 1, netWeight: 1, weightUom: 'KG' })).cartons[0].sscc!;
    const port = await closedPort();
    const name = `DOWN-${run}`;
    await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'printing', functionCode: 'printer', record: { name, ip: '127.0.0.1', port, printer_type: 'raw_zpl' } });

    // Scan to print on that printer (chosen with a tap): the refusal in the user's words.
    const page = await signedInPage(e2e.browser, e2e.server, '/page/scanToPrintWindow', { viewport: { width: 360, height: 640 } });
    await page.getByTestId('scan-print').waitFor();
    await page.getByTestId('scan-print-printer').click();
    await page.locator('.ant-select-item-option').filter({ hasText: name }).click();
    // The printer list keeps the focus after a choice; a tap puts it back into the scan field.
    await page.getByTestId('scan-print-scan').click();
    await eventually(() => page.getByTestId('scan-print-printer').innerText()).toContain(name);
    await scanInto(page, 'scan-print-scan', sscc);
    await toldOn(page, 'error', 'The printer is not available');
    type Job = { id: number; printerName: string; status: string; reference: string | null };
    const jobs = (await call<Job[]>('/print/job?limit=500')).filter((j) => j.printerName === name);
    expect(jobs).toEqual([expect.objectContaining({ status: 'queued', reference: sscc })]);

    // The printer is back: retry sends the queued label.
    const printer = await fakePrinter(port);
    try {
      const answer = await call<{ outcomes: Array<{ id: number; status: string }> }>('/print/job/retry', { ids: [jobs[0].id] });
      expect(answer.outcomes).toEqual([{ id: jobs[0].id, status: 'sent' }]);
      await eventually(() => printer.received.length).toBe(1);
      expect(printer.received[0]).toContain(`>;>800${sscc}`);
    } finally {
      await printer.close();
      await page.context().close();
    }
  });
});

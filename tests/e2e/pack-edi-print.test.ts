import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { fakePrinter, packCartons, packSetup, scanInto, toldOn } from '../helpers/pack-e2e.js';

/**
 * Two gaps of the pack bench in Chromium. "Send EDI" on the scan-pack screen queues the ship notice
 * of a check-completed order now (its owner sends on ship): the EDIFACT owner's DESADV and the X12
 * owner's 856 are in the EDI log and in the partner's folder. And /scanToPrintWindow driven by a
 * scanner alone: the scan field has the focus with the device's printer, keeps it after each print (a
 * carton's label, then a closed pallet's by its SSCC, both taken by a local raw ZPL printer) and
 * after a refusal, so the next scan needs no tap.
 */
const outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-pack-edi-'));
afterAll(() => fs.rmSync(outbox, { recursive: true, force: true }));

describe('pack bench: Send EDI and scan to print in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const run = `${Date.now()}`.slice(-8);
  const owners = { E: `PEE${run}`, X: `PEX${run}` };
  const edifact = packSetup(() => e2e.server, () => token, 'PEE', owners.E);
  const x12 = packSetup(() => e2e.server, () => token, 'PEX', owners.X);
  const printing = packSetup(() => e2e.server, () => token, 'PES');
  const { call, selection } = edifact;

  const focused = (page: Page, testId: string) => page.getByTestId(testId).evaluate((el) => el === document.activeElement && !(el as HTMLInputElement).disabled);

  it('sends the DESADV and the 856 of check-completed orders from the pack screen, and both are in the EDI log', async () => {
    token = await apiSignIn(e2e.server);
    for (const [standard, code] of [['edifact', owners.E], ['x12', owners.X]] as const) {
      const owner = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'ogr', record: { code, name: `Pack EDI ${code}` } })).row._key;
      const ids = standard === 'edifact' ? { sender_id: '5412345000013', receiver_id: '5498765000017' } : { sender_id: 'WMS', receiver_id: `SHOP${run}` };
      await call('/generic/adding', { moduleCode: 'edi', functionCode: 'ediPartner', record: { owner_id: owner, standard, send_on: 'ship', endpoint: outbox, ...ids } });
    }
    const orders: Array<{ orderNo: string; kind: string }> = [];
    for (const [setup, kind] of [[edifact, 'desadv'], [x12, 'x12_856']] as const) {
      await setup.receive(5);
      const orderNo = `E2E-PE-${kind === 'desadv' ? 'D' : 'X'}-${run}`;
      const order = await setup.pickedOrder(orderNo, [[0, 2]]);
      await packCartons(call, { soId: order.soId, orderNo }, [[[setup.skus[0].code, 2]]]);
      orders.push({ orderNo, kind });
    }
    const logged = async () => (await selection<{ kind: string; reference: string; status: string }>('edi', 'ediLogSummary')).filter((r) => orders.some((o) => o.orderNo === r.reference));
    // Owners that send on ship: packing sent nothing yet.
    expect(await logged()).toEqual([]);

    const page = await signedInPage(e2e.browser, e2e.server, '/page/pack', { viewport: { width: 1440, height: 900 } });
    try {
      for (const { orderNo } of orders) {
        await scanInto(page, 'pack-scan', orderNo);
        await page.getByTestId('pack-send-edi').waitFor();
        await page.getByTestId('pack-send-edi').click();
        await toldOn(page, 'success', `Ship notice of ${orderNo} queued (message `);
        await page.keyboard.press('Escape');
      }
    } finally {
      await page.context().close();
    }
    await eventually(async () => (await logged()).map((r) => [r.reference, r.kind, r.status]).sort(), 60_000).toEqual(orders.map((o) => [o.orderNo, o.kind, 'sent']).sort());
    const files = fs.readdirSync(outbox);
    expect(files.filter((name) => name.startsWith('DESADV_'))).toHaveLength(1);
    expect(files.filter((name) => name.startsWith('856_'))).toHaveLength(1);
  });

  it('keeps the focus in the scan field of scan to print after choosing a printer, each print and a refusal', async () => {
    token = await apiSignIn(e2e.server);
    const printer = await fakePrinter();
    const name = `E2E-SP-${run}`;
    const printerId = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'printing', functionCode: 'printer', record: { name, ip: '127.0.0.1', port: printer.port, printer_type: 'raw_zpl' } })).row._key;
    await printing.receive(5);
    const orderNo = `E2E-SP-${run}`;
    const order = await printing.pickedOrder(orderNo, [[1, 2]]);
    const [cartonA, cartonB] = await packCartons(call, { soId: order.soId, orderNo }, [[[printing.skus[1].code, 1]], [[printing.skus[1].code, 1]]]);
    const pallet = await call<{ id: number; palletNo: string; sscc: string }>('/pallet/create', { locationCode: 'A-01-2' });
    await call('/pallet/addCarton', { palletId: pallet.id, carton: cartonB });
    await call('/pallet/close', { palletId: pallet.id });

    const page = await signedInPage(e2e.browser, e2e.server, '/page/scanToPrintWindow', { viewport: { width: 360, height: 640 } });
    try {
      // The printer last chosen on this device is kept: this run's printer.
      await page.evaluate((id) => window.localStorage.setItem('wms.scanToPrint.printerId', String(id)), printerId);
      await page.reload();
      await eventually(() => page.getByTestId('scan-print-printer').innerText()).toContain(name);
      await eventually(() => focused(page, 'scan-print-scan')).toBe(true);

      await scanInto(page, 'scan-print-scan', cartonA);
      await toldOn(page, 'success', 'Label of ');
      await eventually(() => printer.received.length).toBe(1);
      expect(printer.received[0]).toContain(orderNo);
      await eventually(() => focused(page, 'scan-print-scan')).toBe(true);
      expect(await page.getByTestId('scan-print-scan').inputValue()).toBe('');

      await scanInto(page, 'scan-print-scan', `NOPE-${run}`);
      await toldOn(page, 'error', 'No record');
      await eventually(() => focused(page, 'scan-print-scan')).toBe(true);

      // The printer chosen again from the list: the list closes and the scan field has the focus.
      await page.getByTestId('scan-print-printer').click();
      await page.locator('.ant-select-item-option', { hasText: name }).click();
      await eventually(() => focused(page, 'scan-print-scan')).toBe(true);

      await scanInto(page, 'scan-print-scan', pallet.sscc);
      await toldOn(page, 'success', `Label of pallet ${pallet.palletNo} (${pallet.sscc}, pallet 1 of 1, order ${orderNo}) sent to ${name}.`);
      await eventually(() => printer.received.length).toBe(2);
      expect(printer.received[1]).toContain(`>;>800${pallet.sscc}`);
      expect(printer.received[1]).toContain('GROSS WEIGHT: ');
      await eventually(() => focused(page, 'scan-print-scan')).toBe(true);
      expect(printer.received).toHaveLength(2);
    } finally {
      await page.context().close();
      await printer.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { ScanValueRow } from '../../src/common/handheld-api.js';
import { apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { rfLabel, rfScan, rfStep } from '../helpers/rf-flow-e2e.js';
import { packSetup, toldOn } from '../helpers/pack-e2e.js';
import { ledgerDays } from '../helpers/ledger-days.js';

/**
 * Pack and load through the one handheld runtime in Chromium at 360x640, with the shipped flows:
 * a picked order of two SKUs is packed on /rfFlow?fn=pack into a carton of a carton type (one SKU
 * by its GS1-128 label with the label's quantity, the other by its UPC, an over-pack refused and
 * its quantity asked again), the carton closed with gross and net weight and length × width ×
 * height, and the order checked complete; the carton is then loaded by its SSCC label onto a load
 * on /rfFlow?fn=load. The order's status, the carton, the stored dialog values and the ledger are
 * read through the API.
 */
describe('pack and load through the handheld runtime, in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const setup = packSetup(() => e2e.server, () => token, 'RFPL');
  const { call, selection, skus, run } = setup;

  const [scan, step, label] = [rfScan, rfStep, rfLabel];
  const orderStatus = async (orderNo: string) => (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: orderNo }]))[0].status;

  it('packs a picked order into a carton, closes it with its weights and dimensions, and loads it by its SSCC', async () => {
    token = await apiSignIn(e2e.server);
    await setup.receive(10);
    const orderNo = `E2E-RFPL-${run}`;
    await setup.pickedOrder(orderNo, [
      [0, 3],
      [1, 1],
    ]);
    const cartonType = (await call<{ rows: Array<{ code: string }> }>('/pack/carton/type')).rows[0]?.code;
    expect(cartonType, 'a carton type of the demo data').toBeTruthy();

    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/rfFlow?fn=pack', { viewport: { width: 360, height: 640 } });
    await handheld.locator('[data-testid="rf-sign-in"]').waitFor({ timeout: 60_000 });
    await handheld.getByTestId('rf-device-id').fill(`RFPL-${run}`);
    await handheld.getByTestId('rf-device-id').press('Enter');
    await handheld.locator('[data-testid="rf-flow"]').waitFor();
    expect(await handheld.locator('[data-testid="rf-functions"] .ant-radio-button-wrapper-checked').innerText()).toBe('Pack');
    expect(await handheld.getByTestId('rf-version').innerText()).toContain('Standard flow');
    expect(await label(handheld)).toContain('Scan the order to pack');

    // The order, then a carton of a carton type (an unknown type refused, the step asked again).
    await scan(handheld, orderNo);
    await eventually(() => step(handheld)).toBe('cartonType');
    expect(await handheld.getByTestId('rf-task').innerText()).toContain(`Left to pack: ${skus[0].code} 3, ${skus[1].code} 1`);
    await scan(handheld, `NO-TYPE-${run}`);
    await toldOn(handheld, 'error', `NO-TYPE-${run} is no carton type`);
    expect(await step(handheld)).toBe('cartonType');
    await scan(handheld, cartonType);
    await eventually(() => step(handheld)).toBe('item');
    const cartonNo = (await label(handheld)).match(/Scan an item into (\S+)/)?.[1];
    expect(cartonNo, 'the opened carton named in the prompt').toBeTruthy();

    // The first SKU by its GS1-128 label: its quantity (3) is the label's, the quantity step skipped.
    await scan(handheld, `(01)0${skus[0].ean}(37)3`);
    await eventually(() => step(handheld)).toBe('qty');
    await handheld.getByTestId('rf-skip').click();
    await toldOn(handheld, 'success', `Packed ${skus[0].code} +3 into ${cartonNo}.`);
    // The carton stays open: the carton type is passed over, the next item is asked.
    await eventually(() => step(handheld)).toBe('item');

    // The second SKU by its UPC: 5 is more than is picked, refused by the server and the quantity asked again.
    await scan(handheld, skus[1].ean);
    await eventually(() => step(handheld)).toBe('qty');
    await scan(handheld, '5');
    await eventually(() => handheld.getByTestId('handheld-feedback').getAttribute('data-tone')).toBe('error');
    expect(await step(handheld)).toBe('qty');
    await scan(handheld, '1');
    await toldOn(handheld, 'success', `Packed ${skus[1].code} +1 into ${cartonNo}.`);
    await eventually(() => step(handheld)).toBe('item');
    expect(await handheld.getByTestId('rf-task').innerText()).toContain('All that is picked is packed');

    // Skipping the item closes the carton: the weights are mandatory, the dimensions length × width × height.
    await handheld.getByTestId('rf-skip').click();
    await handheld.locator('[data-testid="rf-dialogs"]').waitFor();
    await handheld.getByTestId('rf-dialogs-ok').click();
    await toldOn(handheld, 'error', 'Gross weight (kg) is required.');
    await handheld.getByTestId('rf-dialog-grossWeight').fill('2.5');
    await handheld.getByTestId('rf-dialog-netWeight').fill('2');
    await handheld.getByTestId('rf-dialog-dimension').fill('40x30');
    await handheld.getByTestId('rf-dialogs-ok').click();
    await toldOn(handheld, 'error', 'Dimensions (cm): enter one measure, or length × width × height');
    await handheld.getByTestId('rf-dialog-dimension').fill('40x30x20');
    await handheld.getByTestId('rf-dialogs-ok').click();
    await toldOn(handheld, 'success', `Carton ${cartonNo} closed (SSCC `);
    expect(await handheld.getByTestId('handheld-feedback').innerText()).toContain(`Order ${orderNo}: Packed.`);
    await eventually(() => handheld.getByTestId('rf-stored-values').innerText()).toContain('Gross weight (kg) 2.5');
    await eventually(() => step(handheld)).toBe('search');

    // The order is packed; the carton closed with what was entered; the values stored with the close.
    expect(await orderStatus(orderNo)).toBe('packed');
    type Carton = { carton_no: string; status: string; gross_weight: string; net_weight: string; length: string; width: string; height: string; sscc: string };
    const carton = (await selection<Carton>('packing', 'cmg', [{ field: 'carton_no', operator: '=', value: cartonNo }]))[0];
    expect([carton.status, Number(carton.gross_weight), Number(carton.net_weight), Number(carton.length), Number(carton.width), Number(carton.height)]).toEqual(['closed', 2.5, 2, 40, 30, 20]);
    expect(carton.sscc).toMatch(/^\d{18}$/);
    const scanKey = (await handheld.getByTestId('rf-stored-values').getAttribute('data-key'))!;
    const stored = (await call<{ rows: ScanValueRow[] }>(`/handheld/scanValue/list?fn=pack&scanKey=${scanKey}`)).rows;
    expect(stored.map((r) => [r.subject.cartonNo, r.values])).toEqual([[cartonNo, { grossWeight: '2.5', netWeight: '2', dimension: '40x30x20' }]]);

    // The ledger: the picked stock moved onto the carton, 3 and 1, once each.
    type LogRow = { sku_code: string; lpn: string | null; qty: string };
    const log = (await call<{ rows: LogRow[] }>('/inventory/transactionLog', { transType: 'all', ...ledgerDays(), orderNo: cartonNo, pageSize: 100 })).rows;
    const onto = log.filter((r) => Number(r.qty) > 0).map((r) => [r.sku_code, Number(r.qty)]);
    expect(onto.sort()).toEqual(
      [
        [skus[0].code, 3],
        [skus[1].code, 1],
      ].sort(),
    );
    expect(log.reduce((sum, r) => sum + Number(r.qty), 0)).toBe(0);

    // Load: the load function, a new load found by its number, the carton by its SSCC label.
    const made = await call<{ id: number; loadNo: string }>('/loading/create', { containerNo: `RF${run}`.slice(0, 30) });
    await handheld.locator('label:has([data-testid="rf-fn-load"])').click();
    await eventually(() => label(handheld)).toContain('Scan the load number');
    await scan(handheld, made.loadNo);
    await eventually(() => step(handheld)).toBe('carton');
    await scan(handheld, `NOPE-${run}`);
    await eventually(() => handheld.getByTestId('handheld-feedback').getAttribute('data-tone')).toBe('error');
    expect(await step(handheld)).toBe('carton');
    await scan(handheld, `(00)${carton.sscc}`);
    await toldOn(handheld, 'success', `Loaded ${cartonNo} (${orderNo}: `);
    // It stays on the load; the same carton again is refused on the handheld.
    await eventually(() => handheld.getByTestId('rf-task').innerText()).toContain('Cartons on the load: 1');
    expect(await step(handheld)).toBe('carton');
    await scan(handheld, carton.sscc);
    await toldOn(handheld, 'error', `${carton.sscc} is on load ${made.loadNo} already.`);

    expect(await orderStatus(orderNo)).toBe('loaded');
    const table = await call<{ cartons: Array<{ cartonNo: string; orderNo: string }> }>('/loading/table', { loadId: made.id });
    expect(table.cartons.map((c) => [c.cartonNo, c.orderNo])).toEqual([[cartonNo, orderNo]]);
  });
});

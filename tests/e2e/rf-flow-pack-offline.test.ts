import { describe, expect, it } from 'vitest';
import { apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { rfLabel, rfScan, rfStep } from '../helpers/rf-flow-e2e.js';
import { packSetup, toldOn } from '../helpers/pack-e2e.js';

/**
 * Pack through a dead spot on /rfFlow?fn=pack in Chromium at 360x640, with the shipped flow: a
 * packer finds an order by scanning one of its cartons (a closed one is refused as closed, an open
 * one by its SSCC label is packed on); then, offline, opens a carton, packs two SKUs, closes the
 * carton with its weights and checks the order complete, all kept in the queue; online again they
 * are sent once each in the order taken, and the order is packed, with the ledger and the balances
 * agreeing.
 */
describe('pack through a dead spot on the handheld runtime, in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const setup = packSetup(() => e2e.server, () => token, 'RFPO');
  const { call, selection, skus, run } = setup;
  const [scan, step, label] = [rfScan, rfStep, rfLabel];
  const orderStatus = async (orderNo: string) => (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: orderNo }]))[0].status;
  type Pack = { order: { id: number }; cartons: Array<{ id: number; cartonNo: string; status: string; sscc: string | null }> };

  it('finds an order by its carton, and packs, closes and checks complete offline, applied once in order when online', async () => {
    token = await apiSignIn(e2e.server);
    await setup.receive(10);
    const cartonType = (await call<{ rows: Array<{ code: string }> }>('/pack/carton/type')).rows[0]?.code;
    expect(cartonType, 'a carton type of the demo data').toBeTruthy();

    // Order B: two cartons of one each packed and closed at the desk, the first reopened (it keeps its SSCC).
    const orderB = `E2E-RFPO-B-${run}`;
    const { soId: soB } = await setup.pickedOrder(orderB, [[0, 3]]);
    const closedB: Pack['cartons'] = [];
    for (let i = 0; i < 2; i += 1) {
      const carton = (await call<{ opened: { id: number } }>('/pack/scan/open', { soId: soB })).opened;
      await call('/pack/scan/sku', { cartonId: carton.id, barcode: skus[0].code });
      const closed = await call<Pack>('/pack/scan/close', { cartonId: carton.id, grossWeight: 1, netWeight: 1, weightUom: 'KG' });
      closedB.push(closed.cartons.find((c) => c.id === carton.id)!);
    }
    await call('/pack/scan/reopen', { soId: soB, cartonId: closedB[0].id });

    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/rfFlow?fn=pack', { viewport: { width: 360, height: 640 } });
    const context = handheld.context();
    await handheld.getByTestId('rf-sign-in').waitFor({ timeout: 60_000 });
    await handheld.getByTestId('rf-device-id').fill(`RFPO-${run}`);
    await handheld.getByTestId('rf-device-id').press('Enter');
    await handheld.getByTestId('rf-flow').waitFor();
    expect(await label(handheld)).toContain('Scan the order to pack');

    // The closed carton by its SSCC label: refused as closed, the search asked again.
    await scan(handheld, `(00)${closedB[1].sscc}`);
    await toldOn(handheld, 'error', 'The carton is closed.');
    expect(await step(handheld)).toBe('search');
    // The reopened one by its SSCC label: its order, packing on in that carton.
    await scan(handheld, `(00)${closedB[0].sscc}`);
    await eventually(() => step(handheld)).toBe('item');
    expect(await label(handheld)).toContain(`Scan an item into ${closedB[0].cartonNo}`);
    expect(await handheld.getByTestId('rf-task').innerText()).toContain(`Left to pack: ${skus[0].code} 1`);
    await scan(handheld, skus[0].code);
    await eventually(() => step(handheld)).toBe('qty');
    await handheld.getByTestId('rf-skip').click();
    await toldOn(handheld, 'success', `Packed ${skus[0].code} +1 into ${closedB[0].cartonNo}.`);
    await handheld.getByTestId('handheld-back').click();
    await eventually(() => step(handheld)).toBe('search');

    // Order A, found online; then the dead spot.
    const orderA = `E2E-RFPO-A-${run}`;
    const { soId: soA } = await setup.pickedOrder(orderA, [
      [0, 2],
      [1, 1],
    ]);
    await scan(handheld, orderA);
    await eventually(() => step(handheld)).toBe('cartonType');
    const sent: Array<{ path: string; key: string; body: string }> = [];
    handheld.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === 'POST' && /^\/api\/(pack\/scan\/|scanPack\/closeOrder|handheld\/scanValue\/record)/.test(path)) sent.push({ path, key: request.headers()['idempotency-key'] ?? '', body: request.postData() ?? '' });
    });
    await context.setOffline(true);
    const banner = handheld.getByTestId('offline-banner');

    // A carton of the type opened offline: a new carton waiting, into which the items go.
    await scan(handheld, cartonType);
    await eventually(() => step(handheld)).toBe('item');
    expect(await label(handheld)).toContain('Scan an item into new carton (waiting)');
    await eventually(() => banner.innerText()).toBe('Offline — 1 scans waiting');
    await scan(handheld, skus[0].code);
    await eventually(() => step(handheld)).toBe('qty');
    await scan(handheld, '2');
    await toldOn(handheld, 'warning', 'No connection: the scan is kept');
    await eventually(() => step(handheld)).toBe('item');
    await scan(handheld, skus[1].code);
    await eventually(() => step(handheld)).toBe('qty');
    await handheld.getByTestId('rf-skip').click();
    await eventually(() => banner.innerText()).toBe('Offline — 3 scans waiting');
    await eventually(() => handheld.getByTestId('rf-task').innerText()).toContain('All that is picked is packed');
    expect(await handheld.getByTestId('rf-task').innerText()).toContain(`waiting: ${skus[0].code} × 2, ${skus[1].code} × 1`);

    // Closed with its weights, and the order checked complete: kept too, nothing applied yet.
    await handheld.getByTestId('rf-skip').click();
    await handheld.locator('[data-testid="rf-dialogs"]').waitFor();
    await handheld.getByTestId('rf-dialog-grossWeight').fill('2.5');
    await handheld.getByTestId('rf-dialog-netWeight').fill('2');
    await handheld.getByTestId('rf-dialogs-ok').click();
    await toldOn(handheld, 'warning', 'No connection: the scan is kept');
    expect(await handheld.getByTestId('handheld-feedback').innerText()).toContain(`Order ${orderA} is checked complete once the waiting scans are sent.`);
    await eventually(() => step(handheld)).toBe('search');
    // The opening, two items, the close, the check-complete and the close's weights.
    await eventually(() => banner.innerText()).toBe('Offline — 6 scans waiting');
    const box = await banner.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    expect(await orderStatus(orderA)).toBe('picked');
    expect((await call<Pack>('/scanPack', { orderNo: orderA })).cartons).toEqual([]);

    // Online again: sent in the order taken, each once; the order packed.
    await context.setOffline(false);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    await eventually(() => orderStatus(orderA)).toBe('packed');
    const delivered = sent.filter((request, i) => sent.findIndex((other) => other.key === request.key) === i);
    expect(delivered.map((r) => r.path)).toEqual(['/api/pack/scan/open', '/api/pack/scan/sku', '/api/pack/scan/sku', '/api/pack/scan/close', '/api/scanPack/closeOrder', '/api/handheld/scanValue/record']);
    expect(delivered.every((r) => r.key.length > 0)).toBe(true);
    const openKey = delivered[0].key;
    expect(delivered.slice(1, 4).map((r) => (JSON.parse(r.body) as { cartonKey?: string }).cartonKey)).toEqual([openKey, openKey, openKey]);
    expect(JSON.parse(delivered[4].body)).toEqual({ soId: soA, whenPacked: true });

    // One carton, closed with the weights, holding 2 and 1; the ledger moved each once; the balances agree.
    type Packed = { cartons: Array<{ cartonNo: string; status: string; grossWeight: string; lines: Array<{ skuCode: string; qty: string }> }> };
    const packed = await call<Packed>('/scanPack', { orderNo: orderA, checkCompleted: true });
    expect(packed.cartons.map((c) => [c.status, Number(c.grossWeight), c.lines.map((l) => [l.skuCode, Number(l.qty)]).sort()])).toEqual([
      [
        'closed',
        2.5,
        [
          [skus[0].code, 2],
          [skus[1].code, 1],
        ].sort(),
      ],
    ]);
    const cartonNo = packed.cartons[0].cartonNo;
    // A day either side: the warehouse's day may not be the test machine's.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    type LogRow = { sku_code: string; lpn: string | null; qty: string };
    const log = (await call<{ rows: LogRow[] }>('/inventory/transactionLog', { transType: 'all', from: day(-1), to: day(1), orderNo: cartonNo, pageSize: 100 })).rows;
    const onto = log.filter((r) => Number(r.qty) > 0).map((r) => [r.sku_code, r.lpn, Number(r.qty)]);
    expect(onto.sort()).toEqual(
      [
        [skus[0].code, cartonNo, 2],
        [skus[1].code, cartonNo, 1],
      ].sort(),
    );
    expect(log.reduce((sum, r) => sum + Number(r.qty), 0)).toBe(0);
    type Balance = { sku_code: string; lpn: string | null; on_hand_qty: string; picked_qty: string };
    for (const [sku, qty] of [
      [skus[0].code, 2],
      [skus[1].code, 1],
    ] as const) {
      const balances = await selection<Balance>('inventory', 'balance', [{ field: 'sku_code', operator: '=', value: sku }]);
      const onCarton = balances.filter((b) => b.lpn === cartonNo).map((b) => [Number(b.on_hand_qty), Number(b.picked_qty)]);
      expect(onCarton, `${sku} on ${cartonNo}`).toEqual([[qty, qty]]);
    }
    expect(await orderStatus(orderB)).toBe('picked');
  });
});

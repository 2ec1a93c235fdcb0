import { describe, expect, it } from 'vitest';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { packCartons, packSetup, scanInto, type LedgerRow } from '../helpers/pack-e2e.js';
import { rfReady, rfStep } from '../helpers/rf-flow-e2e.js';

/**
 * The offline queue on the handheld move (the handheld runtime's move function, /putaway's move
 * tab) and the load scan (docs/handheld.md), Chromium at 360x640, keyboard only. Move: the
 * handheld, signed in for its shift, goes offline, three moves are taken (the locations and
 * the item taken as scanned, the quantity typed), the screen says 3 waiting and nothing has moved;
 * online again they apply once each, in the order taken, and the ledger shows each move once.
 * Load: one carton scanned offline waits, listed as waiting; online again it is loaded once.
 */
describe('handheld move and load scans offline in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);
  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(e2e.server, token, moduleCode, functionCode, rules);
  const run = Date.now().toString(36).toUpperCase();
  const SKU = `HHM-${run}`;

  it('takes three moves offline and applies them once, in order', async () => {
    token = await apiSignIn(e2e.server);
    const owner = (await selection<{ _key: number; code: string }>('masterdata', 'ogr'))[0];
    await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: SKU, owner_id: owner._key, description: 'Offline move item', base_uom: 'EA' } });
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: SKU, expectedQty: 20 }] });
    const asnLine = (await call<{ lines: { id: number }[] }>('/asn/getDetail', { id: asn.id })).lines[0];
    await call('/inbound/batch/receive', { lines: [{ asnLineId: asnLine.id, qty: 20, locationCode: 'A-03-2' }] });
    const onHand = async () =>
      Object.fromEntries(
        (await selection<{ location_code: string; on_hand_qty: string }>('inventory', 'balance', [{ field: 'sku_code', operator: '=', value: SKU }])).map((b) => [b.location_code, Number(b.on_hand_qty)]),
      );
    expect(await onHand()).toEqual({ 'A-03-2': 20 });

    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/putaway?tab=move', { viewport: { width: 360, height: 640 } });
    // The move tab is the handheld runtime's move function: the device signs in for its shift first.
    await rfReady(handheld, `RFO-${run}`);
    const sent: Array<{ key: string; body: string }> = [];
    handheld.on('request', (request) => {
      if (request.url().endsWith('/api/inventory/handheld/move')) sent.push({ key: request.headers()['idempotency-key'] ?? '', body: request.postData() ?? '' });
    });
    const enter = (text: string) => scanInto(handheld, 'scan-field', text);
    const step = () => rfStep(handheld);
    const feedback = handheld.getByTestId('handheld-feedback');

    await handheld.context().setOffline(true);
    const banner = handheld.getByTestId('offline-banner');
    const moves = [1, 2, 3];
    for (const qty of moves) {
      await eventually(step).toBe('search');
      await enter('A-03-2');
      await eventually(() => feedback.innerText()).toContain('the stock cannot be checked');
      await eventually(step).toBe('sku');
      await enter(SKU);
      await eventually(step).toBe('qty');
      await enter(String(qty));
      await eventually(step).toBe('to');
      await enter('A-01-2');
      await eventually(() => banner.getAttribute('data-waiting')).toBe(String(qty));
      await eventually(() => feedback.innerText()).toContain('the scan is kept');
    }
    await eventually(() => banner.innerText()).toBe('Offline — 3 scans waiting');
    const box = await banner.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    expect(await onHand()).toEqual({ 'A-03-2': 20 });
    expect(sent).toEqual([]);

    // Back online: sent once each, in the order taken, each with its own key.
    await handheld.context().setOffline(false);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    await eventually(onHand).toEqual({ 'A-03-2': 14, 'A-01-2': 6 });
    expect(sent.map((s) => (JSON.parse(s.body) as { qty: string }).qty)).toEqual(['1', '2', '3']);
    expect(new Set(sent.map((s) => s.key)).size).toBe(3);
    expect(await handheld.getByTestId('refused-scan').count()).toBe(0);

    // The ledger: each move once (its document out of A-03-2 and into A-01-2), in the order taken.
    // (The receipt into A-03-2 left out.)
    const ledger = (await selection<LedgerRow & { order_no: string }>('inventory', 'enquiryUser', [{ field: 'sku_code', operator: '=', value: SKU }])).filter(
      (r) => r.location_code === 'A-01-2' || Number(r.qty) < 0,
    );
    const byDoc = new Map<string, Array<[string, number]>>();
    for (const row of ledger) byDoc.set(row.order_no, [...(byDoc.get(row.order_no) ?? []), [row.location_code, Number(row.qty)]]);
    const docs = [...byDoc.keys()].sort();
    expect(docs).toHaveLength(3);
    expect(docs.map((doc) => byDoc.get(doc)!.sort((a, b) => a[1] - b[1]))).toEqual(moves.map((qty) => [['A-03-2', -qty], ['A-01-2', qty]]));
    await handheld.context().close();
  });

  it('keeps a load scan taken offline waiting and loads the carton once when back', async () => {
    token = await apiSignIn(e2e.server);
    const setup = packSetup(() => e2e.server, () => token, 'HLO');
    await setup.receive(5);
    const orderNo = `HLO-${setup.run}`;
    const order = await setup.pickedOrder(orderNo, [[0, 2]]);
    const [cartonNo] = await packCartons(call, { soId: order.soId, orderNo }, [[[setup.skus[0].code, 2]]]);
    const load = await call<{ id: number; loadNo: string }>('/loading/create', { containerNo: 'MSKU7654321', sealNo: `SEAL-${setup.run}` });
    const loaded = async () => (await call<{ load: { loadedCartonQty: number } }>('/loading/table', { loadId: load.id })).load.loadedCartonQty;

    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/loading', { viewport: { width: 360, height: 640 } });
    await handheld.getByTestId('loading-screen').waitFor();
    let scans = 0;
    handheld.on('request', (request) => {
      if (request.url().endsWith('/api/loading/scan')) scans += 1;
    });
    await scanInto(handheld, 'loading-scan-load', load.loadNo);
    await eventually(() => handheld.getByTestId('loading-current-no').innerText()).toBe(load.loadNo);

    await handheld.context().setOffline(true);
    await scanInto(handheld, 'loading-scan', cartonNo);
    const banner = handheld.getByTestId('offline-banner');
    await eventually(() => banner.innerText()).toBe('Offline — 1 scans waiting');
    await eventually(() => handheld.getByTestId('waiting-scan').innerText()).toContain(cartonNo);
    expect(await handheld.getByTestId('loading-carton-qty').innerText()).toBe('0');
    expect(await loaded()).toBe(0);

    await handheld.context().setOffline(false);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    await eventually(() => handheld.getByTestId('loading-carton-qty').innerText()).toBe('1');
    expect(await handheld.getByTestId('waiting-scan').count()).toBe(0);
    expect(await loaded()).toBe(1);
    expect(scans).toBe(1);
    await handheld.context().close();
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { apiSignIn, engineRows, engineToolbar, eventually, openEnginePage, selectEngineRow, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { packCartons, packSetup, palletOfCartons, scanInto, toldOn, type BalanceRow, type LedgerRow } from '../helpers/pack-e2e.js';

/**
 * Shipping acceptance in Chromium. Two owners send ship notices on ship, one as EDIFACT DESADV,
 * one as X12 856, into a folder. Order A (owner E) is picked and packed into two cartons on a
 * closed pallet; order B (owner X) into two cartons. On the desk, a new load with container, seal,
 * vessel, voyage and bills of lading: B's first carton makes B partially loaded, the same carton
 * again is refused, shipping is refused while B is not fully loaded, B is taken off after a
 * confirmation (packed again), A's pallet SSCC loads A (loaded), the load is ship-confirmed (A
 * shipped) and A is delivered with the receiver's name. B then ships on a second load. On-hand fell
 * by exactly what was shipped and every balance equals its ledger; both notices are in the EDI log
 * (/ediLogSummary) with the load in them, and the file downloaded there is byte for byte the
 * stored message and the one that was sent.
 */
const outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-ship-acceptance-'));
afterAll(() => fs.rmSync(outbox, { recursive: true, force: true }));

describe('shipping acceptance in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const run = `${Date.now()}`.slice(-8);
  const owners = { E: `SHE${run}`, X: `SHX${run}` };
  const edifact = packSetup(() => e2e.server, () => token, 'SHE', owners.E);
  const x12 = packSetup(() => e2e.server, () => token, 'SHX', owners.X);
  const { call, selection } = edifact;
  const transport = { containerNo: 'MSKU7654321', sealNo: `SEAL-${run}`, vessel: 'Ever Ace', voyage: '117E', mbl: `MAEU${run}`, hbl: `HB${run}` };

  /** Clicks the button, and OK on the confirmation it asks (which names `names`). */
  async function confirm(page: Page, button: string, popupId: string, names: string) {
    await page.getByTestId(button).click();
    const popup = page.locator(`[data-popup-id="${popupId}"]`);
    await popup.waitFor();
    expect(await popup.innerText()).toContain(names);
    await page.locator('.wms-popup-top .wms-popup-ok').click();
  }

  const feedback = (page: Page) => page.getByTestId('handheld-feedback');
  const orderStatus = async (orderNo: string) => (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: orderNo }]))[0].status;
  const skuCodes = () => [...edifact.skus, ...x12.skus].map((s) => s.code);

  /** On-hand of this run's SKUs, all places together, and a check that each balance row equals the sum of its ledger movements. */
  async function stockAndLedger(): Promise<Map<string, number>> {
    const onHand = new Map<string, number>();
    for (const code of skuCodes()) {
      const rule = [{ field: 'sku_code', operator: '=', value: code }];
      const key = (r: LedgerRow | BalanceRow) => [r.sku_code, r.lot_no ?? '', r.location_code, r.lpn ?? ''].join('|');
      const ledger = new Map<string, number>();
      for (const row of await selection<LedgerRow>('inventory', 'enquiryUser', rule)) ledger.set(key(row), Math.round(((ledger.get(key(row)) ?? 0) + Number(row.qty)) * 10000) / 10000);
      const balances = await selection<BalanceRow>('inventory', 'balance', rule);
      for (const row of balances) expect(ledger.get(key(row)) ?? 0, key(row)).toBe(Number(row.on_hand_qty));
      for (const [k, qty] of ledger) expect(Number(balances.find((b) => key(b) === k)?.on_hand_qty ?? 0), k).toBe(qty);
      onHand.set(code, balances.reduce((sum, b) => sum + Number(b.on_hand_qty), 0));
    }
    return onHand;
  }

  it('loads by pallet SSCC through partial loading and refusals, ships, delivers, and sends both notices with the load', async () => {
    token = await apiSignIn(e2e.server);
    for (const [standard, code] of [['edifact', owners.E], ['x12', owners.X]] as const) {
      const owner = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'ogr', record: { code, name: `Ship ${code}` } })).row._key;
      const ids = standard === 'edifact' ? { sender_id: '5412345000013', receiver_id: '5498765000017' } : { sender_id: 'WMS', receiver_id: `SHOP${run}` };
      await call('/generic/adding', { moduleCode: 'edi', functionCode: 'ediPartner', record: { owner_id: owner, standard, send_on: 'ship', endpoint: outbox, ...ids } });
    }
    await edifact.receive(10);
    await x12.receive(10);
    const orderA = `E2E-SHA-${run}`;
    const orderB = `E2E-SHB-${run}`;
    const a = await edifact.pickedOrder(orderA, [[0, 3], [1, 2]]);
    const cartonsA = await packCartons(call, { soId: a.soId, orderNo: orderA }, [[[edifact.skus[0].code, 3]], [[edifact.skus[1].code, 2]]]);
    const pallet = await palletOfCartons(call, 'A-01-2', cartonsA);
    const b = await x12.pickedOrder(orderB, [[0, 2]]);
    const cartonsB = await packCartons(call, { soId: b.soId, orderNo: orderB }, [[[x12.skus[0].code, 1]], [[x12.skus[0].code, 1]]]);
    expect([await orderStatus(orderA), await orderStatus(orderB)]).toEqual(['packed', 'packed']);
    const before = await stockAndLedger();

    const page = await signedInPage(e2e.browser, e2e.server, '/page/loading', { viewport: { width: 1440, height: 900 } });
    await page.getByTestId('loading-screen').waitFor();
    await page.getByTestId('loading-new').click();
    for (const [field, value] of Object.entries(transport)) await page.getByTestId(`loading-field-${field}`).fill(value);
    await page.getByTestId('loading-header-save').click();
    await eventually(() => feedback(page).innerText()).toMatch(/^Load LD\d+ created\.$/);
    const loadNo = await page.getByTestId('loading-current-no').innerText();
    expect(await call('/loading/getLoadByUid', { loadNo })).toMatchObject({ ...transport, status: 'open' });

    // B's first carton: B is partially loaded; the same carton again is refused and changes nothing.
    await scanInto(page, 'loading-scan', cartonsB[0]);
    await toldOn(page, 'success', 'Loaded 1 carton(s): ');
    expect(await orderStatus(orderB)).toBe('partial_loaded');
    await scanInto(page, 'loading-scan', cartonsB[0]);
    await toldOn(page, 'error', `Carton ${cartonsB[0]} is already on load ${loadNo}.`);
    expect(await page.getByTestId('loading-carton-qty').innerText()).toBe('1');

    // Shipping with B not fully loaded is refused after the confirmation: nothing moves.
    await confirm(page, 'loading-ship', 'loading-ship-confirm', loadNo);
    await eventually(() => feedback(page).innerText()).toBe(`Order ${orderB} is not fully loaded and cannot be shipped.`);
    expect(await orderStatus(orderB)).toBe('partial_loaded');
    expect(await stockAndLedger()).toEqual(before);

    // B comes off after a confirmation naming it: packed again.
    await confirm(page, `loading-remove-${orderB}`, 'loading-remove-confirm', orderB);
    await eventually(() => orderStatus(orderB)).toBe('packed');
    await eventually(() => page.getByTestId('loading-carton-qty').innerText()).toBe('0');

    // A's pallet SSCC loads both its cartons: A is loaded. Ship confirm: A is shipped.
    await scanInto(page, 'loading-scan', pallet.sscc);
    await toldOn(page, 'success', 'Loaded 2 carton(s): ');
    expect(await orderStatus(orderA)).toBe('loaded');
    await confirm(page, 'loading-ship', 'loading-ship-confirm', loadNo);
    await eventually(() => feedback(page).innerText()).toBe(`Load ${loadNo} shipped.`);
    expect(await orderStatus(orderA)).toBe('shipped');

    // Delivered with the receiver's name.
    await page.getByTestId(`loading-deliver-${orderA}`).click();
    await page.getByTestId('loading-deliver-dialog').waitFor();
    await page.getByTestId('loading-deliver-receiver').fill('Mei Chen');
    await page.keyboard.press('Enter');
    await eventually(() => feedback(page).innerText()).toBe(`Order ${orderA} delivered.`);
    expect(await orderStatus(orderA)).toBe('delivered');

    // B leaves on a second load of the same container.
    const second = await call<{ id: number; loadNo: string }>('/loading/create', transport);
    for (const carton of cartonsB) await call('/loading/scan', { loadId: second.id, code: carton });
    await call('/loading/shipConfirm', { loadId: second.id });
    expect(await orderStatus(orderB)).toBe('shipped');

    // On-hand fell by exactly what was shipped, and every balance equals its ledger.
    const after = await stockAndLedger();
    const shipped = new Map([[edifact.skus[0].code, 3], [edifact.skus[1].code, 2], [x12.skus[0].code, 2], [x12.skus[1].code, 0]]);
    for (const code of skuCodes()) expect(after.get(code), code).toBe((before.get(code) ?? 0) - shipped.get(code)!);

    // Both notices were sent into the folder, with the load in them.
    const notices = () => fs.readdirSync(outbox).filter((name) => name.endsWith('.edi'));
    await eventually(() => notices().length, 60_000).toBe(2);
    const sent = notices();
    const desadvFile = sent.find((name) => name.startsWith('DESADV_'))!;
    const asnFile = sent.find((name) => name.startsWith('856_'))!;
    const desadv = fs.readFileSync(path.join(outbox, desadvFile));
    const asn = fs.readFileSync(path.join(outbox, asnFile));
    for (const text of [`EQD+CN+${transport.containerNo}'`, `SEL+${transport.sealNo}+CA'`, `TDT+20+${transport.voyage}+10+`, `:::${transport.vessel}'`, `RFF+SRN:${loadNo}'`, `RFF+MB:${transport.mbl}'`, `RFF+BH:${transport.hbl}'`, `GIN+BJ+${pallet.sscc}'`]) expect(desadv.toString('utf8')).toContain(text);
    for (const text of [`TD3*CN**${transport.containerNo}******${transport.sealNo}~`, `REF*LO*${second.loadNo}~`, `REF*MB*${transport.mbl}~`, `REF*BM*${transport.hbl}~`, `REF*WU*${transport.vessel}*${transport.voyage}~`]) expect(asn.toString('utf8')).toContain(text);

    // The EDI log lists both; the DESADV downloaded there is byte for byte what is stored and what was sent.
    const logged = await selection<{ _key: number; kind: string; reference: string; status: string }>('edi', 'ediLogSummary');
    expect(logged.filter((r) => [orderA, orderB].includes(r.reference)).map((r) => [r.reference, r.kind, r.status]).sort()).toEqual([
      [orderA, 'desadv', 'sent'],
      [orderB, 'x12_856', 'sent'],
    ]);
    await openEnginePage(page, e2e.server, '/page/ediLogSummary', 'ediLogSummary');
    const rows = engineRows(page, 'ediLogSummary');
    // A row is told by its customer (owner) code: the grid shortens the long order number.
    await rows.filter({ hasText: owners.E }).first().waitFor();
    await rows.filter({ hasText: owners.X }).first().waitFor();
    await selectEngineRow(rows.filter({ hasText: owners.E }).first(), engineToolbar(page, 'ediLogSummary').getByTestId('engine-total'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('edi-download').click()]);
    const downloaded = fs.readFileSync(await download.path());
    expect(download.suggestedFilename()).toMatch(/^DESADV_.*\.edi$/);
    const stored = await call<{ id: number; content: string; kind: string }>(`/edi/message/content?id=${/_(\d+)\.edi$/.exec(desadvFile)![1]}`);
    expect(stored.kind).toBe('desadv');
    expect(downloaded.equals(Buffer.from(stored.content, 'utf8'))).toBe(true);
    expect(downloaded.equals(desadv)).toBe(true);
    await page.context().close();
  });
});

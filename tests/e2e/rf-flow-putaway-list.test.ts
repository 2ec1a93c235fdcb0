import { describe, expect, it } from 'vitest';
import { apiCall, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { ledgerDays } from '../helpers/ledger-days.js';
import { rfEnter, rfReady, rfStep } from '../helpers/rf-flow-e2e.js';

/**
 * The putaway task list of the handheld runtime on /putaway, Chromium at 360x640 on demo data: two
 * SKUs received at the dock without an LPN (nothing to scan) are put away by tapping their tasks.
 * The first goes to another location than the suggested one, so its reason is asked; the second
 * goes in two parts while the handheld is offline: the list stays, less what the waiting putaways
 * take (3 left after 1, gone after the rest), and back online both apply once, in order. The ledger
 * and the balances show each putaway once, with its reason.
 */
describe('the putaway task list on the handheld runtime, in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  const TAG = Date.now().toString(36).slice(-6).toUpperCase();
  let token = '';
  const call = <T>(path: string, body?: unknown): Promise<T> => apiCall<T>(e2e.server, token, path, body);

  type Task = { id: number; asn_no: string; sku_code: string; lpn: string; qty: string };
  type LogRow = { trans_type: string; sku_code: string; location_code: string; qty: string; lpn: string; reason: string | null };

  it('puts away stock received without an LPN by tapping its task, online and offline', async () => {
    token = await apiSignIn(e2e.server);
    const owner = (await call<{ rows: { _key: number; code: string }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'ogr', page: 1, pageSize: 10 })).rows[0];
    const made: string[] = [];
    for (const part of ['A', 'B']) {
      const code = `PTL-${TAG}-${part}`;
      await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code, owner_id: owner._key, description: `Putaway list ${part}`, base_uom: 'EA' } });
      made.push(code);
    }
    const [skuA, skuB] = made;
    const asn = await call<{ id: number; asn_no: string }>('/asn/saveHeader', { ownerCode: owner.code, remark: `E2E putaway list ${TAG}` });
    const detail = await call<{ lines: { id: number; sku_code: string }[] }>('/asn/saveDetail', {
      asnId: asn.id,
      lines: made.map((skuCode) => ({ skuCode, expectedQty: 4 })),
    });
    await call('/inbound/batch/receive', { lines: detail.lines.map((l) => ({ asnLineId: l.id, qty: '4', locationCode: 'DOCK-01' })) });
    const openTasks = async () => (await call<{ tasks: Task[] }>('/putaway/tasks')).tasks.filter((t) => t.asn_no === asn.asn_no);
    const tasks = await openTasks();
    expect(tasks.map((t) => [t.sku_code, t.lpn, Number(t.qty)]).sort()).toEqual([
      [skuA, '', 4],
      [skuB, '', 4],
    ]);
    const taskA = tasks.find((t) => t.sku_code === skuA)!;
    const taskB = tasks.find((t) => t.sku_code === skuB)!;

    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/putaway', { viewport: { width: 360, height: 640 } });
    await rfReady(handheld, `RFP-${TAG}`);
    const item = (id: number) => handheld.locator(`[data-testid="rf-list-item"][data-key="${id}"]`);
    const feedback = handheld.getByTestId('handheld-feedback');
    const suggested = () => handheld.getByTestId('rf-suggested').getAttribute('data-location');
    await eventually(() => item(taskA.id).innerText()).toContain(`${skuA} · 4 · DOCK-01`);

    // A: tapped, its suggested location shown; another location asks for the reason, then the quantity.
    await item(taskA.id).click();
    await eventually(() => rfStep(handheld)).toBe('location');
    const suggestedA = (await suggested())!;
    expect(suggestedA).not.toBe('');
    const elsewhere = (await call<{ items: { code: string }[] }>('/inventory/location?code=A-')).items.map((l) => l.code).find((code) => code !== suggestedA)!;
    expect(elsewhere).toBeDefined();
    await rfEnter(handheld, elsewhere, 'reason');
    expect(await feedback.getAttribute('data-tone')).toBe('warning');
    await rfEnter(handheld, `Bin full ${TAG}`, 'qty');
    await eventually(() => handheld.getByTestId('scan-field').inputValue()).toBe('4');
    await handheld.keyboard.press('Enter');
    await eventually(() => feedback.getAttribute('data-tone')).toBe('success');
    expect(await feedback.innerText()).toContain(elsewhere);
    await eventually(() => rfStep(handheld)).toBe('search');
    await eventually(() => item(taskA.id).count()).toBe(0);
    await eventually(() => item(taskB.id).count()).toBe(1);

    // B offline: the list stays; 1, then the rest, wait; the list leaves out what they put away.
    const sent: string[] = [];
    handheld.on('request', (request) => {
      if (request.url().endsWith('/api/putaway/confirm')) sent.push(request.postData() ?? '');
    });
    await handheld.context().setOffline(true);
    const banner = handheld.getByTestId('offline-banner');
    await banner.waitFor();
    await item(taskB.id).click();
    await eventually(() => rfStep(handheld)).toBe('location');
    const locationB = (await suggested()) || 'A-01-2';
    await rfEnter(handheld, locationB, 'qty');
    await rfEnter(handheld, '1', 'search');
    await eventually(() => banner.getAttribute('data-waiting')).toBe('1');
    await eventually(() => item(taskB.id).innerText()).toContain(`${skuB} · 3 ·`);
    await item(taskB.id).click();
    await eventually(() => rfStep(handheld)).toBe('location');
    await rfEnter(handheld, locationB, 'qty');
    await eventually(() => handheld.getByTestId('scan-field').inputValue()).toBe('3');
    await handheld.keyboard.press('Enter');
    await eventually(() => banner.getAttribute('data-waiting')).toBe('2');
    await eventually(() => item(taskB.id).count()).toBe(0);
    expect(sent).toEqual([]);
    expect((await openTasks()).map((t) => [t.sku_code, Number(t.qty)])).toEqual([[skuB, 4]]);

    // Online: both sent once, in order; the task is done.
    await handheld.context().setOffline(false);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    await eventually(openTasks).toEqual([]);
    expect(sent.map((body) => (JSON.parse(body) as { qty?: string }).qty)).toEqual(['1', '3']);
    expect(await handheld.getByTestId('refused-scan').count()).toBe(0);

    // The ledger: each putaway once, from the dock to its location (A with its reason).
    const log = (await call<{ rows: LogRow[] }>('/inventory/transactionLog', { transType: 'all', ...ledgerDays(), orderNo: asn.asn_no, pageSize: 100 })).rows.filter((r) => r.trans_type === 'putaway');
    const shape = (sku: string) =>
      log
        .filter((r) => r.sku_code === sku)
        .map((r) => [r.location_code, Number(r.qty)])
        .sort();
    expect(shape(skuA)).toEqual([
      [elsewhere, 4],
      ['DOCK-01', -4],
    ].sort());
    expect(log.filter((r) => r.sku_code === skuA).every((r) => r.reason === `Bin full ${TAG}`)).toBe(true);
    expect(shape(skuB)).toEqual([
      [locationB, 1],
      [locationB, 3],
      ['DOCK-01', -3],
      ['DOCK-01', -1],
    ].sort());
    const balance = async (sku: string) =>
      (await call<{ rows: { location_code: string; on_hand_qty: string }[] }>('/generic/selection', {
        moduleCode: 'inventory',
        functionCode: 'balance',
        page: 1,
        pageSize: 10,
        conditions: { combinator: 'and', rules: [{ field: 'sku_code', operator: '=', value: sku }] },
      })).rows
        .filter((r) => Number(r.on_hand_qty) !== 0)
        .map((r) => [r.location_code, Number(r.on_hand_qty)]);
    expect(await balance(skuA)).toEqual([[elsewhere, 4]]);
    expect(await balance(skuB)).toEqual([[locationB, 4]]);
    await handheld.context().close();
  });
});

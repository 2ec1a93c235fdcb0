import { describe, expect, it } from 'vitest';
import { pickableOrders, rfEnter, rfReady } from '../helpers/rf-flow-e2e.js';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * Handheld picking through a Wi-Fi dead spot (docs/handheld.md), 360x640, keyboard only, on /pick's
 * handheld tab (the handheld runtime's pick function), each task found by its number. In the
 * middle of picking the handheld goes offline; five scans are taken and the screen shows 5 waiting.
 * A reload keeps them (the server still out of reach); online again, the five apply once, in the
 * order taken (pick tasks and balance through the API). Replaying the same five requests with their
 * keys applies nothing. A scan whose stock was moved away meanwhile (its order unallocated and the
 * stock moved through the API while offline) is shown refused with its reason, and acknowledged.
 */
describe('handheld picking offline in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);
  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(e2e.server, token, moduleCode, functionCode, rules);
  const run = Date.now().toString(36).toUpperCase();
  const SKU = `HHO-${run}`;

  it('takes five scans offline, sends them once in order, refuses the stale one', async () => {
    token = await apiSignIn(e2e.server);
    // Seven orders of 2 each, allocated, with their pick tasks at A-03-2.
    const { orders } = await pickableOrders(call, selection, SKU, `HHO-${run}`, 7);
    const taskState = async (soId: number) => (await call<{ tasks: Array<{ status: string; picked_qty: string }> }>('/pick/tasks', { soId })).tasks.map((x) => [x.status, Number(x.picked_qty)]);
    const balance = async () => {
      const rows = await selection<{ location_code: string; on_hand_qty: string; allocated_qty: string; picked_qty: string }>('inventory', 'balance', [{ field: 'sku_code', operator: '=', value: SKU }]);
      return rows.map((b) => [b.location_code, Number(b.on_hand_qty), Number(b.allocated_qty), Number(b.picked_qty)]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    };

    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/pick', { viewport: { width: 360, height: 640 } });
    const context = handheld.context();
    await rfReady(handheld, `HHO-${run}`);
    // Every pick the browser sends, with its key, in the order sent.
    const sent: Array<{ key: string; body: string }> = [];
    handheld.on('request', (request) => {
      if (request.url().endsWith('/api/pick/confirm')) sent.push({ key: request.headers()['idempotency-key'] ?? '', body: request.postData() ?? '' });
    });
    const feedback = handheld.getByTestId('handheld-feedback');
    // The task by its number (offline: from the tasks last read), then location, SKU, quantity and tote; the runtime starts over.
    const pick = async (taskId: number) => {
      await rfEnter(handheld, String(taskId), 'location');
      expect(await handheld.getByTestId('rf-task').innerText()).toContain(`A-03-2 · ${SKU} · Pick 2`);
      await rfEnter(handheld, 'A-03-2', 'sku');
      await rfEnter(handheld, SKU, 'qty');
      await rfEnter(handheld, '2', 'tote');
      await rfEnter(handheld, `TOTE-${run}`, 'search');
    };

    // In the middle of picking: the first task online.
    await pick(orders[0].taskId);
    await eventually(() => feedback.getAttribute('data-tone')).toBe('success');
    expect(await taskState(orders[0].soId)).toEqual([['picked', 2]]);

    // The dead spot: five scans, kept in the browser.
    await context.setOffline(true);
    const banner = handheld.getByTestId('offline-banner');
    for (const order of orders.slice(1, 6)) await pick(order.taskId);
    await eventually(() => banner.innerText()).toBe('Offline — 5 scans waiting');
    await eventually(() => feedback.innerText()).toContain('the scan is kept');
    for (const order of orders.slice(1, 6)) expect(await taskState(order.soId)).toEqual([['open', 0]]);
    const bannerBox = await banner.boundingBox();
    expect(bannerBox!.x + bannerBox!.width).toBeLessThanOrEqual(360);

    // A reload while the server is still out of reach loses nothing.
    await context.route('**/api/pick/confirm', (route) => route.abort('internetdisconnected'));
    await context.setOffline(false);
    await handheld.reload();
    await rfReady(handheld, `HHO-${run}`);
    await eventually(() => banner.getAttribute('data-waiting')).toBe('5');
    for (const order of orders.slice(1, 6)) expect(await taskState(order.soId)).toEqual([['open', 0]]);

    // Reachable again: the five are sent in the order taken, each once.
    sent.length = 0;
    await context.unroute('**/api/pick/confirm');
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    for (const order of orders.slice(0, 6)) expect(await taskState(order.soId)).toEqual([['picked', 2]]);
    const delivered = sent.filter((request, i) => sent.findIndex((other) => other.key === request.key) === i);
    expect(delivered.map((request) => (JSON.parse(request.body) as { taskId: number }).taskId)).toEqual(orders.slice(1, 6).map((order) => order.taskId));
    expect(new Set(delivered.map((request) => request.key)).size).toBe(5);
    const after = await balance();
    const sum = (rows: Array<Array<string | number>>, i: number) => rows.reduce((n, row) => n + Number(row[i]), 0);
    // 30 on hand in all, 12 of it picked (six tasks), 2 still allocated (the seventh).
    expect([sum(after, 1), sum(after, 3), sum(after, 2)]).toEqual([30, 12, 2]);

    // The same five requests again, with their keys: nothing more is applied.
    for (const request of delivered) {
      const response = await fetch(new URL('api/pick/confirm', e2e.server.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': request.key },
        body: request.body,
      });
      expect(response.status, await response.text()).toBe(200);
    }
    expect(await balance()).toEqual(after);
    for (const order of orders.slice(1, 6)) expect(await taskState(order.soId)).toEqual([['picked', 2]]);

    // The picker reads the last task online (the page was reloaded: the handheld has no tasks read yet) and starts over.
    await rfEnter(handheld, String(orders[6].taskId), 'location');
    await handheld.keyboard.press('Escape');
    await eventually(() => handheld.getByTestId('rf-prompt').getAttribute('data-step')).toBe('search');
    // Offline again: the last task is scanned while its stock is taken away (its order unallocated, the stock moved).
    await context.setOffline(true);
    await pick(orders[6].taskId);
    await eventually(() => banner.innerText()).toBe('Offline — 1 scans waiting');
    await call('/so/header/allocation', { soIds: [orders[6].soId], unallocate: true });
    await call('/inventory/handheld/move', { fromLocation: 'A-03-2', sku: SKU, qty: 18, toLocation: 'A-04-2' });
    await context.setOffline(false);
    const refused = handheld.getByTestId('refused-scan');
    await refused.waitFor({ timeout: 30_000 });
    expect(await refused.innerText()).toContain(`${orders[6].orderNo}/1 · A-03-2 · ${SKU} × 2`);
    expect((await handheld.getByTestId('refused-reason').innerText()).length).toBeGreaterThan(5);
    await banner.waitFor({ state: 'detached' });
    const moved = await balance();
    expect([sum(moved, 1), sum(moved, 3), sum(moved, 2)]).toEqual([30, 12, 0]);
    expect(moved.filter((row) => row[0] === 'A-04-2')).toEqual([['A-04-2', 18, 0, 0]]);
    // The picker acknowledges the refusal; it is gone, also after a reload.
    await handheld.getByTestId('refused-ack').click();
    await refused.waitFor({ state: 'detached' });
    await handheld.reload();
    await rfReady(handheld, `HHO-${run}`);
    await handheld.waitForTimeout(500);
    expect(await handheld.getByTestId('refused-scan').count()).toBe(0);
    await context.close();
  });
});

import { describe, expect, it } from 'vitest';
import type { DeviceSessionRow } from '../../src/common/handheld-api.js';
import { pickableOrders } from '../helpers/rf-flow-e2e.js';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { scanInto } from '../helpers/pack-e2e.js';
import { ledgerDays } from '../helpers/ledger-days.js';

/**
 * Picking through the one handheld runtime (/rfFlow?fn=pick, the shipped pick flow) in Chromium
 * at 360x640 on demo data, keyboard only. An order is picked online (order, location, SKU,
 * quantity, tote). Offline, five orders are picked (found from the tasks last read): five scans
 * wait; online again they apply once, in the order taken (requests, pick tasks and ledger). One
 * picked offline whose stock was moved away meanwhile (its order unallocated and the stock moved
 * through the API) is shown refused with its reason. Then a supervisor ends the device's session
 * while a pick waits: the next scan brings the sign-in back with the reason, the waiting pick is
 * kept and not sent, and it applies once the handheld is signed in again.
 */
describe('picking through the handheld runtime, in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);
  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(e2e.server, token, moduleCode, functionCode, rules);
  const run = Date.now().toString(36).toUpperCase();
  const SKU = `RFP-${run}`;
  const DEVICE = `RFP-${run}`;

  it('picks online and offline, applies the waiting picks once in order, refuses the stale one, and signs in again after a supervisor ended the session', async () => {
    token = await apiSignIn(e2e.server);
    // Eight orders of 2 each, allocated, with their pick tasks at A-03-2.
    const { orders } = await pickableOrders(call, selection, SKU, `RFP-${run}`, 8);
    const taskState = async (soId: number) => (await call<{ tasks: Array<{ status: string; picked_qty: string }> }>('/pick/tasks', { soId })).tasks.map((x) => [x.status, Number(x.picked_qty)]);
    type LogRow = { id: number; trans_type: string; sku_code: string; location_code: string; qty: string };
    const ledger = async (orderNo: string) =>
      (await call<{ rows: LogRow[] }>('/inventory/transactionLog', { transType: 'all', ...ledgerDays(), orderNo, pageSize: 100 })).rows.filter((r) => r.sku_code === SKU);
    const shape = (rows: LogRow[]) => rows.map((r) => [r.trans_type, r.location_code, Number(r.qty)]).sort();

    // The handheld, signed in for the shift, on the pick function from the URL.
    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/rfFlow?fn=pick', { viewport: { width: 360, height: 640 } });
    const context = handheld.context();
    await handheld.getByTestId('rf-sign-in').waitFor({ timeout: 60_000 });
    await handheld.getByTestId('rf-device-id').fill(DEVICE);
    await handheld.getByTestId('rf-device-id').press('Enter');
    await handheld.getByTestId('rf-flow').waitFor();
    expect(await handheld.locator('[data-testid="rf-functions"] .ant-radio-button-wrapper-checked').innerText()).toBe('Pick');
    expect(await handheld.getByTestId('rf-version').innerText()).toContain('Standard flow');
    const sent: Array<{ key: string; body: string }> = [];
    handheld.on('request', (request) => {
      if (request.url().endsWith('/api/pick/confirm')) sent.push({ key: request.headers()['idempotency-key'] ?? '', body: request.postData() ?? '' });
    });
    const step = () => handheld.getByTestId('rf-prompt').getAttribute('data-step');
    const feedback = handheld.getByTestId('handheld-feedback');
    const scan = async (text: string, next: string) => {
      await scanInto(handheld, 'scan-field', text);
      await eventually(step).toBe(next);
    };
    const pick = async (orderNo: string) => {
      await scan(orderNo, 'location');
      expect(await handheld.getByTestId('rf-task').innerText()).toContain(`${orderNo}/1`);
      await scan('A-03-2', 'sku');
      await scan(SKU, 'qty');
      expect(await handheld.locator('[data-testid="rf-prompt"] label').innerText()).toContain('Quantity picked (all: 2)');
      await scan('2', 'tote');
      await scan(`TOTE-${run}`, 'search');
    };

    // Online: a wrong location is refused, then the order is picked.
    await scan(orders[0].orderNo, 'location');
    await scanInto(handheld, 'scan-field', 'Z-99-9');
    await eventually(() => feedback.innerText()).toContain('Wrong location: pick from A-03-2.');
    expect(await step()).toBe('location');
    await handheld.getByTestId('handheld-back').click();
    await eventually(step).toBe('search');
    await pick(orders[0].orderNo);
    await eventually(() => feedback.innerText()).toContain(`Picked 2 of ${SKU} for ${orders[0].orderNo}`);
    expect(await taskState(orders[0].soId)).toEqual([['picked', 2]]);
    const once = shape(await ledger(orders[0].orderNo));
    // The 2 picked leave A-03-2 (allocation rows move no quantity).
    expect(once.some((row) => row[1] === 'A-03-2' && Math.abs(Number(row[2])) === 2), JSON.stringify(once)).toBe(true);

    // The dead spot: five orders picked from the tasks last read, kept on the handheld.
    await context.setOffline(true);
    const banner = handheld.getByTestId('offline-banner');
    for (const order of orders.slice(1, 6)) await pick(order.orderNo);
    await eventually(() => banner.innerText()).toBe('Offline — 5 scans waiting');
    expect(await feedback.innerText()).toContain('the scan is kept');
    for (const order of orders.slice(1, 6)) expect(await taskState(order.soId)).toEqual([['open', 0]]);
    const box = await banner.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);

    // Online again: the five are sent in the order taken, each applied once.
    sent.length = 0;
    await context.setOffline(false);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    for (const order of orders.slice(0, 6)) expect(await taskState(order.soId)).toEqual([['picked', 2]]);
    const delivered = sent.filter((request, i) => sent.findIndex((other) => other.key === request.key) === i);
    expect(delivered.map((request) => (JSON.parse(request.body) as { taskId: number }).taskId)).toEqual(orders.slice(1, 6).map((order) => order.taskId));
    expect(new Set(delivered.map((request) => request.key)).size).toBe(5);
    const firstRows: number[] = [];
    for (const order of orders.slice(1, 6)) {
      const rows = await ledger(order.orderNo);
      expect(shape(rows)).toEqual(once);
      firstRows.push(Math.min(...rows.map((r) => Number(r.id))));
    }
    expect(firstRows).toEqual([...firstRows].sort((a, b) => a - b));

    // Offline again: order 7 is picked while its stock is taken away (its order unallocated, the free stock moved).
    await context.setOffline(true);
    await pick(orders[6].orderNo);
    await eventually(() => banner.innerText()).toBe('Offline — 1 scans waiting');
    await call('/so/header/allocation', { soIds: [orders[6].soId], unallocate: true });
    await call('/inventory/handheld/move', { fromLocation: 'A-03-2', sku: SKU, qty: 16, toLocation: 'A-04-2' });
    const beforeReplay = shape(await ledger(orders[6].orderNo));
    await context.setOffline(false);
    const refused = handheld.getByTestId('refused-scan');
    await refused.waitFor({ timeout: 30_000 });
    expect(await refused.innerText()).toContain(`${orders[6].orderNo}/1 · A-03-2 · ${SKU} × 2`);
    expect((await handheld.getByTestId('refused-reason').innerText()).length).toBeGreaterThan(5);
    await banner.waitFor({ state: 'detached' });
    // Refused: nothing of it was picked.
    expect(shape(await ledger(orders[6].orderNo))).toEqual(beforeReplay);
    expect(await taskState(orders[6].soId)).not.toEqual([['picked', 2]]);
    await handheld.getByTestId('refused-ack').click();
    await refused.waitFor({ state: 'detached' });

    // Order 8 is picked while the server does not answer the pick: it waits.
    await context.route('**/api/pick/confirm', (route) => route.abort('internetdisconnected'));
    await pick(orders[7].orderNo);
    await eventually(() => banner.getAttribute('data-waiting')).toBe('1');
    // A supervisor ends the device's session on /rfDevices.
    const session = (await call<{ rows: DeviceSessionRow[] }>('/rfUser/devices')).rows.find((r) => r.deviceId === DEVICE);
    expect(session).toBeDefined();
    await call('/rfUser/end', { id: session!.id });
    // The next scan brings the sign-in back with the reason; the waiting pick is kept, and not sent while signed out.
    await scanInto(handheld, 'scan-field', orders[7].orderNo);
    await handheld.getByTestId('rf-sign-in').waitFor();
    expect(await handheld.getByTestId('rf-session-ended').innerText()).toBe(`A supervisor ended the session of handheld ${DEVICE}: sign in again.`);
    expect(await handheld.getByTestId('rf-scans-kept').getAttribute('data-waiting')).toBe('1');
    await context.unroute('**/api/pick/confirm');
    sent.length = 0;
    await handheld.waitForTimeout(4_000);
    expect(sent).toEqual([]);
    expect(await taskState(orders[7].soId)).toEqual([['open', 0]]);
    // Signed in again: the pick is sent and applies once.
    expect(await handheld.getByTestId('rf-device-id').inputValue()).toBe(DEVICE);
    await handheld.getByTestId('rf-sign-in-button').click();
    await handheld.getByTestId('rf-flow').waitFor();
    await eventually(() => taskState(orders[7].soId)).toEqual([['picked', 2]]);
    expect(shape(await ledger(orders[7].orderNo))).toEqual(once);
    await banner.waitFor({ state: 'detached' });
    expect(new Set(sent.map((request) => request.key)).size).toBe(1);
    await context.close();
  });
});

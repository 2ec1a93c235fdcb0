import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { rfEnter, rfReady, rfScan, rfStep } from '../helpers/rf-flow-e2e.js';

/**
 * The handheld move and count flows in Chromium at 360x640 with the keyboard only (a keyboard-wedge
 * scanner types and presses Enter), both on the handheld runtime's functions of /putaway: a move by
 * a GS1-128 label with the proposed quantity, a move of more than is available refused with its
 * message and nothing moved; and a count of every location of a ticket, blind, and its recount,
 * ending in the variance report.
 */

interface BalanceRow {
  sku_code: string;
  lot_no: string | null;
  location_code: string;
  lpn: string;
  available_qty: string;
}

interface StockRow {
  available: string;
}

const PHONE = { width: 360, height: 640 };

describe('handheld move and count in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });

  const field = (page: Page) => page.locator('[data-testid="scan-field"]');

  /** What the scanner does: types into the focused field (the scan field, always) and sends Enter. */
  async function scan(page: Page, text: string) {
    await eventually(() => field(page).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  it('moves by a GS1 label and refuses an over-move', async () => {
    const token = await apiSignIn(e2e.server);
    const available = async (location: string, sku: string) =>
      (await apiCall<{ rows: StockRow[] }>(e2e.server, token, '/inventory/handheld/stock', { location, sku })).rows.reduce((s, r) => s + Number(r.available), 0);

    // Stock of one lot at a location, loose (no LPN), with the SKU's default barcode.
    const balance = (await apiCall<{ rows: BalanceRow[] }>(e2e.server, token, '/generic/selection', { moduleCode: 'inventory', functionCode: 'balance', page: 1, pageSize: 100 })).rows;
    let source: { row: BalanceRow; ean: string; qty: number } | undefined;
    for (const row of balance.filter((r) => r.lpn === '' && r.lot_no && Number(r.available_qty) >= 3)) {
      const rows = (await apiCall<{ rows: StockRow[] }>(e2e.server, token, '/inventory/handheld/stock', { location: row.location_code, sku: row.sku_code })).rows;
      if (rows.length !== 1) continue;
      const sku = (
        await apiCall<{ rows: { _key: number }[] }>(e2e.server, token, '/generic/selection', {
          moduleCode: 'masterdata',
          functionCode: 'sku',
          page: 1,
          pageSize: 1,
          conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: row.sku_code }] },
        })
      ).rows[0];
      const upc = (
        await apiCall<{ rows: { upc: string; is_default: boolean }[] }>(e2e.server, token, '/generic/selection', {
          moduleCode: 'masterdata',
          functionCode: 'skuUpc',
          page: 1,
          pageSize: 10,
          conditions: { combinator: 'and', rules: [{ field: 'sku_id', operator: '=', value: sku._key }] },
        })
      ).rows.find((u) => u.is_default && u.upc.length === 13);
      if (!upc) continue;
      source = { row, ean: upc.upc, qty: Number(rows[0].available) };
      break;
    }
    expect(source, 'demo stock of one lot with an EAN').toBeDefined();
    const { row, ean, qty } = source!;
    const target = balance.find((r) => r.location_code !== row.location_code)!.location_code;
    const before = { from: await available(row.location_code, row.sku_code), to: await available(target, row.sku_code) };

    // --- Move on /putaway's move tab, the handheld runtime's move function: from-location, GS1-128
    // label (GTIN-14 and batch), the proposed qty replaced by 2, to-location.
    const page = await signedInPage(e2e.browser, e2e.server, '/page/putaway?tab=move', { viewport: PHONE });
    await rfReady(page, `RFH-${Date.now().toString(36)}`);
    const task = page.locator('[data-testid="rf-task"]');
    await eventually(() => rfStep(page)).toBe('search');
    await scan(page, row.location_code);
    await eventually(() => rfStep(page)).toBe('sku');
    await expect(task.innerText()).resolves.toContain(row.location_code);
    await scan(page, `]C1010${ean}10${row.lot_no}`);
    await eventually(() => rfStep(page)).toBe('qty');
    // One lot there: the quantity proposed is all that is free, selected so that the scan replaces it.
    await eventually(() => field(page).inputValue()).toBe(String(qty));
    await expect(task.innerText()).resolves.toContain(row.lot_no!);
    await scan(page, '2');
    await eventually(() => rfStep(page)).toBe('to');
    await expect(task.innerText()).resolves.toContain('Qty 2');
    await scan(page, target);
    const feedback = page.locator('[data-testid="handheld-feedback"]');
    await eventually(() => feedback.getAttribute('data-tone')).toBe('success');
    await expect(feedback.innerText()).resolves.toContain(target);
    expect(await available(row.location_code, row.sku_code)).toBe(before.from - 2);
    expect(await available(target, row.sku_code)).toBe(before.to + 2);

    // --- Over-move: more than is left is refused with its message; nothing moves.
    await eventually(() => rfStep(page)).toBe('search');
    await scan(page, row.location_code);
    await eventually(() => rfStep(page)).toBe('sku');
    await scan(page, row.sku_code);
    await eventually(() => rfStep(page)).toBe('qty');
    await eventually(() => field(page).inputValue()).toBe(String(qty - 2));
    await scan(page, String(qty + 5));
    await eventually(() => rfStep(page)).toBe('to');
    await scan(page, target);
    await eventually(() => feedback.getAttribute('data-tone')).toBe('error');
    await expect(feedback.innerText()).resolves.toContain(`Not enough inventory: ${qty - 2} available.`);
    expect(await available(row.location_code, row.sku_code)).toBe(before.from - 2);
    expect(await available(target, row.sku_code)).toBe(before.to + 2);
    // Refused, the quantity is asked again to be corrected; Escape starts over instead, no tap needed.
    await eventually(() => rfStep(page)).toBe('qty');
    await eventually(() => field(page).inputValue()).toBe(String(qty + 5));
    await page.keyboard.press('Escape');
    await eventually(() => rfStep(page)).toBe('search');

    await page.close();
  });

  it('counts a ticket blind on the runtime\'s count and its recount, into the variance report', async () => {
    const token = await apiSignIn(e2e.server);
    const balance = (await apiCall<{ rows: BalanceRow[] }>(e2e.server, token, '/generic/selection', { moduleCode: 'inventory', functionCode: 'balance', page: 1, pageSize: 100 })).rows;
    const step = (page: Page) => rfStep(page);
    const task = (page: Page) => page.getByTestId('rf-task').innerText();

    // --- Count: a ticket over two stocked locations, every line counted blind on the handheld.
    const codes = [...new Set(balance.map((r) => r.location_code))].sort();
    const plan = await apiCall<{ row: { _key: number } }>(e2e.server, token, '/generic/adding', {
      moduleCode: 'inventory',
      functionCode: 'cycleCountMaster',
      record: { plan_code: `HHC${`${Date.now()}`.slice(-8)}`, location_from: codes[0], location_to: codes[codes.length - 1], max_locations: 2 },
    });
    const made = await apiCall<{ ticketId: number; ticketNo: string }>(e2e.server, token, '/inventory/cycleCountMaster/createCountOrder', { id: plan.row._key });
    const ticket = await apiCall<{ lines: { locationCode: string; skuCode: string; lotNo: string | null }[] }>(e2e.server, token, '/inventory/handheld/countTicket', { id: made.ticketId });
    const locations = [...new Set(ticket.lines.map((l) => l.locationCode))];
    expect(locations.length).toBe(2);

    const page = await signedInPage(e2e.browser, e2e.server, '/page/putaway?tab=count', { viewport: PHONE });
    await rfReady(page, `CNT-${Date.now()}`);
    const feedback = page.locator('[data-testid="handheld-feedback"]');
    // The open tickets are listed under the ticket's scan: tapped, the ticket opens.
    const listed = page.locator(`[data-testid="rf-list-item"][data-key="${made.ticketId}"]`);
    await eventually(() => listed.innerText()).toContain(`${made.ticketNo} · 2 locations`);
    await listed.click();
    await eventually(() => step(page)).toBe('location');
    await eventually(() => task(page)).toContain(`Locations counted: 0 / ${locations.length}`);
    // A location not on the ticket is refused.
    await rfScan(page, 'NO-SUCH-LOC');
    await eventually(() => feedback.getAttribute('data-tone')).toBe('error');
    // Typing part of a location offers the ticket's locations only; a tap takes one.
    await eventually(() => page.getByTestId('scan-field').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(locations[0].slice(0, 1));
    const offered = () => page.locator('[data-testid="lookup-match"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-code')));
    await eventually(offered).toContain(locations[0]);
    for (const code of await offered()) expect(locations).toContain(code);
    await page.locator(`[data-testid="lookup-match"][data-code="${locations[0]}"]`).click();
    for (const [i, location] of locations.entries()) {
      // The first location was tapped; the handheld stays at a location while lines are left there.
      if (i > 0) await rfEnter(page, location, 'sku');
      for (const line of ticket.lines.filter((l) => l.locationCode === location)) {
        await eventually(() => step(page)).toBe('sku');
        await eventually(() => task(page)).toContain(`At ${location}`);
        await rfEnter(page, line.skuCode, 'qty');
        // Blind: the line shows what to count, never how many the system holds.
        await expect(task(page)).resolves.not.toMatch(/system/i);
        await rfScan(page, '1');
        await eventually(() => feedback.getAttribute('data-tone')).toBe('success');
      }
      if (i < locations.length - 1) {
        await eventually(() => task(page)).toContain(`Locations counted: ${i + 1} / ${locations.length}`);
        await eventually(() => step(page)).toBe('location');
      }
    }
    await eventually(() => feedback.innerText()).toContain(`Ticket ${made.ticketNo} counted: ${locations.length} / ${locations.length} locations.`);
    await eventually(() => step(page)).toBe('search');

    type VarianceRow = { line_no: number; location_code: string; sku_code: string; system_qty: string; counted_qty: string | null; recount_qty: string | null };
    const varianceOf = async () =>
      (await apiCall<{ rows: VarianceRow[] }>(e2e.server, token, '/generic/tab', { moduleCode: 'inventory', functionCode: 'cycleCount', subPage: 'variance', parentKey: made.ticketId, page: 1, pageSize: 100 }))
        .rows;
    const firstCount = await varianceOf();
    expect(firstCount.map((r) => Number(r.counted_qty))).toEqual(ticket.lines.map(() => 1));

    // --- Recount: the lines that differ come back; the handheld asks only for them, still blind.
    const sent = await apiCall<{ lines: number }>(e2e.server, token, '/inventory/cycleCount/recount', { id: made.ticketId });
    const differing = firstCount.filter((r) => Number(r.system_qty) !== 1);
    expect(sent.lines).toBe(differing.length);
    expect(differing.length).toBeGreaterThan(0);
    const recountLocations = [...new Set(differing.map((r) => r.location_code))];
    await rfEnter(page, made.ticketNo, 'location');
    await eventually(() => task(page)).toContain('Recount');
    await eventually(() => task(page)).toContain(`Locations counted: ${locations.length - recountLocations.length} / ${locations.length}`);
    for (const location of recountLocations) {
      await eventually(() => step(page)).toBe('location');
      await rfEnter(page, location, 'sku');
      for (const line of differing.filter((r) => r.location_code === location)) {
        await eventually(() => step(page)).toBe('sku');
        await rfEnter(page, line.sku_code, 'qty');
        await rfScan(page, String(Number(line.system_qty)));
        await eventually(() => feedback.getAttribute('data-tone')).toBe('success');
      }
    }
    await eventually(() => feedback.innerText()).toContain(`Ticket ${made.ticketNo} counted: ${locations.length} / ${locations.length} locations.`);
    const recounted = await varianceOf();
    for (const line of differing) expect(Number(recounted.find((r) => r.line_no === line.line_no)!.recount_qty)).toBe(Number(line.system_qty));

    // The variance report shows each counted line beside its system qty.
    await page.goto(`${e2e.server.url}#/page/mapTo?moduleCode=inventory&functionCode=cycleCountVariance`);
    const rows = page.locator('[role="row"]:not(.ag-header-row)');
    for (const location of locations) await eventually(() => rows.filter({ hasText: location }).count()).toBeGreaterThan(0);
  });

  it('counts offline: the count waits, applies once when back online, and the ticket is read again', async () => {
    const token = await apiSignIn(e2e.server);
    // Its own SKU received at two empty locations: no other ticket holds them.
    const run = `${Date.now()}`.slice(-8);
    const empty: string[] = [];
    for (const prefix of ['A', 'B', 'C', 'D']) {
      const found = await apiCall<{ items: { code: string; status: string }[] }>(e2e.server, token, `/inventory/location?code=${prefix}`);
      for (const loc of found.items.filter((l) => l.status === 'active')) {
        if (empty.length < 2 && (await apiCall<{ rows: StockRow[] }>(e2e.server, token, '/inventory/handheld/stock', { location: loc.code })).rows.length === 0) empty.push(loc.code);
      }
      if (empty.length === 2) break;
    }
    expect(empty).toHaveLength(2);
    const owner = (await apiSelection<{ _key: number; code: string }>(e2e.server, token, 'masterdata', 'ogr'))[0];
    const sku = (await apiCall<{ row: { _key: number } }>(e2e.server, token, '/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: `E2E-CNO-${run}`, owner_id: owner._key, description: 'Offline count', base_uom: 'EA' } })).row;
    const asn = await apiCall<{ id: number }>(e2e.server, token, '/asn/saveHeader', { ownerCode: owner.code });
    await apiCall(e2e.server, token, '/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: `E2E-CNO-${run}`, expectedQty: 4 }] });
    const asnLine = (await apiCall<{ lines: { id: number }[] }>(e2e.server, token, '/asn/getDetail', { id: asn.id })).lines[0];
    await apiCall(e2e.server, token, '/inbound/batch/receive', { lines: empty.map((locationCode) => ({ asnLineId: asnLine.id, qty: 2, locationCode })) });
    const plan = await apiCall<{ row: { _key: number } }>(e2e.server, token, '/generic/adding', {
      moduleCode: 'inventory',
      functionCode: 'cycleCountMaster',
      record: { plan_code: `HHO${run}`, sku_id: sku._key, max_locations: 2 },
    });
    const made = await apiCall<{ ticketId: number; ticketNo: string }>(e2e.server, token, '/inventory/cycleCountMaster/createCountOrder', { id: plan.row._key });
    const ticket = await apiCall<{ lines: { id: number; locationCode: string; skuCode: string }[] }>(e2e.server, token, '/inventory/handheld/countTicket', { id: made.ticketId });
    const [first, second] = [...new Set(ticket.lines.map((l) => l.locationCode))];
    expect(second).toBeDefined();
    const atFirst = ticket.lines.filter((l) => l.locationCode === first);
    type CountLine = { _key: number; counted_qty: string | null };
    const countLines = async () =>
      (await apiCall<{ rows: CountLine[] }>(e2e.server, token, '/generic/tab', { moduleCode: 'inventory', functionCode: 'cycleCount', subPage: 'count', parentKey: made.ticketId, page: 1, pageSize: 100 })).rows;

    const page = await signedInPage(e2e.browser, e2e.server, '/page/putaway?tab=count', { viewport: PHONE });
    await rfReady(page, `CNO-${Date.now()}`);
    const task = () => page.getByTestId('rf-task').innerText();
    await rfEnter(page, made.ticketNo, 'location');
    await eventually(task).toContain('Locations counted: 0 / 2');

    // Offline: the count waits in the queue and its line counts as done on the handheld.
    await page.context().setOffline(true);
    const banner = page.getByTestId('offline-banner');
    await rfEnter(page, first, 'sku');
    await rfEnter(page, atFirst[0].skuCode, 'qty');
    await rfScan(page, '3');
    await eventually(() => banner.getAttribute('data-waiting')).toBe('1');
    await eventually(() => page.getByTestId('handheld-feedback').getAttribute('data-tone')).toBe('warning');
    await eventually(() => rfStep(page)).toBe(atFirst.length > 1 ? 'sku' : 'location');
    expect((await countLines()).every((l) => l.counted_qty === null)).toBe(true);

    // Meanwhile the other location is counted elsewhere (the desk): the handheld does not know yet.
    for (const line of ticket.lines.filter((l) => l.locationCode === second)) await apiCall(e2e.server, token, '/inventory/cycleCount/count', { lineId: line.id, qty: '1' });
    const firstDone = atFirst.length === 1 ? 1 : 0;
    await eventually(task).toContain(`Locations counted: ${firstDone} / 2`);

    // Online again: the waiting count is applied once, and the ticket is read again (the other location is counted).
    await page.context().setOffline(false);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    await eventually(async () => (await countLines()).filter((l) => l.counted_qty !== null).map((l) => Number(l.counted_qty)).sort()).toEqual(
      [3, ...ticket.lines.filter((l) => l.locationCode === second).map(() => 1)].sort(),
    );
    await eventually(task).toContain(`Locations counted: ${firstDone + 1} / 2`);
    await page.close();
  });
});

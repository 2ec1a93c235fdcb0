import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { rfReady, rfStep } from '../helpers/rf-flow-e2e.js';

/**
 * The handheld move (the handheld runtime's move function on /putaway) and count flows in Chromium
 * at 360x640 with the keyboard only (a keyboard-wedge scanner types and presses Enter): a move by a
 * GS1-128 label with the proposed quantity, a move of more than is available refused with its
 * message and nothing moved, and a count of every location of a ticket, blind, and its recount,
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

  const label = (page: Page) => page.locator('[data-testid="scan-field"]').locator('xpath=ancestor::label').innerText();

  it('moves by a GS1 label, refuses an over-move, and counts and recounts a ticket into the variance report', async () => {
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

    // --- Count: a ticket over two stocked locations, every line counted blind on the handheld.
    const codes = [...new Set(balance.map((r) => r.location_code))].sort();
    const plan = await apiCall<{ row: { _key: number } }>(e2e.server, token, '/generic/adding', {
      moduleCode: 'inventory',
      functionCode: 'cycleCountMaster',
      record: { plan_code: 'HH-E2E', location_from: codes[0], location_to: codes[codes.length - 1], max_locations: 2 },
    });
    const made = await apiCall<{ ticketId: number; ticketNo: string }>(e2e.server, token, '/inventory/cycleCountMaster/createCountOrder', { id: plan.row._key });
    const ticket = await apiCall<{ lines: { locationCode: string; skuCode: string; lotNo: string | null }[] }>(e2e.server, token, '/inventory/handheld/countTicket', { id: made.ticketId });
    const locations = [...new Set(ticket.lines.map((l) => l.locationCode))];
    expect(locations.length).toBe(2);

    await page.goto(`${e2e.server.url}#/page/putaway?tab=count`);
    await page.locator('[data-testid="handheld-count"]').waitFor();
    await scan(page, made.ticketNo);
    const progress = page.locator('[data-testid="count-progress"]');
    await eventually(() => progress.innerText()).toBe(`Locations counted: 0 / ${locations.length}`);
    // A location not on the ticket is refused.
    await scan(page, 'NO-SUCH-LOC');
    await eventually(() => feedback.getAttribute('data-tone')).toBe('error');
    for (const [i, location] of locations.entries()) {
      await scan(page, location);
      for (const line of ticket.lines.filter((l) => l.locationCode === location)) {
        await eventually(() => label(page)).toContain('SKU');
        await scan(page, line.skuCode);
        await eventually(() => label(page)).toContain('Counted quantity');
        // Blind: the line shows what to count, never how many the system holds.
        await expect(page.locator('[data-testid="count-ticket"]').innerText()).resolves.not.toMatch(/system/i);
        await scan(page, '1');
        await eventually(() => feedback.getAttribute('data-tone')).toBe('success');
      }
      if (i < locations.length - 1) await eventually(() => progress.innerText()).toBe(`Locations counted: ${i + 1} / ${locations.length}`);
    }
    await eventually(() => feedback.innerText()).toContain(`Ticket ${made.ticketNo} counted: ${locations.length} / ${locations.length} locations.`);

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
    await page.keyboard.press('Escape');
    await scan(page, made.ticketNo);
    await eventually(() => page.locator('[data-testid="count-ticket"]').innerText()).toContain('Recount');
    await eventually(() => progress.innerText()).toBe(`Locations counted: ${locations.length - recountLocations.length} / ${locations.length}`);
    for (const location of recountLocations) {
      await scan(page, location);
      for (const line of differing.filter((r) => r.location_code === location)) {
        await eventually(() => label(page)).toContain('SKU');
        await scan(page, line.sku_code);
        await eventually(() => label(page)).toContain('Counted quantity');
        await scan(page, String(Number(line.system_qty)));
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
});

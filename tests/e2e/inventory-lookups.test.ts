import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { apiCall, apiSelection, apiSignIn, chooseByTyping, eventually, saveEngineForm, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { rfReady, rfStep } from '../helpers/rf-flow-e2e.js';

/**
 * The look-ups of the inventory screens in Chromium on the demonstration data: on the handheld
 * runtime's move (/putaway's move tab) a part of the from-location, of the SKU (among those the
 * from-location holds) and of the to-location is typed and the match is tapped (the stock moves); the transaction log's SKU and location filters offer the codes that
 * start with what is typed; an adjustment's reason is chosen from the reason codes with their
 * descriptions; and a sales order line offers the units of the SKU chosen on it.
 */

interface BalanceRow {
  sku_code: string;
  location_code: string;
  lpn: string;
  available_qty: string;
}

interface LookupItem {
  code: string;
}

const PHONE = { width: 360, height: 640 };
/** How many matches the handheld lists under its scan field. */
const HANDHELD_MATCHES = 6;

describe('inventory look-ups in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);

  const field = (page: Page) => page.locator('[data-testid="scan-field"]');
  const matches = (page: Page) => page.locator('[data-testid="scan-field-matches"] [data-testid="lookup-match"]');

  /**
   * The shortest part of a code (its start, shorter than the code) whose matches list the code on
   * the handheld, or undefined when even all but its last character lists too many.
   */
  async function partOf(kind: 'location' | 'sku', code: string): Promise<string | undefined> {
    for (let length = 2; length < code.length; length++) {
      const part = code.slice(0, length);
      const items = (await call<{ items: LookupItem[] }>(`/inventory/${kind}?code=${encodeURIComponent(part)}`)).items;
      if (items.slice(0, HANDHELD_MATCHES).some((item) => item.code === code)) return part;
    }
    return undefined;
  }

  /** Types a part of a code into the scan field and taps the code among the matches offered. */
  async function typeAndPick(page: Page, part: string, code: string): Promise<void> {
    await eventually(() => field(page).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(part);
    const match = matches(page).and(page.locator(`[data-code="${code}"]`));
    await eventually(() => match.count()).toBe(1);
    // What is offered starts with what was typed, and reads as code and name.
    expect((await matches(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-code') ?? ''))).every((c) => c.startsWith(part))).toBe(true);
    await match.click();
  }

  it('moves stock on the handheld by picking the from-location, the SKU and the to-location from the matches of what is typed', async () => {
    token = await apiSignIn(e2e.server);
    const balance = (await call<{ rows: BalanceRow[] }>('/generic/selection', { moduleCode: 'inventory', functionCode: 'balance', page: 1, pageSize: 100 })).rows;
    const available = async (location: string, sku: string) =>
      (await call<{ rows: { available: string }[] }>('/inventory/handheld/stock', { location, sku })).rows.reduce((s, r) => s + Number(r.available), 0);

    // Loose stock whose location, SKU and a second location can each be found by a part of their code.
    let chosen: { row: BalanceRow; fromPart: string; skuPart: string; target: string; targetPart: string } | undefined;
    for (const row of balance.filter((r) => r.lpn === '' && Number(r.available_qty) >= 1)) {
      const fromPart = await partOf('location', row.location_code);
      const skuPart = await partOf('sku', row.sku_code);
      const target = balance.find((r) => r.location_code !== row.location_code)?.location_code;
      const targetPart = target && (await partOf('location', target));
      if (fromPart && skuPart && target && targetPart) {
        chosen = { row, fromPart, skuPart, target, targetPart };
        break;
      }
    }
    expect(chosen, 'demo stock found by parts of its codes').toBeDefined();
    const { row, fromPart, skuPart, target, targetPart } = chosen!;
    const before = { from: await available(row.location_code, row.sku_code), to: await available(target, row.sku_code) };

    const page = await signedInPage(e2e.browser, e2e.server, '/page/putaway?tab=move', { viewport: PHONE });
    await rfReady(page, `RFL-${Date.now().toString(36)}`);
    await eventually(() => rfStep(page)).toBe('search');
    await typeAndPick(page, fromPart, row.location_code);
    await eventually(() => rfStep(page)).toBe('sku');
    await expect(page.locator('[data-testid="rf-task"]').innerText()).resolves.toContain(row.location_code);

    // The SKUs offered are those the from-location holds.
    const held = new Set((await call<{ rows: { sku_code: string }[] }>('/inventory/handheld/stock', { location: row.location_code })).rows.map((r) => r.sku_code));
    await page.keyboard.type(skuPart);
    await eventually(() => matches(page).and(page.locator(`[data-code="${row.sku_code}"]`)).count()).toBe(1);
    expect((await matches(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-code') ?? ''))).every((c) => held.has(c))).toBe(true);
    await matches(page).and(page.locator(`[data-code="${row.sku_code}"]`)).click();
    await eventually(() => rfStep(page)).toBe('qty');
    await expect(page.locator('[data-testid="rf-task"]').innerText()).resolves.toContain(row.sku_code);
    await field(page).fill('1');
    await field(page).press('Enter');

    await eventually(() => rfStep(page)).toBe('to');
    await typeAndPick(page, targetPart, target);
    const feedback = page.locator('[data-testid="handheld-feedback"]');
    await eventually(() => feedback.getAttribute('data-tone')).toBe('success');
    await expect(feedback.innerText()).resolves.toContain(target);
    expect(await available(row.location_code, row.sku_code)).toBe(before.from - 1);
    expect(await available(target, row.sku_code)).toBe(before.to + 1);

    // A scanner's Enter still takes the code as it is, with matches on show: a part alone is no location.
    await eventually(() => rfStep(page)).toBe('search');
    await page.keyboard.type(fromPart);
    await eventually(() => matches(page).count()).toBeGreaterThan(0);
    await page.keyboard.press('Enter');
    await eventually(() => feedback.getAttribute('data-tone')).toBe('error');
    await expect(feedback.innerText()).resolves.toContain(fromPart);
    expect(await rfStep(page)).toBe('search');
    expect(await page.locator('[data-testid="rf-task"]').count()).toBe(0);
    await page.context().close();
  });

  it("offers the codes that start with what is typed in the transaction log's SKU and location filters", async () => {
    token = await apiSignIn(e2e.server);
    const row = (await call<{ rows: BalanceRow[] }>('/generic/selection', { moduleCode: 'inventory', functionCode: 'balance', page: 1, pageSize: 1 })).rows[0];
    const page = await signedInPage(e2e.browser, e2e.server, '/page/transaction', { viewport: { width: 1440, height: 900 } });
    for (const [testId, code] of [
      ['transaction-log-sku', row.sku_code],
      ['transaction-log-location', row.location_code],
    ] as const) {
      const input = page.getByTestId(testId);
      await input.click();
      await input.pressSequentially(code.slice(0, -1));
      const option = page.locator(`.ant-select-dropdown:visible [data-testid="lookup-option"][data-code="${code}"]`);
      await eventually(() => option.count()).toBe(1);
      await option.click();
      await eventually(() => input.inputValue()).toBe(code);
    }
    await page.context().close();
  });

  const grid = (page: Page, functionCode: string) => page.locator(`[data-testid="engine-page"][data-function="${functionCode}"]`).first();
  const listed = (page: Page) => page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  const titles = (options: Locator) => options.evaluateAll((items) => items.map((item) => item.getAttribute('title') ?? ''));

  async function openAddForm(page: Page, owner: Locator): Promise<void> {
    await owner.getByTestId('engine-add').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
  }

  it("chooses an adjustment's reason from the reason codes, each with its description", async () => {
    token = await apiSignIn(e2e.server);
    const codes = (await call<{ items: { code: string; description: string }[] }>('/inventory/reasonCode?type=adjust')).items;
    expect(codes.length).toBeGreaterThan(1);

    const documents = () => apiSelection<{ _key: number; reason: string | null }>(e2e.server, token, 'inventory', 'invAdjust');
    const before = new Set((await documents()).map((d) => d._key));

    const page = await signedInPage(e2e.browser, e2e.server, '/page/invAdjust', { viewport: { width: 1440, height: 900 } });
    await grid(page, 'invAdjust').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    const asked = page.waitForRequest((request) => request.url().includes('/api/inventory/reasonCode?type=adjust'));
    await openAddForm(page, grid(page, 'invAdjust').locator(':scope > [data-testid="engine-toolbar"]'));
    await asked;
    await page.locator('.ant-select:has(#engine_invAdjust_reason)').click();
    await eventually(() => titles(listed(page))).toEqual(codes.map((c) => (c.description && c.description !== c.code ? `${c.code} - ${c.description}` : c.code)));
    const pick = codes[codes.length - 1];
    await listed(page).filter({ hasText: pick.code }).first().click();
    await saveEngineForm(page);

    const added = (await documents()).filter((d) => !before.has(d._key));
    expect(added.map((d) => d.reason)).toEqual([pick.code]);
    await page.context().close();
  });

  it('offers the units of the SKU chosen on a sales order line', async () => {
    token = await apiSignIn(e2e.server);
    const owner = (await apiSelection<{ _key: number; code: string }>(e2e.server, token, 'masterdata', 'ogr'))[0];
    // Two units of the code master besides EA: the first SKU is kept in EA and sold by the first, the second kept in the other.
    const units = (await call<{ options: { value: string }[] }>('/generic/uom', {})).options.map((o) => o.value).filter((u) => u !== 'EA');
    expect(units.length).toBeGreaterThan(1);
    const [packed, loose] = units;
    const sku = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: 'E2E-UOM-1', owner_id: owner._key, description: 'Boxed item', base_uom: 'EA' } })).row._key;
    await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'skuUpc', record: { sku_id: sku, upc: '4006381333931', uom: packed, qty: '12' } });
    await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: 'E2E-UOM-2', owner_id: owner._key, description: 'Loose item', base_uom: loose } });
    const order = (
      await call<{ row: { _key: number } }>('/generic/adding', {
        moduleCode: 'outbound',
        functionCode: 'so',
        record: { order_no: 'E2E-UOM-SO', owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01' },
      })
    ).row;

    const page = await signedInPage(e2e.browser, e2e.server, '/page/so', { viewport: { width: 1440, height: 900 } });
    await grid(page, 'so').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    await grid(page, 'so').locator('#engine_search_so_order_no').fill('E2E-UOM-SO');
    await grid(page, 'so').getByTestId('engine-search-submit').click();
    const row = grid(page, 'so').locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)').filter({ hasText: 'E2E-UOM-SO' });
    await row.first().waitFor({ timeout: 60_000 });
    await row.first().click();
    const subPages = grid(page, 'so').getByTestId('engine-subpages');
    await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Lines' }).click();
    const lines = subPages.locator('[data-testid="engine-page"][data-function="soDetail"]').first();
    await openAddForm(page, lines.locator(':scope > [data-testid="engine-toolbar"]'));

    // Another SKU first: its one unit; then the SKU sold by the case too: its units, the choice of the first emptied.
    await chooseByTyping(page, 'engine_soDetail_sku_id', 'E2E-UOM-2');
    await page.locator('.ant-select:has(#engine_soDetail_uom)').click();
    await eventually(() => titles(listed(page))).toEqual([loose]);
    await listed(page).filter({ hasText: loose }).click();
    await page.locator('.ant-modal-title').click();
    await chooseByTyping(page, 'engine_soDetail_sku_id', 'E2E-UOM-1');
    await eventually(() => page.locator('.ant-select:has(#engine_soDetail_uom) .ant-select-selection-item').count()).toBe(0);
    await page.locator('.ant-select:has(#engine_soDetail_uom)').click();
    await eventually(() => titles(listed(page))).toEqual(['EA', packed].sort());
    await listed(page).filter({ hasText: packed }).click();
    await page.locator('.ant-modal-title').click();
    await page.fill('#engine_soDetail_qty', '2');
    await saveEngineForm(page);

    const saved = await call<{ rows: { sku_id: number; uom: string; qty: string }[] }>('/generic/tab', { moduleCode: 'outbound', functionCode: 'so', subPage: 'lines', parentKey: order._key, page: 1, pageSize: 10 });
    expect(saved.rows.map((l) => [l.sku_id, l.uom, Number(l.qty)])).toEqual([[sku, packed, 2]]);
    await page.context().close();
  });
});

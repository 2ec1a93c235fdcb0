import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { HandheldConfigDetail, HandheldFlowAnswer, ScanValueRow } from '../../src/common/handheld-api.js';
import { apiCall, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { rfLabel, rfScan, rfStep } from '../helpers/rf-flow-e2e.js';
import { ledgerDays } from '../helpers/ledger-days.js';

/**
 * A configured move through the one handheld runtime in Chromium at 360x640 on demo data: a
 * configurator changes the shipped move flow on /handheldConfig (the quantity step after the
 * to-location, the SKU prompt renamed, the gross weight dialog mandatory) and publishes; the
 * handheld, opened on /rfFlow?fn=move, follows it, refuses to confirm without the gross weight,
 * moves; the ledger shows the move and the gross weight is stored with the move's confirmation.
 */
interface BalanceRow {
  sku_code: string;
  location_code: string;
  lpn: string;
  available_qty: string;
}

describe('a configured move through the handheld runtime, in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  const TAG = Date.now().toString(36).slice(-6).toUpperCase();

  const [scan, step, label] = [rfScan, rfStep, rfLabel];
  const feedback = (page: Page) => page.locator('[data-testid="handheld-feedback"]');

  it('moves with the steps reordered, a prompt renamed and a mandatory dialog, and stores its value', async () => {
    const token = await apiSignIn(e2e.server);
    const call = <T>(path: string, body?: unknown): Promise<T> => apiCall<T>(e2e.server, token, path, body);

    // Loose stock of a SKU at a location (at least 3 free to move), and another location.
    const balance = (await call<{ rows: BalanceRow[] }>('/generic/selection', { moduleCode: 'inventory', functionCode: 'balance', page: 1, pageSize: 100 })).rows;
    let source: BalanceRow | undefined;
    for (const row of balance.filter((r) => r.lpn === '' && Number(r.available_qty) >= 3)) {
      const rows = (await call<{ rows: Array<{ lpn: string; available: string }> }>('/inventory/handheld/stock', { location: row.location_code, sku: row.sku_code })).rows;
      if (rows.length === 1 && rows[0].lpn === '' && Number(rows[0].available) >= 3) {
        source = row;
        break;
      }
    }
    expect(source, 'demo stock to move').toBeDefined();
    const { sku_code: sku, location_code: from } = source!;
    const to = balance.find((r) => r.location_code !== from)!.location_code;

    // The configurator: a move configuration (its draft is the shipped move flow), changed on /handheldConfig.
    const made = await call<HandheldConfigDetail>('/handheld/config/create', { code: `MOV-${TAG}`, name: `Move with weight ${TAG}`, fn: 'move' });
    expect(made.draft.steps.map((s) => s.scanName)).toEqual(['sku', 'qty', 'to']);
    const desk = await signedInPage(e2e.browser, e2e.server, '/page/handheldConfig', { viewport: { width: 1440, height: 900 } });
    await desk.locator(`[data-code="MOV-${TAG}"]`).click({ timeout: 60_000 });
    await desk.locator('[data-testid="hh-editor"]').waitFor();
    expect(await desk.getByTestId('hh-step-1-scanName').inputValue()).toBe('qty');
    await desk.getByTestId('hh-step-1-down').click();
    await eventually(() => desk.getByTestId('hh-step-1-scanName').inputValue()).toBe('to');
    expect(await desk.getByTestId('hh-step-2-scanName').inputValue()).toBe('qty');
    await desk.getByTestId('hh-step-0-prompt').fill(`Scan the article ${TAG}`);
    await desk.getByTestId('hh-dialog-grossWeight-show').check();
    await desk.getByTestId('hh-dialog-grossWeight-mandatory').check();
    await desk.getByTestId('hh-publish').click();
    await eventually(() => desk.locator('[data-testid="hh-editor"]').innerText()).toContain('version 1 published');
    const flow = await call<HandheldFlowAnswer>('/handheld/flow?fn=move');
    expect(flow.definition.steps.map((s) => [s.scanName, s.prompt])).toEqual([
      ['sku', `Scan the article ${TAG}`],
      ['to', ''],
      ['qty', ''],
    ]);
    expect(flow.definition.dialogs.grossWeight).toEqual({ show: true, mandatory: true });

    // The handheld, on the move function from the URL.
    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/rfFlow?fn=move', { viewport: { width: 360, height: 640 } });
    await handheld.locator('[data-testid="rf-sign-in"]').waitFor({ timeout: 60_000 });
    await handheld.getByTestId('rf-device-id').fill(`RFM-${TAG}`);
    await handheld.getByTestId('rf-device-id').press('Enter');
    await handheld.locator('[data-testid="rf-flow"]').waitFor();
    expect(await handheld.getByTestId('rf-version').innerText()).toContain(`Configuration MOV-${TAG}, version 1`);
    expect(await handheld.locator('[data-testid="rf-functions"] .ant-radio-button-wrapper-checked').innerText()).toBe('Move');
    expect(await label(handheld)).toContain('Scan the location to move from');

    await scan(handheld, from);
    await eventually(() => step(handheld)).toBe('sku');
    expect(await label(handheld)).toContain(`Scan the article ${TAG}`);
    await scan(handheld, sku);
    await eventually(() => step(handheld)).toBe('to');
    await scan(handheld, to);
    await eventually(() => step(handheld)).toBe('qty');
    expect(await label(handheld)).toContain('Quantity to move');
    await scan(handheld, '2');

    // The mandatory gross weight: refused without it, then stored with the move.
    await handheld.locator('[data-testid="rf-dialogs"]').waitFor();
    await handheld.getByTestId('rf-dialogs-ok').click();
    await eventually(() => feedback(handheld).innerText()).toContain('Gross weight (kg) is required.');
    await handheld.getByTestId('rf-dialog-grossWeight').fill('7.25');
    await handheld.getByTestId('rf-dialogs-ok').click();
    await eventually(() => feedback(handheld).getAttribute('data-tone')).toBe('success');
    expect(await feedback(handheld).innerText()).toContain(`Moved ${sku} × 2 from ${from} to ${to}`);
    await eventually(() => handheld.getByTestId('rf-stored-values').innerText()).toContain('Gross weight (kg) 7.25');
    await eventually(() => step(handheld)).toBe('search');

    // The value, read back with what was confirmed and the move document.
    const scanKey = (await handheld.getByTestId('rf-stored-values').getAttribute('data-key'))!;
    const stored = (await call<{ rows: ScanValueRow[] }>(`/handheld/scanValue/list?fn=move&scanKey=${scanKey}`)).rows;
    expect(stored.map((r) => [r.subject.sku, r.subject.fromLocation, r.subject.toLocation, r.subject.qty, r.values])).toEqual([[sku, from, to, '2', { grossWeight: '7.25' }]]);
    const docNo = (stored[0].answer as { docNo: string }).docNo;
    expect(docNo).toBeTruthy();

    // The ledger: the move document takes 2 from the from-location to the to-location.
    type LogRow = { trans_type: string; sku_code: string; location_code: string; qty: string };
    const log = (await call<{ rows: LogRow[] }>('/inventory/transactionLog', { transType: 'all', ...ledgerDays(), orderNo: docNo, pageSize: 100 })).rows;
    expect(log.map((r) => [r.sku_code, r.location_code, Math.abs(Number(r.qty))]).sort()).toEqual(
      [
        [sku, from, 2],
        [sku, to, 2],
      ].sort(),
    );
  });
});

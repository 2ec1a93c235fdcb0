import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { gs1CheckDigit } from '../../src/common/gs1.js';
import { apiCall, apiSignIn, chooseByTyping, eventually, saveEngineForm, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { ledgerDays } from '../helpers/ledger-days.js';
import { toldOn } from '../helpers/pack-e2e.js';
import { rfEnter, rfLabel, rfReady, rfScan, rfStep } from '../helpers/rf-flow-e2e.js';

/**
 * Inbound in Chromium against the built app on demo data: a purchase order and an ASN made from it,
 * received partly through batch receive and fully through scan-in, put away on /putaway's handheld
 * runtime at 360x640 (a task tapped in its list, then the keyboard only), the ASN passing through
 * its statuses; refusals shown with their spec message.
 */
describe('inbound from purchase order to putaway in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';

  const call = <T>(path: string, body?: unknown): Promise<T> => apiCall<T>(e2e.server, token, path, body);

  const signedInAt = (route: string, viewport: { width: number; height: number }): Promise<Page> => signedInPage(e2e.browser, e2e.server, route, { viewport });

  const status = async (id: number) => (await call<{ status: string }>('/asn/getHeader', { id })).status;

  it('receives partly and fully, puts away on the handheld, and the ASN walks its statuses', async () => {
    token = await apiSignIn(e2e.server);

    // The purchase order through the /po page in the browser (header, then its lines on the line tab), then the ASN from it.
    const owner = (await call<{ rows: { _key: number; code: string }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'ogr', page: 1, pageSize: 10 })).rows[0];
    const skus = (await call<{ rows: { _key: number; code: string; owner_id: number }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'sku', page: 1, pageSize: 100 })).rows.filter(
      (s) => s.owner_id === owner._key,
    );
    const ui = await signedInAt('/page/po', { width: 1440, height: 900 });
    const poPage = ui.locator('[data-testid="engine-page"][data-function="po"]').first();
    await poPage.locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    await poPage.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-add').click();
    await ui.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
    await chooseByTyping(ui, 'engine_po_owner_id', owner.code);
    await ui.fill('#engine_po_remark', 'E2E order');
    await saveEngineForm(ui);
    const created = (await call<{ rows: { _key: number; po_no: string; remark: string | null }[] }>('/generic/selection', { moduleCode: 'inbound', functionCode: 'po', page: 1, pageSize: 50 })).rows.find(
      (r) => r.remark === 'E2E order',
    );
    expect(created).toBeDefined();
    const po = { row: { _key: created!._key } };
    // Its lines on the line tab: the new order is the list's first row (newest first).
    await eventually(() => poPage.locator(':scope > [data-testid="engine-grid"] .ag-row').filter({ hasText: created!.po_no }).count()).toBeGreaterThan(0);
    await poPage.locator(':scope > [data-testid="engine-grid"] .ag-row').filter({ hasText: created!.po_no }).first().click();
    const subPages = poPage.getByTestId('engine-subpages');
    await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Lines' }).click();
    const linePage = subPages.locator('[data-testid="engine-page"][data-function="poLine"]').first();
    for (const [sku, qty] of [
      [skus[10], 10],
      [skus[11], 5],
    ] as const) {
      await linePage.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-add').click();
      await ui.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
      await chooseByTyping(ui, 'engine_poLine_sku_id', sku.code);
      await ui.fill('#engine_poLine_qty', String(qty));
      await saveEngineForm(ui);
    }
    const poLines = await call<{ rows: { sku_id: number; qty: string }[] }>('/generic/tab', { moduleCode: 'inbound', functionCode: 'po', subPage: 'lines', parentKey: po.row._key, page: 1, pageSize: 10 });
    expect(poLines.rows.map((r) => [r.sku_id, Number(r.qty)])).toEqual([
      [skus[10]._key, 10],
      [skus[11]._key, 5],
    ]);
    // The ASN from the order by the page's "create ASN" action, behind its confirmation.
    await poPage.locator(':scope > [data-testid="engine-grid"] .ag-row').filter({ hasText: created!.po_no }).first().click();
    await poPage.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-behaviour-createAsn').click();
    await ui.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    const asnOfPo = async () =>
      (await call<{ rows: { _key: number; asn_no: string; po_id: number | null }[] }>('/generic/selection', { moduleCode: 'inbound', functionCode: 'asn', page: 1, pageSize: 100 })).rows.find(
        (r) => r.po_id === po.row._key,
      );
    await eventually(asnOfPo).toBeDefined();
    const madeAsn = (await asnOfPo())!;
    const asn = { id: madeAsn._key, asn_no: madeAsn.asn_no };
    await ui.context().close();
    const lines = (await call<{ lines: { id: number; sku_code: string; line_no: number }[] }>('/asn/getDetail', { id: asn.id })).lines;
    // Four of the first line's ten come in a carton announced for scan-in.
    await call('/asn/saveDetail', { asnId: asn.id, lines: [{ id: lines[0].id, skuCode: lines[0].sku_code, expectedQty: 10, cartons: [{ containerId: 'CONT-E2E', cartonId: 'CTN-E2E-1', qty: 4 }] }] });
    expect(await status(asn.id)).toBe('new');

    // Batch receive: more than 4 characters of query text; over-receive refused with its message.
    const page = await signedInAt('/page/receive', { width: 1440, height: 900 });
    await page.locator('[data-testid="batch-receive"]').waitFor();
    await page.fill('[data-testid="batch-query"]', asn.asn_no);
    await page.click('[data-testid="batch-search"]');
    const qty1 = page.locator(`[data-testid="batch-qty-1-${asn.asn_no}"]`);
    await qty1.waitFor();
    await qty1.fill('11');
    await page.fill(`[data-testid="batch-locationCode-1-${asn.asn_no}"]`, 'DOCK-01');
    await page.click('[data-testid="batch-receive-button"]');
    await expect.poll(() => page.locator('[data-testid="batch-problem"]').textContent()).toContain('Not allowed to over receive.');
    expect(await status(asn.id)).toBe('new');
    await qty1.fill('6');
    await page.fill(`[data-testid="batch-qty-2-${asn.asn_no}"]`, '5');
    await page.fill(`[data-testid="batch-locationCode-2-${asn.asn_no}"]`, 'DOCK-01');
    await page.click('[data-testid="batch-receive-button"]');
    await expect.poll(() => status(asn.id)).toBe('partial_received');

    // Scan-in: an unknown carton is refused; the announced carton is scanned and received.
    await page.getByRole('tab', { name: 'Scan-in' }).click();
    const scan = page.locator('[data-testid="scanin-field"]');
    await scan.waitFor();
    await scan.fill('CTN-NOPE');
    await scan.press('Enter');
    await expect.poll(() => page.locator('[data-testid="handheld-feedback"]').textContent()).toContain('does not exist or is already received');
    await page.fill('[data-testid="scanin-epc"]', 'EPC-E2E-1');
    await page.fill('[data-testid="scanin-carton-type"]', 'BOX');
    await page.fill('[data-testid="scanin-anti-counterfeit"]', 'AC-E2E-1');
    await scan.fill('CTN-E2E-1');
    await scan.press('Enter');
    await expect.poll(() => page.locator('[data-testid="carton-CTN-E2E-1"]').textContent()).toBe('Scanned');
    await page.fill('[data-testid="scanin-location"]', 'DOCK-01');
    await page.click('[data-testid="scanin-convert"]');
    await expect.poll(() => status(asn.id)).toBe('received');
    // The same carton a second time is refused.
    await scan.fill('CTN-E2E-1');
    await scan.press('Enter');
    await expect.poll(() => page.locator('[data-testid="handheld-feedback"]').getAttribute('data-tone')).toBe('error');
    await page.context().close();

    // Handheld putaway at 360x640 on the handheld runtime's putaway function, keyboard only but the
    // tap on a task of the list: the scan field has the focus; Enter submits.
    const tasks = (await call<{ tasks: { id: number; asn_no: string; suggested_location: string | null; qty: string }[] }>('/putaway/tasks')).tasks.filter((t) => t.asn_no === asn.asn_no);
    expect(tasks).toHaveLength(3);
    const handheld = await signedInAt('/page/putaway', { width: 360, height: 640 });
    await rfReady(handheld, `RFI-${Date.now().toString(36)}`);
    const item = (id: number) => handheld.locator(`[data-testid="rf-list-item"][data-key="${id}"]`);
    const feedback = handheld.locator('[data-testid="handheld-feedback"]');
    // Part of the first task: the location, then the quantity proposed (all of it) replaced by 1; the rest stays open.
    const partial = tasks.find((t) => Number(t.qty) > 1)!;
    await item(partial.id).click();
    await expect.poll(() => rfStep(handheld)).toBe('location');
    expect(await handheld.getByTestId('rf-suggested').getAttribute('data-location')).toBe(partial.suggested_location);
    await rfEnter(handheld, partial.suggested_location!, 'qty');
    await expect.poll(() => handheld.getByTestId('scan-field').inputValue()).toBe(String(Number(partial.qty)));
    await rfEnter(handheld, '1', 'search');
    await expect.poll(() => feedback.getAttribute('data-tone')).toBe('success');
    expect(await feedback.innerText()).toContain(`${Number(partial.qty) - 1} left`);
    expect(await status(asn.id)).toBe('partial_putaway');
    await expect.poll(() => item(partial.id).innerText()).toContain(`· ${Number(partial.qty) - 1} ·`);
    for (const [i, task] of tasks.entries()) {
      await item(task.id).click();
      await expect.poll(() => rfStep(handheld)).toBe('location');
      expect(task.suggested_location).not.toBeNull();
      await rfEnter(handheld, task.suggested_location!, 'qty');
      // Enter takes the quantity proposed: all that is left.
      await expect.poll(() => handheld.getByTestId('scan-field').inputValue()).toBe(String(Number(task.qty) - (task.id === partial.id ? 1 : 0)));
      await handheld.keyboard.press('Enter');
      await expect.poll(() => rfStep(handheld)).toBe('search');
      await expect.poll(() => feedback.getAttribute('data-tone')).toBe('success');
      await expect.poll(() => status(asn.id)).toBe(i === tasks.length - 1 ? 'putaway' : 'partial_putaway');
    }
    await expect.poll(() => item(tasks[0].id).count()).toBe(0);
    await handheld.context().close();

    // Closing needs putaway, and now it is.
    await call('/asn/close', { id: asn.id });
    expect(await status(asn.id)).toBe('closed');
  });

  it('receives on the handheld screen size from a GS1-128 label, keyboard only', async () => {
    token = await apiSignIn(e2e.server);
    // A SKU of this run with its own EAN-13, open on two ASNs: the label's GTIN finds both lines.
    const run = `${Date.now()}`.slice(-9);
    const twelve = `28${run}0`;
    const ean = twelve + gs1CheckDigit(twelve);
    const sku = `E2E-HHR-${run}`;
    const owner = (await call<{ rows: { _key: number; code: string }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'ogr', page: 1, pageSize: 10 })).rows[0];
    const made = await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: sku, owner_id: owner._key, description: `Handheld item ${run}`, base_uom: 'EA' } });
    await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'skuUpc', record: { sku_id: made.row._key, upc: ean, uom: 'EA', qty: '1' } });
    const asnWith = async (qty: number) => {
      const asn = await call<{ id: number; asn_no: string }>('/asn/saveHeader', { ownerCode: owner.code, remark: 'handheld' });
      await call('/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: sku, expectedQty: qty }] });
      const [line] = (await call<{ lines: Array<{ id: number }> }>('/asn/getDetail', { id: asn.id })).lines;
      return { ...asn, lineId: line.id };
    };
    const other = await asnWith(8);
    const asn = await asnWith(8);

    // The handheld tab of /receive is the runtime's receive function: signed in for the shift by
    // keyboard. The device session of the putaway above (the same user) is ended first.
    await call('/rfUser/signOut', {});
    const page = await signedInAt('/page/receive', { width: 360, height: 640 });
    await page.locator('[data-testid="rf-sign-in"]').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('rf-device-id').evaluate((el) => el === document.activeElement), { timeout: 15_000 }).toBe(true);
    await page.keyboard.type(`HHR-${run}`);
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="rf-flow"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('rf-functions').count()).toBe(0);
    await eventually(() => rfLabel(page)).toContain('Scan the container, ASN, SKU or GS1 label');

    // A label that is no GS1-128 is refused with its reason.
    await rfScan(page, '(01)123');
    await toldOn(page, 'error', 'Incorrect barcode format');
    await rfScan(page, `(01)0${ean}(10)LOT-HH-${run}(17)271231(37)3`);
    // Both ASNs' lines are offered as buttons, the first focused: Tab and Enter choose this ASN's.
    await eventually(() => rfStep(page)).toBe('line');
    await page.getByTestId(`rf-choice-${asn.lineId}`).waitFor();
    expect(await page.locator('[data-testid^="rf-choice-"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')))).toEqual([`rf-choice-${other.lineId}`, `rf-choice-${asn.lineId}`]);
    await expect.poll(() => page.getByTestId(`rf-choice-${other.lineId}`).evaluate((el) => el === document.activeElement), { timeout: 15_000 }).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await eventually(() => rfStep(page)).toBe('location');
    const task = await page.getByTestId('rf-task').innerText();
    expect(task).toContain(`${asn.asn_no} / 1 · ${sku}`);
    expect(task).toContain(`LOT-HH-${run}`);
    expect(task).toContain('2027-12-31');

    // An unknown location is refused by the server at the confirmation, and the location asked again.
    await rfEnter(page, 'NOWHERE-99', 'qty');
    expect(await rfLabel(page)).toContain("the label's 3");
    await rfEnter(page, '3', 'lpn');
    await rfScan(page, `LPN-HH-${run}`);
    await toldOn(page, 'error', 'Location NOWHERE-99 does not exist');
    await eventually(() => rfStep(page)).toBe('location');
    expect(await status(asn.id)).toBe('new');
    await rfEnter(page, 'DOCK-01', 'qty');
    await rfEnter(page, '3', 'lpn');
    await rfScan(page, `LPN-HH-${run}`);
    await toldOn(page, 'success', `3 of ${sku} received`);
    await eventually(() => rfStep(page)).toBe('search');
    expect(await status(asn.id)).toBe('partial_received');

    // By its ASN number the one open line is taken; more than is open is refused and the quantity asked again.
    await rfEnter(page, asn.asn_no, 'location');
    await rfEnter(page, 'DOCK-01', 'qty');
    await rfEnter(page, '6', 'lpn');
    await rfScan(page, `LPN-HH-${run}`);
    await eventually(() => rfStep(page)).toBe('qty');
    await toldOn(page, 'error', 'Not allowed to over receive.');
    expect(await status(asn.id)).toBe('partial_received');
    await rfEnter(page, '5', 'lpn');
    await rfScan(page, `LPN-HH-${run}`);
    await toldOn(page, 'success', `5 of ${sku} received`);
    expect(await status(asn.id)).toBe('received');
    expect(await status(other.id)).toBe('new');

    // The ledger: the two receipts of the ASN at DOCK-01 on the scanned LPN, of the label's lot.
    type LogRow = { sku_code: string; location_code: string; lpn: string; lot_no: string; qty: string };
    const log = (await call<{ rows: LogRow[] }>('/inventory/transactionLog', { transType: 'all', ...ledgerDays(), orderNo: asn.asn_no, pageSize: 100 })).rows;
    expect(log.map((r) => [r.sku_code, r.location_code, r.lpn, r.lot_no === `LOT-HH-${run}`, Number(r.qty)]).sort()).toEqual(
      [
        [sku, 'DOCK-01', `LPN-HH-${run}`, true, 3],
        [sku, 'DOCK-01', `LPN-HH-${run}`, false, 5],
      ].sort(),
    );
    await page.context().close();
  });
});

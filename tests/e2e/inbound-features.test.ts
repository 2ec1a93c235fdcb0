import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiSignIn, chooseByTyping, eventually, signedInPage, toastShown, useServerAndBrowser } from '../helpers/browser.js';

/**
 * Inbound screens in Chromium against the built app on demo data: the ASN page as a split view
 * (header list and lines on one 1440x900 screen) with its cartons tab, scan-in's carton checks each
 * refused with its own message, the batch receive columns, the success that opens the receipt and
 * its ASN, and the split of a receipt line in a dialog; the link to the ASN a purchase order's action
 * made, and scan-in of a whole container (each carton checked, a gift SKU without a code) with its
 * scanned-so-far panel. Every refusal leaves the data unchanged.
 */
describe('inbound features in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';

  const call = <T>(path: string, body?: unknown): Promise<T> => apiCall<T>(e2e.server, token, path, body);

  const signedInAt = (route: string): Promise<Page> => signedInPage(e2e.browser, e2e.server, route, { viewport: { width: 1440, height: 900 }, logToasts: true });

  type Carton = { carton_id: string; status: string; epc: string | null };
  const cartons = async () => (await call<{ cartons: Carton[] }>('/scan/table', { containerId: 'CONT-F' })).cartons;

  it('shows ASN lines and cartons on one screen, checks scan-in, receives with links to what was made, and splits a receipt line', async () => {
    token = await apiSignIn(e2e.server);
    const owner = (await call<{ rows: { _key: number; code: string }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'ogr', page: 1, pageSize: 10 })).rows[0];
    const skus = (await call<{ rows: { _key: number; code: string; owner_id: number }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'sku', page: 1, pageSize: 100 })).rows.filter(
      (s) => s.owner_id === owner._key,
    );
    const asn = await call<{ id: number; asn_no: string }>('/asn/saveHeader', { ownerCode: owner.code, remark: 'E2E features' });
    await call('/asn/saveDetail', {
      asnId: asn.id,
      lines: [
        { skuCode: skus[20].code, expectedQty: 10, cartons: [{ containerId: 'CONT-F', cartonId: 'CTN-F-1', qty: 4 }] },
        { skuCode: skus[21].code, expectedQty: 3, cartons: [{ containerId: 'CONT-F', cartonId: 'CTN-F-G', qty: 3 }] },
      ],
    });
    const lineRows = (await call<{ rows: { _key: number; _version: number; line_no: number }[] }>('/generic/tab', { moduleCode: 'inbound', functionCode: 'asn', subPage: 'lines', parentKey: asn.id, page: 1, pageSize: 10 })).rows;
    const giftLine = lineRows.find((r) => r.line_no === 2)!;
    // The second line's item is a gift: it needs no anti-counterfeit code.
    await call('/generic/updating', { moduleCode: 'inbound', functionCode: 'asnLine', key: giftLine._key, version: giftLine._version, record: { gift: true } });

    // The ASN page at 1440x900: with a header selected, its lines tab and that tab's Add button show without scrolling.
    const ui = await signedInAt('/page/asn');
    const asnPage = ui.locator('[data-testid="engine-page"][data-function="asn"]').first();
    const asnRow = asnPage.locator(':scope > [data-testid="engine-grid"] .ag-row').filter({ hasText: asn.asn_no }).first();
    await asnRow.waitFor({ timeout: 60_000 });
    await asnRow.click();
    const subPages = asnPage.getByTestId('engine-subpages');
    const linePage = subPages.locator('[data-testid="engine-page"][data-function="asnLine"]').first();
    const addLine = linePage.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-add');
    await addLine.waitFor();
    const box = (await addLine.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    await eventually(() => linePage.locator('.ag-row').count()).toBe(2);

    // The cartons tab: the announced cartons; a carton id off the pattern is refused with its message, a good one is added.
    await subPages.locator('.ant-tabs-tab').filter({ hasText: 'Cartons' }).click();
    const cartonPage = subPages.locator('[data-testid="engine-page"][data-function="asnCarton"]').first();
    await eventually(() => cartonPage.locator('.ag-row').filter({ hasText: 'CTN-F-1' }).count()).toBe(1);
    await cartonPage.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-add').click();
    await ui.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
    await chooseByTyping(ui, 'engine_asnCarton_asn_line_id', '1');
    await ui.fill('#engine_asnCarton_container_id', 'CONT-F');
    await ui.fill('#engine_asnCarton_carton_id', 'bad id!');
    await ui.fill('#engine_asnCarton_qty', '2');
    await ui.click('#engine-form-save');
    await eventually(() => ui.getByText('does not match the carton id pattern').count()).toBeGreaterThan(0);
    expect((await cartons()).map((c) => c.carton_id)).toEqual(['CTN-F-1', 'CTN-F-G']);
    await ui.fill('#engine_asnCarton_carton_id', 'CTN-F-2');
    await ui.click('#engine-form-save');
    await ui.locator('[data-testid="engine-form"]').waitFor({ state: 'detached', timeout: 30_000 });
    await eventually(async () => (await cartons()).map((c) => c.carton_id)).toEqual(['CTN-F-1', 'CTN-F-2', 'CTN-F-G']);
    await ui.context().close();

    // Scan-in: each missing piece is refused with its own message, and the carton stays open.
    const page = await signedInAt('/page/receive');
    await page.locator('[data-testid="batch-receive"]').waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'Scan-in' }).click();
    const scan = page.locator('[data-testid="scanin-field"]');
    await scan.waitFor();
    const feedback = () => page.locator('[data-testid="handheld-feedback"]').textContent();
    const scanCode = async (code: string) => {
      await scan.fill(code);
      await scan.press('Enter');
    };
    await scanCode('bad id!');
    await expect.poll(feedback).toContain('Carton id bad id! does not match the carton id pattern');
    await scanCode('CTN-F-1');
    await expect.poll(feedback).toContain('The EPC is required.');
    await page.fill('[data-testid="scanin-epc"]', 'EPC-F-1');
    await scanCode('CTN-F-1');
    await expect.poll(feedback).toContain('The carton type is required.');
    await page.fill('[data-testid="scanin-carton-type"]', 'BOX');
    await scanCode('CTN-F-1');
    await expect.poll(feedback).toContain('Scan the anti-counterfeit code: it is required unless the item is a gift.');
    expect((await cartons()).map((c) => c.status)).toEqual(['open', 'open', 'open']);
    await page.fill('[data-testid="scanin-anti-counterfeit"]', 'AC-F-1');
    await scanCode('CTN-F-1');
    await expect.poll(() => page.locator('[data-testid="carton-CTN-F-1"]').textContent()).toBe('Scanned');
    // The gift carton: EPC and carton type, no anti-counterfeit code.
    await page.fill('[data-testid="scanin-epc"]', 'EPC-F-G');
    await scanCode('CTN-F-G');
    await expect.poll(() => page.locator('[data-testid="carton-CTN-F-G"]').textContent()).toBe('Scanned');
    expect((await cartons()).find((c) => c.carton_id === 'CTN-F-G')!.epc).toBe('EPC-F-G');
    await page.fill('[data-testid="scanin-location"]', 'DOCK-01');
    await page.click('[data-testid="scanin-convert"]');
    // The success offers the receipt and its ASN.
    await page.getByTestId(`open-asn-${asn.asn_no}`).click();
    const listed = page.locator('[data-testid="engine-page"][data-function="asn"]').first();
    await eventually(() => listed.getByTestId('engine-fixed-filter').first().textContent()).toContain(asn.asn_no);
    await eventually(() => listed.locator(':scope > [data-testid="engine-grid"] .ag-row').count()).toBe(1);
    // Back on the receiving screen (kept open on its scan-in tab).
    await page.goto(`${e2e.server.url}#/page/receive`);

    // Batch receive: TOID/LPN, status, rec date, package qty and qty in EA.
    await page.getByRole('tab', { name: 'Batch receive' }).click();
    await page.locator('[data-testid="batch-receive"]').waitFor();
    await page.fill('[data-testid="batch-query"]', asn.asn_no);
    await page.click('[data-testid="batch-search"]');
    const table = page.locator('[data-testid="batch-receive"] .ant-table');
    await page.locator(`[data-testid="batch-qty-1-${asn.asn_no}"]`).waitFor();
    const headers = await table.locator('thead th').allTextContents();
    for (const title of ['TOID / LPN', 'Status', 'Rec date', 'Package qty', 'Qty (EA)']) expect(headers).toContain(title);
    expect(await page.getByTestId(`batch-status-1-${asn.asn_no}`).textContent()).toBe('Partially received');
    const today = new Date().toISOString().slice(0, 10);
    expect(await table.locator('tbody tr').filter({ hasText: skus[20].code }).textContent()).toContain(today.slice(0, 4));
    // Over-receive is refused with its message, nothing received.
    await page.fill(`[data-testid="batch-qty-1-${asn.asn_no}"]`, '7');
    await page.fill(`[data-testid="batch-locationCode-1-${asn.asn_no}"]`, 'DOCK-01');
    await page.click('[data-testid="batch-receive-button"]');
    await expect.poll(() => page.locator('[data-testid="batch-problem"]').textContent()).toContain('Not allowed to over receive.');
    await page.fill(`[data-testid="batch-qty-1-${asn.asn_no}"]`, '3');
    expect(await page.getByTestId(`batch-qtyEa-1-${asn.asn_no}`).textContent()).toBe('3');
    await page.fill(`[data-testid="batch-lpn-1-${asn.asn_no}"]`, 'TOID-F1');
    await page.click('[data-testid="batch-receive-button"]');
    const receiptLink = page.locator('[data-testid^="open-receipt-"]').first();
    await eventually(() => page.locator('[data-testid="receipt-links"]').textContent()).toContain('Received:');
    const receiptNo = (await receiptLink.getAttribute('data-testid'))!.replace('open-receipt-', '');

    // The receipt link opens the goods receipts filtered to it; its line is split in a dialog.
    await receiptLink.click();
    const grPage = page.locator('[data-testid="engine-page"][data-function="inbGr"]').first();
    await eventually(() => grPage.getByTestId('engine-fixed-filter').first().textContent()).toContain(receiptNo);
    const receiptRows = async () =>
      (
        await call<{ rows: { _key: number; lpn: string; qty: string }[] }>('/generic/selection', {
          moduleCode: 'inbound',
          functionCode: 'inbGr',
          page: 1,
          pageSize: 10,
          conditions: { combinator: 'and', rules: [{ field: 'receipt_no', operator: '=', value: receiptNo }] },
        })
      ).rows;
    const receiptLines = async () => (await receiptRows()).map((r) => `${r.lpn}:${Number(r.qty)}`).sort();
    // The grid paints only the columns in view: the line is found by its row key, whatever the column order.
    const received = (await receiptRows()).find((r) => r.lpn === 'TOID-F1')!;
    const grRow = grPage.locator(`:scope > [data-testid="engine-grid"] .ag-row[row-id="${received._key}"]`).first();
    await grRow.waitFor({ timeout: 30_000 });
    await grRow.click();
    expect(await receiptLines()).toEqual(['TOID-F1:3']);
    await grPage.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-behaviour-split').click();
    const dialog = page.getByTestId('engine-behaviour-inputs');
    await dialog.waitFor();
    await dialog.getByTestId('engine-input-qty').fill('3');
    await dialog.getByTestId('engine-input-lpn').fill('TOID-F2');
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    await eventually(() => page.locator('.wms-popup-content').filter({ hasText: 'Not allowed to split.' }).count()).toBeGreaterThan(0);
    expect(await receiptLines()).toEqual(['TOID-F1:3']);
    await page.locator('.wms-popup-ok').last().click();
    await dialog.getByTestId('engine-input-qty').fill('1');
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    await toastShown(page, 'The receipt line is split: the new line waits for putaway.');
    expect(await receiptLines()).toEqual(['TOID-F1:2', 'TOID-F2:1']);

    await page.context().close();
  });

  it('makes an ASN from a PO with a link to it, and scans a whole container checking each carton, with the scanned-so-far panel', async () => {
    token = await apiSignIn(e2e.server);
    const owner = (await call<{ rows: { _key: number; code: string }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'ogr', page: 1, pageSize: 10 })).rows[0];
    const skus = (
      await call<{ rows: { _key: number; _version: number; code: string; owner_id: number }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'sku', page: 1, pageSize: 100 })
    ).rows.filter((s) => s.owner_id === owner._key);
    const [item, gift, ordered] = [skus[25], skus[26], skus[27]];
    // The gift flag is the SKU's, set on the SKU page.
    await call('/generic/updating', { moduleCode: 'masterdata', functionCode: 'sku', key: gift._key, version: gift._version, record: { gift: true } });

    // A purchase order; its "create ASN" action says so with a link that opens the new ASN.
    const po = await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'inbound', functionCode: 'po', record: { owner_id: owner._key, remark: 'E2E link' } });
    await call('/generic/adding', { moduleCode: 'inbound', functionCode: 'poLine', record: { po_id: po.row._key, sku_id: ordered._key, qty: 2 } });
    const poNo = (await call<{ rows: { _key: number; po_no: string }[] }>('/generic/selection', { moduleCode: 'inbound', functionCode: 'po', page: 1, pageSize: 100 })).rows.find((r) => r._key === po.row._key)!.po_no;
    const ui = await signedInAt('/page/po');
    const poPage = ui.locator('[data-testid="engine-page"][data-function="po"]').first();
    const poRow = poPage.locator(':scope > [data-testid="engine-grid"] .ag-row').filter({ hasText: poNo }).first();
    await poRow.waitFor({ timeout: 60_000 });
    await poRow.click();
    await poPage.locator(':scope > [data-testid="engine-toolbar"]').getByTestId('engine-behaviour-createAsn').click();
    await ui.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    const asnOfPo = async () =>
      (await call<{ rows: { asn_no: string; po_id: number | null }[] }>('/generic/selection', { moduleCode: 'inbound', functionCode: 'asn', page: 1, pageSize: 100 })).rows.find((r) => r.po_id === po.row._key);
    await eventually(asnOfPo).toBeDefined();
    const madeAsnNo = (await asnOfPo())!.asn_no;
    const message = ui.locator('.wms-popup-message.wms-popup-top');
    await eventually(() => message.locator('.wms-popup-content').textContent()).toContain(`ASN ${madeAsnNo} created.`);
    await message.getByTestId(`behaviour-link-asn-${madeAsnNo}`).click();
    await message.waitFor({ state: 'detached' });
    const asnList = ui.locator('[data-testid="engine-page"][data-function="asn"]').first();
    await eventually(() => asnList.getByTestId('engine-fixed-filter').first().textContent()).toContain(madeAsnNo);
    await eventually(() => asnList.locator(':scope > [data-testid="engine-grid"] .ag-row').count()).toBe(1);
    await ui.context().close();

    // A container of three cartons: two of an item, one of a gift.
    const asn = await call<{ id: number; asn_no: string }>('/asn/saveHeader', { ownerCode: owner.code, remark: 'E2E container' });
    await call('/asn/saveDetail', {
      asnId: asn.id,
      lines: [
        {
          skuCode: item.code,
          expectedQty: 5,
          cartons: [
            { containerId: 'CONT-E', cartonId: 'CTN-E-1', qty: 2 },
            { containerId: 'CONT-E', cartonId: 'CTN-E-2', qty: 3 },
          ],
        },
        { skuCode: gift.code, expectedQty: 1, cartons: [{ containerId: 'CONT-E', cartonId: 'CTN-E-G', qty: 1 }] },
      ],
    });
    const statuses = async () => (await call<{ cartons: Carton[] }>('/scan/table', { containerId: 'CONT-E' })).cartons.map((c) => `${c.carton_id}:${c.status}`);

    const page = await signedInAt('/page/receive');
    await page.locator('[data-testid="batch-receive"]').waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'Scan-in' }).click();
    // The ways the server offers; the whole container is chosen.
    await page.getByTestId('scanin-way-container').click();
    const scan = page.locator('[data-testid="scanin-field"]');
    await scan.fill('CONT-E');
    await scan.press('Enter');
    const feedback = () => page.locator('[data-testid="handheld-feedback"]').textContent();
    const panel = page.getByTestId('scanin-progress');
    await eventually(() => panel.getByTestId(`scanin-scanned-${item.code}`).textContent()).toBe('0');
    expect(await panel.getByTestId(`scanin-received-${item.code}`).textContent()).toBe('0');
    // Each carton's EPC, a carton type for all, the anti-counterfeit code of the first only: the second carton refuses the whole container.
    await page.fill('[data-testid="scanin-carton-type"]', 'BOX');
    for (const id of ['CTN-E-1', 'CTN-E-2', 'CTN-E-G']) await page.fill(`[data-testid="scanin-epc-${id}"]`, `EPC-${id}`);
    await page.fill('[data-testid="scanin-anti-counterfeit-CTN-E-1"]', 'AC-E-1');
    await page.getByTestId('scanin-container-scan').click();
    await expect.poll(feedback).toContain('Carton CTN-E-2: Scan the anti-counterfeit code: it is required unless the item is a gift.');
    expect(await statuses()).toEqual(['CTN-E-1:open', 'CTN-E-2:open', 'CTN-E-G:open']);
    expect(await panel.getByTestId(`scanin-scanned-${item.code}`).textContent()).toBe('0');
    // With the second carton's code the container is scanned; the gift carton needs none. The panel follows.
    await page.fill('[data-testid="scanin-anti-counterfeit-CTN-E-2"]', 'AC-E-2');
    await page.getByTestId('scanin-container-scan').click();
    await eventually(() => panel.getByTestId(`scanin-scanned-${item.code}`).textContent()).toBe('5');
    expect(await panel.getByTestId(`scanin-scanned-${gift.code}`).textContent()).toBe('1');
    expect(await statuses()).toEqual(['CTN-E-1:scanned', 'CTN-E-2:scanned', 'CTN-E-G:scanned']);
    await expect.poll(() => page.locator('[data-testid="carton-CTN-E-G"]').textContent()).toBe('Scanned');
    // Received: the panel moves the quantities from scanned to received.
    await page.fill('[data-testid="scanin-location"]', 'DOCK-01');
    await page.click('[data-testid="scanin-convert"]');
    await eventually(() => panel.getByTestId(`scanin-received-${item.code}`).textContent()).toBe('5');
    expect(await panel.getByTestId(`scanin-scanned-${item.code}`).textContent()).toBe('0');
    await page.context().close();
  });
});

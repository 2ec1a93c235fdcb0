/**
 * Inventory operations in Chromium against the built app and the real server (fresh embedded
 * database with the demonstration data): an adjustment requested by one user is refused to its
 * requester and approved by a second user; a move of more than is available is refused with its
 * message and changes nothing; the balance page, the standard balance as of yesterday and the
 * transaction log of today agree.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { apiCall, apiSignIn, enginePage as grid, engineRowTexts as rowTexts, engineToolbar as toolbar, eventually, releaseBrowser, sharedBrowser, openEnginePage, popupText, selectFirstEngineRow, signedInPage, startE2eServer, type E2eServer } from '../helpers/browser.js';

/** Signs in through the sign-in page in a fresh browser context and waits for the app. */
async function signedInAs(browser: Browser, server: E2eServer, loginAccount: string, password: string): Promise<Page> {
  const page = await signedInPage(browser, server, '/login', { account: { loginAccount, password } });
  await page.waitForURL(/#\/page/);
  return page;
}

/** Finds one document by its number on its page and selects it. */
async function selectDocument(page: Page, server: E2eServer, route: string, functionCode: string, docNo: string): Promise<void> {
  await openEnginePage(page, server, route, functionCode);
  await grid(page, functionCode).locator(`#engine_search_${functionCode}_doc_no`).fill(docNo);
  await grid(page, functionCode).getByTestId('engine-search-submit').click();
  await eventually(() => rowTexts(page, functionCode)).toEqual([expect.stringContaining(docNo.slice(0, 10))]);
  await selectFirstEngineRow(page, functionCode);
}

/** Runs a confirmed header action and answers the message popup's text, if one came. */
async function runAction(page: Page, functionCode: string, code: string): Promise<void> {
  await toolbar(page, functionCode).getByTestId(`engine-behaviour-${code}`).click();
  // A click on OK while the confirmation is still opening can be lost on a loaded machine: click
  // until the confirmation has closed (it closes on the first OK that counts).
  const ok = page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok');
  await ok.waitFor();
  await expect
    .poll(
      async () => {
        if (await ok.count()) await ok.click({ timeout: 5_000 }).catch(() => undefined);
        return ok.count();
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBe(0);
}

interface Ids {
  ownerId: number;
  skuId: number;
  skuCode: string;
  from: number;
  to: number;
}

describe('inventory operations in Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  let adminToken: string;
  let ids: Ids;

  async function document(token: string, functionCode: string, line: Record<string, unknown>): Promise<{ key: number; docNo: string }> {
    const added = await apiCall<{ row: { _key: number; doc_no: string } }>(server, token, '/generic/adding', { moduleCode: 'inventory', functionCode, record: {} });
    await apiCall(server, token, '/generic/adding', { moduleCode: 'inventory', functionCode: `${functionCode}Line`, record: { document_id: added.row._key, ...line } });
    return { key: added.row._key, docNo: added.row.doc_no };
  }

  async function balanceOf(skuCode: string): Promise<number> {
    const answer = await apiCall<{ rows: { on_hand_qty: string }[] }>(server, adminToken, '/generic/selection', {
      moduleCode: 'inventory',
      functionCode: 'balance',
      page: 1,
      pageSize: 100,
      conditions: { combinator: 'and', rules: [{ field: 'sku_code', operator: '=', value: skuCode }] },
    });
    return answer.rows.reduce((sum, row) => sum + Number(row.on_hand_qty), 0);
  }

  beforeAll(async () => {
    server = await startE2eServer({ DEMO_DATA: 'true' });
    browser = await sharedBrowser();
    adminToken = await apiSignIn(server);
    const skus = await apiCall<{ items: { id: number; code: string; owner_id: number }[] }>(server, adminToken, '/inventory/sku?code=AC-');
    const locations = await apiCall<{ items: { id: number; code: string; location_type: string }[] }>(server, adminToken, '/inventory/location?code=A');
    const storage = locations.items.filter((l) => l.location_type === 'storage');
    // The demo's ASNs receive the owner's first SKUs: this test works on one of its own.
    const sku = skus.items[skus.items.length - 1];
    ids = { ownerId: sku.owner_id, skuId: sku.id, skuCode: sku.code, from: storage[0].id, to: storage[1].id };
    // Stock to work with: 10 found at the first location (an adjustment that needs no approval).
    const found = await document(adminToken, 'invAdjust', { action: 'add', owner_id: ids.ownerId, sku_id: ids.skuId, location_id: ids.from, qty: 10, reason: 'FOUND' });
    await apiCall(server, adminToken, '/inventory/invAdjHeader/confirm', { id: found.key });
    // The approver: the inventory pages and the approve verb.
    const status = await apiCall<{ project: { id: number }; warehouse: { id: number } }>(server, adminToken, '/user/status');
    const role = await apiCall<{ id: number }>(server, adminToken, '/role', { name: 'Inventory approvers', permissions: [{ module: 'inventory', view: true, add: true, edit: true }] });
    for (const right of ['inventory.adjust:confirm', 'inventory.adjust:approve']) {
      await apiCall(server, adminToken, '/generic/adding', { moduleCode: 'identity', functionCode: 'roleVerb', record: { role_id: role.id, right_code: right } });
    }
    await apiCall(server, adminToken, '/user/save', {
      loginAccount: 'inv-approver',
      displayName: 'Inventory approver',
      password: 'Appr0ver!Passw0rd',
      projectIds: [status.project.id],
      warehouseIds: [status.warehouse.id],
      roleIds: [role.id],
    });
  });

  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
  });

  it('an adjustment request is refused to its requester and approved by a second user', async () => {
    const doc = await document(adminToken, 'invAdjust', { action: 'subtract', owner_id: ids.ownerId, sku_id: ids.skuId, location_id: ids.from, qty: 2, reason: 'DAMAGE' });
    await apiCall(server, adminToken, '/inventory/invAdjHeader/requestApproval', { id: doc.key });
    const before = await balanceOf(ids.skuCode);

    const requester = await signedInAs(browser, server, ADMIN.loginAccount, ADMIN.password);
    await selectDocument(requester, server, '/page/invAdjust', 'invAdjust', doc.docNo);
    await runAction(requester, 'invAdjust', 'confirm');
    expect(await popupText(requester)).toContain('The approval must come from another user than the requester.');
    expect(await balanceOf(ids.skuCode)).toBe(before);

    const approver = await signedInAs(browser, server, 'inv-approver', 'Appr0ver!Passw0rd');
    await selectDocument(approver, server, '/page/invAdjust', 'invAdjust', doc.docNo);
    await runAction(approver, 'invAdjust', 'confirm');
    await eventually(async () => (await rowTexts(approver, 'invAdjust'))[0] ?? '').toContain('Confirmed');
    expect(await balanceOf(ids.skuCode)).toBe(before - 2);
  });

  it('a move of more than is available is refused with its message and changes nothing', async () => {
    // Saved while 8 were there; 5 of them leave before it is confirmed.
    const big = await document(adminToken, 'lnvnMove', { owner_id: ids.ownerId, sku_id: ids.skuId, location_id: ids.from, to_location_id: ids.to, qty: 6, reason: 'REPLEN' });
    const first = await document(adminToken, 'lnvnMove', { owner_id: ids.ownerId, sku_id: ids.skuId, location_id: ids.from, to_location_id: ids.to, qty: 5, reason: 'REPLEN' });
    await apiCall(server, adminToken, '/inventory/invMoveHeader/confirm', { id: first.key });
    const before = await balanceOf(ids.skuCode);

    const page = await signedInAs(browser, server, ADMIN.loginAccount, ADMIN.password);
    await selectDocument(page, server, '/page/lnvnMove', 'lnvnMove', big.docNo);
    await runAction(page, 'lnvnMove', 'confirm');
    expect(await popupText(page)).toContain('Not enough inventory: 3 available.');
    expect(await balanceOf(ids.skuCode)).toBe(before);
    await eventually(async () => (await rowTexts(page, 'lnvnMove'))[0] ?? '').toContain('New');
  });

  it('a counted ticket is approved from the read-only cycle count list, and its variance posts', async () => {
    // A plan counts only locations without allocated, picked or held stock unless told otherwise,
    // and the demo's orders allocate at the first storage locations: the count is made at an empty
    // storage location that this test stocks itself, so no demo order can take it out of the plan.
    const storage = (await apiCall<{ items: { id: number; code: string; location_type: string }[] }>(server, adminToken, '/inventory/location?code=A')).items.filter(
      (l) => l.location_type === 'storage' && l.id !== ids.from && l.id !== ids.to,
    );
    let code: string | undefined;
    let locationId = 0;
    for (const location of storage) {
      const stock = await apiCall<{ total: number }>(server, adminToken, '/generic/selection', {
        moduleCode: 'inventory',
        functionCode: 'balance',
        page: 1,
        pageSize: 1,
        conditions: { combinator: 'and', rules: [{ field: 'location_code', operator: '=', value: location.code }] },
      });
      if (stock.total === 0) {
        code = location.code;
        locationId = location.id;
        break;
      }
    }
    expect(code).toBeDefined();
    const found = await document(adminToken, 'invAdjust', { action: 'add', owner_id: ids.ownerId, sku_id: ids.skuId, location_id: locationId, qty: 4, reason: 'FOUND' });
    await apiCall(server, adminToken, '/inventory/invAdjHeader/confirm', { id: found.key });
    const plan = await apiCall<{ row: { _key: number } }>(server, adminToken, '/generic/adding', {
      moduleCode: 'inventory',
      functionCode: 'cycleCountMaster',
      record: { plan_code: `E2E-APPROVE-${Date.now().toString(36)}`, location_from: code, location_to: code, max_locations: 1 },
    });
    const made = await apiCall<{ ticketId: number; ticketNo: string; lines: number }>(server, adminToken, '/inventory/cycleCountMaster/createCountOrder', { id: plan.row._key });
    expect(made.lines).toBe(1);
    const tab = (subPage: string) =>
      apiCall<{ rows: Record<string, string | number | null>[] }>(server, adminToken, '/generic/tab', {
        moduleCode: 'inventory',
        functionCode: 'cycleCount',
        subPage,
        parentKey: made.ticketId,
        page: 1,
        pageSize: 100,
      });
    // Every line is counted as one unit: the variance is whatever differs from what is there.
    for (const line of (await tab('count')).rows) await apiCall(server, adminToken, '/inventory/cycleCount/count', { lineId: line._key, qty: 1 });
    const variance = (await tab('variance')).rows
      .filter((row) => row.sku_code === ids.skuCode)
      .reduce((sum, row) => sum + Number(row.variance), 0);
    expect(variance).not.toBe(0);
    const before = await balanceOf(ids.skuCode);

    const page = await signedInAs(browser, server, ADMIN.loginAccount, ADMIN.password);
    await openEnginePage(page, server, '/page/cycleCount', 'cycleCount');
    // The list is read-only (no add), yet the ticket's own actions are offered.
    expect(await toolbar(page, 'cycleCount').getByTestId('engine-add').count()).toBe(0);
    await grid(page, 'cycleCount').locator('#engine_search_cycleCount_ticket_no').fill(made.ticketNo);
    await grid(page, 'cycleCount').getByTestId('engine-search-submit').click();
    await eventually(() => rowTexts(page, 'cycleCount')).toEqual([expect.stringContaining(made.ticketNo)]);
    await selectFirstEngineRow(page, 'cycleCount');
    await eventually(() => toolbar(page, 'cycleCount').getByTestId('engine-behaviour-approve').isEnabled()).toBe(true);
    await runAction(page, 'cycleCount', 'approve');
    await eventually(async () => (await rowTexts(page, 'cycleCount'))[0] ?? '').toMatch(/Approved/i);
    expect(await balanceOf(ids.skuCode)).toBe(before + variance);
    await page.close();
  });

  it("home's open work opens its list: a status chip shows the orders of that status only", async () => {
    const page = await signedInAs(browser, server, ADMIN.loginAccount, ADMIN.password);
    await page.goto(`${server.url}#/page/home`);
    const chip = page.getByTestId('home-chip-order-new');
    await chip.waitFor({ timeout: 30_000 });
    const count = Number(/(\d+)\s*$/.exec(await chip.innerText())?.[1]);
    expect(count).toBeGreaterThan(0);
    await chip.click();
    await page.waitForURL(/#\/page\/so$/);
    const fresh = await apiCall<{ rows: { order_no: string }[] }>(server, adminToken, '/generic/selection', {
      moduleCode: 'outbound',
      functionCode: 'so',
      page: 1,
      pageSize: 100,
      conditions: { combinator: 'and', rules: [{ field: 'status', operator: '=', value: 'new' }] },
    });
    expect(fresh.rows).toHaveLength(count);
    await eventually(async () => (await rowTexts(page, 'so')).map((text) => text.split('\n')[0]).sort()).toEqual(fresh.rows.map((row) => row.order_no).sort());
    // The count of a kind opens its whole list.
    await page.goto(`${server.url}#/page/home`);
    await page.getByTestId('home-work-order').click();
    await page.waitForURL(/#\/page\/so$/);
    await page.close();
  });

  it('the balance, the standard balance as of yesterday and the transaction log of today agree', async () => {
    const page = await signedInAs(browser, server, ADMIN.loginAccount, ADMIN.password);

    // Balance page: on hand of the SKU, summed over its locations.
    await openEnginePage(page, server, '/page/balance', 'balance');
    await grid(page, 'balance').locator('#engine_search_balance_sku_code').fill(ids.skuCode);
    await grid(page, 'balance').getByTestId('engine-search-submit').click();
    await eventually(() => rowTexts(page, 'balance').then((r) => r.length)).toBeGreaterThan(0);
    const onHandColumn = await grid(page, 'balance').locator('.ag-header-cell', { hasText: 'On hand' }).first().getAttribute('col-id');
    const cells = async () => (await grid(page, 'balance').locator(`.ag-row .ag-cell[col-id="${onHandColumn}"]`).allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
    await eventually(async () => (await cells()).reduce((a, b) => a + b, 0)).toBe(await balanceOf(ids.skuCode));
    const balance = (await cells()).reduce((a, b) => a + b, 0);
    expect(balance).toBeGreaterThan(0);

    // Standard balance as of the end of yesterday, computed from the ledger.
    await page.goto(`${server.url}#/page/stdBalanceReport`);
    await page.getByTestId('std-balance-screen').waitFor();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.getByTestId('std-balance-as-of').fill(yesterday);
    await page.getByTestId('std-balance-sku').fill(ids.skuCode);
    // The notification bell keeps a stream open, so the page is never network-idle: wait for the answer.
    const answered = page.waitForResponse((response) => response.url().includes('/inventory/getSTDBalanceList'));
    await page.getByTestId('std-balance-search').click();
    await answered;
    await eventually(() => page.locator('[data-testid="std-balance-table"] .ant-table-tbody tr.ant-table-row, [data-testid="std-balance-table"] .ant-table-tbody tr.ant-table-placeholder').count()).toBeGreaterThan(0);
    const stdRows = await page.locator('[data-testid="std-balance-table"] .ant-table-tbody tr.ant-table-row').allInnerTexts();
    const asOfYesterday = stdRows.length === 0 ? 0 : stdRows.map((r) => Number(r.split('\t')[6])).reduce((a, b) => a + b, 0);

    // Transaction log from today to tomorrow (whatever the warehouse's time zone, every row after
    // the end of yesterday is in it), every type, for the SKU: what changed since.
    await page.goto(`${server.url}#/page/transaction`);
    await page.getByTestId('transaction-log-screen').waitFor();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await page.getByTestId('transaction-log-from').fill(day(0));
    await page.getByTestId('transaction-log-to').fill(day(1));
    // The period is required: without its start the server refuses, and the popup names the field.
    await page.getByTestId('transaction-log-sku').fill(ids.skuCode);
    await page.getByTestId('transaction-log-from').fill('');
    await page.getByTestId('transaction-log-search').click();
    expect(await popupText(page)).toMatch(/Some fields are not valid\.\s+from is required\./);
    await page.getByTestId('transaction-log-from').fill(day(0));
    // The type starts as all types: a search needs no choice of it.
    expect(await page.locator('[data-testid="transaction-log-type"]').innerText()).toContain('All types');
    await page.getByTestId('transaction-log-search').click();
    await eventually(() => page.locator('[data-testid="transaction-log-table"] .ant-table-tbody tr.ant-table-row').count()).toBeGreaterThan(0);
    const qtyIndex = (await page.locator('[data-testid="transaction-log-table"] thead th').allInnerTexts()).findIndex((t) => t.trim() === 'Qty');
    const qtys = await page.locator(`[data-testid="transaction-log-table"] .ant-table-tbody tr.ant-table-row td:nth-child(${qtyIndex + 1})`).allInnerTexts();
    const today = qtys.map((q) => Number(q)).reduce((a, b) => a + b, 0);
    // Moves inside the warehouse net to zero; what was there plus what changed since is the balance.
    expect(asOfYesterday + today).toBe(balance);
  });
});

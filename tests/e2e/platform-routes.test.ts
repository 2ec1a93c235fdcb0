/**
 * Account, designer, notification, support and home features in Chromium, each used by a user who
 * holds only the right it needs: the time zone and "sign out of every session" in the user menu,
 * the designer's module list and audit trail, an administrator's message to users from the
 * notification bell, a note on a support ticket and a ticket opened from its link, and the open
 * inventory documents on the home page.
 */
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { apiCall, apiSignIn, eventually, tokenSignedInPage, useServerAndBrowser, type E2eServer } from '../helpers/browser.js';

interface Scope {
  project: { id: number };
  warehouse: { id: number };
}

const PASSWORD = 'Pl4tform!Passw0rd';

/** A role of these permissions and a user holding only it, in the administrator's project and warehouse. */
async function userWith(
  server: E2eServer,
  adminToken: string,
  loginAccount: string,
  permissions: unknown[],
  organizationIds: number[] = [],
  verbs: string[] = [],
): Promise<{ uid: number; account: { loginAccount: string; password: string } }> {
  const status = await apiCall<Scope>(server, adminToken, '/user/status');
  const role = await apiCall<{ id: number }>(server, adminToken, '/role', { name: `${loginAccount} role`, permissions });
  for (const right of verbs) {
    await apiCall(server, adminToken, '/generic/adding', { moduleCode: 'identity', functionCode: 'roleVerb', record: { role_id: role.id, right_code: right } });
  }
  const { uid } = await apiCall<{ uid: number }>(server, adminToken, '/user/save', {
    loginAccount,
    displayName: `${loginAccount} user`,
    password: PASSWORD,
    organizationIds,
    projectIds: [status.project.id],
    warehouseIds: [status.warehouse.id],
    defaultProjectId: status.project.id,
    defaultWarehouseId: status.warehouse.id,
    roleIds: [role.id],
  });
  return { uid, account: { loginAccount, password: PASSWORD } };
}

async function home(page: Page): Promise<void> {
  try {
    await page.getByTestId('home-screen').waitFor({ timeout: 60_000 });
  } catch (error) {
    const shown = await page.evaluate(() => ({ url: location.href, text: document.body.innerText.slice(0, 1500) }));
    throw new Error(`no home page; the page showed ${JSON.stringify(shown)}`, { cause: error });
  }
}

async function userMenu(page: Page, label: string): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.locator('.ant-dropdown-menu-item').filter({ hasText: label }).last().click();
}

/** A browser context of its own, signed in as `account` with a session of its own, on `route`. */
function signedIn(browser: Browser, server: E2eServer, account: { loginAccount: string; password: string }, route: string): Promise<Page> {
  return tokenSignedInPage(browser, server, account, route, { logToasts: true });
}

/** The answer's status code of one call with a session token. */
async function statusOf(server: E2eServer, token: string, urlPath: string): Promise<number> {
  const response = await fetch(new URL(`api${urlPath}`, server.url), { headers: { authorization: `Bearer ${token}` } });
  return response.status;
}

describe('platform features on their screens', () => {
  const ctx = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }));
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await apiSignIn(ctx.server);
  });

  it('a user chooses his time zone and signs out of every session from the user menu, after confirming', async () => {
    const { server } = ctx;
    const { account } = await userWith(server, adminToken, `tz-clerk-${Date.now().toString(36)}`, [{ module: 'masterdata', view: true }]);
    const otherSession = await apiSignIn(server, account);
    const page = await signedIn(ctx.browser, server, account, '/page/home');
    await home(page);

    await userMenu(page, 'Time zone');
    const dialog = page.locator('.ant-modal').filter({ hasText: 'Your time zone' });
    // The search is typed into the select's own input, wherever the focus is while the dialog
    // opens; typing opens the list filtered to the name, and the choice is taken once it is offered.
    const select = dialog.getByTestId('time-zone-select');
    await select.locator('.ant-select-selection-search-input').fill('Asia/Tokyo');
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="Asia/Tokyo"]');
    await eventually(() => option.count()).toBe(1);
    await option.click();
    await eventually(() => select.locator('.ant-select-selection-item').innerText()).toBe('Asia/Tokyo');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await eventually(() => apiCall<{ user: { timeZone: string } }>(server, otherSession, '/user/status').then((s) => s.user.timeZone)).toBe('Asia/Tokyo');
    await eventually(() => page.getByTestId('home-screen').innerText()).toContain('Time zone Asia/Tokyo');

    // Cancelling the confirmation keeps every session.
    await userMenu(page, 'Sign out of every session');
    await page.locator('.wms-popup-confirm .wms-popup-content').filter({ hasText: 'every device' }).waitFor();
    await page.locator('.wms-popup-confirm .wms-popup-cancel').click();
    await page.locator('.wms-popup-confirm').waitFor({ state: 'detached' });
    expect(await statusOf(server, otherSession, '/user/status')).toBe(200);

    await userMenu(page, 'Sign out of every session');
    await page.locator('.wms-popup-confirm .wms-popup-ok').click();
    await page.locator('#login_loginAccount').waitFor();
    // The session in the other browser has ended too.
    expect(await statusOf(server, otherSession, '/user/status')).toBe(401);
    await page.context().close();
  });

  it('a user who may only view page definitions narrows the designer to a module and reads its audit trail', async () => {
    const { server } = ctx;
    // The administrator copies a shipped page: the audit trail records who did it.
    await apiCall(server, adminToken, '/generic/copy', {
      from: { moduleCode: 'masterdata', functionCode: 'codeMaster' },
      to: { moduleCode: 'masterdata', functionCode: 'codeMasterCopy' },
      withSubPages: false,
      publish: false,
    });
    const { account } = await userWith(server, adminToken, 'designer-viewer', [{ module: 'generic', view: true }]);
    const token = await apiSignIn(server, account);
    const modules = (await apiCall<{ modules: Array<{ moduleCode: string; pages: number }> }>(server, token, '/generic/modules')).modules;
    const masterdata = modules.find((m) => m.moduleCode === 'masterdata');
    expect(masterdata?.pages).toBeGreaterThan(1);

    const page = await signedIn(ctx.browser, server, account, '/page/generic');
    await page.waitForSelector('[data-designer-root]', { timeout: 60_000 });
    await page.getByTestId('designer-module').click();
    await page.locator('.ant-select-item-option').filter({ hasText: `masterdata (${masterdata?.pages} pages)` }).click();
    const pages = page.getByTestId('designer-pages');
    await eventually(() => pages.locator('.ant-menu-submenu-title').allInnerTexts()).toEqual([`masterdata (${masterdata?.pages})`]);

    await page.getByTestId('designer-audit').click();
    const trail = page.getByTestId('designer-audit-list');
    await eventually(() => trail.locator('tbody').innerText()).toContain('masterdata/codeMasterCopy');
    const row = trail.locator('tbody tr', { hasText: 'masterdata/codeMasterCopy' });
    expect(await row.innerText()).toContain('Copied');
    expect(await row.innerText()).toContain(ADMIN.loginAccount);
    await page.context().close();
  });

  it('an administrator sends a message to chosen users from the notification bell', async () => {
    const { server } = ctx;
    const { account } = await userWith(server, adminToken, 'message-reader', [{ module: 'masterdata', view: true }]);
    const readerToken = await apiSignIn(server, account);

    // Only an administrator is offered the dialog.
    const reader = await signedIn(ctx.browser, server, account, '/page/home');
    await home(reader);
    await eventually(() => reader.getByTestId('notification-bell').getAttribute('data-unread')).toBe('0');
    await reader.getByTestId('notification-bell').click();
    await reader.getByTestId('notification-panel').waitFor();
    expect(await reader.getByTestId('notification-send-open').count()).toBe(0);
    await reader.context().close();

    const page = await signedIn(ctx.browser, server, ADMIN, '/page/home');
    await home(page);
    await eventually(() => page.getByTestId('notification-bell').getAttribute('data-unread')).not.toBeNull();
    await page.getByTestId('notification-bell').click();
    await page.getByTestId('notification-send-open').click();
    const dialog = page.getByTestId('notification-send');
    // Nothing is sent without a recipient and a subject.
    await dialog.getByRole('button', { name: 'Send' }).click();
    await eventually(() => dialog.locator('.ant-form-item-explain-error').count()).toBe(2);
    await dialog.getByTestId('notification-send-recipients').click();
    await page.keyboard.type('message-reader');
    await page.locator('.ant-select-item-option').filter({ hasText: 'message-reader' }).click();
    await dialog.getByTestId('notification-send-subject').fill('Stocktake on Friday');
    await dialog.getByTestId('notification-send-text').fill('The warehouse closes at 14:00.');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    const latest = await apiCall<{ items: Array<{ title: string; body: string | null; category: string }> }>(server, readerToken, '/notification/latest');
    expect(latest.items).toEqual([expect.objectContaining({ title: 'Stocktake on Friday', body: 'The warehouse closes at 14:00.', category: 'message' })]);
    await page.context().close();
  });

  it('a ticket opens from its link and takes a note on its log', async () => {
    const { server } = ctx;
    const { project } = await apiCall<Scope>(server, adminToken, '/user/status');
    const projects = await apiCall<Array<{ id: number; organizationId: number }>>(server, adminToken, '/generic/support/getProjects');
    const organizationId = projects.find((p) => p.id === project.id)!.organizationId;
    const { account } = await userWith(server, adminToken, 'support-user', [{ module: 'support', view: true, add: true }], [organizationId]);
    const token = await apiSignIn(server, account);
    const ticket = await apiCall<{ id: number; number: string }>(server, token, '/generic/support/sendSupport', {
      organizationId,
      projectId: project.id,
      subject: 'Label printer jams',
      message: 'The printer at pack station 2 jams on every third label.',
    });

    const page = await signedIn(ctx.browser, server, account, `/page/support?ticket=${ticket.number}`);
    const drawer = page.getByTestId('support-detail');
    await drawer.waitFor({ timeout: 60_000 });
    await eventually(() => drawer.getByTestId('support-messages').innerText()).toContain('jams on every third label');
    expect(await drawer.getByTestId('support-link').innerText()).toContain(`#/page/support?ticket=${ticket.number}`);

    await drawer.getByTestId('support-note').fill('Called the printer vendor');
    await drawer.getByTestId('support-save-note').click();
    await eventually(() => drawer.getByTestId('support-log').innerText()).toContain('note: Called the printer vendor');
    const log = await apiCall<Array<{ action: string; by: string; details: { note?: string } | null }>>(server, token, '/generic/support/getLog', { ticketId: ticket.id });
    expect(log).toContainEqual(expect.objectContaining({ action: 'note', by: 'support-user', details: { note: 'Called the printer vendor' } }));
    // This user may add but not edit: there is no Close button to refuse him.
    expect(await drawer.locator('button', { hasText: /^Close$/ }).count()).toBe(0);
    await page.context().close();

    // A user who answers the project's tickets but may only view them reads it, is offered no
    // message, note or close, and stays signed in.
    const { account: reader } = await userWith(server, adminToken, 'support-reader', [{ module: 'support', view: true }], [organizationId], ['support.ticket:answer']);
    const readerPage = await signedIn(ctx.browser, server, reader, `/page/support?ticket=${ticket.number}`);
    const readerDrawer = readerPage.getByTestId('support-detail');
    await readerDrawer.waitFor({ timeout: 60_000 });
    await eventually(() => readerDrawer.getByTestId('support-log').innerText()).toContain('note: Called the printer vendor');
    expect(await readerDrawer.getByTestId('support-note').count()).toBe(0);
    expect(await readerDrawer.getByTestId('support-send-message').count()).toBe(0);
    expect(readerPage.url()).toContain('/page/support');
    await readerPage.context().close();
  });

  it('the home page shows the open inventory documents to a user who may see the inventory, and not to others', async () => {
    const { server } = ctx;
    const added = await apiCall<{ row: { _key: number } }>(server, adminToken, '/generic/adding', { moduleCode: 'inventory', functionCode: 'invAdjust', record: {} });
    expect(added.row._key).toBeGreaterThan(0);
    const { account } = await userWith(server, adminToken, 'stock-viewer', [{ module: 'inventory', subModule: 'balance', view: true }]);
    const token = await apiSignIn(server, account);
    const open = await apiCall<{ documents: Array<{ docType: string; status: string; count: number }> }>(server, token, '/inventory/msg');
    const adjustments = open.documents.filter((d) => d.docType === 'adjust').reduce((sum, d) => sum + d.count, 0);
    expect(adjustments).toBeGreaterThan(0);

    const page = await signedIn(ctx.browser, server, account, '/page/home');
    await home(page);
    const card = page.getByTestId('home-open-work');
    await card.getByTestId('home-work-invAdjust').waitFor({ timeout: 60_000 });
    const statistic = card.locator('.ant-statistic', { has: page.getByTestId('home-work-invAdjust') });
    expect(await statistic.locator('.ant-statistic-content').innerText()).toBe(String(adjustments));
    expect(await card.getByTestId('home-chip-invAdjust-new').innerText()).toContain('New');
    await page.context().close();

    // A user without the inventory right sees no inventory documents and no error.
    const { account: other } = await userWith(server, adminToken, 'no-stock', [{ module: 'masterdata', view: true }]);
    const otherPage = await signedIn(ctx.browser, server, other, '/page/home');
    await home(otherPage);
    const asked: string[] = [];
    otherPage.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await otherPage.getByTestId('home-screen').getByRole('button', { name: 'Refresh' }).click();
    await eventually(() => asked.filter((path) => path === '/api/home/summary').length).toBe(1);
    await eventually(() => otherPage.getByTestId('home-open-work').locator('.ant-skeleton').count()).toBe(0);
    expect(asked).not.toContain('/api/inventory/msg');
    expect(await otherPage.getByTestId('home-work-invAdjust').count()).toBe(0);
    expect(await otherPage.locator('.wms-popup').count()).toBe(0);
    // Still signed in, on the home page.
    expect(new URL(otherPage.url()).hash).toBe('#/page/home');
    await otherPage.getByTestId('user-menu').waitFor();
    await otherPage.context().close();
  });
});

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { apiCall, apiLogin as login, releaseBrowser, sharedBrowser, startE2eServer, tokenSignedInPage, type E2eServer } from '../helpers/browser.js';
import { createTestDatabase, onRealServer, type TestDatabase } from '../helpers/database.js';
import { spawnServer, tempDataDir, type ServerProcess } from '../helpers/server-process.js';

const CLERK = { loginAccount: 'notice-clerk', password: 'N0tice!Passw0rd' };

/** A browser context of its own (another browser, as far as the app can tell), signed in on the home page. */
async function signedInBrowser(browser: Browser, server: E2eServer, account: { loginAccount: string; password: string }): Promise<{ context: BrowserContext; page: Page }> {
  const page = await tokenSignedInPage(browser, server, account, '/page/home', { viewport: { width: 1280, height: 720 } });
  await page.locator('[data-tab-route="/home"]').waitFor();
  return { context: page.context(), page };
}

const unreadOf = (page: Page) => page.getByTestId('notification-bell').getAttribute('data-unread');

/**
 * Notifications in the browser ("notification display"): a notification raised for
 * a user appears in that user's open browser without a reload, is grouped under today, and moves
 * from unread to read when clicked; the list behind "view more" pages through all of them.
 */
describe('notification bell', () => {
  let server: E2eServer;
  let browser: Browser;
  let adminToken: string;
  let clerkUid: number;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await sharedBrowser();
    adminToken = (await login(server, ADMIN)).token;
    const role = await apiCall<{ id: number }>(server, adminToken, '/role', { name: 'notice clerks', permissions: [{ module: 'masterdata', view: true }] });
    clerkUid = (
      await apiCall<{ uid: number }>(server, adminToken, '/user/save', {
        loginAccount: CLERK.loginAccount,
        displayName: 'Notice clerk',
        password: CLERK.password,
        organizationIds: [1],
        projectIds: [1],
        warehouseIds: [1],
        defaultProjectId: 1,
        defaultWarehouseId: 1,
        roleIds: [role.id],
      })
    ).uid;
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
  });

  it('shows a notification raised elsewhere in the other open browser at once, and marks it read on click', async () => {
    const admin = await signedInBrowser(browser, server, ADMIN);
    const clerk = await signedInBrowser(browser, server, CLERK);
    await expect.poll(() => unreadOf(clerk.page)).toBe('0');
    await expect.poll(() => unreadOf(admin.page)).toBe('0');

    await apiCall(server, adminToken, '/notification/send', { userIds: [clerkUid], title: 'Dock 3 is free', body: 'Trailer left at 10:05', link: 'home' });
    await expect.poll(() => unreadOf(clerk.page)).toBe('1');
    // Only the addressee's bell rings.
    expect(await unreadOf(admin.page)).toBe('0');

    await clerk.page.getByTestId('notification-bell').click();
    const item = clerk.page.getByTestId('notification-panel').getByTestId('notification-item').filter({ hasText: 'Dock 3 is free' });
    await expect.poll(() => item.getAttribute('data-read')).toBe('false');
    expect(await clerk.page.locator('[data-testid="notification-panel"] section[data-group="today"]').getByTestId('notification-item').count()).toBe(1);
    await item.click();
    await expect.poll(() => unreadOf(clerk.page)).toBe('0');
    await clerk.page.getByTestId('notification-bell').click();
    await expect.poll(() => item.getAttribute('data-read')).toBe('true');
    await clerk.page.keyboard.press('Escape');

    await admin.context.close();
    await clerk.context.close();
  });

  it('tells the administrator in his open browser when a job fails, without reload', async () => {
    const admin = await signedInBrowser(browser, server, ADMIN);
    await expect.poll(() => unreadOf(admin.page)).toBe('0');
    // A purge job with a parameter it refuses, no retries: its run fails at once.
    const added = await apiCall<{ row: { _key: number } }>(server, adminToken, '/generic/adding', {
      moduleCode: 'job',
      functionCode: 'job',
      record: { name: 'Purge with a bad parameter', handler: 'auth.purgeExpired', cron_expression: '0 0 3 ? * MON-FRI', business_type: 'TEST', retry_limit: 0, retry_delay_seconds: 1 },
    });
    await apiCall(server, adminToken, '/generic/adding', { moduleCode: 'job', functionCode: 'jobParam', record: { job_id: added.row._key, name: 'keepDays', value: 'many', seq: 1 } });
    await apiCall(server, adminToken, '/manual/schedule', { id: added.row._key });
    await expect.poll(() => unreadOf(admin.page)).toBe('1');
    await admin.page.getByTestId('notification-bell').click();
    const item = admin.page.getByTestId('notification-panel').getByTestId('notification-item').filter({ hasText: 'Purge with a bad parameter' });
    await expect.poll(() => item.getAttribute('data-read')).toBe('false');
    await item.click();
    await expect.poll(() => unreadOf(admin.page)).toBe('0');
    await admin.context.close();
  });

  it('works from the keyboard: mark all read, view more and the paged list', async () => {
    const clerk = await signedInBrowser(browser, server, CLERK);
    await expect.poll(() => unreadOf(clerk.page)).toBe('0');
    for (let i = 1; i <= 22; i += 1) await apiCall(server, adminToken, '/notification/send', { userIds: [clerkUid], title: `Wave ${i} released` });
    await expect.poll(() => unreadOf(clerk.page)).toBe('22');

    await clerk.page.getByTestId('notification-bell').focus();
    await clerk.page.keyboard.press('Enter');
    const panel = clerk.page.getByTestId('notification-panel');
    // The bell shows the latest ten, newest first; focus moves into the panel.
    await expect.poll(() => panel.getByTestId('notification-item').count()).toBe(10);
    expect(await panel.getByTestId('notification-item').first().innerText()).toContain('Wave 22 released');
    await expect.poll(() => clerk.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('notification-mark-all');
    await clerk.page.keyboard.press('Enter');
    await expect.poll(() => unreadOf(clerk.page)).toBe('0');

    await panel.getByTestId('notification-view-more').focus();
    await clerk.page.keyboard.press('Enter');
    const list = clerk.page.getByTestId('notification-list');
    await expect.poll(() => list.getByTestId('notification-item').count()).toBe(20);
    await list.locator('.ant-pagination-item-2').click();
    // 22 messages and the one of the first test.
    await expect.poll(() => list.getByTestId('notification-item').count()).toBe(3);
    expect(await list.getByTestId('notification-item').last().innerText()).toContain('Dock 3 is free');
    await clerk.context.close();
  });
});

/**
 * Two app nodes on one PostgreSQL database: a notification raised through
 * node A reaches a browser connected to node B. Needs the real server (TEST_DATABASE_URL).
 */
describe.skipIf(!onRealServer)('notification bell across two app nodes (real server only)', () => {
  let database: TestDatabase;
  const processes: ServerProcess[] = [];
  const nodes: E2eServer[] = [];
  let browser: Browser;

  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    // One after the other: the first migrates and seeds the database, the second finds it ready.
    for (let i = 0; i < 2; i += 1) {
      const dataDir = tempDataDir('wms-e2e-node-');
      const server = spawnServer({ DATABASE_URL: database.url!, DATA_DIR: dataDir, ADMIN_PASSWORD: ADMIN.password });
      processes.push(server);
      const url = await server.ready;
      nodes.push({ server, url, dataDir, stop: async () => void (await server.stop('SIGTERM')) });
    }
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    for (const server of processes) await server.stop('SIGTERM');
    await database?.close();
  });

  it('raises through node A and rings the bell of a browser on node B without a reload', async () => {
    const [a, b] = nodes;
    const adminToken = (await login(a, ADMIN)).token;
    const adminUid = (await database.db.selectFrom('app_user').select('id').where('login_account', '=', ADMIN.loginAccount).executeTakeFirstOrThrow()).id;
    const onB = await signedInBrowser(browser, b, ADMIN);
    await expect.poll(() => unreadOf(onB.page)).toBe('0');
    await apiCall(a, adminToken, '/notification/send', { userIds: [adminUid], title: 'Raised on node A' });
    await expect.poll(() => unreadOf(onB.page)).toBe('1');
    await onB.page.getByTestId('notification-bell').click();
    const item = onB.page.getByTestId('notification-panel').getByTestId('notification-item').filter({ hasText: 'Raised on node A' });
    await item.click();
    await expect.poll(() => unreadOf(onB.page)).toBe('0');
    await onB.context.close();
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { REDUCED_MOTION, freshPage, releaseBrowser, sharedBrowser, openPage, startE2eServer, type E2eServer } from '../helpers/browser.js';
import { ROUTE_TABLE } from '../helpers/route-table.js';
import { MOUNTED_TABS } from '../../src/app/shell/mounted-tabs.js';
import { localeBranch, localeText } from '../helpers/locales.js';

type Titles = Record<string, string>;
const EN_TITLES = localeBranch('en', 'ui.shell.route') as Titles;

/** Signs in through the real sign-in form and answers the session's token. */
async function signIn(page: Page, server: E2eServer): Promise<string> {
  await page.goto(`${server.url}#/login`);
  await page.locator('#login_loginAccount').fill(ADMIN.loginAccount);
  await page.locator('#login_password').fill(ADMIN.password);
  await page.locator('form[id="login"] button[type="submit"]').click();
  await page.waitForURL(/#\/page\/home$/);
  // The home tab registers once the shell has rendered; tests that move on from it need it there.
  await page.locator('[data-tab-route="/home"]').waitFor();
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  if (!token) throw new Error('the sign-in stored no token');
  return token;
}

/**
 * A page of a browser that has not signed in yet, signed in through the form on `route`. It comes
 * from `freshPage`, so each test closes it when done.
 */
async function signedInPage(browser: Browser, server: E2eServer, route = '/page/home'): Promise<{ page: Page; token: string }> {
  const page = await freshPage(browser, server);
  const token = await signIn(page, server);
  if (route !== '/page/home') await page.goto(`${server.url}#${route}`);
  return { page, token };
}

type Tree = { [key: string]: string | Tree };

/** Every text of ours in English with its Simplified Chinese twin (placeholders cut off). */
function englishAndChinese(): [string, string][] {
  const pairs: [string, string][] = [];
  const walk = (a: Tree, b: Tree) => {
    for (const [key, value] of Object.entries(a)) {
      const twin = b[key];
      if (typeof value === 'string' && typeof twin === 'string') pairs.push([value.split('{{')[0].trim(), twin.split('{{')[0].trim()]);
      else if (typeof value !== 'string' && typeof twin !== 'string') walk(value, twin);
    }
  };
  const texts = (language: 'en' | 'zh'): Tree => ({
    appName: localeText(language, 'ui.appName'),
    shell: localeBranch(language, 'ui.shell'),
    home: localeBranch(language, 'ui.home'),
    popup: localeBranch(language, 'ui.popup'),
  });
  walk(texts('en'), texts('zh'));
  return pairs;
}

function hashOf(page: Page): string {
  return new URL(page.url()).hash;
}

async function openUserMenu(page: Page, ...path: string[]) {
  await page.getByTestId('user-menu').click();
  for (const [i, label] of path.entries()) {
    const item = page.locator('.ant-dropdown-menu-item, .ant-dropdown-menu-submenu-title').filter({ hasText: label }).last();
    if (i < path.length - 1) await item.hover();
    else await item.click();
  }
}

describe('application shell in Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startE2eServer();
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
  });

  describe('routes and guard', () => {
    it('sends a visitor without a token from a guarded route to / and so to /login', async () => {
      for (const route of ['/page/sku', '/page', '/previewImgFile']) {
        const page = await openPage(browser, server.url, route);
        await page.waitForURL(/#\/login$/);
        await page.close();
      }
    });

    it('sends unknown paths to /notfound', async () => {
      const page = await openPage(browser, server.url, '/no/such/screen');
      await page.waitForURL(/#\/notfound$/);
      await page.close();
    });

    it('opens the public laundry routes without a token', async () => {
      const page = await openPage(browser, server.url, '/moose/washing');
      // No session: the laundry screen asks for its device key (docs/laundry.md).
      await page.getByTestId('laundry-key-entry').waitFor();
      expect(hashOf(page)).toBe('#/moose/washing');
      await page.close();
    });

    it('starts on /page with a token, except on /previewImgFile', async () => {
      const page = await freshPage(browser, server);
      await signIn(page, server);
      // A new start of the app on /login with the stored token goes to /page.
      await page.goto(`${server.url}#/login`);
      await page.reload();
      await page.waitForURL(/#\/page\/home$/);
      await page.getByTestId('home-screen').waitFor();
      await page.goto(`${server.url}#/previewImgFile`);
      await page.reload();
      await page.getByTestId('preview-screen').waitFor();
      expect(hashOf(page)).toBe('#/previewImgFile');
      await page.close();
    });

    it('opens every route of the /page table as a tab that names it, none of them blank', async () => {
      const { page } = await signedInPage(browser, server);
      await page.getByTestId('home-screen').waitFor();
      for (const { route } of ROUTE_TABLE.routes) {
        await page.goto(`${server.url}#/page/${route}`);
        const tab = page.locator(`[data-tab-route="/${route}"]`);
        await tab.waitFor();
        expect(await tab.textContent(), route).toBe(EN_TITLES[route]);
        const pane = page.locator(`[data-tab-pane="/${route}"]`);
        await pane.waitFor();
        await page.waitForFunction(
          (r) => !document.querySelector(`[data-tab-pane="/${r}"] [data-testid="screen-loading"]`),
          route,
          { timeout: 30_000 },
        );
        // A definition page may still be fetching; it must show something within a few seconds.
        const shown = await page
          .waitForFunction((r) => document.querySelector<HTMLElement>(`[data-tab-pane="/${r}"]`)?.innerText.trim(), route, { timeout: 15_000 })
          .then(() => true, () => false);
        expect(shown, `${route} is blank`).toBe(true);
        expect(await pane.locator('[data-testid="module-not-found"], [data-testid="screen-load-error"]').count(), route).toBe(0);
        const notAvailable = pane.locator('[data-testid="not-available"]');
        if (await notAvailable.count()) expect(await notAvailable.getAttribute('data-route')).toBe(`/${route}`);
        // A page whose calls fail shows the error popup (the product's answer to a failed call);
        // close it, then close the tab so that the keep-alive panes do not pile up.
        while (await page.locator('.wms-popup').count()) {
          await page.keyboard.press('Escape');
          await page.waitForTimeout(50);
        }
        if (route !== 'home') await page.locator('.ant-tabs-tab-active .ant-tabs-tab-remove').click();
      }
      await page.close();
    });

    it('shows the module-not-found error for an unknown screen under /page', async () => {
      const { page } = await signedInPage(browser, server, '/page/noSuchScreen');
      const error = page.getByTestId('module-not-found');
      await error.waitFor();
      expect(await error.innerText()).toContain(localeText('en', 'errors.MODULE_NOT_FOUND'));
      await page.close();
    });
  });

  describe('tabs', () => {
    it('keeps an inactive tab mounted and restores it unchanged', async () => {
      const { page } = await signedInPage(browser, server);
      const home = await page.getByTestId('home-screen').elementHandle({ timeout: 30_000 });
      await page.goto(`${server.url}#/page/wineOrder`);
      await page.locator('[data-tab-pane="/wineOrder"] [data-testid="wizard-wine"]').waitFor();
      await home.waitForElementState('hidden');
      await page.locator('[data-tab-route="/home"]').click();
      await page.waitForURL(/#\/page\/home$/);
      // The same element, not a new one: the tab was kept alive, with whatever state it had.
      expect(await home.evaluate((e) => e.isConnected)).toBe(true);
      await home.waitForElementState('visible');
      await page.close();
    });

    it('keeps a filter typed into a page while the user works in another tab', async () => {
      const { page } = await signedInPage(browser, server, '/page/sku');
      const input = page.locator('[data-tab-pane="/sku"] input:not([type]), [data-tab-pane="/sku"] input[type="text"]').first();
      await input.waitFor({ timeout: 30_000 });
      await input.fill('KEEP-ME');
      await page.locator('[data-tab-route="/home"]').click();
      await page.waitForURL(/#\/page\/home$/);
      await input.waitFor({ state: 'hidden' });
      await page.locator('[data-tab-route="/sku"]').click();
      await page.waitForURL(/#\/page\/sku$/);
      await input.waitFor({ state: 'visible' });
      expect(await input.inputValue()).toBe('KEEP-ME');
      await page.close();
    });

    it('keeps the tabs used last mounted and loads an older one again when chosen', async () => {
      const { page } = await signedInPage(browser, server, '/page/sku');
      const input = page.locator('[data-tab-pane="/sku"] input:not([type]), [data-tab-pane="/sku"] input[type="text"]').first();
      await input.waitFor({ timeout: 30_000 });
      await input.fill('OLDEST-TAB');
      // sku is now the least recently used of the open tabs: opening MOUNTED_TABS more unmounts it.
      const others = ROUTE_TABLE.routes.map((r) => r.route).filter((r) => r !== 'sku' && r !== 'home').slice(0, MOUNTED_TABS);
      for (const route of others) {
        await page.goto(`${server.url}#/page/${route}`);
        await page.locator(`[data-tab-pane="/${route}"]`).waitFor({ state: 'attached' });
      }
      expect(await page.locator('[data-tab-pane]').count()).toBe(MOUNTED_TABS);
      expect(await page.locator('[data-tab-pane="/sku"]').count()).toBe(0);
      // Its tab stays open (the tab bar lists it among the overflow); chosen again, the page loads afresh.
      expect(await page.locator('[data-tab-route="/sku"]').count()).toBe(1);
      await page.goto(`${server.url}#/page/sku`);
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      expect(await input.inputValue()).toBe('');
      expect(await page.locator('[data-tab-pane]').count()).toBe(MOUNTED_TABS);
      await page.close();
    });

    it('closes all tabs after a confirm, which Escape cancels', async () => {
      const { page } = await signedInPage(browser, server, '/page/asn');
      await page.locator('[data-tab-route="/asn"]').waitFor();
      await page.goto(`${server.url}#/page/so`);
      await page.locator('[data-tab-route="/so"]').waitFor();
      await page.getByTestId('tab-actions').click();
      await page.locator('.ant-dropdown-menu-item').filter({ hasText: localeText('en', 'ui.shell.tabs.closeAll') }).click();
      const confirm = page.locator('.wms-popup-confirm');
      await confirm.waitFor();
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
      expect(await page.locator('[data-tab-route]').count()).toBeGreaterThanOrEqual(2);
      await page.getByTestId('tab-actions').click();
      await page.locator('.ant-dropdown-menu-item').filter({ hasText: localeText('en', 'ui.shell.tabs.closeAll') }).click();
      await page.locator('.wms-popup-confirm .wms-popup-ok').click();
      // With no tab left the shell opens the home page again.
      await page.waitForURL(/#\/page\/home$/);
      await expect.poll(() => page.locator('[data-tab-route]').allTextContents()).toEqual([EN_TITLES.home]);
      await page.close();
    });
  });

  describe('menu and user menu', () => {
    it("opens a tab from the user's menu", async () => {
      const { page } = await signedInPage(browser, server);
      const nav = page.getByTestId('nav-left');
      await nav.locator('.ant-menu-submenu-title').nth(2).click();
      const entry = nav.locator('.ant-menu-sub .ant-menu-item:not(.ant-menu-item-disabled)').first();
      const label = (await entry.innerText()).trim();
      await entry.click();
      await page.waitForURL(/#\/page\/(?!home$)\w+$/);
      const route = hashOf(page).replace('#/page/', '');
      expect(await page.locator(`[data-tab-route="/${route}"]`).innerText()).toBe(label);
      await page.close();
    });

    it('keeps the header to one compact row on a phone, so a handheld screen keeps its height', async () => {
      const context = await browser.newContext({ ...REDUCED_MOTION, viewport: { width: 360, height: 640 } });
      const page = await context.newPage();
      try {
        await signIn(page, server);
        await page.goto(`${server.url}#/page/putaway`);
        await page.getByTestId('warehouse-switcher').waitFor();
        // The putaway tab is the handheld runtime (its sign-in for the shift, or its flow when signed in already).
        await page.locator('[data-testid="rf-sign-in"], [data-testid="rf-flow"]').first().waitFor({ timeout: 60_000 });
        const header = await page.locator('.ant-layout-header').boundingBox();
        expect(header!.height).toBeLessThanOrEqual(56);
        // Codes only in the switchers, nothing wider than the phone.
        expect(await page.getByTestId('warehouse-switcher').innerText()).toBe('WH1');
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
        // The folded menu's button sits in the header, not over the page's tab.
        const menuButton = (await page.locator('.ant-layout-sider-zero-width-trigger').boundingBox())!;
        expect(menuButton.y + menuButton.height).toBeLessThanOrEqual(header!.y + header!.height);
        const tab = (await page.locator('.ant-tabs-tab').first().boundingBox())!;
        expect(tab.y).toBeGreaterThanOrEqual(header!.y + header!.height);
        expect(await page.locator('.ant-tabs-tab').first().isVisible()).toBe(true);
        await page.locator('.ant-layout-sider-zero-width-trigger').click();
        await expect.poll(async () => (await page.getByTestId('sider').boundingBox())?.width).toBe(220);
      } finally {
        await context.close();
      }
    });

    it('simulates a user with a banner until the administrator releases it', async () => {
      const { page } = await signedInPage(browser, server);
      await page.getByTestId('home-screen').waitFor();
      await openUserMenu(page, localeText('en', 'ui.shell.user.simulate'));
      const dialog = page.locator('.ant-modal').filter({ hasText: localeText('en', 'ui.shell.simulate.title') });
      await dialog.waitFor();
      await page.getByTestId('simulate-user').click();
      await page.locator('.ant-select-item-option').filter({ hasText: 'admin' }).first().click();
      await dialog.locator('.ant-btn-primary').click();
      const banner = page.getByTestId('simulation-banner');
      await banner.waitFor();
      expect(await banner.innerText()).toContain('admin');
      await banner.getByRole('button', { name: localeText('en', 'ui.shell.user.release') }).click();
      await banner.waitFor({ state: 'detached' });
      await page.close();
    });

    it('opens the account dialogs of the sign-in screens', async () => {
      const { page } = await signedInPage(browser, server);
      await page.getByTestId('home-screen').waitFor();
      await openUserMenu(page, localeText('en', 'ui.shell.user.changePassword'));
      const dialog = page.locator('.ant-modal-wrap:not(.wms-popup) .ant-modal');
      await dialog.waitFor();
      expect(await dialog.locator('input[type="password"]').count()).toBeGreaterThanOrEqual(2);
      await page.close();
    });
  });

  describe('popups', () => {
    it('shows a failing call in a popup on top of a dialog; overlay click and Enter do nothing, Escape closes only the popup', async () => {
      const { page, token } = await signedInPage(browser, server);
      await page.getByTestId('home-screen').waitFor();
      await page.evaluate(() => {
        (window as unknown as { enterReached: number }).enterReached = 0;
        window.addEventListener('keydown', (e) => {
          if (e.key === 'Enter') (window as unknown as { enterReached: number }).enterReached += 1;
        });
      });
      await openUserMenu(page, localeText('en', 'ui.shell.user.simulate'));
      const dialog = page.locator('.ant-modal').filter({ hasText: localeText('en', 'ui.shell.simulate.title') });
      await dialog.waitFor();
      await page.getByTestId('simulate-user').click();
      await page.locator('.ant-select-item-option').filter({ hasText: 'admin' }).first().click();
      // Meanwhile the same session starts simulating elsewhere, so the server refuses this one:
      // a real failing call, answered in the error popup.
      const elsewhere = await fetch(`${server.url}api/user/simulate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ uid: 1 }),
      });
      expect(elsewhere.status).toBe(200);
      await dialog.locator('.ant-btn-primary').click();
      const popup = page.locator('.wms-popup-message');
      await popup.waitFor();
      expect((await popup.locator('[data-popup-type]').getAttribute('data-popup-type'))).toBe('error');
      expect((await popup.locator('.wms-popup-content').innerText()).length).toBeGreaterThan(0);
      // The overlay neither closes the popup nor lets a click through to the background.
      await page.mouse.click(5, 5);
      expect(await popup.count()).toBe(1);
      await page.keyboard.press('Enter');
      expect(await popup.count()).toBe(1);
      expect(await page.evaluate(() => (window as unknown as { enterReached: number }).enterReached)).toBe(0);
      await page.keyboard.press('Escape');
      await popup.waitFor({ state: 'detached' });
      expect(await dialog.isVisible()).toBe(true);
      await page.close();
      await fetch(`${server.url}api/user/release`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    });
  });

  describe('languages', () => {
    it('switches every shell text and the open page, saves the choice and keeps it after a reload', async () => {
      const { page } = await signedInPage(browser, server);
      await page.getByTestId('home-screen').waitFor();
      expect(await page.getByTestId('app-name').innerText()).toBe(localeText('en', 'ui.appName'));
      await openUserMenu(page, localeText('en', 'ui.shell.user.language'), '简体中文');
      await page.waitForFunction((text) => document.querySelector('[data-testid="app-name"]')?.textContent === text, localeText('zh', 'ui.appName'));
      expect(await page.locator('[data-tab-route="/home"]').innerText()).toBe(localeText('zh', 'ui.shell.route.home'));
      expect(await page.getByTestId('home-open-work').innerText()).toContain(localeText('zh', 'ui.home.openWork'));
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      // No English text of the shell, the home page or the popups is left on the screen (once the
      // user menu has finished closing: while it fades out it still shows what was clicked).
      await page.waitForFunction(() => !document.querySelector('.ant-dropdown:not(.ant-dropdown-hidden)'));
      const body = await page.locator('body').innerText();
      for (const [text, chinese] of englishAndChinese()) if (text !== chinese && text.length > 3) expect(body, text).not.toContain(text);
      await page.reload();
      await page.waitForFunction((text) => document.querySelector('[data-testid="app-name"]')?.textContent === text, localeText('zh', 'ui.appName'));
      expect(await page.getByTestId('home-open-work').innerText()).toContain(localeText('zh', 'ui.home.openWork'));
      // Back to English for the other tests (the choice is the user's default on the server).
      await openUserMenu(page, localeText('zh', 'ui.shell.user.language'), 'English');
      await page.waitForFunction((text) => document.querySelector('[data-testid="app-name"]')?.textContent === text, localeText('en', 'ui.appName'));
      await page.close();
    });
  });

  describe('layout', () => {
    it('moves the menu from the left to the top and back', async () => {
      const { page } = await signedInPage(browser, server);
      await page.getByTestId('nav-left').waitFor();
      await openUserMenu(page, localeText('en', 'ui.shell.user.layout'), localeText('en', 'ui.shell.user.layoutTop'));
      await page.getByTestId('nav-top').waitFor();
      expect(await page.getByTestId('nav-left').count()).toBe(0);
      await page.reload();
      await page.getByTestId('nav-top').waitFor();
      await openUserMenu(page, localeText('en', 'ui.shell.user.layout'), localeText('en', 'ui.shell.user.layoutLeft'));
      await page.getByTestId('nav-left').waitFor();
      expect(await page.getByTestId('nav-top').count()).toBe(0);
      await page.close();
    });
  });

  describe('session end', () => {
    it('lands on the sign-in page with the stored items cleared after a 401', async () => {
      const { page, token } = await signedInPage(browser, server);
      await page.getByTestId('home-screen').waitFor();
      expect(await page.evaluate(() => sessionStorage.getItem('activeMenu'))).toBe('home');
      // The session ends on the server; the next call of the page answers 401.
      const logout = await fetch(`${server.url}api/user/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect(logout.status).toBe(200);
      // The page's next call answers 401: the refresh clicked here, or the notification stream the
      // server closes at its next heartbeat once the session has ended, whichever comes first.
      const signIn = page.waitForURL(/#\/login$/);
      void page.getByRole('button', { name: localeText('en', 'ui.home.refresh') }).click().catch(() => undefined);
      await signIn;
      const stored = await page.evaluate(() => ({
        token: sessionStorage.getItem('token'),
        menu: sessionStorage.getItem('menu'),
        activeMenu: sessionStorage.getItem('activeMenu'),
        cookie: document.cookie,
      }));
      expect(stored).toEqual({ token: null, menu: null, activeMenu: null, cookie: '' });
      await page.close();
    });

    it('clears the session when the token cookie is gone', async () => {
      const { page } = await signedInPage(browser, server);
      await page.getByTestId('home-screen').waitFor();
      await page.evaluate(() => (document.cookie = 'token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/'));
      await page.waitForURL(/#\/login$/, { timeout: 15_000 });
      expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
      await page.close();
    });

    it('signs out after a confirm', async () => {
      const { page } = await signedInPage(browser, server);
      await page.getByTestId('home-screen').waitFor();
      await openUserMenu(page, localeText('en', 'ui.shell.user.signOut'));
      await page.locator('.wms-popup-confirm .wms-popup-ok').click();
      await page.waitForURL(/#\/login$/);
      expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
      await page.close();
    });
  });
});

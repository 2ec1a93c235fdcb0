import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { REDUCED_MOTION, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/** What a new user hits in the first hour, in Chromium against the built app. */
describe('the first hour in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({}), { freshServerOnRetry: true });

  /** A fresh browser context whose first page asks for `route` and signs in on the way, as a user would. */
  async function signedInAt(route: string) {
    const page = await signedInPage(e2e.browser, e2e.server, route, { viewport: { width: 1440, height: 900 } });
    return { context: page.context(), page };
  }

  it('lands on the page first asked for after sign-in, and a bookmark in a new tab needs no sign-in', async () => {
    const context = await e2e.browser.newContext(REDUCED_MOTION);
    try {
      const page = await context.newPage();
      await page.goto(`${e2e.server.url}#/page/loa`);
      await page.waitForURL(/#\/login/);
      await page.fill('#login_loginAccount', ADMIN.loginAccount);
      await page.fill('#login_password', ADMIN.password);
      await page.press('#login_password', 'Enter');
      await page.waitForURL(/#\/page\/loa/);
      await page.locator('[data-testid="engine-page"][data-function="loa"]').first().waitFor();

      // A bookmark opened in a new tab of the same browser: the token cookie restores the session.
      const bookmark = await context.newPage();
      await bookmark.goto(`${e2e.server.url}#/page/sku`);
      await bookmark.locator('[data-testid="engine-page"][data-function="sku"]').first().waitFor();
      expect(bookmark.url()).toMatch(/#\/page\/sku/);
      expect(await bookmark.locator('#login_password').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('a cookie alone authorizes nothing on the server', async () => {
    const login = await fetch(new URL('api/user/login', e2e.server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    const withCookie = await fetch(new URL('api/user/status', e2e.server.url), { headers: { cookie: `token=${token}` } });
    expect(withCookie.status).toBe(401);
    const withHeader = await fetch(new URL('api/user/status', e2e.server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(withHeader.status).toBe(200);
  });
  it('has a favicon, no frame around the app, and the grid paging bar in the user language', async () => {
    expect((await fetch(new URL('favicon.svg', e2e.server.url))).status).toBe(200);
    const login = (await (
      await fetch(new URL('api/user/login', e2e.server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) })
    ).json()) as { token: string; expiresAt: string };
    const auth = { authorization: `Bearer ${login.token}`, 'content-type': 'application/json' };
    await fetch(new URL('api/user/defaultLang', e2e.server.url), { method: 'PUT', headers: auth, body: JSON.stringify({ language: 'zh' }) });
    const context = await e2e.browser.newContext({ ...REDUCED_MOTION, viewport: { width: 1440, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${e2e.server.url}#/login`);
      await page.evaluate(({ token, expiresAt }) => {
        document.cookie = `token=${encodeURIComponent(token)}; expires=${new Date(expiresAt).toUTCString()}; path=/; SameSite=Strict`;
      }, login);
      await page.goto(`${e2e.server.url}#/page/loa`);
      const panel = page.locator('[data-testid="engine-page"][data-function="loa"] .ag-paging-panel').first();
      await panel.waitFor();
      await expect.poll(() => panel.innerText(), { timeout: 30_000 }).toContain('共');
      expect(await panel.innerText()).not.toMatch(/\bof\b|\bPage\b/);
      expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
      // The paging bar is on screen at 1440x900 without scrolling.
      const box = await panel.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.y + box!.height).toBeLessThanOrEqual(900);
      expect(await page.evaluate(() => document.scrollingElement!.scrollHeight <= window.innerHeight)).toBe(true);
    } finally {
      await context.close();
      await fetch(new URL('api/user/defaultLang', e2e.server.url), { method: 'PUT', headers: auth, body: JSON.stringify({ language: 'en' }) });
    }
  });
  it('opens the field maps entry of the menu as a map of the pages, each of which opens', async () => {
    const { context, page } = await signedInAt('/page/mapTo');
    try {
      const map = page.getByTestId('page-map');
      await map.waitFor();
      expect(await page.getByText('This screen could not be found').count()).toBe(0);
      await map.getByText('masterdata/sku').waitFor();
      await map.locator('a[href*="functionCode=sku"]').first().click();
      await page.locator('[data-testid="engine-page"][data-function="sku"]').first().waitFor();
    } finally {
      await context.close();
    }
  });
  it('remembers the width a user drags a column to, after a reload', async () => {
    const { context, page } = await signedInAt('/page/loa');
    try {
      const header = () => page.locator('[data-testid="engine-page"][data-function="loa"] .ag-header-cell[col-id="code"]').first();
      await header().waitFor();
      const before = (await header().boundingBox())!;
      const handle = (await header().locator('.ag-header-cell-resize').boundingBox())!;
      await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
      await page.mouse.down();
      await page.mouse.move(handle.x + handle.width / 2 + 120, handle.y + handle.height / 2, { steps: 8 });
      // The grid applies a drag's moves on its next frames: the button is let go once the column
      // shows the width, or a busy machine can end the drag before its last move counted.
      await expect.poll(async () => (await header().boundingBox())!.width).toBeGreaterThan(before.width + 100);
      await page.mouse.up();
      const dragged = (await header().boundingBox())!.width;
      await page.reload();
      await header().waitFor();
      await expect.poll(async () => Math.round((await header().boundingBox())!.width), { timeout: 10_000 }).toBe(Math.round(dragged));
    } finally {
      await context.close();
    }
  });
});

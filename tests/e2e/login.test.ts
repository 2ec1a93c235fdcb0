import { describe, expect, it } from 'vitest';
import { REDUCED_MOTION, openPage, useServerAndBrowser } from '../helpers/browser.js';

describe('sign-in page in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({}), { freshServerOnRetry: true });

  it('redirects / to /login and shows the sign-in form', async () => {
    const page = await openPage(e2e.browser, e2e.server.url, '/');
    await page.waitForSelector('form[id="login"]');
    expect(page.url()).toMatch(/#\/login$/);
    expect(await page.locator('#login_loginAccount').isVisible()).toBe(true);
    expect(await page.locator('#login_password').isVisible()).toBe(true);
    await page.close();
  });

  it('loads no grid, editor or designer code on the login route', async () => {
    const page = await e2e.browser.newPage(REDUCED_MOTION);
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url());
    });
    await page.goto(`${e2e.server.url}#/login`, { waitUntil: 'networkidle' });
    await page.waitForSelector('form[id="login"]');
    const bodies = await Promise.all(scripts.map(async (url) => (await fetch(url)).text()));
    expect(scripts.length).toBeGreaterThan(0);
    for (const [i, body] of bodies.entries()) {
      expect(body.includes('ag-root-wrapper'), `${scripts[i]} holds ag-grid`).toBe(false);
      expect(body.includes('monaco-editor'), `${scripts[i]} holds monaco`).toBe(false);
      expect(body.includes('data-designer-root'), `${scripts[i]} holds the designer`).toBe(false);
    }
    await page.close();
  });

  it('shows /notfound for an unknown path', async () => {
    const page = await openPage(e2e.browser, e2e.server.url, '/no/such/screen');
    await page.waitForURL(/#\/notfound$/);
    expect(await page.locator('.ant-result-404').count()).toBe(1);
    await page.close();
  });
});

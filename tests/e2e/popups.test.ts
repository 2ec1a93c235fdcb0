/**
 * The shell's popup rules proven in real Chromium: message popups stack,
 * Escape closes only the most recent one, Enter does nothing while one is open, the overlay does
 * nothing, a popup's callback runs exactly once, a confirm closes even when onOk throws, and markup
 * in confirm content is shown sanitized, its scripts never running.
 *
 * The page is tests/e2e/popup-harness: the real src/app/popups module and PopupHost, built with
 * Vite into a temporary folder (it does not need dist/) and served from 127.0.0.1, as the grid
 * benchmark does (tests/bench/grid.bench.ts). The test drives it through the harness's
 * `window.harness`, which exists only in that page.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REDUCED_MOTION, releaseBrowser, sharedBrowser } from '../helpers/browser.js';
import { buildAndServeHarness, type ServedHarness } from '../helpers/harness.js';
import type { Harness, HarnessConfirm, HarnessMessage } from './popup-harness/main.js';

const HARNESS = path.join(import.meta.dirname, 'popup-harness');

declare global {
  interface Window {
    harness: Harness;
    __pwned?: number;
  }
}

let harness: ServedHarness;
let url: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  harness = await buildAndServeHarness(HARNESS, { minify: false });
  url = harness.url;
  browser = await sharedBrowser();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await harness?.close();
});

beforeEach(async () => {
  page = await browser.newPage({ ...REDUCED_MOTION, viewport: { width: 1200, height: 800 } });
  // tsx compiles the functions handed to page.evaluate with esbuild's keepNames, which calls a
  // `__name` helper the page does not have (as in tests/bench/grid.bench.ts).
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  await page.goto(url);
  await page.waitForFunction(() => typeof window.harness === 'object' && !!document.querySelector('#background-button'));
});

afterEach(async () => {
  await page?.close();
});

const message = (item: HarnessMessage) => page.evaluate((i) => window.harness.message(i), item);
const confirm = (item: HarnessConfirm) => page.evaluate((i) => window.harness.confirm(i), item);
const stack = () => page.evaluate(() => window.harness.stack());
const calls = () => page.evaluate(() => ({ ...window.harness.calls }));
const settled = () => page.evaluate(() => ({ ...window.harness.settled }));
const background = () => page.evaluate(() => ({ ...window.harness.background }));
const uncaught = () => page.evaluate(() => [...window.harness.uncaught]);

/** The popups on screen, bottom to top, by the data-popup-id of their bodies. */
function shownIds(): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.wms-popup .ant-modal')].map((modal) => modal.querySelector('[data-popup-id]')?.getAttribute('data-popup-id') ?? ''),
  );
}

/** The popup whose body the user sees at the centre of the top popup's OK button. */
function popupUnderTopOk(): Promise<string | null> {
  return page.evaluate(() => {
    const ok = document.querySelector<HTMLElement>('.wms-popup-top .wms-popup-ok');
    if (!ok) return null;
    const box = ok.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit?.closest('.ant-modal')?.querySelector('[data-popup-id]')?.getAttribute('data-popup-id') ?? null;
  });
}

/** Puts the focus on the element, failing when it cannot take it. */
async function focus(selector: string): Promise<void> {
  const focused = await page.evaluate((s) => {
    const element = document.querySelector<HTMLElement>(s);
    element?.focus();
    return !!element && document.activeElement === element;
  }, selector);
  if (!focused) throw new Error(`${selector} did not take the focus`);
}

/** Lets Chromium run a few frames and timers (an image's error event, React's commits). */
const settle = () => page.evaluate(() => new Promise<void>((resolve) => setTimeout(() => requestAnimationFrame(() => resolve()), 50)));

describe('popup rules in Chromium', () => {
  it('stacks message popups, the most recent on top', async () => {
    await message({ id: 'a', content: 'first' });
    await message({ id: 'b', type: 'warning', content: 'second' });
    await message({ id: 'c', type: 'error', content: 'third' });
    await settle();
    expect(await stack()).toEqual(['a', 'b', 'c']);
    expect(await shownIds()).toEqual(['a', 'b', 'c']);
    expect(await page.locator('.wms-popup-top [data-popup-id]').getAttribute('data-popup-id')).toBe('c');
    // The most recent popup is the one painted on top where they overlap.
    expect(await popupUnderTopOk()).toBe('c');
    expect(await calls()).toEqual({});
  });

  it('closes only the most recent popup on Escape, one per press', async () => {
    await message({ id: 'a', content: 'first' });
    await confirm({ id: 'b', content: 'second' });
    await message({ id: 'c', content: 'third' });
    await settle();

    await page.keyboard.press('Escape');
    await settle();
    expect(await stack()).toEqual(['a', 'b']);
    expect(await shownIds()).toEqual(['a', 'b']);
    expect(await calls()).toEqual({ 'c.callback': 1 });

    // A held key repeats; the repeats close nothing more.
    await page.keyboard.down('Escape');
    await page.keyboard.down('Escape');
    await page.keyboard.down('Escape');
    await page.keyboard.up('Escape');
    await settle();
    expect(await stack()).toEqual(['a']);
    expect(await calls()).toEqual({ 'c.callback': 1, 'b.onCancel': 1 });
    expect(await settled()).toEqual({ c: true, b: false });

    await page.keyboard.press('Escape');
    await settle();
    expect(await stack()).toEqual([]);
    expect(await shownIds()).toEqual([]);
    expect(await calls()).toEqual({ 'c.callback': 1, 'b.onCancel': 1, 'a.callback': 1 });
  });

  it('does nothing on Enter while a popup is open, whatever has the focus', async () => {
    // Without a popup, Enter in the page reaches the page: the counter below can count.
    await page.locator('#background-input').focus();
    await page.keyboard.press('Enter');
    expect((await background()).enters).toBeGreaterThan(0);
    await page.evaluate(() => {
      window.harness.background.enters = 0;
    });

    await message({ id: 'm', content: 'saved' });
    // Enter wherever the popup put the focus (antd's dialog takes it once it has opened).
    await page.waitForFunction(() => document.activeElement?.closest('.wms-popup') != null);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
    // Enter on the focused OK button: unguarded, it would press the button.
    await focus('.wms-popup-top .wms-popup-ok');
    await page.keyboard.press('Enter');
    await settle();
    expect(await stack()).toEqual(['m']);
    expect(await calls()).toEqual({});

    await confirm({ id: 'q', content: 'delete?' });
    await page.waitForFunction(() => document.activeElement?.closest('.wms-popup-top') != null);
    await page.keyboard.press('Enter');
    await focus('.wms-popup-top .wms-popup-ok');
    await page.keyboard.press('Enter');
    await focus('.wms-popup-top .wms-popup-cancel');
    await page.keyboard.press('Enter');
    // Focus moved back to the page behind: Enter still reaches nothing.
    await focus('#background-input');
    await page.keyboard.press('Enter');
    await settle();
    expect(await stack()).toEqual(['m', 'q']);
    expect(await shownIds()).toEqual(['m', 'q']);
    expect(await calls()).toEqual({});
    expect(await settled()).toEqual({});
    expect((await background()).enters).toBe(0);
  });

  it('does nothing on a click on the overlay, and the overlay covers the page', async () => {
    // Without a popup, a click there reaches the page: the counter below can count.
    await page.mouse.click(100, 30);
    expect((await background()).clicks).toBe(1);

    const overlay: [number, number][] = [
      [100, 30],
      [5, 5],
      [1195, 795],
      [600, 20],
    ];
    await message({ id: 'm', content: 'saved' });
    await settle();
    for (const [x, y] of overlay) await page.mouse.click(x, y);
    await settle();
    expect(await stack()).toEqual(['m']);

    await confirm({ id: 'q', content: 'delete?' });
    await settle();
    for (const [x, y] of overlay) await page.mouse.click(x, y);
    await settle();
    expect(await stack()).toEqual(['m', 'q']);
    expect(await shownIds()).toEqual(['m', 'q']);
    expect(await calls()).toEqual({});
    expect((await background()).clicks).toBe(1);
  });

  it("runs a message's callback exactly once, however it is closed and whatever follows", async () => {
    await message({ id: 'clicked', content: 'one' });
    await settle();
    // Two clicks in the same task: the second lands on a button that is already closing.
    await page.evaluate(() => {
      const ok = document.querySelector<HTMLElement>('.wms-popup-top .wms-popup-ok')!;
      ok.click();
      ok.click();
    });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await settle();
    expect(await stack()).toEqual([]);
    expect(await calls()).toEqual({ 'clicked.callback': 1 });

    await message({ id: 'timed', content: 'two', duration: 0.2 });
    await page.waitForFunction(() => window.harness.stack().length === 0);
    await page.keyboard.press('Escape');
    await settle();
    expect(await calls()).toEqual({ 'clicked.callback': 1, 'timed.callback': 1 });

    await message({ id: 'escaped', content: 'three', duration: 0.3 });
    await settle();
    await page.keyboard.press('Escape');
    // The timer would have closed it now: it must not run the callback again.
    await page.waitForTimeout(400);
    await page.keyboard.press('Escape');
    await settle();
    expect(await calls()).toEqual({ 'clicked.callback': 1, 'timed.callback': 1, 'escaped.callback': 1 });
    expect(await settled()).toEqual({ clicked: true, timed: true, escaped: true });
  });

  it("runs a confirm's onOk or onCancel exactly once", async () => {
    await confirm({ id: 'ok', content: 'proceed?' });
    await settle();
    await page.locator('.wms-popup-top .wms-popup-ok').dblclick();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await settle();
    expect(await stack()).toEqual([]);
    expect(await calls()).toEqual({ 'ok.onOk': 1 });

    await confirm({ id: 'cancel', content: 'proceed?' });
    await settle();
    await page.locator('.wms-popup-top .wms-popup-cancel').click();
    await page.keyboard.press('Escape');
    await settle();
    expect(await stack()).toEqual([]);
    expect(await calls()).toEqual({ 'ok.onOk': 1, 'cancel.onCancel': 1 });
    expect(await settled()).toEqual({ ok: true, cancel: false });
  });

  it("runs a confirm's onOk once while it is still working, and nothing else", async () => {
    // Its onOk stays pending until the test releases it, however slow the machine.
    await confirm({ id: 'slow', content: 'proceed?', okHeld: true });
    await settle();
    // Two clicks in the same task, then more clicks, Escape and Enter while onOk is pending.
    await page.evaluate(() => {
      const ok = document.querySelector<HTMLElement>('.wms-popup-top .wms-popup-ok')!;
      ok.click();
      ok.click();
    });
    await settle();
    expect(await stack()).toEqual(['slow']);
    await page.evaluate(() => document.querySelector<HTMLElement>('.wms-popup-top .wms-popup-ok')?.click());
    await page.evaluate(() => document.querySelector<HTMLElement>('.wms-popup-top .wms-popup-cancel')?.click());
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await settle();
    expect(await stack()).toEqual(['slow']);
    await page.evaluate(() => window.harness.release('slow'));
    await page.waitForFunction(() => window.harness.stack().length === 0, undefined, { timeout: 15_000 });
    await page.keyboard.press('Escape');
    await settle();
    expect(await calls()).toEqual({ 'slow.onOk': 1 });
    expect(await settled()).toEqual({ slow: true });
  });

  it('closes a confirm even when its onOk throws or rejects', async () => {
    await confirm({ id: 'throws', content: 'proceed?', okThrows: true });
    await settle();
    await page.locator('.wms-popup-top .wms-popup-ok').click();
    await settle();
    expect(await stack()).toEqual([]);
    expect(await shownIds()).toEqual([]);

    await confirm({ id: 'rejects', content: 'proceed?', okThrows: 'async' });
    await settle();
    await page.locator('.wms-popup-top .wms-popup-ok').click();
    await page.waitForFunction(() => window.harness.stack().length === 0, undefined, { timeout: 5000 });
    expect(await shownIds()).toEqual([]);

    await confirm({ id: 'cancelThrows', content: 'proceed?', cancelThrows: true });
    await settle();
    await page.keyboard.press('Escape');
    await settle();
    expect(await stack()).toEqual([]);

    await page.keyboard.press('Escape');
    await settle();
    expect(await calls()).toEqual({ 'throws.onOk': 1, 'rejects.onOk': 1, 'cancelThrows.onCancel': 1 });
    expect(await settled()).toEqual({ throws: true, rejects: true, cancelThrows: false });
    // The failure is the popup module's to log, not the page's to crash on.
    expect(await uncaught()).toEqual([]);
  });

  it('shows markup in confirm content sanitized: no script or event handler ever runs', async () => {
    const hostile =
      '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>' +
      '<svg onload="window.__pwned=3"></svg><a id="bad-link" href="javascript:window.__pwned=4">link</a>' +
      '<b>bold</b> text';

    // The probe can fire: the same markup set raw into the page runs its handler.
    await page.evaluate((markup) => {
      const probe = document.createElement('div');
      probe.id = 'probe';
      probe.innerHTML = markup;
      document.body.append(probe);
    }, hostile);
    await page.waitForFunction(() => window.__pwned !== undefined, undefined, { timeout: 5000 });
    await page.evaluate(() => {
      document.getElementById('probe')!.remove();
      delete window.__pwned;
    });

    await confirm({ id: 'xss', content: hostile });
    await settle();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.wms-popup [data-popup-id="xss"] img');
      return !!img && img.complete;
    });
    await settle();
    const body = page.locator('.wms-popup [data-popup-id="xss"] .wms-popup-content');
    // Shown as markup, not as its source text.
    expect(await body.locator('b').textContent()).toBe('bold');
    expect(await body.textContent()).not.toContain('<');
    expect(await body.locator('img').count()).toBe(1);
    // Nothing able to run is left in the popup.
    expect(await page.locator('.wms-popup script').count()).toBe(0);
    expect(
      await page.evaluate(() =>
        [...document.querySelectorAll('.wms-popup *')].flatMap((element) =>
          [...element.attributes].filter((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value)).map((a) => `${element.tagName} ${a.name}`),
        ),
      ),
    ).toEqual([]);
    await body.locator('a').click();
    await settle();
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await stack()).toEqual(['xss']);

    await page.locator('.wms-popup-top .wms-popup-ok').click();
    await settle();
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await calls()).toEqual({ 'xss.onOk': 1 });
  });

  it('shows a message popup\'s markup as its text', async () => {
    await message({ id: 'text', content: '<img src=x onerror="window.__pwned=1"><b>bold</b>' });
    await settle();
    const body = page.locator('.wms-popup [data-popup-id="text"] .wms-popup-content');
    expect(await body.textContent()).toBe('<img src=x onerror="window.__pwned=1"><b>bold</b>');
    expect(await body.locator('img, b').count()).toBe(0);
    await settle();
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  });
});

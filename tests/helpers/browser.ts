import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { spawnServer, tempDataDir, type ServerProcess } from './server-process.js';
import { ADMIN } from './accounts.js';
import { copyE2eTemplate, e2eServerDatabase } from './e2e-template.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Debian's full Chromium (package chromium): the browser of the files that open a PDF in a window. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Debian's headless shell of the same Chromium (package chromium-headless-shell): the same Blink and
 * V8 without the full browser around them, so a page costs markedly less processor time. It has no
 * PDF viewer: a PDF the app opens in a window of its own (pack list, pick list, invoice) never loads
 * there and the window stays about:blank.
 */
export const HEADLESS_SHELL = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

export interface BrowserOptions {
  /**
   * The file opens PDFs in windows of their own and checks what they show: it gets the full
   * Chromium, whose PDF viewer loads them. Without it a file gets the headless shell when it is
   * installed, else the full Chromium.
   */
  pdfViewer?: boolean;
}

/** The Chromium a launch with these options starts: the headless shell unless the PDF viewer is needed or the shell is missing. */
export function browserExecutable(options: BrowserOptions = {}): string {
  if (!options.pdfViewer && fs.existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  return CHROMIUM;
}

/**
 * Debian's Chromium, headless, with the flags this closed network needs (`browserExecutable` says
 * which one); Playwright gives every launch a fresh, empty profile of its own.
 */
export async function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
  const executablePath = browserExecutable(options);
  if (!fs.existsSync(executablePath)) throw new Error(`${executablePath} is missing: install Debian's chromium (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The worker's browsers by executable: the headless shell and, once a file asks for it, the full Chromium. */
const shared = new Map<string, Promise<Browser>>();

/**
 * The Chromium of this test worker: launched by the first test file that asks, then lent to each
 * file the worker runs after it (a worker runs its files one after another), so that a file does
 * not pay for a launch and a close. A file that checks PDFs in windows of their own asks with
 * `{ pdfViewer: true }` and gets the worker's full Chromium; every other file gets its headless
 * shell (see `browserExecutable`). Each file gives it back with `releaseBrowser`, which closes the
 * contexts and pages the file opened; Playwright kills it when the worker's process ends.
 */
export async function sharedBrowser(options: BrowserOptions = {}): Promise<Browser> {
  const executable = browserExecutable(options);
  const existing = shared.get(executable);
  const current = existing && (await existing.catch(() => undefined));
  if (current?.isConnected()) return current;
  const launched = launchBrowser(options);
  shared.set(executable, launched);
  return launched;
}

/** Gives the worker's Chromium back at the end of a file: every context it opened is closed. */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((context) => context.close().catch(() => undefined)));
}

export interface E2eServer {
  server: ServerProcess;
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the real built server on a fresh embedded database, as `npm start` would; the database is
 * a copy of this run's template for the same settings when there is one (tests/helpers/e2e-template.ts).
 */
export async function startE2eServer(env: Record<string, string> = {}): Promise<E2eServer> {
  const distDir = process.env.DIST_DIR ?? path.join(ROOT, 'dist');
  if (!fs.existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`${distDir}/index.html is missing: run \`npm run build\` before the browser tests`);
  }
  const dataDir = tempDataDir('wms-e2e-');
  const serverEnv: Record<string, string> = { ADMIN_PASSWORD: ADMIN.password, ...env };
  const database = await e2eServerDatabase(serverEnv);
  if (database) serverEnv.DATABASE_URL = database.url;
  if (!database || database.fromTemplate) copyE2eTemplate(serverEnv, dataDir, Boolean(database));
  const server = spawnServer({ DATA_DIR: dataDir, ...serverEnv });
  try {
    const url = await server.ready;
    return {
      server,
      url,
      dataDir,
      async stop() {
        await server.stop('SIGTERM');
        await database?.drop();
      },
    };
  } catch (error) {
    await database?.drop().catch(() => undefined);
    throw error;
  }
}

/**
 * The options every browser context of the tests starts with: the page reports that the user asks
 * for reduced motion, so the app runs no animation (src/app/reduced-motion.ts). Chromium then draws
 * fewer frames, and no step waits for an animation to end. Every context a test opens itself takes them too.
 */
export const REDUCED_MOTION = { reducedMotion: 'reduce' } as const;

/** The contexts `freshPage` opened in each browser, by their options, to be lent again once their pages are all closed. */
const warmContexts = new WeakMap<Browser, { context: BrowserContext; key: string }[]>();

/** What a context of `freshPage` is opened with; contexts are lent again only for the same options. */
export interface FreshPageOptions {
  viewport?: { width: number; height: number };
  acceptDownloads?: boolean;
  /** Log every success message shown, for `toastShown`. */
  logToasts?: boolean;
}

/**
 * A new page that the app takes for a new browser: no cookie, and nothing in the local storage,
 * IndexedDB or service workers of the server's origin (session storage is the page's own), online
 * and with no route of an earlier test. Unlike a
 * page of a new context it keeps what the file's earlier pages cached: the app's scripts and
 * styles and their compiled code, so the app starts for about a third less processor time. Its
 * context is one that an earlier call opened with the same options and whose pages have all been
 * closed since, else a new one; so a test that keeps its page open, or has two users side by side,
 * still gets separate browsers. Only for tests whose subject is not the browser's cache.
 */
export async function freshPage(browser: Browser, server: E2eServer, options: FreshPageOptions = {}): Promise<Page> {
  const key = JSON.stringify([options.viewport ?? null, options.acceptDownloads ?? null, options.logToasts ?? false]);
  const open = new Set(browser.contexts());
  const warm = (warmContexts.get(browser) ?? []).filter((entry) => open.has(entry.context));
  warmContexts.set(browser, warm);
  const idle = warm.find((entry) => entry.key === key && entry.context.pages().length === 0);
  if (!idle) {
    const context = await newTestContext(browser, options);
    warm.push({ context, key });
    return context.newPage();
  }
  // What an earlier test changed in the context goes too: its routes, its being offline and its
  // cookies (of every origin); then the origin's storage.
  await idle.context.unrouteAll({ behavior: 'ignoreErrors' });
  await idle.context.setOffline(false);
  await idle.context.clearCookies();
  const page = await idle.context.newPage();
  const session = await idle.context.newCDPSession(page);
  await session.send('Storage.clearDataForOrigin', {
    origin: new URL(server.url).origin,
    storageTypes: 'local_storage,indexeddb,websql,file_systems,service_workers,cache_storage',
  });
  await session.detach();
  return page;
}

/** A new browser context of a test: reduced motion, and the viewport, downloads and toast log asked for. */
async function newTestContext(browser: Browser, options: FreshPageOptions): Promise<BrowserContext> {
  const context = await browser.newContext({
    ...REDUCED_MOTION,
    ...(options.viewport ? { viewport: options.viewport } : {}),
    ...(options.acceptDownloads === undefined ? {} : { acceptDownloads: options.acceptDownloads }),
  });
  if (options.logToasts) await logToasts(context);
  return context;
}

/** Opens a hash route of the app in a new page and waits for the network to settle. */
export async function openPage(browser: Browser, baseUrl: string, route: string): Promise<Page> {
  const page = await browser.newPage(REDUCED_MOTION);
  await page.goto(`${baseUrl}#${route}`, { waitUntil: 'networkidle' });
  return page;
}

/**
 * Starts one real server for a describe block, lends it the worker's Chromium (`sharedBrowser`), and
 * stops the server and closes the block's browser contexts after it; the returned object's fields are
 * set once `beforeAll` has run.
 *
 * With `freshServerOnRetry`, a test run a second time (CI runs a failed browser test once more)
 * gets a new server on a new copy of the template database, so that what its first run left
 * behind (a record with the same code, a half-done order) cannot fail it. Only for files whose
 * tests each make their own data: a test that builds on an earlier test's records would not find
 * them on the new server. With `pdfViewer`, the block gets the full Chromium (`sharedBrowser`).
 */
export function useServerAndBrowser(
  env: () => Record<string, string> = () => ({}),
  options: { freshServerOnRetry?: boolean } & BrowserOptions = {},
): { server: E2eServer; browser: Browser } {
  const context = {} as { server: E2eServer; browser: Browser };
  beforeAll(async () => {
    // Side by side; whichever started is kept for `afterAll` to stop even when the other failed.
    const [server, browser] = await Promise.allSettled([startE2eServer(env()), sharedBrowser({ pdfViewer: options.pdfViewer })]);
    if (server.status === 'fulfilled') context.server = server.value;
    if (browser.status === 'fulfilled') context.browser = browser.value;
    for (const started of [server, browser]) if (started.status === 'rejected') throw started.reason;
  });
  if (options.freshServerOnRetry) {
    beforeEach(async ({ task }) => {
      if (!task.result?.retryCount) return;
      await context.server?.stop();
      context.server = await startE2eServer(env());
    });
  }
  afterAll(async () => {
    await releaseBrowser(context.browser);
    await context.server?.stop();
  });
  return context;
}

/**
 * One call of the real server's API with a session token (or none): GET without a body, POST with a
 * JSON body. Anything but 200 throws with the answer, so a test step that should succeed cannot pass
 * silently.
 */
export async function apiCall<T>(server: E2eServer, token: string | null, urlPath: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(`api${urlPath}`, server.url), {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${urlPath} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Signs in through the API and returns the session token. */
export async function apiSignIn(server: E2eServer, account: { loginAccount: string; password: string } = ADMIN): Promise<string> {
  return (await apiLogin(server, account)).token;
}

/**
 * Opens `route` in a page of a browser of its own (another browser, as far as the app can tell; see
 * `tokenSignedInPage`), signed in. The session is made through the API and kept where the sign-in page keeps it (the token in
 * session storage and its cookie), so that the app opens the route as it does after a sign-in;
 * with `viaSignInForm`, or for the route `/login`, the user signs in on the sign-in page instead,
 * the way a user does, in a new context, and the app then lands on the route (for tests of the
 * sign-in itself). The notification bell keeps a
 * stream open, so callers wait for elements, never for network idle.
 */
export async function signedInPage(
  browser: Browser,
  server: E2eServer,
  route: string,
  options: {
    account?: { loginAccount: string; password: string };
    viewport?: { width: number; height: number };
    acceptDownloads?: boolean;
    /** Log every success message shown, for `toastShown`. */
    logToasts?: boolean;
    /** Sign in on the sign-in page rather than through the API. */
    viaSignInForm?: boolean;
  } = {},
): Promise<Page> {
  const account = options.account ?? ADMIN;
  // Opening the sign-in page itself means signing in on it: the app then lands where a sign-in lands.
  if (!options.viaSignInForm && route !== '/login') return tokenSignedInPage(browser, server, account, route, options);
  const context = await newTestContext(browser, { viewport: options.viewport ?? { width: 1600, height: 1000 }, acceptDownloads: options.acceptDownloads ?? false, logToasts: options.logToasts });
  const page = await context.newPage();
  await page.goto(`${server.url}#${route}`);
  await page.fill('#login_loginAccount', account.loginAccount);
  await page.fill('#login_password', account.password);
  await page.press('#login_password', 'Enter');
  return page;
}

/**
 * A page of a browser of its own (`freshPage`: a new context, or one whose pages have all been
 * closed, emptied of cookies and storage) signed in without the sign-in page: the session is made
 * through the API and kept where the sign-in page keeps it (the token in session storage and its
 * cookie), then `route` opens. For tests whose subject is not the sign-in itself.
 */
export async function tokenSignedInPage(
  browser: Browser,
  server: E2eServer,
  account: { loginAccount: string; password: string },
  route: string,
  options: { viewport?: { width: number; height: number }; logToasts?: boolean; acceptDownloads?: boolean } = {},
): Promise<Page> {
  const { token, expiresAt } = await apiLogin(server, account);
  // Downloads are taken unless the caller says otherwise (Playwright's default).
  const page = await freshPage(browser, server, { viewport: options.viewport ?? { width: 1600, height: 1000 }, acceptDownloads: options.acceptDownloads ?? true, logToasts: options.logToasts });
  // The session is stored from a small page of the same origin, so that the app starts only once, signed in.
  await page.goto(new URL('api/health', server.url).href);
  await page.evaluate(
    ({ token, expiresAt }) => {
      sessionStorage.setItem('token', token);
      document.cookie = `token=${encodeURIComponent(token)}; expires=${new Date(expiresAt).toUTCString()}; path=/; SameSite=Strict`;
    },
    { token, expiresAt },
  );
  await page.goto(`${server.url}#${route}`);
  return page;
}

/** Signs in through the API and returns the session token with the time it expires. */
export async function apiLogin(server: E2eServer, account: { loginAccount: string; password: string } = ADMIN): Promise<{ token: string; expiresAt: string }> {
  const response = await fetch(new URL('api/user/login', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginAccount: account.loginAccount, password: account.password }),
  });
  const body = (await response.json()) as { token?: string; expiresAt?: string };
  if (!body.token || !body.expiresAt) throw new Error(`sign-in of ${account.loginAccount} failed: ${JSON.stringify(body)}`);
  return { token: body.token, expiresAt: body.expiresAt };
}

/** An engine page's own element, not those of its sub-page tabs (which are engine pages too). */
export function enginePage(page: Page, functionCode: string): Locator {
  return page.locator(`[data-testid="engine-page"][data-function="${functionCode}"]`).first();
}

/** The toolbar of an engine page (add, edit, its behaviours, the count of rows). */
export function engineToolbar(page: Page, functionCode: string): Locator {
  return enginePage(page, functionCode).locator(':scope > [data-testid="engine-toolbar"]');
}

/** The loaded rows of an engine page's list; a row may have one element per grid container. */
export function engineRows(page: Page, functionCode: string): Locator {
  return enginePage(page, functionCode).locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)');
}

/**
 * Clicks `row` until `total` (an engine toolbar's count) says one row is selected. A click that
 * lands while the grid is still being drawn, or just before its list is read again, selects
 * nothing; a click on a row that is selected already would clear it. So it clicks only while
 * nothing is selected, and gives each click a few seconds to reach the toolbar before the next.
 */
export async function selectEngineRow(row: Locator, total: Locator): Promise<void> {
  const deadline = Date.now() + 30_000;
  // "1 selected", not "11 selected"
  const one = /\b1 selected/;
  // Each further click waits longer for the toolbar: on a loaded machine it may take seconds.
  for (let attempt = 1; ; attempt++) {
    if (one.test(await total.innerText())) return;
    await row.click({ position: { x: 20, y: 10 } });
    try {
      await expect.poll(() => total.innerText(), { timeout: Math.min(3_000 * attempt, 10_000), interval: 100 }).toMatch(one);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/** Selects the first row of an engine page's list (see `selectEngineRow`). */
export async function selectFirstEngineRow(page: Page, functionCode: string): Promise<void> {
  await selectEngineRow(engineRows(page, functionCode).first(), engineToolbar(page, functionCode).getByTestId('engine-total'));
}

/** The text of each loaded row of an engine page's list, its grid containers' parts joined. */
export async function engineRowTexts(page: Page, functionCode: string): Promise<string[]> {
  const parts = await engineRows(page, functionCode).evaluateAll((elements) =>
    elements.map((element) => [element.getAttribute('row-index') ?? '', (element as HTMLElement).innerText] as const),
  );
  const byIndex = new Map<string, string>();
  for (const [index, text] of parts) byIndex.set(index, `${byIndex.get(index) ?? ''} ${text}`.trim());
  return [...byIndex.values()].filter((text) => text !== '');
}

/** Opens an engine page's route in `page` and waits until its list shows its column headers. */
export async function openEnginePage(page: Page, server: E2eServer, route: string, functionCode: string): Promise<void> {
  await page.goto(`${server.url}#${route}`);
  await enginePage(page, functionCode).locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
}

/** The first 100 rows of an engine page through `/api/generic/selection`, optionally filtered by rules. */
export async function apiSelection<T>(server: E2eServer, token: string, moduleCode: string, functionCode: string, rules: unknown[] = []): Promise<T[]> {
  return (await apiCall<{ rows: T[] }>(server, token, '/generic/selection', { moduleCode, functionCode, page: 1, pageSize: 100, ...(rules.length ? { conditions: { combinator: 'and', rules } } : {}) })).rows;
}

/**
 * Polls `read` until the assertion that follows holds (30 s at most, or `timeout` ms for a step that
 * waits on a schedule): the browser tests' one wait.
 */
export function eventually<T>(read: () => T | Promise<T>, timeout = 30_000) {
  return expect.poll(read, { timeout, interval: 100 });
}

/**
 * Waits for the message popup and answers its text after closing it. When none comes, the error
 * says what the page showed instead (a success message, the list's rows), so that a failure on a
 * loaded machine can be told from a wrong answer.
 */
export async function popupText(page: Page, timeout = 60_000): Promise<string> {
  const popup = page.locator('.wms-popup-message').first();
  try {
    await popup.waitFor({ timeout });
  } catch (error) {
    const shown = await page.evaluate(() => ({
      url: location.href,
      toasts: [...document.querySelectorAll('.wms-toast')].map((toast) => toast.textContent ?? ''),
      text: document.body.innerText.slice(0, 2000),
    }));
    throw new Error(`no message popup within ${timeout} ms; the page showed ${JSON.stringify(shown)}`, { cause: error });
  }
  const text = await popup.innerText();
  await popup.locator('.wms-popup-ok').click();
  await popup.waitFor({ state: 'detached' });
  return text;
}

/** Success messages live three seconds: every one shown in the context is logged, so a slow step cannot miss it. */
export async function logToasts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { toasts: string[] }).toasts = shown;
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll<HTMLElement>('.wms-toast')) {
        if (toast.dataset.logged) continue;
        toast.dataset.logged = '1';
        shown.push(toast.textContent ?? '');
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** Waits for a logged success message with this text and takes the oldest, so each one counts once. */
export async function toastShown(page: Page, text: string): Promise<void> {
  const taken = () =>
    page.evaluate((wanted) => {
      const shown = (window as unknown as { toasts: string[] }).toasts;
      const index = shown.findIndex((toast) => toast.includes(wanted));
      if (index < 0) return false;
      shown.splice(index, 1);
      return true;
    }, text);
  await eventually(taken).toBe(true);
}

/**
 * Picks a choice of an engine form dropdown as a user does: opens it, types the text (the list
 * filters by the label the user reads) and clicks the choice whose label is exactly the text, or
 * the text followed by a name ("ACME - ACME Electronics Ltd" for "ACME").
 */
export async function chooseByTyping(page: Page, inputId: string, text: string): Promise<void> {
  await page.locator(`.ant-select:has(#${inputId})`).click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  // The choices load when the form opens.
  await eventually(() => options.count()).toBeGreaterThan(0);
  await page.locator(`#${inputId}`).pressSequentially(text);
  const exact = options.filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( - .*)?$`) });
  await eventually(() => exact.count()).toBeGreaterThan(0);
  await exact.first().click();
}

/** Saves the open engine form and waits until it closed (the save was accepted). */
export async function saveEngineForm(page: Page): Promise<void> {
  await page.click('#engine-form-save');
  await page.locator('[data-testid="engine-form"]').waitFor({ state: 'detached', timeout: 30_000 });
}

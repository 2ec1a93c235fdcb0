import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { spawnServer, tempDataDir, type ServerProcess } from './server-process.js';
import { ADMIN } from './app.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium, headless, with the flags this closed network needs (DESIGN.md section 3);
 * Playwright gives every launch a fresh, empty profile of its own.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
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

export interface E2eServer {
  server: ServerProcess;
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the real built server on a fresh embedded database, as `npm start` would. */
export async function startE2eServer(env: Record<string, string> = {}): Promise<E2eServer> {
  const distDir = process.env.DIST_DIR ?? path.join(ROOT, 'dist');
  if (!fs.existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`${distDir}/index.html is missing: run \`npm run build\` before the browser tests`);
  }
  const dataDir = tempDataDir('wms-e2e-');
  const server = spawnServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: ADMIN.password, ...env });
  const url = await server.ready;
  return {
    server,
    url,
    dataDir,
    async stop() {
      await server.stop('SIGTERM');
    },
  };
}

/** Opens a hash route of the app in a new page and waits for the network to settle. */
export async function openPage(browser: Browser, baseUrl: string, route: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${baseUrl}#${route}`, { waitUntil: 'networkidle' });
  return page;
}

/**
 * Starts one real server and one Chromium for a describe block and stops both after it; the
 * returned object's fields are set once `beforeAll` has run.
 */
export function useServerAndBrowser(env: () => Record<string, string> = () => ({})): { server: E2eServer; browser: Browser } {
  const context = {} as { server: E2eServer; browser: Browser };
  beforeAll(async () => {
    context.server = await startE2eServer(env());
    context.browser = await launchBrowser();
  });
  afterAll(async () => {
    await context.browser?.close();
    await context.server?.stop();
  });
  return context;
}

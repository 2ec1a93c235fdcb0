/**
 * The browser half of the engine benchmark (part 6): how long Chromium takes to show a
 * page of 50 columns by 10,000 rows through the engine's grid (ag-grid infinite row model, pages of
 * 100 rows as `/api/generic/selection` answers them) and to scroll it to the end. The server half
 * is selection.bench.ts.
 *
 * The harness page (tests/bench/grid-harness) is built with Vite into a temporary folder and
 * served by a small static server; Debian's Chromium opens it headless. Figures:
 *   firstRowsMs     navigation start until the first row's cells are painted
 *   scrollToEndMs   jump to the bottom until row 10,000 is painted
 *   scrollThroughMs scrolling down one screen at a time, top to bottom, every screen painted
 * each over BENCH_GRID_RUNS fresh pages (default 3), reported as median and worst.
 *
 * Environment: BENCH_GRID_ROWS (10000), BENCH_GRID_COLUMNS (50), BENCH_GRID_RUNS (3),
 * CHROMIUM_PATH (/usr/bin/chromium).
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { buildAndServeHarness } from '../helpers/harness.js';
import type { BenchReport } from './run.js';

export const name = 'grid';

const ROWS = Number(process.env.BENCH_GRID_ROWS ?? 10_000);
const COLUMNS = Number(process.env.BENCH_GRID_COLUMNS ?? 50);
const RUNS = Number(process.env.BENCH_GRID_RUNS ?? 3);
const HARNESS = path.join(import.meta.dirname, 'grid-harness');

/** Waits until the row with this index is in the DOM with its cells filled (not a loading row). */
async function rowPainted(page: Page, index: number): Promise<void> {
  await page.waitForFunction(
    (i) => {
      const row = document.querySelector(`.ag-row[row-index="${i}"]`);
      return !!row && !row.classList.contains('ag-row-loading') && (row.textContent ?? '') !== '';
    },
    index,
    { polling: 'raf', timeout: 120_000 },
  );
}

interface Run {
  firstRowsMs: number;
  scrollToEndMs: number;
  scrollThroughMs: number;
  screens: number;
  fetches: number;
}

async function measure(browser: Browser, url: string): Promise<Run> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  // tsx compiles the functions handed to page.evaluate with esbuild's keepNames, which calls a
  // `__name` helper the page does not have.
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  try {
    await page.goto(url);
    await rowPainted(page, 0);
    const firstRowsMs = await page.evaluate(() => performance.now());

    const scrollToEndMs = await page.evaluate(async (last) => {
      const viewport = document.querySelector<HTMLElement>('.ag-grid-viewport')!;
      const started = performance.now();
      viewport.scrollTop = viewport.scrollHeight;
      await new Promise<void>((resolve) => {
        const check = () => {
          const row = document.querySelector(`.ag-row[row-index="${last}"]`);
          if (row && !row.classList.contains('ag-row-loading') && (row.textContent ?? '') !== '') resolve();
          else {
            viewport.scrollTop = viewport.scrollHeight;
            requestAnimationFrame(check);
          }
        };
        requestAnimationFrame(check);
      });
      return performance.now() - started;
    }, ROWS - 1);

    const through = await page.evaluate(async () => {
      const viewport = document.querySelector<HTMLElement>('.ag-grid-viewport')!;
      viewport.scrollTop = 0;
      const painted = () =>
        new Promise<void>((resolve) => {
          const check = () => {
            const rows = document.querySelectorAll('.ag-row');
            const loading = document.querySelectorAll('.ag-row-loading');
            if (rows.length > 0 && loading.length === 0) resolve();
            else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        });
      await painted();
      const started = performance.now();
      let screens = 0;
      while (viewport.scrollTop + viewport.clientHeight < viewport.scrollHeight - 1) {
        viewport.scrollTop += viewport.clientHeight;
        screens++;
        await painted();
      }
      return { ms: performance.now() - started, screens };
    });
    const fetches = await page.evaluate(() => (window as unknown as { benchStats: { fetches: number } }).benchStats.fetches);
    return { firstRowsMs, scrollToEndMs, scrollThroughMs: through.ms, screens: through.screens, fetches };
  } finally {
    await page.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const round = (value: number) => Math.round(value * 10) / 10;

export async function run(): Promise<BenchReport> {
  const harness = await buildAndServeHarness(HARNESS);
  const browser = await launchBrowser();
  try {
    const url = `${harness.url}?rows=${ROWS}&columns=${COLUMNS}&pageSize=100`;
    // One unmeasured run warms the disk cache and Chromium's code cache.
    await measure(browser, url);
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, url));
    const figure = (key: 'firstRowsMs' | 'scrollToEndMs' | 'scrollThroughMs') => ({
      median: round(median(runs.map((r) => r[key]))),
      worst: round(Math.max(...runs.map((r) => r[key]))),
    });
    const figures = {
      rows: ROWS,
      columns: COLUMNS,
      pageSize: 100,
      runs: RUNS,
      chromium: browser.version(),
      firstRowsMs: figure('firstRowsMs'),
      scrollToEndMs: figure('scrollToEndMs'),
      scrollThroughMs: figure('scrollThroughMs'),
      screensScrolled: runs[0].screens,
      pagesFetchedInLastRun: runs[runs.length - 1].fetches,
      samples: runs,
    };
    return {
      figures,
      summary: [
        `${COLUMNS} columns x ${ROWS} rows, pages of 100, Chromium ${browser.version()}, ${RUNS} runs (median / worst):`,
        `  first rows painted      ${figures.firstRowsMs.median} / ${figures.firstRowsMs.worst} ms`,
        `  jump to the last row    ${figures.scrollToEndMs.median} / ${figures.scrollToEndMs.worst} ms`,
        `  scroll through, ${figures.screensScrolled} screens  ${figures.scrollThroughMs.median} / ${figures.scrollThroughMs.worst} ms`,
      ],
    };
  } finally {
    await browser.close();
    await harness.close();
  }
}

/**
 * Jobs in Chromium: a job is created on /job with the cron expression
 * editor showing the next five run times while typing (and why an expression is not valid),
 * activated, seen running on its schedule and by "run now" in its run history; deleting it while
 * active is refused with the spec's message.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, releaseBrowser, selectEngineRow, sharedBrowser, signedInPage, startE2eServer, toastShown, type E2eServer } from '../helpers/browser.js';

function grid(page: Page, functionCode: string) {
  return page.locator(`[data-testid="engine-page"][data-function="${functionCode}"]`).first();
}

function toolbar(page: Page, functionCode: string) {
  return grid(page, functionCode).locator(':scope > [data-testid="engine-toolbar"]');
}

async function rowTexts(page: Page, functionCode: string): Promise<string[]> {
  const parts = await grid(page, functionCode)
    .locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)')
    .evaluateAll((elements) => elements.map((element) => [element.getAttribute('row-index') ?? '', (element as HTMLElement).innerText] as const));
  const byIndex = new Map<string, string>();
  for (const [index, text] of parts) byIndex.set(index, `${byIndex.get(index) ?? ''} ${text}`.trim());
  return [...byIndex.values()].filter((text) => text !== '');
}

/** Selects the job's one row unless it is selected already (a click on a selected row would clear it). */
async function selectJob(page: Page): Promise<void> {
  const total = toolbar(page, 'job').getByTestId('engine-total');
  await eventually(() => rowTexts(page, 'job')).toHaveLength(1);
  await selectEngineRow(grid(page, 'job').locator(':scope > [data-testid="engine-grid"] .ag-row').first(), total);
}

/** The run history tab of the job, read afresh: the page is reloaded and the job's row selected. */
async function runHistory(page: Page): Promise<string[]> {
  await page.reload();
  const row = grid(page, 'job').locator(':scope > [data-testid="engine-grid"] .ag-row:not(.ag-row-loading)').first();
  await row.waitFor({ timeout: 60_000 });
  await row.click();
  const runs = grid(page, 'job').getByTestId('engine-subpages').locator('[data-testid="engine-page"][data-function="jobRun"]');
  await runs.locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
  return rowTexts(page, 'jobRun');
}

describe('jobs in Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    server = await startE2eServer();
    browser = await sharedBrowser();
    page = await signedInPage(browser, server, '/page/home', { logToasts: true });
    await page.waitForURL(/#\/page/);
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
  });

  it('creates a job in the cron expression editor, activates it, sees it run on schedule and by "run now", and cannot delete it while active', async () => {
    await page.goto(`${server.url}#/page/job`);
    await grid(page, 'job').locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });

    await toolbar(page, 'job').getByTestId('engine-add').click();
    await page.waitForSelector('[data-testid="engine-form"][data-mode="add"]');
    await page.fill('#engine_job_name', 'Purge sign-ins');
    await page.locator('.ant-select:has(#engine_job_handler)').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="auth.purgeExpired"]').click();
    await page.fill('#engine_job_business_type', 'HOUSEKEEPING');

    // The editor explains an invalid expression, then shows the next five runs of a valid one.
    const editor = page.getByTestId('cron-editor');
    await page.fill('#engine_job_cron_expression', '0 0 25 * * ?');
    await eventually(() => editor.getByTestId('cron-invalid').innerText()).toContain('Not valid');
    await page.fill('#engine_job_cron_expression', '0 15 10 ? * 6L');
    await eventually(() => editor.locator('[data-testid="cron-next-runs"] li').count()).toBe(5);
    const fridays = await editor.locator('[data-testid="cron-next-runs"] li').evaluateAll((items) => items.map((item) => item.getAttribute('data-time') ?? ''));
    expect(fridays.every((time) => new Date(time).getDay() === 5)).toBe(true);
    // Every two seconds, so that the schedule is seen working.
    await page.fill('#engine_job_cron_expression', '*/2 * * * * ?');
    await eventually(() => editor.locator('[data-testid="cron-next-runs"] li').count()).toBe(5);
    await page.click('#engine-form-save');
    await toastShown(page, 'The record was added.');
    await eventually(() => rowTexts(page, 'job')).toEqual([expect.stringContaining('Inactive')]);

    // Activate.
    await grid(page, 'job').locator(':scope > [data-testid="engine-grid"] .ag-row').first().click();
    await eventually(() => toolbar(page, 'job').getByTestId('engine-behaviour-activate').isEnabled()).toBe(true);
    await toolbar(page, 'job').getByTestId('engine-behaviour-activate').click();
    await toastShown(page, '1 activated.');
    await eventually(() => rowTexts(page, 'job')).toEqual([expect.stringContaining('Active')]);

    // It runs on its schedule: the run history shows scheduled runs that succeeded.
    // Each look reloads the page, which takes seconds on a loaded machine: the wait is longer.
    await eventually(async () => (await runHistory(page)).some((row) => row.includes('Schedule') && row.includes('Succeeded')), 90_000).toBe(true);

    // "Run now" runs an inactive job too: inactivated first, so that no scheduled run pushes the
    // manual one down the history (newest first) out of the rows the grid draws.
    await selectJob(page);
    await eventually(() => toolbar(page, 'job').getByTestId('engine-behaviour-inactivate').isEnabled()).toBe(true);
    await toolbar(page, 'job').getByTestId('engine-behaviour-inactivate').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await toastShown(page, '1 inactivated.');
    await eventually(() => rowTexts(page, 'job')).toEqual([expect.stringContaining('Inactive')]);
    await selectJob(page);
    await eventually(() => toolbar(page, 'job').getByTestId('engine-behaviour-runNow').isEnabled()).toBe(true);
    await toolbar(page, 'job').getByTestId('engine-behaviour-runNow').click();
    await toastShown(page, 'The run is queued');
    await eventually(async () => (await runHistory(page)).some((row) => row.includes('Run now') && row.includes('Succeeded')), 90_000).toBe(true);

    // Active again: deleting it while active is refused with the spec's message, and it stays.
    await selectJob(page);
    await eventually(() => toolbar(page, 'job').getByTestId('engine-behaviour-activate').isEnabled()).toBe(true);
    await toolbar(page, 'job').getByTestId('engine-behaviour-activate').click();
    await toastShown(page, '1 activated.');
    await eventually(() => rowTexts(page, 'job')).toEqual([expect.stringContaining('Active')]);
    await selectJob(page);
    await eventually(() => toolbar(page, 'job').getByTestId('engine-delete').isEnabled()).toBe(true);
    await toolbar(page, 'job').getByTestId('engine-delete').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    const popups = page.locator('.wms-popup-message');
    await eventually(() => popups.allInnerTexts()).toEqual([expect.stringContaining('Not allowed to delete or cancel. An active job cannot be deleted; inactivate it first.')]);
    await popups.locator('.wms-popup-ok').click();
    await eventually(() => rowTexts(page, 'job')).toEqual([expect.stringContaining('Purge sign-i')]);

    // Inactivated, it can be deleted.
    await grid(page, 'job').locator(':scope > [data-testid="engine-grid"] .ag-row').first().click();
    await eventually(() => toolbar(page, 'job').getByTestId('engine-behaviour-inactivate').isEnabled()).toBe(true);
    await toolbar(page, 'job').getByTestId('engine-behaviour-inactivate').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await toastShown(page, '1 inactivated.');
    await grid(page, 'job').locator(':scope > [data-testid="engine-grid"] .ag-row').first().click();
    await toolbar(page, 'job').getByTestId('engine-delete').click();
    await page.locator('.wms-popup-confirm.wms-popup-top .wms-popup-ok').click();
    await toastShown(page, '1 records deleted.');
    await eventually(() => rowTexts(page, 'job')).toHaveLength(0);
  }, 300_000);
});

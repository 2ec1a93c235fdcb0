import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pdfPrinter } from '../helpers/pdf-printer.js';
import { apiCall, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import type { AutoPrintRule } from '../../src/common/autoprint-api.js';


const labels = (en: string) => ({ en, zh: en, zh_tw: en, th: en, kor: en, jp: en });


/** Chooses the option of a dropdown of the open dialog by its text. */
async function choose(page: Page, inputId: string, text: string): Promise<void> {
  await page.locator(`.ant-select:has(#${inputId})`).click();
  const dropdown = page.locator('.ant-select-dropdown:visible');
  await dropdown.locator('.ant-select-item-option').filter({ hasText: text }).first().click();
  await dropdown.waitFor({ state: 'hidden' });
}

/**
 * The auto print screen (/autoPrint) in Chromium: a rule printing the pack list on check-complete
 * is made for a printer a local listener plays, changed and deleted behind a confirmation; a rule
 * on a schedule refuses a bad cron expression with its message, is saved with its cron expression
 * and report, and "Print now" sends the report's PDF to the listener. Codes are made per run.
 */
describe('the auto print screen', () => {
  const e2e = useServerAndBrowser(undefined, { freshServerOnRetry: true });

  it('adds, edits and deletes a check-complete rule, and adds a schedule rule that prints its report', async () => {
    const token = await apiSignIn(e2e.server);
    const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
    const printer = await pdfPrinter();
    try {
      const printerName = `E2E-AP-${run}`;
      await call('/generic/adding', { moduleCode: 'printing', functionCode: 'printer', record: { name: printerName, ip: '127.0.0.1', port: printer.port, printer_type: 'pdf' } });
      // A published pack list template and report template, and a published report of the project.
      const published = async (kind: string, code: string) => {
        const shipped = await call<{ template: unknown }>('/template/shipped', { kind });
        const id = (await call<{ id: number }>('/template/save', { code, kind, name: `${kind} ${run}`, template: shipped.template })).id;
        await call('/template/publish', { id });
        return id;
      };
      const packListTemplate = `PL-${run}`;
      const reportTemplate = `RT-${run}`;
      await published('packList', packListTemplate);
      await published('report', reportTemplate);
      const reportCode = `RPT-${run}`;
      const report = await call<{ id: number }>('/report/generic/save', {
        code: reportCode,
        names: labels(`Scheduled ${run}`),
        displayOrder: 1,
        draft: { sql: 'select code from sku order by code limit 20', params: [], columns: [{ name: 'code', labels: labels('Code'), type: 'text' }], grouping: null },
      });
      await call('/report/generic/publish', { id: report.id });
      const rules = async () => (await call<{ rules: AutoPrintRule[] }>('/config/ireport/autoPrint/list', {})).rules;
      const before = (await rules()).map((r) => r.id);

      const page = await signedInPage(e2e.browser, e2e.server, '/page/autoPrint', { viewport: { width: 1440, height: 900 } });
      const dialog = page.locator('.ant-modal:visible');
      const save = async () => {
        await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      };

      // A check-complete rule: its pack list template on the listener's printer.
      await page.locator('#autoPrintAdd').click();
      await dialog.waitFor();
      await choose(page, 'autoPrintTemplate', packListTemplate);
      await choose(page, 'autoPrintPrinter', printerName);
      await save();
      await dialog.waitFor({ state: 'detached' });
      const row = page.locator('.ant-table-row').filter({ hasText: packListTemplate });
      await row.waitFor();
      expect(await row.innerText()).toContain('Order checked complete (pack list)');
      expect(await row.innerText()).toContain(printerName);
      const made = (await rules()).filter((r) => !before.includes(r.id));
      expect(made).toMatchObject([{ event: 'packing.checkCompleted', copies: 1, active: true, cron: null, reportId: null }]);

      // Edit: two copies.
      await row.getByRole('button', { name: 'Edit' }).click();
      await dialog.waitFor();
      await dialog.locator('#autoPrintCopies').fill('2');
      await save();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => (await rules()).find((r) => r.id === made[0].id)?.copies).toBe(2);

      // Delete, after a confirmation: cancelled first, then confirmed.
      await row.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.locator('.wms-popup-confirm.wms-popup-top');
      await confirm.waitFor();
      expect(await confirm.innerText()).toContain('Delete this auto print rule?');
      await confirm.locator('.wms-popup-cancel').click();
      await confirm.waitFor({ state: 'detached' });
      expect((await rules()).map((r) => r.id)).toContain(made[0].id);
      await row.getByRole('button', { name: 'Delete' }).click();
      await confirm.waitFor();
      await confirm.locator('.wms-popup-ok').click();
      await row.waitFor({ state: 'detached' });
      expect((await rules()).map((r) => r.id)).not.toContain(made[0].id);

      // A schedule rule: the cron expression and the report show once the event is chosen.
      await page.locator('#autoPrintAdd').click();
      await dialog.waitFor();
      expect(await dialog.locator('#autoPrintCron').count()).toBe(0);
      await choose(page, 'autoPrintEvent', 'On a schedule (report)');
      await dialog.locator('#autoPrintCron').waitFor();
      await dialog.locator('#autoPrintCron').fill('every morning');
      await choose(page, 'autoPrintReport', reportCode);
      await choose(page, 'autoPrintTemplate', reportTemplate);
      await choose(page, 'autoPrintPrinter', printerName);
      await save();
      // Refused with the reason; the dialog stays open to correct it.
      const popup = page.locator('.wms-popup-message');
      await eventually(() => popup.allInnerTexts()).toEqual([expect.stringContaining('The expression is not valid')]);
      await popup.locator('.wms-popup-ok').click();
      await popup.first().waitFor({ state: 'detached' });
      expect(await dialog.count()).toBe(1);
      await dialog.locator('#autoPrintCron').fill('0 0 6 * * ?');
      await save();
      await dialog.waitFor({ state: 'detached' });
      const scheduled = page.locator('.ant-table-row').filter({ hasText: reportTemplate });
      await scheduled.waitFor();
      expect(await scheduled.innerText()).toContain(`0 0 6 * * ? · ${reportCode}`);
      const rule = (await rules()).find((r) => r.event === 'schedule' && !before.includes(r.id));
      expect(rule).toMatchObject({ cron: '0 0 6 * * ?', reportId: report.id, copies: 1 });

      // Print now: no order to name; the report's PDF reaches the listener.
      await scheduled.getByRole('button', { name: 'Print now' }).click();
      await dialog.waitFor();
      expect(await dialog.locator('#autoPrintOrderNo').count()).toBe(0);
      await save();
      await eventually(() => printer.received.length).toBe(1);
      expect(printer.received[0].subarray(0, 5).toString('latin1')).toBe('%PDF-');

      await call('/config/ireport/autoPrint/delete', { ids: [rule!.id] });
      await page.context().close();
    } finally {
      await printer.close();
    }
  });
});

/**
 * Import templates in Chromium: three
 * templates for the currency master (slash-delimited csv with a header, "Blank"-delimited text,
 * fixed width), each used from the page's Import dialog; a file with two bad rows is refused whole
 * with both rows listed, and nothing is added.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { apiCall, eventually, signedInPage, useServerAndBrowser, type E2eServer } from '../helpers/browser.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import-templates');

async function addTemplate(server: E2eServer, token: string, code: string, header: Record<string, unknown>, columns: Record<string, unknown>[]): Promise<void> {
  const added = await apiCall<{ row: { _key: number } }>(server, token, '/generic/adding', {
    moduleCode: 'masterdata',
    functionCode: 'importConfig',
    record: { code, name_en: code, module_code: 'masterdata', function_code: 'currency', start_row: 1, ...header },
  });
  for (const [seq, column] of columns.entries()) {
    await apiCall(server, token, '/generic/adding', { moduleCode: 'masterdata', functionCode: 'importConfigColumn', record: { template_id: added.row._key, seq, ...column } });
  }
}

async function currencyCodes(server: E2eServer, token: string): Promise<string[]> {
  const answer = await apiCall<{ rows: { code: string }[] }>(server, token, '/generic/selection', {
    moduleCode: 'masterdata',
    functionCode: 'currency',
    page: 1,
    pageSize: 100,
    conditions: { combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'AA' }] },
  });
  return answer.rows.map((r) => r.code).sort();
}

async function importThrough(page: Page, template: string, fixture: string): Promise<void> {
  const toolbar = page.locator('[data-testid="engine-page"][data-function="currency"] > [data-testid="engine-toolbar"]').first();
  await toolbar.getByTestId('engine-import').click();
  const dialog = page.locator('.ant-modal [data-testid="engine-import"]');
  await dialog.getByTestId('engine-import-format').click();
  await page.locator(`.ant-select-item-option[title*="${template}"]`).click();
  await page.setInputFiles('[data-testid="engine-import-file"]', path.join(FIXTURES, fixture));
  await page.click('#engine-import-run');
}

describe('import templates', () => {
  const ctx = useServerAndBrowser(() => ({}), { freshServerOnRetry: true });

  it('imports slash, Blank and fixed-width files through their templates and refuses a file with two bad rows whole', async () => {
    const { server, browser } = ctx;
    const { token } = await apiCall<{ token: string }>(server, null, '/user/login', { loginAccount: ADMIN.loginAccount, password: ADMIN.password });
    await addTemplate(server, token, 'SLASH', { file_type: 'csv', with_header: true, start_row: 2 }, [
      { field_name: 'code', source_column: 'Code', mandatory: true },
      { field_name: 'description', source_column: 'Description', mandatory: true },
      { field_name: 'decimals', source_column: 'Decimals', data_type: 'integer' },
    ]);
    await addTemplate(server, token, 'BLANK', { file_type: 'csv', delimiter: 'Blank', with_header: false }, [
      { field_name: 'code', source_column: '1', mandatory: true },
      { field_name: 'description', source_column: '2', combined_fields: '3' },
      { field_name: 'decimals', source_column: '4', data_type: 'integer', default_value: '2' },
    ]);
    await addTemplate(server, token, 'FIXED', { file_type: 'fixed', with_header: false }, [
      { field_name: 'code', start_pos: 1, end_pos: 3, mandatory: true },
      { field_name: 'description', start_pos: 4, end_pos: 21, mandatory: true },
      { field_name: 'decimals', start_pos: 22, end_pos: 22, data_type: 'integer' },
    ]);

    const page = await signedInPage(browser, server, '/login', { viewport: { width: 1440, height: 900 } });
    const context = page.context();
    await page.waitForURL(/#\/page/);
    await page.goto(`${server.url}#/page/mapTo?moduleCode=masterdata&functionCode=currency`);
    await page.locator('[data-testid="engine-page"][data-function="currency"] .ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });

    await importThrough(page, 'SLASH', 'slash.csv');
    await page.locator('[data-testid="engine-import-file"]').waitFor({ state: 'detached' });
    await eventually(() => currencyCodes(server, token)).toEqual(['AAA', 'AAB']);
    await importThrough(page, 'BLANK', 'blank.txt');
    await page.locator('[data-testid="engine-import-file"]').waitFor({ state: 'detached' });
    await eventually(() => currencyCodes(server, token)).toEqual(['AAA', 'AAB', 'AAC', 'AAD']);
    await importThrough(page, 'FIXED', 'fixed.txt');
    await page.locator('[data-testid="engine-import-file"]').waitFor({ state: 'detached' });
    await eventually(() => currencyCodes(server, token)).toEqual(['AAA', 'AAB', 'AAC', 'AAD', 'AAE', 'AAF']);

    await importThrough(page, 'SLASH', 'two-bad-rows.csv');
    const problems = page.getByTestId('engine-import-problems');
    await eventually(() => problems.locator('li').allInnerTexts()).toEqual([expect.stringMatching(/^row 3: description/), expect.stringMatching(/^row 4: decimals/)]);
    expect(await currencyCodes(server, token)).toEqual(['AAA', 'AAB', 'AAC', 'AAD', 'AAE', 'AAF']);
    await context.close();
  });
});

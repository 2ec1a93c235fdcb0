import { describe, expect, it } from 'vitest';
import { apiCall, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * The template designer in Chromium: a new pick-list template starts from the shipped one in pdfme's
 * designer, its draft is saved and previewed as a PDF in the page, and it is published as version 1
 * after a confirmation.
 */
describe('template designer in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  const run = `${Date.now()}`.slice(-8);

  it('starts a template from the shipped pick list, previews it as PDF and publishes it', async () => {
    const code = `E2E-TPL-${run}`;
    const page = await signedInPage(e2e.browser, e2e.server, '/page/templateDesigner');
    try {
      await page.getByRole('button', { name: 'New template' }).click();
      const dialog = page.locator('.ant-modal', { hasText: 'New template' });
      await dialog.getByLabel('Code').fill(code);
      await dialog.getByLabel('Name').fill('Pick list of the e2e run');
      await dialog.getByRole('button', { name: 'OK' }).click();
      // pdfme draws the shipped template's page into the designer's box.
      await page.locator('[data-testid="template-designer"] *').first().waitFor({ timeout: 60_000 });

      await page.getByRole('button', { name: 'Preview PDF' }).click();
      const preview = page.getByTestId('template-preview');
      await preview.waitFor({ timeout: 60_000 });
      expect(await preview.getAttribute('src')).toMatch(/^blob:/);
      // The same preview as the server answers it: a PDF.
      const token = await apiSignIn(e2e.server);
      const saved = (await apiCall<Array<{ id: number; code: string }>>(e2e.server, token, '/template/list', {})).find((t) => t.code === code)!;
      const answer = await fetch(new URL('api/report/generic/print/preview', e2e.server.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ templateId: saved.id, draft: true }),
      });
      expect(answer.status).toBe(200);
      expect(Buffer.from(await answer.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      await page.keyboard.press('Escape');
      await preview.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Publish' }).click();
      await page.locator('.wms-popup-ok').click();
      await page.getByText('Published: version 1').waitFor();
      const list = await apiCall<Array<{ code: string; kind: string; publishedVersion: number | null }>>(e2e.server, token, '/template/list', {});
      expect(list.find((t) => t.code === code)).toMatchObject({ kind: 'pickList', publishedVersion: 1 });
      await eventually(() => page.getByText('Published versions').count()).toBe(1);
    } finally {
      await page.context().close();
    }
  });
});

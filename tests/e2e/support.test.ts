/**
 * Support tickets in Chromium (`/support` and the create-ticket screen): a ticket
 * and a reopen-ASN request are created with the create-ticket dialog, through its organization and
 * project pickers, and appear in the ticket list; the ticket's drawer shows its message and log.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { eventually, signedInPage, useServerAndBrowser, type E2eServer } from '../helpers/browser.js';

async function tickets(server: E2eServer, token: string): Promise<Array<{ number: string; subject: string; type: string; asnNumber: string | null; requester: string }>> {
  const response = await fetch(new URL('api/generic/support/getSupportHeaderList', server.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({}),
  });
  return ((await response.json()) as { rows: Array<{ number: string; subject: string; type: string; asnNumber: string | null; requester: string }> }).rows;
}

async function pickFirst(page: Page, testId: string): Promise<void> {
  const select = page.getByTestId('support-create').getByTestId(testId);
  await select.click();
  await page.locator('.ant-select-item-option:visible').first().waitFor();
  await page.keyboard.press('Enter');
  await select.locator('.ant-select-selection-item').waitFor();
}

describe('support tickets', () => {
  const ctx = useServerAndBrowser(() => ({}), { freshServerOnRetry: true });

  it('creates a ticket and a reopen-ASN request with the create-ticket dialog and lists both', async () => {
    const { server, browser } = ctx;
    const login = await fetch(new URL('api/user/login', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ loginAccount: ADMIN.loginAccount, password: ADMIN.password }),
    });
    const { token } = (await login.json()) as { token: string };

    const page = await signedInPage(browser, server, '/login', { viewport: { width: 1440, height: 900 } });
    const context = page.context();
    await page.waitForURL(/#\/page/);
    await page.goto(`${server.url}#/page/support`);
    await page.getByTestId('support-screen').waitFor({ timeout: 60_000 });

    await page.getByTestId('support-create-open').click();
    await page.getByTestId('support-create').waitFor();
    await pickFirst(page, 'support-create-organization');
    await pickFirst(page, 'support-create-project');
    await page.fill('#supportCreate_subject', 'Scanner gun offline');
    await page.fill('#supportCreate_message', 'The RF gun at dock 3 shows no network since the morning.');
    await page.click('#support-create-send');
    await page.getByTestId('support-create').waitFor({ state: 'detached' });

    const list = page.getByTestId('support-list');
    await eventually(() => list.locator('tbody tr').allInnerTexts()).toEqual([expect.stringContaining('Scanner gun offline')]);
    await eventually(() => tickets(server, token)).toEqual([expect.objectContaining({ subject: 'Scanner gun offline', type: 'GEN', requester: ADMIN.loginAccount })]);

    await page.getByTestId('support-create-open').click();
    await page.getByTestId('support-create').waitFor();
    await page.getByTestId('support-create').getByText(/A01/).click();
    await pickFirst(page, 'support-create-organization');
    await pickFirst(page, 'support-create-project');
    await page.fill('#supportCreate_asnNumber', 'ASN20260001');
    await page.fill('#supportCreate_message', 'Closed before the last pallet was received.');
    await page.click('#support-create-send');
    await page.getByTestId('support-create').waitFor({ state: 'detached' });
    await eventually(() => list.locator('tbody tr').allInnerTexts()).toEqual([expect.stringContaining('Reopen ASN ASN20260001'), expect.stringContaining('Scanner gun offline')]);
    const stored = await tickets(server, token);
    expect(stored[0]).toMatchObject({ type: 'A01', asnNumber: 'ASN20260001' });

    await list.locator('tbody tr', { hasText: 'Scanner gun offline' }).click();
    const drawer = page.getByTestId('support-detail');
    await eventually(() => drawer.getByTestId('support-messages').innerText()).toContain('The RF gun at dock 3 shows no network since the morning.');
    await context.close();
  });
});

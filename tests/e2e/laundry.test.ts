import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REDUCED_MOTION, apiCall, apiSignIn, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * The laundry in Chromium (docs/laundry.md): the administrator issues a device (its key shown once)
 * and a customer on the desk; a phone at 360x640 with no session takes the key once, receives three
 * tags for the customer, washes them in a batch, hands them back, and customer info shows them
 * returned. A call without the key, or with another customer's code, is refused. Codes are per run.
 */
describe('the laundry in Chromium', () => {
  const e2e = useServerAndBrowser();

  /** Types into a scan field and presses Enter, as a scanner does. */
  async function scan(page: Page, testId: string, text: string) {
    const field = page.getByTestId(testId);
    await field.waitFor();
    await expect.poll(() => field.evaluate((el) => !(el as HTMLInputElement).disabled)).toBe(true);
    await field.fill(text);
    await field.press('Enter');
  }

  async function success(page: Page, text: string) {
    await page.getByTestId('laundry-success').filter({ hasText: text }).waitFor();
  }

  it('issues a device and a customer, and runs three garments through the phone screens', async () => {
    // Per attempt, so that a retry does not meet the first attempt's device and customer.
    const run = `${Date.now()}`.slice(-8);
    const admin = await signedInPage(e2e.browser, e2e.server, '/page/laundry');
    await admin.getByTestId('laundry-admin').waitFor();
    await admin.fill('#laundry-device-name', `Counter ${run}`);
    await admin.getByTestId('laundry-issue-device').click();
    const key = (await admin.getByTestId('laundry-key-text').innerText()).trim();
    expect(key).toMatch(/^lnd_[A-Za-z0-9_-]{32}$/);
    await admin.getByTestId('laundry-key-qr').waitFor();
    await admin.getByRole('button', { name: 'Close' }).last().click();
    // The list never shows the key again, only its first characters.
    await admin.getByTestId('laundry-devices').getByText(`Counter ${run}`).waitFor();
    expect(await admin.getByTestId('laundry-devices').innerText()).not.toContain(key);

    await admin.getByTestId('laundry-admin').getByRole('tab', { name: 'Customers' }).click();
    await admin.fill('#laundry-customer-name', `Anna ${run}`);
    await admin.fill('#laundry-customer-phone', '+66 81 000 0000');
    await admin.getByTestId('laundry-issue-customer').click();
    const issued = admin.getByTestId('laundry-customer-issued');
    await issued.waitFor();
    const code = (await issued.getAttribute('data-code')) ?? '';
    expect(code).toMatch(/^C[A-Z2-9]{9}$/);
    await admin.context().close();

    // The phone: no session, first use asks for the key.
    const context = await e2e.browser.newContext({ ...REDUCED_MOTION, viewport: { width: 360, height: 640 } });
    const phone = await context.newPage();
    await phone.goto(`${e2e.server.url}#/moose/home`);
    await phone.getByTestId('laundry-key-entry').waitFor();
    await scan(phone, 'laundry-key', `lnd_${'x'.repeat(32)}`);
    await phone.getByTestId('laundry-key-error').filter({ hasText: 'not known' }).waitFor();
    await scan(phone, 'laundry-key', key);
    await phone.getByTestId('laundry-device-name').filter({ hasText: `Counter ${run}` }).waitFor();
    expect(await phone.evaluate(() => window.localStorage.getItem('wms.laundry.deviceKey'))).toBe(key);
    await expect.poll(() => phone.getByTestId('laundry-count-received').innerText()).toBe('0');
    // Phone-sized: nothing wider than the screen.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    const tags = [1, 2, 3].map((n) => `G${run}-${n}`);
    await phone.getByTestId('laundry-go-scan').click();
    await phone.getByTestId('laundry-scan-customer').fill(code);
    for (const tag of tags) {
      await scan(phone, 'laundry-scan-tag', tag);
      await success(phone, `${tag} received for Anna ${run}`);
    }
    // The same tag again is refused while it is in the laundry.
    await scan(phone, 'laundry-scan-tag', tags[0]);
    await phone.getByTestId('laundry-error').filter({ hasText: 'already in the laundry' }).waitFor();

    await phone.getByTestId('laundry-go-home').click();
    await expect.poll(() => phone.getByTestId('laundry-count-received').innerText()).toBe('3');
    await phone.getByTestId('laundry-go-washing').click();
    await phone.getByTestId('laundry-start-batch').click();
    await phone.getByTestId('laundry-batch-title').waitFor();
    // Three scans back to back, as a fast scanner sends them: none is lost while another is answered.
    for (const tag of tags) await scan(phone, 'laundry-batch-tag', tag);
    await success(phone, `${tags[2]} is washing`);
    await expect.poll(() => phone.getByTestId('laundry-batch-tags').innerText()).toMatch(new RegExp(tags.join('[\\s\\S]*')));
    await phone.getByTestId('laundry-finish').click();
    await phone.locator('#laundry-finish-ok').click();
    await success(phone, '3 garment(s) cleaned');

    await phone.getByTestId('laundry-go-home').click();
    await expect.poll(() => phone.getByTestId('laundry-count-cleaned').innerText()).toBe('3');
    await phone.getByTestId('laundry-go-scan').click();
    await phone.getByTestId('laundry-scan-mode').getByText('Return').click();
    await phone.getByTestId('laundry-scan-customer').fill(code);
    for (const tag of tags) {
      await scan(phone, 'laundry-scan-tag', tag);
      await success(phone, `${tag} returned to Anna ${run}`);
    }

    await phone.getByTestId('laundry-go-home').click();
    await expect.poll(() => phone.getByTestId('laundry-count-returned').innerText()).toBe('3');
    await phone.getByTestId('laundry-go-customerInfo').click();
    await scan(phone, 'laundry-customer-code', code);
    await phone.getByTestId('laundry-customer-name').filter({ hasText: `Anna ${run}` }).waitFor();
    const garments = phone.getByTestId('laundry-garment');
    await expect.poll(() => garments.count()).toBe(3);
    const statuses = await phone.locator('[data-testid="laundry-garment"] [data-status]').evaluateAll((tagsShown) => tagsShown.map((el) => el.getAttribute('data-status')));
    expect(statuses).toEqual(['returned', 'returned', 'returned']);

    // Refusals, from the phone's own browser: no key; another customer's code for a garment.
    const token = await apiSignIn(e2e.server);
    const other = await apiCall<{ code: string }>(e2e.server, token, '/laundry/customer/issue', { name: `Other ${run}` });
    const refusals = await phone.evaluate(
      async ({ key, code, otherCode, tag }) => {
        const post = async (path: string, body: unknown, headers: Record<string, string>) => {
          const response = await fetch(`/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
          return [response.status, ((await response.json()) as { code: string }).code] as const;
        };
        await post('/moose/receive', { customerCode: code, tag }, { 'x-laundry-device': key });
        const batch = (await (await fetch('/api/moose/batch/start', { method: 'POST', headers: { 'content-type': 'application/json', 'x-laundry-device': key }, body: '{}' })).json()) as { id: number };
        await post('/moose/batch/add', { batchId: batch.id, tag }, { 'x-laundry-device': key });
        await post('/moose/clean', { batchId: batch.id }, { 'x-laundry-device': key });
        return {
          noKey: await post('/moose/query', { customerCode: code }, {}),
          otherCustomer: await post('/moose/return', { customerCode: otherCode, tag }, { 'x-laundry-device': key }),
        };
      },
      { key, code, otherCode: other.code, tag: `G${run}-4` },
    );
    expect(refusals.noKey).toEqual([401, 'LAUNDRY_DEVICE_KEY_MISSING']);
    expect(refusals.otherCustomer).toEqual([403, 'LAUNDRY_GARMENT_OTHER_CUSTOMER']);
    // The screen says so too.
    await phone.getByTestId('laundry-go-home').click();
    await phone.getByTestId('laundry-go-scan').click();
    await phone.getByTestId('laundry-scan-mode').getByText('Return').click();
    await phone.getByTestId('laundry-scan-customer').fill(other.code);
    await scan(phone, 'laundry-scan-tag', `G${run}-4`);
    await phone.getByTestId('laundry-error').filter({ hasText: 'belongs to another customer' }).waitFor();
    await context.close();
  });
});

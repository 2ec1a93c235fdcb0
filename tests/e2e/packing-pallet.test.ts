import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { apiSelection, apiSignIn, engineToolbar, enginePage, eventually, openEnginePage, popupText, selectFirstEngineRow, tokenSignedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * The pallet page in Chromium: New pallet asks for the location and makes a pallet with its SSCC;
 * on the selected pallet, Add carton asks for the scanned carton after a confirmation and shows an
 * unknown carton's refusal in the user's words, leaving the pallet as it was.
 */
describe('pallets in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }));

  it('makes a pallet at a location, and refuses an unknown carton with a clear message', async () => {
    const token = await apiSignIn(e2e.server);
    const [location] = await apiSelection<{ code: string }>(e2e.server, token, 'masterdata', 'loa');
    expect(location).toBeDefined();
    const before = (await apiSelection<{ pallet_no: string }>(e2e.server, token, 'packing', 'pallet')).length;

    const page = await tokenSignedInPage(e2e.browser, e2e.server, ADMIN, '/page/home');
    await openEnginePage(page, e2e.server, '/page/pallet', 'pallet');
    await engineToolbar(page, 'pallet').getByTestId('engine-behaviour-create').click();
    await page.getByTestId('engine-input-locationCode').fill(location.code);
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    await eventually(async () => (await apiSelection(e2e.server, token, 'packing', 'pallet')).length).toBe(before + 1);
    const [pallet] = await apiSelection<{ pallet_no: string; sscc: string; status: string }>(e2e.server, token, 'packing', 'pallet');
    expect(pallet.sscc).toMatch(/^1[0-9]{17}$/);
    expect(pallet.status).toBe('open');

    await page.reload();
    await openEnginePage(page, e2e.server, '/page/pallet', 'pallet');
    await eventually(() => enginePage(page, 'pallet').getByText(pallet.pallet_no).count()).toBeGreaterThan(0);
    await selectFirstEngineRow(page, 'pallet');
    await engineToolbar(page, 'pallet').getByTestId('engine-behaviour-addCarton').click();
    await expect(page.getByTestId('engine-behaviour-inputs-confirm').textContent()).resolves.toContain('Put the scanned carton onto this pallet?');
    await page.getByTestId('engine-input-carton').fill('NO-SUCH-CARTON');
    await page.getByTestId('engine-behaviour-inputs-ok').click();
    expect(await popupText(page)).toContain('No record found');
    const [after] = await apiSelection<{ status: string; so_id: number | null }>(e2e.server, token, 'packing', 'pallet');
    expect(after).toMatchObject({ status: 'open', so_id: null });
    await page.context().close();
  });
});

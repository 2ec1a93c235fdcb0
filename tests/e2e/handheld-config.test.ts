import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { DeviceSessionRow, HandheldFlowAnswer } from '../../src/common/handheld-api.js';
import { apiCall, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { ledgerDays } from '../helpers/ledger-days.js';

/**
 * A configured handheld flow in Chromium at 360x640 on demo data: putaway through the one runtime
 * with the shipped configuration (scan the LPN, the location, the quantity); a configurator removes
 * the quantity step and renames the location prompt on /handheldConfig and publishes; the runtime,
 * reloaded, follows the new configuration; both putaways write the same ledger rows; the device's
 * scans show on the supervisor's list.
 */
describe('handheld flows a configurator changes without code, in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  const TAG = Date.now().toString(36).slice(-6).toUpperCase();
  let token = '';
  const call = <T>(path: string, body?: unknown): Promise<T> => apiCall<T>(e2e.server, token, path, body);

  type Task = { id: number; asn_no: string; sku_code: string; lpn: string; qty: string };
  type LogRow = { trans_type: string; sku_code: string; location_code: string; qty: string; lpn: string };

  const scan = async (page: Page, text: string) => {
    const field = page.locator('[data-testid="scan-field"]');
    await field.waitFor();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  };
  const step = (page: Page) => page.locator('[data-testid="rf-prompt"]').getAttribute('data-step');
  const feedback = (page: Page) => page.locator('[data-testid="handheld-feedback"]');

  it('puts away with the shipped flow, then follows a published change after a reload, with the same ledger', async () => {
    token = await apiSignIn(e2e.server);
    const owner = (await call<{ rows: { _key: number; code: string }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'ogr', page: 1, pageSize: 10 })).rows[0];
    const skus = (await call<{ rows: { _key: number; code: string; owner_id: number }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'sku', page: 1, pageSize: 100 })).rows.filter(
      (s) => s.owner_id === owner._key,
    );
    const [skuA, skuB] = [skus[10], skus[11]];
    const asn = await call<{ id: number; asn_no: string }>('/asn/saveHeader', { ownerCode: owner.code, remark: `E2E handheld ${TAG}` });
    const detail = await call<{ lines: { id: number; sku_code: string }[] }>('/asn/saveDetail', {
      asnId: asn.id,
      lines: [
        { skuCode: skuA.code, expectedQty: 4 },
        { skuCode: skuB.code, expectedQty: 4 },
      ],
    });
    const lpnOf = (skuCode: string) => `LPN-${TAG}-${skuCode === skuA.code ? 'A' : 'B'}`;
    await call('/inbound/batch/receive', { lines: detail.lines.map((l) => ({ asnLineId: l.id, qty: '4', locationCode: 'DOCK-01', lpn: lpnOf(l.sku_code) })) });
    const tasks = (await call<{ tasks: Task[] }>('/putaway/tasks')).tasks.filter((t) => t.asn_no === asn.asn_no);
    expect(tasks.map((t) => [t.sku_code, t.lpn, Number(t.qty)]).sort()).toEqual([
      [skuA.code, lpnOf(skuA.code), 4],
      [skuB.code, lpnOf(skuB.code), 4],
    ]);

    // The handheld signs in once for the shift with its device id, then runs the shipped flow.
    const device = `RF-${TAG}`;
    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/rfFlow', { viewport: { width: 360, height: 640 } });
    await handheld.locator('[data-testid="rf-sign-in"]').waitFor({ timeout: 60_000 });
    await handheld.getByTestId('rf-device-id').fill(device);
    await handheld.getByTestId('rf-device-id').press('Enter');
    await handheld.locator('[data-testid="rf-flow"]').waitFor();
    expect(await handheld.getByTestId('rf-version').innerText()).toContain('Standard flow');
    expect(await handheld.locator('[data-testid="rf-prompt"] label').innerText()).toContain('Scan LPN, pallet or carton');

    const putAway = async (sku: string, expectQtyStep: boolean): Promise<string> => {
      await scan(handheld, lpnOf(sku));
      await eventually(() => step(handheld)).toBe('location');
      const location = (await handheld.getByTestId('rf-suggested').getAttribute('data-location'))!;
      expect(location).not.toBe('');
      const label = await handheld.locator('[data-testid="rf-prompt"] label').innerText();
      await scan(handheld, location);
      if (expectQtyStep) {
        await eventually(() => step(handheld)).toBe('qty');
        expect(await handheld.locator('[data-testid="rf-prompt"] label').innerText()).toContain('Quantity to put away (all: 4)');
        await scan(handheld, '4');
      }
      await eventually(() => feedback(handheld).getAttribute('data-tone')).toBe('success');
      expect(await feedback(handheld).innerText()).toContain(location);
      await eventually(() => step(handheld)).toBe('search');
      return `${label}|${location}`;
    };
    const [, locationA] = (await putAway(skuA.code, true)).split('|');

    // The configurator, on a desk screen: a configuration of putaway (its draft is the shipped flow), the
    // quantity step removed (after its confirmation) and the location prompt renamed, published.
    const desk = await signedInPage(e2e.browser, e2e.server, '/page/handheldConfig', { viewport: { width: 1440, height: 900 } });
    await desk.locator('[data-testid="hh-config"]').waitFor({ timeout: 60_000 });
    await desk.getByTestId('hh-new-code').fill(`PUT-${TAG}`);
    await desk.getByTestId('hh-new-name').fill('Putaway without quantity');
    await desk.getByTestId('hh-new').click();
    await desk.locator('[data-testid="hh-editor"]').waitFor();
    expect(await desk.getByTestId('hh-step-1-scanName').inputValue()).toBe('qty');
    await desk.getByTestId('hh-step-1-remove').click();
    await desk.locator('[data-popup-id="hh-step-remove-confirm"]').waitFor();
    await desk.locator('.wms-popup-ok').click();
    await eventually(() => desk.getByTestId('hh-step-1-scanName').count()).toBe(0);
    await desk.getByTestId('hh-step-0-prompt').fill(`Scan the bin ${TAG}`);
    await desk.getByTestId('hh-publish').click();
    await eventually(() => desk.locator('[data-testid="hh-editor"]').innerText()).toContain('version 1 published');
    expect(await desk.getByTestId('hh-problems').count()).toBe(0);
    const flow = await call<HandheldFlowAnswer>('/handheld/flow?fn=putaway');
    expect(flow).toMatchObject({ code: `PUT-${TAG}`, version: 1 });
    expect(flow.definition.steps.map((s) => [s.scanName, s.prompt])).toEqual([['location', `Scan the bin ${TAG}`]]);

    // The runtime, reloaded (no restart of anything): the new prompt, and no quantity step.
    await handheld.reload();
    await handheld.locator('[data-testid="rf-flow"]').waitFor({ timeout: 60_000 });
    expect(await handheld.getByTestId('rf-version').innerText()).toContain(`Configuration PUT-${TAG}, version 1`);
    const [labelB, locationB] = (await putAway(skuB.code, false)).split('|');
    expect(labelB).toContain(`Scan the bin ${TAG}`);
    expect((await call<{ tasks: Task[] }>('/putaway/tasks')).tasks.filter((t) => t.asn_no === asn.asn_no)).toEqual([]);

    // The same ledger through both flows: the whole quantity from the dock to the scanned location.
    const log = (await call<{ rows: LogRow[] }>('/inventory/transactionLog', { transType: 'all', ...ledgerDays(), orderNo: asn.asn_no, pageSize: 100 })).rows;
    const shape = (sku: string, location: string) =>
      log
        .filter((r) => r.sku_code === sku && r.trans_type !== 'receive')
        .map((r) => [r.trans_type, Number(r.qty), r.location_code === 'DOCK-01' ? 'dock' : r.location_code === location ? 'scanned' : r.location_code, r.lpn === lpnOf(sku) ? 'lpn' : r.lpn])
        .sort();
    expect(shape(skuA.code, locationA).length).toBeGreaterThan(0);
    expect(shape(skuB.code, locationB)).toEqual(shape(skuA.code, locationA));

    // The supervisor's list: the device, its user, its flow and its last scan.
    const devices = (await call<{ rows: DeviceSessionRow[] }>('/rfUser/devices')).rows.filter((r) => r.deviceId === device);
    expect(devices.map((r) => [r.login, r.flow])).toEqual([['admin', 'putaway']]);
    expect(devices[0].lastScanAt).not.toBeNull();
    const list = await signedInPage(e2e.browser, e2e.server, '/page/rfDevices', { viewport: { width: 1440, height: 900 } });
    await list.locator(`[data-testid="rf-last-scan-${device}"]`).waitFor({ timeout: 60_000 });
    expect(await list.locator(`[data-testid="rf-last-scan-${device}"]`).innerText()).not.toBe('—');
  });
});

/**
 * A refused call signs the user out of this client, so a screen must neither ask nor offer what the
 * user's rights do not allow: a user of the seeded Read-only role opens the handheld configurations,
 * one of the seeded Supervisor role (who may look at templates, not change them) the template
 * designer, and a Read-only user the order wizard. Each stays signed in, no call is refused, and no
 * button that writes is shown.
 */
describe('configuration screens for users who may only look, in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }));
  const PASSWORD = 'Look-0nly!Passw0rd';

  async function userOfRole(roleName: string, loginAccount: string): Promise<{ loginAccount: string; password: string }> {
    const token = await apiSignIn(e2e.server);
    const roles = (await apiCall<{ rows: { id: number; name: string }[] }>(e2e.server, token, '/role/fetch', { page: 1, pageSize: 50 })).rows;
    const role = roles.find((r) => r.name === roleName);
    expect(role, roleName).toBeDefined();
    const status = await apiCall<{ project: { id: number }; warehouse: { id: number } }>(e2e.server, token, '/user/status');
    await apiCall(e2e.server, token, '/user/save', {
      loginAccount,
      displayName: loginAccount,
      password: PASSWORD,
      projectIds: [status.project.id],
      warehouseIds: [status.warehouse.id],
      defaultProjectId: status.project.id,
      defaultWarehouseId: status.warehouse.id,
      roleIds: [role!.id],
    });
    return { loginAccount, password: PASSWORD };
  }

  /** Opens the route as the user and collects every API answer of 401 or 403 while it settles. */
  async function openAs(account: { loginAccount: string; password: string }, route: string, ready: string): Promise<{ page: Page; refused: string[] }> {
    const refused: string[] = [];
    const page = await signedInPage(e2e.browser, e2e.server, route, { account });
    page.on('response', (r) => {
      if ((r.status() === 401 || r.status() === 403) && r.url().includes('/api/')) refused.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    await page.locator(`[data-testid="${ready}"]`).waitFor({ timeout: 60_000 });
    // The screen's calls start when it shows and when the user's rights are in: give them time to
    // answer. A refusal missed by the listener (it is attached once the page is open) still shows
    // as the sign-in page in the address, which the tests check.
    await page.waitForTimeout(2_000);
    return { page, refused };
  }

  it('the Read-only role sees the handheld configurations and stays signed in, offered no change', async () => {
    await apiCall(e2e.server, await apiSignIn(e2e.server), '/handheld/config/create', { code: 'LOOK', name: 'Look only', fn: 'putaway' });
    const { page, refused } = await openAs(await userOfRole('Read-only', 'look-hh'), '/page/handheldConfig', 'hh-config');
    expect(refused).toEqual([]);
    expect(page.url()).toContain('/page/handheldConfig');
    expect(await page.getByTestId('hh-new').count()).toBe(0);
    await page.locator('[data-testid="hh-config"] tbody tr[data-code="LOOK"]').click();
    await page.getByTestId('hh-editor').waitFor();
    for (const id of ['hh-save', 'hh-publish', 'hh-copy']) expect(await page.getByTestId(id).count(), id).toBe(0);
    expect(refused).toEqual([]);
  });

  it('the Supervisor role sees the template designer and stays signed in, offered no new template', async () => {
    const { page, refused } = await openAs(await userOfRole('Supervisor', 'look-tpl'), '/page/templateDesigner', 'template-pick');
    expect(refused).toEqual([]);
    expect(page.url()).toContain('/page/templateDesigner');
    expect(await page.getByRole('button', { name: 'New template' }).count()).toBe(0);
  });

  it('the Read-only role opens the order wizard and is told it may only look, offered no step that saves', async () => {
    const { page, refused } = await openAs(await userOfRole('Read-only', 'look-wiz'), '/page/wineOrder', 'wizard-wine');
    await page.getByTestId('wizard-view-only').waitFor();
    expect(await page.getByTestId('wizard-view-only').innerText()).toContain('You may look at this wizard, not create orders with it.');
    for (const id of ['wizard-next', 'wizard-reset', 'wizard-submit']) expect(await page.getByTestId(id).count(), id).toBe(0);
    // Enter in a field saves the step for a user who may add; here it does nothing.
    await page.locator('[data-testid="wizard-wine"] input').first().press('Enter');
    await page.waitForTimeout(1_000);
    expect(refused).toEqual([]);
    expect(page.url()).toContain('/page/wineOrder');
  });
});

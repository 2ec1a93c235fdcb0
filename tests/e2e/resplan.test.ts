import { describe, expect, it } from 'vitest';
import type { ResPlanWithLines } from '../../src/common/resplan-api.js';
import { apiCall, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * Resource planning in Chromium (docs/resplan.md), on the demonstration warehouse's open work: a
 * shift is made with its people and equipment per activity (nobody on receiving) and a rate per
 * activity; a new plan of today and that shift is calculated, its lines and the chart of required
 * against available hours show, receiving is marked over capacity as the server says, and the plan
 * is confirmed after a confirmation: it can no longer be calculated. Codes are per attempt.
 */
describe('resource planning in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });

  it('creates a shift and rates, calculates a plan, shows the chart and confirms the plan', async () => {
    const run = `${Date.now()}`.slice(-8);
    const code = `E${run}`;
    const token = await apiSignIn(e2e.server);
    const page = await signedInPage(e2e.browser, e2e.server, '/page/resPlan');
    await page.getByTestId('resplan-screen').waitFor();

    // Shifts: a day shift running every day; receiving has nobody.
    await page.getByTestId('resplan-screen').getByRole('tab', { name: 'Shifts', exact: true }).click();
    await page.getByTestId('resplan-new-shift').click();
    await page.fill('#resplan-shift-code', code);
    await page.fill('#resplan-shift-name', `Day ${run}`);
    await page.fill('#resplan-shift-start', '06:00');
    await page.fill('#resplan-shift-end', '14:00');
    for (const day of ['Sat', 'Sun']) await page.getByTestId('resplan-shift-days').getByText(day, { exact: true }).click();
    const resources: Array<[string, string, string]> = [
      ['putaway', '2', '1'],
      ['picking', '3', '0'],
      ['packing', '2', '0'],
      ['loading', '1', '1'],
    ];
    for (const [activity, heads, equipment] of resources) {
      await page.fill(`#resplan-res-${activity}-headcount`, heads);
      await page.fill(`#resplan-res-${activity}-equipment`, equipment);
    }
    await page.fill('#resplan-res-loading-hours', '4');
    await page.getByTestId('resplan-shift-save').click();
    await eventually(() => page.getByTestId('resplan-shift-outcome-success').innerText()).toBe(`Shift ${code} saved.`);
    const shiftRow = page.locator(`[data-testid="resplan-shift-list"] tr[data-code="${code}"]`);
    await shiftRow.waitFor();
    expect(await shiftRow.innerText()).toContain('06:00-14:00 (8.00 h)');

    // Rates: one per activity; putaway needs a forklift.
    await page.getByTestId('resplan-screen').getByRole('tab', { name: 'Rates', exact: true }).click();
    // The rates stored so far fill the form once read: type after that.
    await page.locator('[data-testid="resplan-rates"][data-loaded="true"]').waitFor();
    // The rates are read again after each save; here that answer is held until the next row has been
    // typed, as on a busy server: what is typed meanwhile stays in its form.
    const lateList = '**/api/getResPlanRateList';
    const held: Array<() => void> = [];
    await page.route(lateList, async (route) => {
      await new Promise<void>((resolve) => held.push(resolve));
      await route.continue();
    });
    const answerHeldList = async () => {
      await eventually(() => held.length).toBe(1);
      const answered = page.waitForResponse((response) => response.url().endsWith('/api/getResPlanRateList'));
      held.shift()!();
      await answered;
    };
    const rates: Array<[string, string, string]> = [
      ['receiving', 'Receiving', '6'],
      ['putaway', 'Putaway', '10'],
      ['picking', 'Picking', '30'],
      ['packing', 'Packing', '25'],
      ['loading', 'Loading', '40'],
    ];
    for (const [index, [activity, label, perHour]] of rates.entries()) {
      await page.fill(`#resplan-rate-${activity}-labour`, perHour);
      if (index > 0) await answerHeldList();
      if (activity === 'putaway') {
        await page.getByTestId('resplan-rate-putaway-kind').click();
        await page.locator('.ant-select-item-option', { hasText: 'Forklift' }).click();
        await page.fill('#resplan-rate-putaway-equipment', '12');
      }
      expect(await page.inputValue(`#resplan-rate-${activity}-labour`)).toBe(perHour);
      await page.getByTestId(`resplan-rate-${activity}-save`).click();
      // Either outcome, so that a refusal shows its message.
      await eventually(() => page.locator('[data-testid^="resplan-rate-outcome-"]').innerText()).toBe(`Rate of ${label} saved.`);
    }
    await answerHeldList();
    await page.unroute(lateList);

    // Plans: a new plan of today and the shift, calculated.
    await page.getByTestId('resplan-screen').getByRole('tab', { name: 'Plans', exact: true }).click();
    await page.getByTestId('resplan-new-plan').click();
    await page.getByTestId('resplan-plan-form').waitFor();
    await page.getByTestId('resplan-plan-shift').click();
    await page.locator('.ant-select-item-option', { hasText: code }).click();
    await page.locator('#resplan-plan-save').click();
    const created = page.getByTestId('resplan-outcome-success');
    await eventually(() => created.innerText()).toMatch(/^Plan RP\d{10} created\./);
    const planNo = (await created.innerText()).split(' ')[1];
    const detail = page.getByTestId('resplan-detail');
    await eventually(() => detail.getAttribute('data-plan-no')).toBe(planNo);
    await page.locator(`[data-testid="resplan-list"] tr[data-plan-no="${planNo}"]`).waitFor();

    await page.getByTestId('resplan-calculate').click();
    await eventually(() => page.getByTestId('resplan-outcome-success').innerText()).toBe(`Plan ${planNo} calculated from the open work.`);
    const lines = page.locator('[data-testid="resplan-lines"] tbody tr[data-activity]');
    await eventually(() => lines.count()).toBe(5);

    // The screen shows what the server calculated: the chart's bars and the activities over capacity.
    const list = await apiCall<{ rows: Array<{ id: number; planNo: string }> }>(e2e.server, token, '/getResPlanHeaderList', { planNo });
    const plan = await apiCall<ResPlanWithLines>(e2e.server, token, '/getResPlanHeader', { id: list.rows[0].id });
    const receiving = plan.lines.find((l) => l.activity === 'receiving')!;
    // The demonstration warehouse has ASNs to receive, and nobody receives on this shift.
    expect(Number(receiving.openQty)).toBeGreaterThan(0);
    expect(receiving).toMatchObject({ availableLabourHours: '0.00', overCapacity: true });
    expect(plan.overCapacity).toBe(true);
    const chart = page.getByTestId('resplan-chart');
    const bars = plan.lines.map((l) => `${l.activity}:${Number(l.labourHours)}:${Number(l.availableLabourHours)}:${Number(l.equipmentHours)}:${Number(l.availableEquipmentHours)}${l.overCapacity ? ':over' : ''}`);
    await eventually(async () => ((await chart.getAttribute('data-bars')) ?? '').split(' ').slice(0, 5)).toEqual(bars);
    // echarts drew it: one bar per series and category (4 x 6).
    await eventually(() => page.locator('[data-testid="resplan-chart-canvas"] svg path').count()).toBeGreaterThanOrEqual(plan.lines.length);
    for (const l of plan.lines) expect(await page.locator(`[data-testid="resplan-lines"] tr[data-activity="${l.activity}"]`).getAttribute('data-over')).toBe(String(l.overCapacity));
    expect(await page.locator('[data-testid="resplan-lines"] tr[data-activity="receiving"]').innerText()).toContain('Over capacity');

    // Confirm, after a confirmation: frozen.
    await page.getByTestId('resplan-confirm').click();
    await page.locator('[data-popup-id="resplan-confirm-confirm"]').waitFor();
    await page.locator('.wms-popup-ok').click();
    await eventually(() => page.getByTestId('resplan-outcome-success').innerText()).toBe(`Plan ${planNo} confirmed.`);
    await eventually(() => detail.getAttribute('data-status')).toBe('confirmed');
    expect(await page.getByTestId('resplan-calculate').count()).toBe(0);
    expect(await page.getByTestId('resplan-delete').count()).toBe(0);
    const confirmed = await apiCall<ResPlanWithLines>(e2e.server, token, '/getResPlanHeader', { id: plan.id });
    expect(confirmed).toMatchObject({ status: 'confirmed', confirmedBy: 'admin' });
    expect(confirmed.lines).toEqual(plan.lines);
    await page.context().close();
  });
});

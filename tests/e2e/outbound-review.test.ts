import { describe, expect, it } from 'vitest';
import { apiCall, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { rfEnter, rfReady, rfStep } from '../helpers/rf-flow-e2e.js';

/**
 * The /pick screen for a shift on the demo data: Unpick asks before it moves stock back; on the
 * handheld (its handheld tab, the handheld runtime's pick function), Escape starts over and a
 * scanned barcode is not taken for a quantity, and a scanner that reads the tote twice while the
 * confirm is under way confirms once and shows the pick as done.
 */
const DEVICE = `REVIEW-${Date.now().toString(36).toUpperCase()}`;

describe('/pick: unpick confirmation and a double scan on the handheld', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  type Task = { id: number; location_code: string; sku_code: string; qty: string; picked_qty: string; status: string };
  const tasks = async () => {
    const waves = (await apiCall<{ rows: Array<{ id: number }> }>(e2e.server, token, '/wave/list', {})).rows;
    const all: Task[] = [];
    for (const w of waves) all.push(...(await apiCall<{ tasks: Task[] }>(e2e.server, token, '/pick/tasks', { waveId: w.id })).tasks);
    return all;
  };

  it('asks before Unpick and changes nothing when the answer is no', async () => {
    token = await apiSignIn(e2e.server);
    const picked = (await tasks()).find((x) => Number(x.picked_qty) > 0)!;
    expect(picked).toBeDefined();
    const page = await signedInPage(e2e.browser, e2e.server, '/page/pick', { viewport: { width: 1440, height: 900 } });
    await page.getByTestId(`unpick-${picked.id}`).click();
    const confirm = page.locator('.ant-popconfirm');
    await confirm.waitFor({ timeout: 10_000 });
    expect(await confirm.innerText()).toContain('allocated again');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForTimeout(500);
    expect((await tasks()).find((x) => x.id === picked.id)!.picked_qty).toBe(picked.picked_qty);
    await page.getByTestId(`unpick-${picked.id}`).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await eventually(async () => Number((await tasks()).find((x) => x.id === picked.id)!.picked_qty)).toBe(0);
    await page.context().close();
  });

  it('on the handheld, Escape starts over and a scanned barcode is no quantity', async () => {
    token = await apiSignIn(e2e.server);
    const open = (await apiCall<{ tasks: Task[] }>(e2e.server, token, '/pick/tasks', { openOnly: true })).tasks[0];
    const page = await signedInPage(e2e.browser, e2e.server, '/page/pick', { viewport: { width: 360, height: 640 } });
    await rfReady(page, DEVICE);
    await rfEnter(page, String(open.id), 'location');
    await rfEnter(page, open.location_code, 'sku');
    await rfEnter(page, open.sku_code, 'qty');
    await rfEnter(page, '1e0', 'qty');
    await eventually(() => page.getByTestId('handheld-feedback').getAttribute('data-tone')).toBe('error');
    await page.keyboard.press('Escape');
    await eventually(() => rfStep(page), 5_000).toBe('search');
    expect(await page.getByTestId('rf-task').count()).toBe(0);
    expect((await tasks()).find((x) => x.id === open.id)!.picked_qty).toBe(open.picked_qty);
    await page.context().close();
  });

  it('confirms once when the tote is scanned twice during the confirm, and shows the pick as done', async () => {
    token = await apiSignIn(e2e.server);
    const open = (await apiCall<{ tasks: Task[] }>(e2e.server, token, '/pick/tasks', { openOnly: true })).tasks[0];
    const page = await signedInPage(e2e.browser, e2e.server, '/page/pick', { viewport: { width: 360, height: 640 } });
    let confirms = 0;
    await page.route('**/api/pick/confirm', async (route) => {
      confirms += 1;
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await rfReady(page, DEVICE);
    await rfEnter(page, String(open.id), 'location');
    await rfEnter(page, open.location_code, 'sku');
    await rfEnter(page, open.sku_code, 'qty');
    await rfEnter(page, String(Number(open.qty) - Number(open.picked_qty)), 'tote');
    await page.keyboard.type('TOTE-TWICE');
    await page.keyboard.press('Enter');
    await page.keyboard.type('TOTE-TWICE');
    await page.keyboard.press('Enter');
    await eventually(() => page.getByTestId('handheld-feedback').getAttribute('data-tone')).toBe('success');
    await page.waitForTimeout(1500);
    expect(await page.getByTestId('handheld-feedback').getAttribute('data-tone')).toBe('success');
    expect(confirms).toBe(1);
    expect((await tasks()).find((x) => x.id === open.id)!.status).toBe('picked');
    await page.context().close();
  });
});

import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { localeText } from '../helpers/locales.js';

/** The engine's add/edit form and the designer's labels, in Chromium against the built app. */
describe('forms in Chromium', () => {
  // The demonstration data: owners, units and SKUs to choose and to collide with.
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });

  async function adminToken(): Promise<string> {
    const answer = await fetch(new URL('api/user/login', e2e.server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    return ((await answer.json()) as { token: string }).token;
  }

  async function setLanguage(token: string, language: string): Promise<void> {
    const answer = await fetch(new URL('api/user/defaultLang', e2e.server.url), {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ language }),
    });
    expect(answer.status).toBe(200);
  }

  /** A fresh browser context of the given size, signed in as the administrator at `route`. */
  async function signedInAt(route: string, viewport = { width: 1440, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
    const page = await signedInPage(e2e.browser, e2e.server, route, { viewport });
    return { context: page.context(), page };
  }

  /** Opens the add form of an engine page. */
  async function openAddForm(page: Page, functionCode: string) {
    const grid = page.locator(`[data-testid="engine-page"][data-function="${functionCode}"]`).first();
    await grid.locator('.ag-header-cell-text').filter({ hasText: /\S/ }).first().waitFor({ timeout: 60_000 });
    await grid.getByTestId('engine-add').click();
    const form = page.locator('[data-testid="engine-form"][data-mode="add"]');
    await form.waitFor();
    return form;
  }

  async function chooseOption(page: Page, inputId: string, optionTitle: string): Promise<void> {
    await page.locator(`.ant-select:has(#${inputId})`).click();
    await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${optionTitle}"]`).click();
  }

  /** Whether the element is inside the visible part of the form's scroll area and of the window. */
  function inView(page: Page, selector: string) {
    return page.evaluate((selector) => {
      const element = document.querySelector(selector)!;
      const area = document.querySelector('[data-testid="engine-form-scroll"]')!.getBoundingClientRect();
      const box = element.getBoundingClientRect();
      return box.top >= area.top && box.bottom <= area.bottom && box.bottom <= window.innerHeight;
    }, selector);
  }

  const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
  const scrollTop = (page: Page) => page.locator('[data-testid="engine-form-scroll"]').evaluate((area) => area.scrollTop);

  it('a save with two errors lists both at the top, scrolls back to the first and puts the cursor in it', async () => {
    const { context, page } = await signedInAt('/page/sku');
    try {
      await openAddForm(page, 'sku');
      await chooseOption(page, 'engine_sku_owner_id', 'ACME - ACME Electronics Ltd');
      // The user is at the bottom of the long form: the dialog's own area is scrolled, not the window.
      await page.locator('[data-testid="engine-form-scroll"]').evaluate((area) => {
        area.scrollTop = area.scrollHeight;
      });
      expect(await scrollTop(page)).toBeGreaterThan(0);
      expect(await inView(page, '#engine_sku_code')).toBe(false);

      await page.locator('#engine-form-save').click();
      const summary = page.getByTestId('engine-form-summary');
      await summary.waitFor();
      const items = summary.getByTestId('engine-form-summary-item');
      await expect.poll(() => items.evaluateAll((links) => links.map((link) => link.getAttribute('data-field')))).toEqual(['code', 'description']);
      const required = localeText('en', 'ui.engine.form.required');
      expect(await summary.locator('li').allInnerTexts()).toEqual([
        `${localeText('en', 'md.field.skuCode')}: ${required}`,
        `${localeText('en', 'md.field.description')}: ${required}`,
      ]);
      await expect.poll(() => focusedId(page)).toBe('engine_sku_code');
      expect(await inView(page, '#engine_sku_code')).toBe(true);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);

      // An entry of the summary takes the cursor to its field.
      await items.nth(1).click();
      await expect.poll(() => focusedId(page)).toBe('engine_sku_description');

      // The server's field problems are listed the same way: a code that exists for the owner.
      await page.fill('#engine_sku_description', 'Duplicate in the browser');
      await page.fill('#engine_sku_code', 'AC-1002');
      await page.locator('[data-testid="engine-form-scroll"]').evaluate((area) => {
        area.scrollTop = area.scrollHeight;
      });
      await page.locator('#engine-form-save').click();
      await expect.poll(() => items.evaluateAll((links) => links.map((link) => link.getAttribute('data-field')))).toEqual(['code', 'owner_id']);
      await expect.poll(() => focusedId(page)).toBe('engine_sku_code');
      expect(await inView(page, '#engine_sku_code')).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('shows the groups of a definition under their headings, in two columns on a wide screen and one on a phone', async () => {
    const cellBox = async (page: Page, name: string) => (await page.locator(`[data-testid="engine-form"] [data-field="${name}"]`).boundingBox())!;
    const wide = await signedInAt('/page/whs');
    try {
      const form = await openAddForm(wide.page, 'whs');
      expect(await form.getAttribute('data-columns')).toBe('2');
      expect(await form.getByTestId('engine-form-group-title').allInnerTexts()).toEqual([
        localeText('en', 'md.group.contact'),
        localeText('en', 'md.group.address'),
        localeText('en', 'md.group.status'),
      ]);
      // code and name side by side; the first address line over the whole row (measured once the opening form has settled)
      await expect.poll(async () => Math.abs((await cellBox(wide.page, 'code')).y - (await cellBox(wide.page, 'name')).y)).toBeLessThan(2);
      const [code, name, address1, city, province] = await Promise.all(['code', 'name', 'address1', 'city', 'province'].map((n) => cellBox(wide.page, n)));
      expect(Math.abs(code.y - name.y)).toBeLessThan(2);
      expect(name.x).toBeGreaterThan(code.x + code.width / 2);
      expect(address1.width).toBeGreaterThan(code.width * 1.8);
      expect(Math.abs(city.y - province.y)).toBeLessThan(2);
      // the contact fields are in the contact section
      const contact = form.locator('[data-testid="engine-form-section"][data-group="md.group.contact"] [data-field]');
      expect(await contact.evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-field')))).toEqual(['contact_name', 'phone', 'email']);
    } finally {
      await wide.context.close();
    }
    const phone = await signedInAt('/page/whs', { width: 360, height: 640 });
    try {
      const form = await openAddForm(phone.page, 'whs');
      expect(await form.getAttribute('data-columns')).toBe('1');
      await form.getByTestId('engine-form-group-title').first().waitFor();
      await expect.poll(async () => Math.abs((await cellBox(phone.page, 'code')).x - (await cellBox(phone.page, 'name')).x)).toBeLessThan(2);
      const [code, name] = await Promise.all(['code', 'name'].map((n) => cellBox(phone.page, n)));
      expect(Math.abs(code.x - name.x)).toBeLessThan(2);
      expect(name.y).toBeGreaterThan(code.y + code.height / 2);
      // the form fits the phone's width
      expect(await phone.page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    } finally {
      await phone.context.close();
    }
  });

  it('gives a numeric field a number input that takes typed and scanned digits as they are', async () => {
    const { context, page } = await signedInAt('/page/sku');
    try {
      await openAddForm(page, 'sku');
      const caseQty = page.locator('#engine_sku_case_qty');
      expect(await caseQty.evaluate((input: HTMLInputElement) => [input.type, input.step, input.inputMode])).toEqual(['number', '0.0001', 'decimal']);
      expect(await page.locator('#engine_sku_shelf_life_days').evaluate((input: HTMLInputElement) => [input.type, input.step])).toEqual(['number', '1']);
      // a scanner types its digits and presses nothing else
      await caseQty.pressSequentially('12.5');
      await expect.poll(() => caseQty.inputValue()).toBe('12.5');
      await page.fill('#engine_sku_length_cm', '10');
      await page.fill('#engine_sku_width_cm', '20');
      await page.fill('#engine_sku_height_cm', '3');
      await expect.poll(() => page.inputValue('#engine_sku_volume_cm3')).toBe('600');
    } finally {
      await context.close();
    }
  });

  it('the designer shows field types, property labels and choices in the user language', async () => {
    const token = await adminToken();
    await setLanguage(token, 'jp');
    const { context, page } = await signedInAt('/page/generic');
    try {
      await page.waitForSelector('[data-designer-root]');
      await page.getByTestId('designer-page-masterdata/whs').click();
      await page.waitForSelector('[data-testid="designer-editor"][data-function="whs"]');
      await page.locator('[data-testid="designer-editor"] .ant-tabs-tab[data-node-key="fields"]').click();
      const firstRow = page.locator('[data-testid^="designer-fields-row-"]:not([data-testid$="-handle"])').first();
      await expect.poll(() => firstRow.innerText()).toContain(`code · ${localeText('jp', 'ui.designer.value.type.string')}`);
      const groupLabel = page.locator('[data-testid="designer-fields-prop-group-item"] .ant-form-item-label label');
      expect(await groupLabel.innerText()).toBe(localeText('jp', 'ui.designer.prop.group'));
      expect(await page.locator('[data-testid="designer-fields-prop-type-item"] .ant-form-item-label label').innerText()).toBe(localeText('jp', 'ui.designer.prop.type'));
      expect(await page.locator('[data-testid="designer-fields-prop-type"] .ant-select-selection-item').innerText()).toBe(localeText('jp', 'ui.designer.value.type.string'));
      // the width of a field is chosen among translated choices
      await page.getByTestId('designer-fields-prop-width').click();
      await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${localeText('jp', 'ui.designer.value.width.full')}"]`).click();
      await expect.poll(() => page.locator('[data-testid="designer-fields-prop-width"] .ant-select-selection-item').innerText()).toBe(localeText('jp', 'ui.designer.value.width.full'));
      expect(await page.getByTestId('designer-dirty').count()).toBe(1);
    } finally {
      await context.close();
      await setLanguage(token, 'en');
    }
  });
});

import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { scanInto } from './pack-e2e.js';

/** The handheld runtime (/rfFlow) in a browser test: a scan into its one field, the step asked and its prompt. */
export const rfScan = (page: Page, text: string): Promise<void> => scanInto(page, 'scan-field', text);
export const rfStep = (page: Page): Promise<string | null> => page.locator('[data-testid="rf-prompt"]').getAttribute('data-step');
export const rfLabel = (page: Page): Promise<string> => page.locator('[data-testid="rf-prompt"] label').innerText();

/** A scan into the runtime's field, then waits until it asks the step `next` (its scan name, `reason`, `rest` or `search`). */
export async function rfEnter(page: Page, text: string, next: string): Promise<void> {
  await rfScan(page, text);
  await expect.poll(() => rfStep(page), { timeout: 30_000, interval: 100 }).toBe(next);
}

/**
 * The runtime ready to scan, on /rfFlow or a screen that opens it (the handheld tab of /pick): a
 * handheld not signed in yet signs in for the shift with `device`; one signed in already (the same
 * user's device of an earlier page) goes on.
 */
export async function rfReady(page: Page, device: string): Promise<void> {
  const signIn = page.getByTestId('rf-sign-in');
  await page.locator('[data-testid="rf-sign-in"], [data-testid="rf-flow"]').first().waitFor({ timeout: 60_000 });
  if (await signIn.isVisible()) {
    await page.getByTestId('rf-device-id').fill(device);
    await page.getByTestId('rf-device-id').press('Enter');
  }
  await page.getByTestId('rf-flow').waitFor();
}

type Call = <T>(path: string, body?: unknown) => Promise<T>;
type Selection = <T>(moduleCode: string, functionCode: string, rules?: unknown[]) => Promise<T[]>;

/**
 * A SKU `sku` of the first owner received 30 at A-03-2 through an ASN, and `count` orders of 2 each
 * (numbered `<prefix>-1`...), allocated, each with its one pick task at A-03-2: work for the
 * handheld picking tests.
 */
export async function pickableOrders(call: Call, selection: Selection, sku: string, prefix: string, count: number) {
  const owner = (await selection<{ _key: number; code: string }>('masterdata', 'ogr'))[0];
  const made = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: sku, owner_id: owner._key, description: `Pick item ${prefix}`, base_uom: 'EA' } })).row;
  const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
  await call('/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: sku, expectedQty: 30 }] });
  const asnLine = (await call<{ lines: { id: number }[] }>('/asn/getDetail', { id: asn.id })).lines[0];
  await call('/inbound/batch/receive', { lines: [{ asnLineId: asnLine.id, qty: 30, locationCode: 'A-03-2' }] });
  const orders: Array<{ soId: number; orderNo: string; taskId: number }> = [];
  for (let i = 1; i <= count; i += 1) {
    const orderNo = `${prefix}-${i}`;
    const record = { order_no: orderNo, owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01' };
    const header = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'outbound', functionCode: 'so', record })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: header._key, sku_id: made._key, qty: '2' } });
    await call('/so/header/allocation', { soIds: [header._key] });
    const tasks = await call<{ tasks: Array<{ id: number; location_code: string }> }>('/so/pick', { soId: header._key });
    expect(tasks.tasks.map((x) => x.location_code)).toEqual(['A-03-2']);
    orders.push({ soId: header._key, orderNo, taskId: tasks.tasks[0].id });
  }
  return { owner, sku: made, orders };
}

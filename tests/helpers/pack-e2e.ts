import net from 'node:net';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { gs1CheckDigit } from '../../src/common/gs1.js';
import { apiCall, apiSelection, eventually, type E2eServer } from './browser.js';

/**
 * What the packing browser tests build through the API: SKUs with an EAN-13 each, their stock
 * received at a pick face, and picked orders of them (entered, waved, released, every task picked
 * onto a tote). Every code is made per run.
 */
export function packSetup(server: () => E2eServer, token: () => string, prefix: string) {
  const call = <T>(path: string, body?: unknown) => apiCall<T>(server(), token(), path, body);
  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(server(), token(), moduleCode, functionCode, rules);
  const run = `${Date.now()}`.slice(-9);
  const ean13 = (twelve: string) => twelve + gs1CheckDigit(twelve);
  const skus = [1, 2].map((n) => ({ code: `E2E-${prefix}-${n}-${run}`, ean: ean13(`2${n}${run}${n}`) }));

  /** The SKUs, with their barcodes, and `qty` of each received at the pick face A-01-2 (the first SKU's of lot `lotNo`, when given). */
  async function receive(qty: number, lotNo?: string) {
    const owner = (await selection<{ _key: number; code: string }>('masterdata', 'ogr'))[0];
    for (const { code, ean } of skus) {
      const sku = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code, owner_id: owner._key, description: `Pack item ${code}`, base_uom: 'EA' } })).row;
      await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'skuUpc', record: { sku_id: sku._key, upc: ean, uom: 'EA', qty: '1' } });
    }
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', { asnId: asn.id, lines: skus.map((s) => ({ skuCode: s.code, expectedQty: qty })) });
    const asnLines = (await call<{ lines: { id: number }[] }>('/asn/getDetail', { id: asn.id })).lines;
    await call('/inbound/batch/receive', { lines: asnLines.map((l, i) => ({ asnLineId: l.id, qty, locationCode: 'A-01-2', ...(i === 0 && lotNo ? { lotNo } : {}) })) });
  }

  /** A picked order of these lines (SKU index, qty). */
  async function pickedOrder(orderNo: string, lines: Array<[number, number]>): Promise<{ soId: number; tasks: Array<{ location_code: string; sku_code: string; qty: string }> }> {
    const owner = (await selection<{ _key: number }>('masterdata', 'ogr'))[0];
    const header = (
      await call<{ row: { _key: number } }>('/generic/adding', {
        moduleCode: 'outbound',
        functionCode: 'so',
        record: { order_no: orderNo, owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01', carrier_code: `${prefix}${run}`.slice(0, 20) },
      })
    ).row;
    for (const [index, qty] of lines) {
      const sku = (await selection<{ _key: number }>('masterdata', 'sku', [{ field: 'code', operator: '=', value: skus[index].code }]))[0];
      await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: header._key, sku_id: sku._key, qty: String(qty) } });
    }
    const wave = await call<{ waveId: number }>('/so/wave/save', { orderIds: [header._key] });
    await call('/wave/release', { waveId: wave.waveId });
    const tasks = (await call<{ tasks: Array<{ id: number; location_code: string; sku_code: string; qty: string }> }>('/pick/tasks', { soId: header._key, openOnly: true })).tasks;
    for (const task of tasks) await call('/pick/confirm', { taskId: task.id, locationCode: task.location_code, sku: task.sku_code, qty: String(Number(task.qty)), toLpn: `TOTE-${run}` });
    const order = (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: orderNo }]))[0];
    expect(order.status).toBe('picked');
    return { soId: header._key, tasks };
  }

  return { call, selection, run, skus, receive, pickedOrder };
}

/** A local listener playing a raw ZPL printer: it keeps what each connection sent. */
export async function fakePrinter(port = 0): Promise<{ port: number; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port nothing listens on: taken from the system, then given back. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Types into the focused scan field of this test id and presses Enter, as a keyboard-wedge scanner does. */
export async function scanInto(page: Page, testId: string, text: string): Promise<void> {
  const field = page.getByTestId(testId);
  await field.waitFor();
  await expect.poll(() => field.evaluate((el) => el === document.activeElement && !(el as HTMLInputElement).disabled)).toBe(true);
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/** Waits until the handheld feedback line says this (its start) with this tone. */
export async function toldOn(page: Page, tone: string, text: string): Promise<void> {
  const feedback = page.getByTestId('handheld-feedback');
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await eventually(async () => `${await feedback.getAttribute('data-tone')}|${await feedback.innerText()}`).toMatch(new RegExp(`^${tone}\\|${escaped}`));
}

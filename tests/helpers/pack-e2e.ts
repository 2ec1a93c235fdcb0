import net from 'node:net';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { gs1CheckDigit } from '../../src/common/gs1.js';
import { apiCall, apiSelection, eventually, type E2eServer } from './browser.js';

let setups = 0;

/**
 * What the packing browser tests build through the API: SKUs with an EAN-13 each, their stock
 * received at a pick face, and picked orders of them (entered, waved, released, every task picked
 * onto a tote). Every code is made per run. The owner is the first one, or the one of `ownerCode`.
 */
export function packSetup(server: () => E2eServer, token: () => string, prefix: string, ownerCode?: string) {
  const call = <T>(path: string, body?: unknown) => apiCall<T>(server(), token(), path, body);
  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(server(), token(), moduleCode, functionCode, rules);
  // Two setups of one test file differ in their run (their EANs are made of it).
  const run = `${Date.now() + setups++}`.slice(-9);
  const ean13 = (twelve: string) => twelve + gs1CheckDigit(twelve);
  const skus = [1, 2].map((n) => ({ code: `E2E-${prefix}-${n}-${run}`, ean: ean13(`2${n}${run}${n}`) }));
  const theOwner = async () => (await selection<{ _key: number; code: string }>('masterdata', 'ogr', ownerCode ? [{ field: 'code', operator: '=', value: ownerCode }] : []))[0];

  /** The SKUs, with their barcodes, and `qty` of each received at the pick face A-01-2 (the first SKU's of lot `lotNo`, when given). */
  async function receive(qty: number, lotNo?: string) {
    const owner = await theOwner();
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
    const owner = await theOwner();
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

type ApiCall = <T>(path: string, body?: unknown) => Promise<T>;

/**
 * Packs a picked order through the API as the pack bench does: each carton (its barcodes and
 * quantities) opened, filled and closed with weights; the order is checked complete unless told
 * not to. Answers the carton numbers in packing order.
 */
export async function packCartons(call: ApiCall, order: { soId: number; orderNo: string }, cartons: Array<Array<[barcode: string, qty: number]>>, checkComplete = true): Promise<string[]> {
  await call('/scanPack', { orderNo: order.orderNo });
  const cartonNos: string[] = [];
  for (const lines of cartons) {
    const carton = (await call<{ openCarton: { id: number; cartonNo: string } }>('/pack/scan/open', { soId: order.soId })).openCarton;
    for (const [barcode, qty] of lines) await call('/pack/scan/sku', { cartonId: carton.id, barcode, qty });
    await call('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });
    cartonNos.push(carton.cartonNo);
  }
  if (checkComplete) await call('/scanPack/closeOrder', { soId: order.soId });
  return cartonNos;
}

/** A closed pallet at the location holding these cartons (by number). */
export async function palletOfCartons(call: ApiCall, locationCode: string, cartonNos: string[]): Promise<{ id: number; sscc: string }> {
  const pallet = await call<{ id: number; sscc: string }>('/pallet/create', { locationCode });
  for (const carton of cartonNos) await call('/pallet/addCarton', { palletId: pallet.id, carton });
  await call('/pallet/close', { palletId: pallet.id, grossWeight: 20, weightUom: 'KG' });
  return pallet;
}

/** A row of the stock balance page (inventory/balance) and of the ledger enquiry (inventory/enquiryUser), as the checks of ledger = balance read them. */
export type BalanceRow = { sku_code: string; lot_no: string | null; location_code: string; lpn: string | null; on_hand_qty: string };
export type LedgerRow = Omit<BalanceRow, 'on_hand_qty'> & { qty: string };

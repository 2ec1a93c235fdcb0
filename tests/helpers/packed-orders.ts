import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../src/server/db/schema.js';
import { injectAs, json } from './app.js';
import { orderCalls, stock, type OutboundFixture } from './outbound.js';

/**
 * Packed orders through the real server, as the scan-pack screen makes them: stock received at the
 * pick face, the order entered, allocated and picked onto a tote, each line packed into its own
 * carton, the cartons closed (they get their SSCC) and the order checked complete; optionally the
 * cartons stand on a closed pallet.
 */
export interface PackedCarton {
  id: number;
  cartonNo: string;
  status: string;
  sscc: string | null;
}

export interface PackedOrder {
  soId: number;
  orderNo: string;
  cartons: PackedCarton[];
}

export function packedOrderCalls(app: FastifyInstance, token: string, db: Kysely<DB>, f: OutboundFixture, tag: string) {
  let seq = 0;
  const tote = `TOTE-${tag}`;
  const post = (url: string, payload: Record<string, unknown>) => injectAs(app, token, { method: 'POST', url: `/api${url}`, payload });
  async function ok<T>(url: string, payload: Record<string, unknown>): Promise<T> {
    const response = await post(url, payload);
    expect(response.statusCode, `${url} ${response.body}`).toBe(200);
    return json<T>(response);
  }
  const skuCode = async (index: number) => (await db.selectFrom('sku').select('code').where('id', '=', f.skuIds[index]).executeTakeFirstOrThrow()).code;

  /** A picked order of these lines (SKU index, qty); `waveNo` puts it on that wave first. */
  async function pickedOrder(lines: Array<[number, number]>): Promise<{ soId: number; orderNo: string }> {
    const orders = orderCalls(app, token, db);
    for (const [sku, qty] of lines) await stock(db, f, f.skuIds[sku], f.locationIds[0], qty);
    const orderNo = `SO-${tag}-${++seq}`;
    const soId = await orders.enter(orderNo, f.ownerId, await Promise.all(lines.map(async ([sku, qty]) => ({ skuCode: await skuCode(sku), qty }))));
    await orders.allocate(soId);
    expect((await post('/so/pick', { soId })).statusCode).toBe(200);
    for (const [sku] of lines) await orders.pickSku(soId, f.skuIds[sku], await skuCode(sku), tote);
    return { soId, orderNo };
  }

  /** Packs each line (or each part of `split` qty) into its own carton, closes them and checks the order complete. */
  async function packedOrder(lines: Array<[number, number]>, options: { checkComplete?: boolean; cartonsPerLine?: number } = {}): Promise<PackedOrder> {
    const order = await pickedOrder(lines);
    await ok('/scanPack', { orderNo: order.orderNo });
    const per = options.cartonsPerLine ?? 1;
    for (const [sku, qty] of lines) {
      for (let part = 0; part < per; part++) {
        const share = part === per - 1 ? qty - Math.floor(qty / per) * (per - 1) : Math.floor(qty / per);
        const carton = (await ok<{ openCarton: PackedCarton }>('/pack/scan/open', { soId: order.soId })).openCarton;
        await ok('/pack/scan/sku', { cartonId: carton.id, barcode: await skuCode(sku), qty: share });
        await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });
      }
    }
    const answer = options.checkComplete === false ? await ok<{ cartons: PackedCarton[] }>('/scanPack', { orderNo: order.orderNo }) : await ok<{ cartons: PackedCarton[] }>('/scanPack/closeOrder', { soId: order.soId });
    return { ...order, cartons: answer.cartons };
  }

  /** A closed pallet at the location holding these cartons (by number). */
  async function palletOf(locationCode: string, cartonNos: string[]): Promise<{ id: number; palletNo: string; sscc: string }> {
    const pallet = await ok<{ id: number; palletNo: string; sscc: string }>('/pallet/create', { locationCode });
    for (const carton of cartonNos) await ok('/pallet/addCarton', { palletId: pallet.id, carton });
    await ok('/pallet/close', { palletId: pallet.id, grossWeight: 20, weightUom: 'KG' });
    return pallet;
  }

  return { pickedOrder, packedOrder, palletOf };
}

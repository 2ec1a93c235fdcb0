import Decimal from 'decimal.js';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../src/server/db/schema.js';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from './outbound.js';

/**
 * Orders ready for packing, made through the real server, for the packing tests (scan pack,
 * splitting cartons, carton labels, and any test that starts at the pack bench).
 *
 *   const pack = await packingFixture(t.app, admin, t.database.db, `PK${RUN}`, 3);
 *   const { soId, orderNo } = await pickedOrder(pack, `SOPK-${RUN}-1`, [[0, 5], [1, 2]], { tote: 'TOTE-PK' });
 *
 * `packingFixture` makes an owner with `skus` SKUs and a pick face (`outboundFixture`) and reads
 * their codes; `pickedOrder` receives each line's stock at the pick face (in lot `lotNo` if given),
 * enters the order on the /so pages, allocates it, releases it to picking and, unless `pick` is
 * false, picks every line in full onto the licence plate `tote` at the staging location. Use a
 * per-run unique tag and order number.
 */
export interface PackingFixture extends OutboundFixture {
  app: FastifyInstance;
  /** The session token the orders are made with. */
  token: string;
  db: Kysely<DB>;
  /** The SKUs' codes, in the order of `skuIds`. */
  skuCodes: string[];
}

export async function packingFixture(app: FastifyInstance, token: string, db: Kysely<DB>, tag: string, skus: number): Promise<PackingFixture> {
  const f = await outboundFixture(db, tag, skus);
  const skuCodes = (await db.selectFrom('sku').select('code').where('id', 'in', f.skuIds).orderBy('id').execute()).map((r) => r.code);
  return { ...f, app, token, db, skuCodes };
}

/** A picked order of these lines (SKU index, qty), its stock received first at the pick face. */
export async function pickedOrder(
  pack: PackingFixture,
  orderNo: string,
  lines: Array<[sku: number, qty: number]>,
  options: { tote: string; pick?: boolean; lotNo?: string },
): Promise<{ soId: number; orderNo: string }> {
  const orders = orderCalls(pack.app, pack.token, pack.db);
  for (const [sku, qty] of lines) await stock(pack.db, pack, pack.skuIds[sku], pack.locationIds[0], qty, options.lotNo ? { lotNo: options.lotNo } : {});
  const soId = await orders.enter(orderNo, pack.ownerId, lines.map(([sku, qty]) => ({ skuCode: pack.skuCodes[sku], qty })));
  await orders.allocate(soId);
  const released = await orders.post('/so/pick', { soId });
  expect(released.statusCode, released.body).toBe(200);
  if (options.pick ?? true) for (const [sku] of lines) await orders.pickSku(soId, pack.skuIds[sku], pack.skuCodes[sku], options.tote);
  return { soId, orderNo };
}

/** Every balance (of the project, when given) holds what its ledger rows add up to, on hand and picked. */
export async function expectLedgerAgrees(db: Kysely<DB>, projectId?: number): Promise<void> {
  for (const row of await ledgerAgreement(db, projectId)) {
    expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_picked).equals(row.picked_qty), `picked of balance ${row.id}`).toBe(true);
  }
}

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/server/db/transaction.js';
import { lotFor, receiveStock } from '../../src/server/modules/inventory/inventory.service.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture } from '../helpers/outbound.js';

/**
 * The home item "Unbilled shipments this month" counts orders by the time they were shipped: an
 * order shipped last month and changed this month is not counted; one shipped this month is.
 */
describe('unbilled shipments on the home page', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp();
    token = await signIn(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts an order by its shipped time, not by its last change', async () => {
    const db = t.database.db;
    const tag = `U${Date.now().toString(36).toUpperCase()}`;
    const f = await outboundFixture(db, tag, 1);
    // A receipt, whose ledger row is the template of the shipments written below.
    const receiptId = await inTransaction(db, async (trx) => {
      const lot = await lotFor(trx, f.scope, f.ownerId, f.skuIds[0], {});
      const applied = await receiveStock(trx, f.scope, { key: { ownerId: f.ownerId, skuId: f.skuIds[0], lotId: lot.id, locationId: f.locationIds[1] }, qty: 10, reference: { type: 'test', orderNo: `R-${tag}` } });
      return applied.ledgerId;
    });
    const order = async (no: string, status: string) =>
      Number(
        (
          await db
            .insertInto('so_header')
            .values({ project_id: f.scope.projectId, warehouse_id: f.scope.warehouseId, order_no: no, owner_id: f.ownerId, status, ship_to_name: null, ship_to_address_en: null, ship_to_address_cn: null, carrier_code: null, required_ship_date: null, created_by: 'tester', updated_by: 'tester' } as never)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const lastMonth = await order(`LM-${tag}`, 'delivered');
    const thisMonth = await order(`TM-${tag}`, 'shipped');
    const never = await order(`NS-${tag}`, 'shipped');
    // The shipments: the 15th of last month and now, as ledger `ship` rows referring to the orders.
    const columns = (
      await sql<{ column_name: string }>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'inventory_transaction' and column_name <> 'id' and is_generated = 'NEVER' order by ordinal_position`.execute(db)
    ).rows.map((r) => r.column_name);
    const ship = async (orderNo: string, at: string) => {
      const overridden: Record<string, string> = { trans_type: `'ship'`, trans_time: at, reference_type: `'so'`, order_no: `'${orderNo}'`, qty: '-1' };
      await sql.raw(`insert into inventory_transaction (${columns.join(', ')}) select ${columns.map((c) => overridden[c] ?? c).join(', ')} from inventory_transaction where id = ${receiptId}`).execute(db);
    };
    await ship(`LM-${tag}`, `date_trunc('month', now()) - interval '16 days'`);
    await ship(`TM-${tag}`, 'now()');
    // Last month's order changed this month (delivered today).
    await db.updateTable('so_header').set({ updated_at: sql`now()` }).where('id', '=', lastMonth).execute();

    const counted = (await sql<{ id: string }>`select id from billing_unbilled_activity where id in (${lastMonth}, ${thisMonth}, ${never}) order by id`.execute(db)).rows.map((r) => Number(r.id));
    expect(counted).toEqual([thisMonth]);

    const response = await injectAs(t.app, token, { method: 'GET', url: '/api/home/summary' });
    expect(response.statusCode).toBe(200);
    const unbilled = json<{ work: Array<{ kind: string; total: number }> }>(response).work.find((w) => w.kind === 'unbilled');
    const inWarehouse = (await sql<{ n: string }>`select count(*)::text as n from billing_unbilled_activity where warehouse_id = ${f.scope.warehouseId}`.execute(db)).rows[0];
    expect(unbilled?.total).toBe(Number(inWarehouse.n));
    expect(unbilled?.total).toBeGreaterThan(0);
  });
});

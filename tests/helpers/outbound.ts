import Decimal from 'decimal.js';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../src/server/db/schema.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { injectAs, json } from './app.js';
import { holdStock, lotFor, receiveStock, type LotAttributes, type StockScope } from '../../src/server/modules/inventory/inventory.service.js';

/** Master data and stock for the outbound tests and benchmark, made through the inventory service. */
export interface OutboundFixture {
  scope: StockScope;
  ownerId: number;
  skuIds: number[];
  /** Storage locations; the first is a pick face. */
  locationIds: number[];
}

export async function outboundFixture(db: Kysely<DB>, tag: string, skus: number, locations = 4): Promise<OutboundFixture> {
  const project = await db.selectFrom('project').select(['id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
  const scope: StockScope = { projectId: project.id, warehouseId: warehouse.id, operator: 'tester' };
  const owner = await db.insertInto('owner').values({ project_id: project.id, code: `OW-${tag}`, name: `Owner ${tag}` }).returning('id').executeTakeFirstOrThrow();
  const skuIds: number[] = [];
  for (let start = 0; start < skus; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, skus - start) }, (_, i) => ({ project_id: project.id, owner_id: owner.id, code: `SKU-${tag}-${start + i}`, description: `SKU ${start + i}` }));
    skuIds.push(...(await db.insertInto('sku').values(rows).returning('id').execute()).map((r) => r.id));
  }
  const locationRows = Array.from({ length: locations }, (_, i) => ({
    warehouse_id: warehouse.id,
    code: `L-${tag}-${i}`,
    location_type: i === 0 ? ('pick' as const) : ('storage' as const),
    pick_seq: locations - i,
  }));
  const locationIds = (await db.insertInto('location').values(locationRows).returning('id').execute()).map((r) => r.id);
  return { scope, ownerId: owner.id, skuIds, locationIds };
}

/** Receives `qty` of a SKU into a location, in a lot of these attributes; `held` of it on hold. */
export async function stock(db: Kysely<DB>, f: OutboundFixture, skuId: number, locationId: number, qty: number, lot: LotAttributes = {}, held = 0): Promise<number> {
  return inTransaction(db, async (trx) => {
    const row = await lotFor(trx, f.scope, f.ownerId, skuId, lot);
    const key = { ownerId: f.ownerId, skuId, lotId: row.id, locationId };
    await receiveStock(trx, f.scope, { key, qty, reference: { type: 'test', orderNo: 'RCV' } });
    if (held > 0) await holdStock(trx, f.scope, { key, qty: held });
    return row.id;
  });
}

/** Sales orders through the real server as one caller: entered on the /so pages, allocated, picked. */
export function orderCalls(app: FastifyInstance, token: string, db: Kysely<DB>) {
  const post = (url: string, payload: Record<string, unknown>) => injectAs(app, token, { method: 'POST', url: `/api${url}`, payload });
  const addHeader = async (record: Record<string, unknown>): Promise<number> => {
    const added = await post('/generic/adding', { moduleCode: 'outbound', functionCode: 'so', record: { ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-01-31', ...record } });
    expect(added.statusCode, added.body).toBe(200);
    return json<{ row: { _key: number } }>(added).row._key;
  };
  return {
    post,
    /** A new order of the owner (the /so page's add), its lines by SKU code through /so/save/soDetail. */
    async enter(orderNo: string, ownerId: number, lines: Array<{ skuCode: string; qty: number }>): Promise<number> {
      const id = await addHeader({ order_no: orderNo, owner_id: ownerId });
      const saved = await post('/so/save/soDetail', { soId: id, lines });
      expect(saved.statusCode, saved.body).toBe(200);
      return id;
    },
    /** A new order with these header fields (the /so page's add), its lines added one by one on the lines page, SKU by id. */
    async enterOnPages(record: Record<string, unknown>, lines: Array<{ skuId: number; qty: number }>): Promise<number> {
      const id = await addHeader(record);
      for (const line of lines) {
        const response = await post('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: id, sku_id: line.skuId, qty: String(line.qty) } });
        expect(response.statusCode, response.body).toBe(200);
      }
      return id;
    },
    /** Allocates the whole order; every line must be served. */
    async allocate(soId: number): Promise<void> {
      const response = await post('/so/header/allocation', { soIds: [soId] });
      expect(response.statusCode, response.body).toBe(200);
      expect(json<{ shortages: unknown[] }>(response).shortages).toEqual([]);
    },
    /** Picks every open task of the order for this SKU in full, onto `toLpn` at the staging location. */
    async pickSku(soId: number, skuId: number, skuCode: string, toLpn: string): Promise<void> {
      const tasks = await db.selectFrom('pick_task').select(['id', 'qty', 'location_id']).where('so_id', '=', soId).where('sku_id', '=', skuId).where('status', '=', 'open').execute();
      expect(tasks.length).toBeGreaterThan(0);
      for (const task of tasks) {
        const location = await db.selectFrom('location').select('code').where('id', '=', task.location_id).executeTakeFirstOrThrow();
        const picked = await post('/pick/confirm', { taskId: task.id, locationCode: location.code, sku: skuCode, qty: new Decimal(task.qty).toString(), toLpn });
        expect(picked.statusCode, picked.body).toBe(200);
      }
    },
  };
}

/** The orders, their lines, allocations, tasks, balances and the ledger's size: what a read-only or refused call must leave as it was. */
export async function outboundSnapshot(db: Kysely<DB>, soIds: readonly number[]) {
  return {
    orders: await db.selectFrom('so_header').select(['id', 'status', 'wave_id', 'remark', 'updated_at']).where('id', 'in', [...soIds]).orderBy('id').execute(),
    lines: await db.selectFrom('so_line').select(['id', 'qty', 'allocated_qty', 'picked_qty', 'updated_at']).where('so_id', 'in', [...soIds]).orderBy('id').execute(),
    allocations: await db.selectFrom('so_allocation').select(['id', 'qty']).orderBy('id').execute(),
    tasks: await db.selectFrom('pick_task').select(['id', 'status', 'picked_qty']).orderBy('id').execute(),
    balances: await db.selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty']).orderBy('id').execute(),
    ledger: (await db.selectFrom('inventory_transaction').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
  };
}

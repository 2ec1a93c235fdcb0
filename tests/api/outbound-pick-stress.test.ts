import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../../src/server/db/database.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { holdStock, receiveStock } from '../../src/server/modules/inventory/inventory.service.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { createTestDatabase, onRealServer } from '../helpers/database.js';
import { orderInvariantViolations } from '../helpers/order-invariant.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * A shift of 8 clients through the real server on PostgreSQL for OUTBOUND_PICK_STRESS_SECONDS
 * (default 60): they allocate, unallocate (whole orders and single lines), cancel, close and delete
 * orders, make pick tasks, pick, short-pick (giving the rest back or looking for it elsewhere) and
 * unpick, all over the same orders and the same stock, and confirm tasks they saw a while ago that
 * may have been undone since. No call may answer a 5xx, every refusal has a known code, and
 * afterwards the stock and order-level invariant holds: ledger = balance, nothing over-committed,
 * every balance's and line's allocated = its allocation records, no open task beyond its record and
 * none of an ended order; on-hand per SKU is what was received.
 */
if (!onRealServer) console.warn('skipped: the 8-client picking stress test needs real PostgreSQL sessions; set TEST_DATABASE_URL to run it');

const SECONDS = Number(process.env.OUTBOUND_PICK_STRESS_SECONDS ?? 60);
const CLIENTS = 8;
const ORDERS = 24;
const SKUS = 3;
const LOCATIONS = 3;

/** Refusals a shift may meet when others got there first. */
const EXPECTED_REFUSALS = new Set([
  'INSUFFICIENT_INVENTORY',
  'ORDER_STATUS_ERROR',
  'DELETE_CANCEL_NOT_ALLOWED',
  'PICK_TASK_CLOSED',
  'PICK_TASK_STALE',
  'OVER_PICK',
  'NO_PICKED_STOCK',
]);

let t: TestApp;
let f: OutboundFixture;
const received = new Map<number, Decimal>();

beforeAll(async () => {
  if (!onRealServer) return;
  // The app gets a pool as wide as the shift, as a server would.
  const base = await createTestDatabase();
  const wide = await connectPostgres(base.url!, CLIENTS + 4);
  t = await buildTestApp(
    {},
    {
      database: {
        ...wide,
        url: base.url,
        async close() {
          await wide.close();
          await base.close();
        },
      },
    },
  );
  f = await outboundFixture(t.database.db, 'PS', SKUS, LOCATIONS);
  await t.database.db.insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: 'STAGE-PS', location_type: 'stage' }).execute();
  for (const skuId of f.skuIds) {
    for (const [i, locationId] of f.locationIds.entries()) await stock(t.database.db, f, skuId, locationId, 12, { lotNo: `PS${i}` });
    received.set(skuId, new Decimal(12 * LOCATIONS));
  }
});

afterAll(async () => {
  await t?.close();
});

interface KnownTask {
  id: number;
  soId: number;
  location: string;
  sku: string;
  left: Decimal;
}

describe('a shift of 8 clients allocating, undoing and picking the same stock', () => {
  it.runIf(onRealServer)(
    'never answers a 5xx and keeps the stock and order-level invariant',
    async () => {
      const db = t.database.db;
      const tokens = await Promise.all(Array.from({ length: CLIENTS }, () => signIn(t.app)));
      const skuCodes = await Promise.all(f.skuIds.map(async (id) => (await db.selectFrom('sku').select('code').where('id', '=', id).executeTakeFirstOrThrow()).code));
      let orderSeq = 0;
      const enter = async (token: string): Promise<number> => {
        orderSeq += 1;
        const lines = [0, 1].map((l) => ({ skuCode: skuCodes[(orderSeq + l) % SKUS], qty: 2 + ((orderSeq * 3 + l * 5) % 6) }));
        return orderCalls(t.app, token, db).enter(`PS-${orderSeq}`, f.ownerId, lines);
      };
      const orders: number[] = [];
      for (let i = 0; i < ORDERS; i += 1) orders.push(await enter(tokens[0]));

      // What the shift has seen: open tasks (possibly undone since) and tasks with something picked.
      const open = new Map<number, KnownTask>();
      const picked = new Map<number, KnownTask>();
      const statuses = new Map<string, number>();
      const fiveHundreds: string[] = [];
      const unexpected: string[] = [];
      const done: Record<string, number> = {};
      const count = (kind: string, response: { statusCode: number; body: string }) => {
        const code = response.statusCode === 200 ? '' : ((JSON.parse(response.body) as { code?: string }).code ?? '');
        const key = `${kind} ${response.statusCode}${code ? ` ${code}` : ''}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (response.statusCode >= 500) fiveHundreds.push(`${kind}: ${response.statusCode} ${response.body}`);
        else if (response.statusCode === 200) done[kind] = (done[kind] ?? 0) + 1;
        else if (!EXPECTED_REFUSALS.has(code)) unexpected.push(`${kind}: ${response.statusCode} ${response.body}`);
        return response.statusCode === 200;
      };
      const pickOf = <T>(list: readonly T[]): T | undefined => list[Math.floor(Math.random() * list.length)];

      async function step(token: string): Promise<void> {
        const post = (url: string, payload: Record<string, unknown>) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });
        const behave = (behaviour: string, soId: number) => post('/generic/behavior', { moduleCode: 'outbound', functionCode: 'so', behaviour, keys: [soId], inputs: {} });
        const slot = Math.floor(Math.random() * orders.length);
        const soId = orders[slot];
        const dice = Math.random();
        if (dice < 0.22) {
          count('allocate', await post('/so/header/allocation', { soIds: [soId] }));
        } else if (dice < 0.3) {
          count('unallocate', await post('/so/header/allocation', { soIds: [soId], unallocate: true }));
        } else if (dice < 0.35) {
          const line = pickOf(await db.selectFrom('so_line').select('id').where('so_id', '=', soId).execute());
          if (line) count('unallocateLine', await post('/so/detail/allocation', { lineIds: [Number(line.id)], unallocate: true }));
        } else if (dice < 0.39) {
          // Cancel, close or delete: the order ends and a new one takes its place.
          const kind = dice < 0.375 ? 'cancel' : dice < 0.383 ? 'close' : 'delete';
          if (count(kind, await behave(kind, soId))) orders[slot] = await enter(token);
        } else if (dice < 0.52) {
          const response = await post('/so/pick', { soId });
          if (count('makeTasks', response)) {
            for (const task of json<{ tasks: Array<{ id: number; status: string; qty: string; picked_qty: string; location_code: string; sku_code: string }> }>(response).tasks) {
              const known = { id: task.id, soId, location: task.location_code, sku: task.sku_code, left: new Decimal(task.qty).minus(task.picked_qty) };
              if (task.status === 'open') open.set(task.id, known);
              if (new Decimal(task.picked_qty).greaterThan(0)) picked.set(task.id, known);
            }
          }
        } else if (dice < 0.86) {
          const task = pickOf([...open.values()]);
          if (!task) return;
          const short = dice >= 0.74;
          const qty = short ? task.left.dividedToIntegerBy(2) : task.left;
          const body = { taskId: task.id, locationCode: task.location, sku: task.sku, qty: qty.toString(), toLpn: `PS-${task.soId}` };
          const response = await post('/pick/confirm', short ? { ...body, shortReason: 'Not found', reallocate: dice >= 0.8 } : body);
          if (count(short ? (dice >= 0.8 ? 'shortElsewhere' : 'short') : 'pick', response)) {
            const answer = json<{ taskStatus: string }>(response);
            if (answer.taskStatus !== 'open') open.delete(task.id);
            else task.left = task.left.minus(qty);
            if (qty.greaterThan(0)) picked.set(task.id, task);
          } else open.delete(task.id);
        } else {
          const task = pickOf([...picked.values()]);
          if (!task) return;
          picked.delete(task.id);
          count('unpick', await post('/pick/unpick', { taskId: task.id }));
        }
      }

      // Goods in and counts between the calls: held stock (shorted "not found") is released and thin
      // rows are topped up, so the shift keeps having something to allocate.
      const settle = async () => {
        // Counted once committed: a retried attempt receives again from the start.
        const added = await inTransaction(db, async (trx) => {
          const topped = new Map<number, number>();
          const rows = await trx
            .selectFrom('inventory_balance')
            .select(['id', 'sku_id', 'lot_id', 'location_id', 'lpn', 'on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty'])
            .where('owner_id', '=', f.ownerId)
            .where('location_id', 'in', f.locationIds)
            // The inventory service's key order, as allocation locks them.
            .orderBy('sku_id')
            .orderBy('lot_id')
            .orderBy('location_id')
            .orderBy('lpn')
            .execute();
          for (const r of rows) {
            const key = { ownerId: f.ownerId, skuId: Number(r.sku_id), lotId: Number(r.lot_id), locationId: Number(r.location_id), lpn: r.lpn };
            if (new Decimal(r.held_qty).greaterThan(0)) await holdStock(trx, f.scope, { key, qty: new Decimal(r.held_qty).negated(), reason: 'counted' });
            const available = new Decimal(r.on_hand_qty).minus(r.allocated_qty).minus(r.picked_qty);
            if (available.lessThan(4)) {
              await receiveStock(trx, f.scope, { key, qty: 6, reference: { type: 'test', orderNo: 'PS-RCV' } });
              topped.set(Number(r.sku_id), (topped.get(Number(r.sku_id)) ?? 0) + 6);
            }
          }
          return topped;
        });
        for (const [skuId, qty] of added) received.set(skuId, received.get(skuId)!.plus(qty));
      };

      const deadline = Date.now() + SECONDS * 1000;
      await Promise.all([
        ...tokens.map(async (token) => {
          while (Date.now() < deadline) await step(token);
        }),
        (async () => {
          while (Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 1500));
            await settle();
          }
        })(),
      ]);

      const total = [...statuses.values()].reduce((n, c) => n + c, 0);
      console.info(`picking stress: ${total} calls in ${SECONDS} s by ${CLIENTS} clients; ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
      expect(fiveHundreds).toEqual([]);
      expect(unexpected).toEqual([]);
      for (const kind of ['allocate', 'unallocate', 'cancel', 'makeTasks', 'pick', 'short', 'shortElsewhere', 'unpick']) expect(done[kind] ?? 0, kind).toBeGreaterThan(0);

      expect(await orderInvariantViolations(db)).toEqual([]);
      const onHand = await sql<{ sku_id: number; on_hand: string }>`select sku_id, sum(on_hand_qty) as on_hand from inventory_balance where owner_id = ${f.ownerId} group by sku_id`.execute(db);
      for (const row of onHand.rows) expect(new Decimal(row.on_hand).toString(), `on-hand of SKU ${row.sku_id}`).toBe(received.get(Number(row.sku_id))!.toString());
    },
    SECONDS * 1000 + 180_000,
  );
});

import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors.js';
import { connectPostgres } from '../../src/server/db/database.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import type { Transaction } from 'kysely';
import type { DB } from '../../src/server/db/schema.js';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { pickStock, unpickStock, type StockScope } from '../../src/server/modules/inventory/inventory.service.js';
import { lockOrders } from '../../src/server/modules/outbound/outbound.repository.js';
import { allocateOrders, unallocateOrders } from '../../src/server/modules/outbound/outbound.service.js';
import { assertTransition, statusFromLines } from '../../src/server/modules/outbound/so-status.js';
import { createTestDatabase, onRealServer, type TestDatabase } from '../helpers/database.js';
import { orderInvariantViolations } from '../helpers/order-invariant.js';
import { outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * Never oversell: 8 sessions on the real PostgreSQL server
 * allocate, unallocate, pick and unpick orders over the same stock for OUTBOUND_STRESS_SECONDS
 * (default 30). Picks take allocated stock through the lines' allocation records with the
 * inventory service's pick hook, to a staging location on an LPN naming the line and the source
 * location; unpicks put it back allocated again. Afterwards no balance has more allocated, picked
 * and held than on hand, the ledger equals the balance, on-hand per SKU is what was received, and
 * every acknowledged operation is there: each order is what its session last saw committed, each
 * balance's allocated qty is what the lines hold of it, and each line's picked qty is on its LPNs.
 */
if (!onRealServer) console.warn('skipped: the 8-session allocation test needs real PostgreSQL sessions; set TEST_DATABASE_URL to run it');

const SECONDS = Number(process.env.OUTBOUND_STRESS_SECONDS ?? 30);
const SESSIONS = 8;
const ORDERS_PER_SESSION = 5;

let database: TestDatabase;
let f: OutboundFixture;
let stageId: number;
const RECEIVED = 10 * 3;

/** What an order is now: its lines' quantities and the balance rows each holds. */
async function stateOf(db: Transaction<DB> | TestDatabase['db'], soId: number): Promise<string> {
  const lines = await db.selectFrom('so_line').select(['id', 'allocated_qty', 'picked_qty']).where('so_id', '=', soId).orderBy('id').execute();
  const held = await db.selectFrom('so_allocation').select(['so_line_id', 'balance_id', 'qty']).where('so_id', '=', soId).orderBy('so_line_id').orderBy('balance_id').execute();
  const header = await db.selectFrom('so_header').select('status').where('id', '=', soId).executeTakeFirstOrThrow();
  return [
    header.status,
    ...lines.map((r) => `${r.id}:${new Decimal(r.allocated_qty).toString()}/${new Decimal(r.picked_qty).toString()}`),
    ...held.map((r) => `${r.so_line_id}@${r.balance_id}:${new Decimal(r.qty).toString()}`),
  ].join(',');
}

/** The order's status from its lines, through the status table (the pick screen's rule). */
async function restatus(trx: Transaction<DB>, soId: number, from: { order_no: string; status: string }): Promise<void> {
  const lines = await trx.selectFrom('so_line').select(['qty', 'allocated_qty', 'picked_qty']).where('so_id', '=', soId).execute();
  const next = statusFromLines(lines);
  assertTransition(from.order_no, from.status, next);
  await trx.updateTable('so_header').set({ status: next }).where('id', '=', soId).execute();
}

/** Picks part of one allocation record of the order to the staging location, on the LPN `SO-<line>-<source location>`. */
async function pick(trx: Transaction<DB>, scope: StockScope, soId: number): Promise<void> {
  const [header] = await lockOrders(trx, scope.projectId, [soId]);
  const rows = await trx
    .selectFrom('so_allocation as a')
    .innerJoin('inventory_balance as b', 'b.id', 'a.balance_id')
    .select(['a.id', 'a.so_line_id', 'a.qty', 'b.owner_id', 'b.sku_id', 'b.lot_id', 'b.location_id', 'b.lpn'])
    .where('a.so_id', '=', soId)
    .orderBy('a.id')
    .execute();
  if (rows.length === 0) throw new AppError('INSUFFICIENT_INVENTORY', { qty: '0' });
  const a = rows[Math.floor(Math.random() * rows.length)];
  const qty = Decimal.min(a.qty, 1 + Math.floor(Math.random() * 3));
  await pickStock(trx, scope, {
    from: { ownerId: a.owner_id, skuId: a.sku_id, lotId: a.lot_id, locationId: a.location_id, lpn: a.lpn },
    toLocationId: stageId,
    toLpn: `SO-${a.so_line_id}-${a.location_id}`,
    qty,
  });
  if (qty.equals(a.qty)) await trx.deleteFrom('so_allocation').where('id', '=', a.id).execute();
  else await trx.updateTable('so_allocation').set({ qty: sql`qty - ${qty.toString()}::numeric` }).where('id', '=', a.id).execute();
  await trx
    .updateTable('so_line')
    .set({ allocated_qty: sql`allocated_qty - ${qty.toString()}::numeric`, picked_qty: sql`picked_qty + ${qty.toString()}::numeric` })
    .where('id', '=', a.so_line_id)
    .execute();
  await restatus(trx, soId, header);
}

/** Puts part of one picked LPN of the order back to its source location, allocated to the line again. */
async function unpick(trx: Transaction<DB>, scope: StockScope, soId: number): Promise<void> {
  const [header] = await lockOrders(trx, scope.projectId, [soId]);
  const lineIds = (await trx.selectFrom('so_line').select('id').where('so_id', '=', soId).execute()).map((l) => l.id);
  const staged = await trx
    .selectFrom('inventory_balance')
    .select(['owner_id', 'sku_id', 'lot_id', 'lpn', 'picked_qty'])
    .where('location_id', '=', stageId)
    .where('lpn', 'in', lineIds.flatMap((id) => f.locationIds.map((loc) => `SO-${id}-${loc}`)))
    .where('picked_qty', '>', '0')
    .orderBy('id')
    .execute();
  if (staged.length === 0) throw new AppError('INSUFFICIENT_INVENTORY', { qty: '0' });
  const p = staged[Math.floor(Math.random() * staged.length)];
  const [, lineId, locationId] = p.lpn.split('-').map(Number);
  const qty = Decimal.min(p.picked_qty, 1 + Math.floor(Math.random() * 3));
  const applied = await unpickStock(trx, scope, {
    from: { ownerId: p.owner_id, skuId: p.sku_id, lotId: p.lot_id, locationId: stageId, lpn: p.lpn },
    toLocationId: locationId,
    qty,
    reallocate: true,
  });
  await trx
    .insertInto('so_allocation')
    .values({ project_id: scope.projectId, warehouse_id: scope.warehouseId, so_id: soId, so_line_id: lineId, balance_id: applied[1].balanceId, qty: qty.toString() })
    .onConflict((oc) => oc.columns(['so_line_id', 'balance_id']).doUpdateSet({ qty: sql`so_allocation.qty + excluded.qty` }))
    .execute();
  await trx
    .updateTable('so_line')
    .set({ allocated_qty: sql`allocated_qty + ${qty.toString()}::numeric`, picked_qty: sql`picked_qty - ${qty.toString()}::numeric` })
    .where('id', '=', lineId)
    .execute();
  await restatus(trx, soId, header);
}

beforeAll(async () => {
  database = await createTestDatabase();
  if (!onRealServer) return;
  await seedFirstStart(database.db, 'Adm1n!Passw0rd', MODULES);
  f = await outboundFixture(database.db, 'C', 4, 3);
  const warehouse = await database.db.selectFrom('warehouse').select('id').where('id', '=', f.scope.warehouseId).executeTakeFirstOrThrow();
  stageId = (await database.db.insertInto('location').values({ warehouse_id: warehouse.id, code: 'C-STAGE', location_type: 'stage' }).returning('id').executeTakeFirstOrThrow()).id;
  for (const skuId of f.skuIds) for (const [i, locationId] of f.locationIds.entries()) await stock(database.db, f, skuId, locationId, 10, { lotNo: `L${i}`, expiryDate: `2031-0${i + 1}-01` }, i === 2 ? 4 : 0);
});

afterAll(async () => {
  await database?.close();
});

describe('allocation, unallocation and picking under 8 concurrent sessions', () => {
  it.runIf(onRealServer)(
    'never commits more than on hand, keeps ledger = balance and every acknowledged operation',
    async () => {
      const db = database.db;
      // Each session owns its orders, so what it last saw committed on an order is the order's final state.
      const owned: number[][] = [];
      for (let s = 0; s < SESSIONS; s += 1) {
        const ids: number[] = [];
        for (let o = 0; o < ORDERS_PER_SESSION; o += 1) {
          const header = await db
            .insertInto('so_header')
            .values({ project_id: f.scope.projectId, warehouse_id: f.scope.warehouseId, order_no: `C-${s}-${o}`, owner_id: f.ownerId, ship_to_address_en: 'x', required_ship_date: '2030-01-01' })
            .returning('id')
            .executeTakeFirstOrThrow();
          await db
            .insertInto('so_line')
            .values(
              [0, 1, 2].map((l) => ({
                project_id: f.scope.projectId,
                warehouse_id: f.scope.warehouseId,
                so_id: header.id,
                line_no: l + 1,
                sku_id: f.skuIds[(s + o + l) % f.skuIds.length],
                qty: 3 + ((s * 7 + o * 3 + l) % 9),
              })),
            )
            .execute();
          ids.push(header.id);
        }
        owned.push(ids);
      }
      const seen = new Map<number, string>();
      const done = { allocate: 0, unallocate: 0, pick: 0, unpick: 0 };
      let acknowledged = 0;
      const refused = { allocate: 0, unallocate: 0, pick: 0, unpick: 0 };
      const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => connectPostgres(database.url!, 1)));
      const deadline = Date.now() + SECONDS * 1000;
      try {
        await Promise.all(
          sessions.map(async (session, s) => {
            const scope = { ...f.scope, operator: `s${s}` };
            while (Date.now() < deadline) {
              const soId = owned[s][Math.floor(Math.random() * ORDERS_PER_SESSION)];
              const dice = Math.random();
              const kind = dice < 0.4 ? 'allocate' : dice < 0.6 ? 'unallocate' : dice < 0.85 ? 'pick' : 'unpick';
              try {
                const state = await inTransaction(session.db, async (trx) => {
                  if (kind === 'allocate') await allocateOrders(trx, scope, [soId]);
                  else if (kind === 'unallocate') await unallocateOrders(trx, scope, [soId]);
                  else if (kind === 'pick') await pick(trx, scope, soId);
                  else await unpick(trx, scope, soId);
                  return stateOf(trx, soId);
                });
                seen.set(soId, state);
                acknowledged += 1;
                done[kind] += 1;
              } catch (error) {
                if (!(error instanceof AppError)) throw error;
                refused[kind] += 1;
              }
            }
          }),
        );
      } finally {
        await Promise.all(sessions.map((s) => s.close()));
      }
      expect(acknowledged).toBeGreaterThan(SESSIONS);
      for (const count of Object.values(done)) expect(count).toBeGreaterThan(0);
      console.info(`allocation stress: ${acknowledged} acknowledged (${JSON.stringify(done)}), refused ${JSON.stringify(refused)} in ${SECONDS} s`);

      const over = await sql<{ id: number }>`select id from inventory_balance where allocated_qty + picked_qty + held_qty > on_hand_qty or allocated_qty < 0`.execute(db);
      expect(over.rows).toEqual([]);
      for (const row of await ledgerAgreement(db)) {
        expect(new Decimal(row.ledger_allocated).equals(row.allocated_qty), `allocated of balance ${row.id}`).toBe(true);
        expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
        expect(new Decimal(row.ledger_picked).equals(row.picked_qty), `picked of balance ${row.id}`).toBe(true);
        expect(new Decimal(row.ledger_held).equals(row.held_qty), `held of balance ${row.id}`).toBe(true);
      }
      const onHand = await sql<{ sku_id: number; on_hand: string }>`
        select sku_id, sum(on_hand_qty) as on_hand from inventory_balance where owner_id = ${f.ownerId} group by sku_id`.execute(db);
      for (const row of onHand.rows) expect(Number(row.on_hand), `on-hand of SKU ${row.sku_id}`).toBe(RECEIVED);
      for (const [soId, state] of seen) expect(await stateOf(db, soId), `order ${soId}`).toBe(state);
      const picked = await sql<{ id: number; picked_qty: string; staged: string | null }>`
        select l.id, l.picked_qty,
               (select sum(b.picked_qty) from inventory_balance b where b.location_id = ${stageId} and b.lpn like 'SO-' || l.id || '-%') as staged
          from so_line l`.execute(db);
      for (const row of picked.rows) expect(new Decimal(row.picked_qty).equals(row.staged ?? 0), `picked of line ${row.id}`).toBe(true);
      const held = await sql<{ id: number; allocated_qty: string; held: string | null }>`
        select b.id, b.allocated_qty, (select sum(a.qty) from so_allocation a where a.balance_id = b.id) as held
          from inventory_balance b where b.owner_id = ${f.ownerId}`.execute(db);
      for (const row of held.rows) expect(new Decimal(row.allocated_qty).equals(row.held ?? 0), `balance ${row.id}`).toBe(true);
      const lines = await sql<{ id: number; allocated_qty: string; held: string | null }>`
        select l.id, l.allocated_qty, (select sum(a.qty) from so_allocation a where a.so_line_id = l.id) as held from so_line l`.execute(db);
      for (const row of lines.rows) expect(new Decimal(row.allocated_qty).equals(row.held ?? 0), `line ${row.id}`).toBe(true);
      expect(await orderInvariantViolations(db)).toEqual([]);
    },
    SECONDS * 1000 + 120_000,
  );
});

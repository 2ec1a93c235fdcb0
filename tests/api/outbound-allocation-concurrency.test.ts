import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors.js';
import { connectPostgres } from '../../src/server/db/database.js';
import { seedFirstStart } from '../../src/server/db/seed/seed.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { allocateOrders, unallocateOrders } from '../../src/server/modules/outbound/outbound.service.js';
import { createTestDatabase, onRealServer, type TestDatabase } from '../helpers/database.js';
import { outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Never oversell (spec section 5, DESIGN.md section 5): 8 sessions on the real PostgreSQL server
 * allocate and unallocate orders over the same stock for OUTBOUND_STRESS_SECONDS (default 10).
 * Afterwards no balance has more allocated and picked than on hand, the ledger equals the
 * balance, and every acknowledged allocation is there: each line holds what its session last saw
 * committed, and each balance's allocated qty is what the lines hold of it.
 */
if (!onRealServer) console.warn('skipped: the 8-session allocation test needs real PostgreSQL sessions; set TEST_DATABASE_URL to run it');

const SECONDS = Number(process.env.OUTBOUND_STRESS_SECONDS ?? 10);
const SESSIONS = 8;
const ORDERS_PER_SESSION = 5;

let database: TestDatabase;
let f: OutboundFixture;

beforeAll(async () => {
  database = await createTestDatabase();
  if (!onRealServer) return;
  await seedFirstStart(database.db, 'Adm1n!Passw0rd');
  f = await outboundFixture(database.db, 'C', 4, 3);
  for (const skuId of f.skuIds) for (const [i, locationId] of f.locationIds.entries()) await stock(database.db, f, skuId, locationId, 10, { lotNo: `L${i}`, expiryDate: `2031-0${i + 1}-01` }, i === 2 ? 4 : 0);
});

afterAll(async () => {
  await database?.close();
});

describe('allocation under 8 concurrent sessions', () => {
  it.runIf(onRealServer)(
    'never allocates more than available, keeps ledger = balance and every acknowledged allocation',
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
      let acknowledged = 0;
      let refused = 0;
      const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => connectPostgres(database.url!, 1)));
      const deadline = Date.now() + SECONDS * 1000;
      try {
        await Promise.all(
          sessions.map(async (session, s) => {
            while (Date.now() < deadline) {
              const soId = owned[s][Math.floor(Math.random() * ORDERS_PER_SESSION)];
              const allocate = Math.random() < 0.6;
              try {
                const state = await inTransaction(session.db, async (trx) => {
                  if (allocate) await allocateOrders(trx, { ...f.scope, operator: `s${s}` }, [soId]);
                  else await unallocateOrders(trx, { ...f.scope, operator: `s${s}` }, [soId]);
                  const rows = await trx.selectFrom('so_line').select(['id', 'allocated_qty']).where('so_id', '=', soId).orderBy('id').execute();
                  return rows.map((r) => `${r.id}:${new Decimal(r.allocated_qty).toString()}`).join(',');
                });
                seen.set(soId, state);
                acknowledged += 1;
              } catch (error) {
                if (!(error instanceof AppError)) throw error;
                refused += 1;
              }
            }
          }),
        );
      } finally {
        await Promise.all(sessions.map((s) => s.close()));
      }
      expect(acknowledged).toBeGreaterThan(SESSIONS);
      console.info(`allocation stress: ${acknowledged} acknowledged, ${refused} refused in ${SECONDS} s`);

      const over = await sql<{ id: number }>`select id from inventory_balance where allocated_qty + picked_qty + held_qty > on_hand_qty or allocated_qty < 0`.execute(db);
      expect(over.rows).toEqual([]);
      for (const row of await ledgerAgreement(db)) {
        expect(new Decimal(row.ledger_allocated).equals(row.allocated_qty), `allocated of balance ${row.id}`).toBe(true);
        expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
      }
      for (const [soId, state] of seen) {
        const rows = await db.selectFrom('so_line').select(['id', 'allocated_qty']).where('so_id', '=', soId).orderBy('id').execute();
        expect(rows.map((r) => `${r.id}:${new Decimal(r.allocated_qty).toString()}`).join(','), `order ${soId}`).toBe(state);
      }
      const held = await sql<{ id: number; allocated_qty: string; held: string | null }>`
        select b.id, b.allocated_qty, (select sum(a.qty) from so_allocation a where a.balance_id = b.id) as held
          from inventory_balance b where b.owner_id = ${f.ownerId}`.execute(db);
      for (const row of held.rows) expect(new Decimal(row.allocated_qty).equals(row.held ?? 0), `balance ${row.id}`).toBe(true);
      const lines = await sql<{ id: number; allocated_qty: string; held: string | null }>`
        select l.id, l.allocated_qty, (select sum(a.qty) from so_allocation a where a.so_line_id = l.id) as held from so_line l`.execute(db);
      for (const row of lines.rows) expect(new Decimal(row.allocated_qty).equals(row.held ?? 0), `line ${row.id}`).toBe(true);
    },
    SECONDS * 1000 + 120_000,
  );
});

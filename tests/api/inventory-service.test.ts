import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import Decimal from 'decimal.js';
import { AppError } from '../../src/common/errors.js';
import { connectPostgres } from '../../src/server/db/database.js';
import type { DB } from '../../src/server/db/schema.js';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import {
  adjustStock,
  allocateStock,
  holdStock,
  lotFor,
  moveStock,
  pickStock,
  receiveStock,
  shipStock,
  unallocateStock,
  unpickStock,
  type BalanceKey,
  type StockScope,
} from '../../src/server/modules/inventory/inventory.service.js';
import { createTestDatabase, onRealServer, type TestDatabase } from '../helpers/database.js';
import { MODULES } from '../../src/server/modules/index.js';

if (!onRealServer) console.warn('skipped: the 8-session inventory invariant test needs real PostgreSQL sessions; set TEST_DATABASE_URL to run it');

let database: TestDatabase;
let scope: StockScope;
let ownerId: number;
let skuIds: number[];
let locationIds: number[];
let stageId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedFirstStart(database.db, 'Adm1n!Passw0rd', MODULES);
  await loadDemoData(database.db, MODULES);
  const db = database.db;
  const project = await db.selectFrom('project').select('id').orderBy('id').executeTakeFirstOrThrow();
  const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
  scope = { projectId: project.id, warehouseId: warehouse.id, operator: 'tester' };
  ownerId = (await db.selectFrom('owner').select('id').where('code', '=', 'ACME').executeTakeFirstOrThrow()).id;
  skuIds = (await db.selectFrom('sku').select('id').where('owner_id', '=', ownerId).orderBy('id').limit(5).execute()).map((r) => r.id);
  locationIds = (
    await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id).where('location_type', '=', 'storage').orderBy('id').limit(6).execute()
  ).map((r) => r.id);
  stageId = (await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id).where('code', '=', 'STG-01').executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await database?.close();
});

async function balanceOf(key: BalanceKey) {
  return database.db
    .selectFrom('inventory_balance')
    .select(['on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty'])
    .where('warehouse_id', '=', scope.warehouseId)
    .where('owner_id', '=', key.ownerId)
    .where('sku_id', '=', key.skuId)
    .where('lot_id', '=', key.lotId)
    .where('location_id', '=', key.locationId)
    .where('lpn', '=', key.lpn ?? '')
    .executeTakeFirst()
    .then((row) => row && Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])));
}

async function ledgerCount(): Promise<number> {
  const row = await database.db.selectFrom('inventory_transaction').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function expectAgreement(db: Kysely<DB>) {
  for (const row of await ledgerAgreement(db)) {
    expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_allocated).equals(row.allocated_qty), `allocated of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_picked).equals(row.picked_qty), `picked of balance ${row.id}`).toBe(true);
    expect(new Decimal(row.ledger_held).equals(row.held_qty), `held of balance ${row.id}`).toBe(true);
  }
}

describe('the inventory service', () => {
  it('receives with held stock, moves, holds, allocates, picks, unpicks and ships, the ledger agreeing with the balance', async () => {
    const db = database.db;
    const lot = await inTransaction(db, (trx) => lotFor(trx, scope, ownerId, skuIds[0], { expiryDate: '2027-03-31', udf1: 'A' }));
    const again = await inTransaction(db, (trx) => lotFor(trx, scope, ownerId, skuIds[0], { expiryDate: '2027-03-31', udf1: ' A ' }));
    expect(again.id).toBe(lot.id);
    const at: BalanceKey = { ownerId, skuId: skuIds[0], lotId: lot.id, locationId: locationIds[0] };
    const reference = { type: 'asn', orderNo: 'ASN-T1', line: 1 };
    await inTransaction(db, (trx) => receiveStock(trx, scope, { key: at, qty: 10, heldQty: 2, reference, uom: 'EA' }));
    expect(await balanceOf(at)).toEqual({ on_hand_qty: 10, allocated_qty: 0, picked_qty: 0, held_qty: 2 });

    await inTransaction(db, (trx) => moveStock(trx, scope, { from: at, toLocationId: locationIds[1], qty: 3, reason: 'consolidate' }));
    const moved = { ...at, locationId: locationIds[1] };
    expect(await balanceOf(at)).toMatchObject({ on_hand_qty: 7, held_qty: 2 });
    expect(await balanceOf(moved)).toMatchObject({ on_hand_qty: 3, held_qty: 0 });

    // 7 on hand, 2 held: 5 available.
    await inTransaction(db, (trx) => allocateStock(trx, scope, { key: at, qty: 4, reference: { type: 'so', orderNo: 'SO-1', line: 1 } }));
    await inTransaction(db, (trx) => pickStock(trx, scope, { from: at, toLocationId: stageId, toLpn: 'TOTE1', qty: 3 }));
    const tote = { ...at, locationId: stageId, lpn: 'TOTE1' };
    expect(await balanceOf(at)).toEqual({ on_hand_qty: 4, allocated_qty: 1, picked_qty: 0, held_qty: 2 });
    expect(await balanceOf(tote)).toEqual({ on_hand_qty: 3, allocated_qty: 0, picked_qty: 3, held_qty: 0 });
    await inTransaction(db, (trx) => unpickStock(trx, scope, { from: tote, toLocationId: locationIds[0], qty: 1, reallocate: true }));
    await inTransaction(db, (trx) => shipStock(trx, scope, { key: tote, qty: 2 }));
    await inTransaction(db, (trx) => unallocateStock(trx, scope, { key: at, qty: 2 }));
    await inTransaction(db, (trx) => holdStock(trx, scope, { key: at, qty: -2, reason: 'QC passed' }));
    await inTransaction(db, (trx) => adjustStock(trx, scope, { key: at, qty: -1, reason: 'damaged' }));
    expect(await balanceOf(at)).toEqual({ on_hand_qty: 4, allocated_qty: 0, picked_qty: 0, held_qty: 0 });
    expect(await balanceOf(tote)).toEqual({ on_hand_qty: 0, allocated_qty: 0, picked_qty: 0, held_qty: 0 });

    const rows = await db.selectFrom('inventory_transaction').selectAll().where('order_no', '=', 'ASN-T1').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ trans_type: 'receive', reference_line: 1, operator: 'tester', uom: 'EA', lpn: '' });
    expect(Number(rows[0].before_qty)).toBe(0);
    expect(Number(rows[0].after_qty)).toBe(10);
    await expectAgreement(db);
  });

  it('refuses taking more than is available, allocated, held or picked, and changes nothing', async () => {
    const db = database.db;
    const lot = await inTransaction(db, (trx) => lotFor(trx, scope, ownerId, skuIds[1], {}));
    const at: BalanceKey = { ownerId, skuId: skuIds[1], lotId: lot.id, locationId: locationIds[2] };
    await inTransaction(db, (trx) => receiveStock(trx, scope, { key: at, qty: 5, heldQty: 1 }));
    await inTransaction(db, (trx) => allocateStock(trx, scope, { key: at, qty: 2 }));
    const before = await balanceOf(at);
    const count = await ledgerCount();
    const refusals: Array<() => Promise<unknown>> = [
      () => inTransaction(db, (trx) => moveStock(trx, scope, { from: at, toLocationId: locationIds[3], qty: 3 })),
      () => inTransaction(db, (trx) => adjustStock(trx, scope, { key: at, qty: -3 })),
      () => inTransaction(db, (trx) => allocateStock(trx, scope, { key: at, qty: 3 })),
      () => inTransaction(db, (trx) => unallocateStock(trx, scope, { key: at, qty: 3 })),
      () => inTransaction(db, (trx) => holdStock(trx, scope, { key: at, qty: -2 })),
      () => inTransaction(db, (trx) => pickStock(trx, scope, { from: at, toLocationId: stageId, qty: 3 })),
      () => inTransaction(db, (trx) => shipStock(trx, scope, { key: at, qty: 1 })),
      () => inTransaction(db, (trx) => moveStock(trx, scope, { from: { ...at, locationId: locationIds[4] }, toLocationId: locationIds[3], qty: 1 })),
    ];
    for (const refuse of refusals) {
      const error = await refuse().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('INSUFFICIENT_INVENTORY');
    }
    const zero = await inTransaction(db, (trx) => receiveStock(trx, scope, { key: at, qty: 0 })).catch((e: unknown) => e);
    expect((zero as AppError).code).toBe('QTY_NOT_POSITIVE');
    expect(await balanceOf(at)).toEqual(before);
    expect(await ledgerCount()).toBe(count);
  });

  it('is guarded by the database itself: no negative or over-committed balance, no change to the ledger', async () => {
    const db = database.db;
    const negative = await sql`update inventory_balance set on_hand_qty = -1 where id = (select min(id) from inventory_balance)`.execute(db).catch((e: unknown) => e);
    expect(String((negative as Error).message)).toMatch(/inventory_balance_not_negative/);
    const over = await sql`update inventory_balance set held_qty = on_hand_qty + 1 where id = (select min(id) from inventory_balance)`.execute(db).catch((e: unknown) => e);
    expect(String((over as Error).message)).toMatch(/inventory_balance_within_on_hand/);
    const edit = await sql`update inventory_transaction set qty = qty + 1`.execute(db).catch((e: unknown) => e);
    expect(String((edit as Error).message)).toMatch(/append-only/);
    const erase = await sql`delete from inventory_transaction`.execute(db).catch((e: unknown) => e);
    expect(String((erase as Error).message)).toMatch(/append-only/);
    await expectAgreement(db);
  });

  it.runIf(onRealServer)('keeps ledger = balance and nothing negative under 8 concurrent sessions on the real server', async () => {
    const seconds = Number(process.env.INVENTORY_STRESS_SECONDS ?? 8);
    const sessions = await Promise.all(Array.from({ length: 8 }, () => connectPostgres(database.url!, 1)));
    try {
      const lots = await inTransaction(database.db, async (trx) => Promise.all(skuIds.slice(0, 3).map((skuId) => lotFor(trx, scope, ownerId, skuId, { udf2: 'stress' }))));
      const keys: BalanceKey[] = lots.flatMap((lot) => locationIds.slice(0, 4).map((locationId) => ({ ownerId, skuId: lot.sku_id, lotId: lot.id, locationId })));
      const acknowledged: number[] = [];
      let refused = 0;
      const deadline = Date.now() + seconds * 1000;
      const random = (n: number) => Math.floor(Math.random() * n);
      await Promise.all(
        sessions.map(async (session) => {
          while (Date.now() < deadline) {
            const key = keys[random(keys.length)];
            const other = keys.filter((k) => k.skuId === key.skuId && k.lotId === key.lotId)[random(4)];
            const qty = 1 + random(5);
            const op = random(8);
            try {
              const applied = await inTransaction(session.db, async (trx) => {
                switch (op) {
                  case 0:
                  case 1:
                    return [await receiveStock(trx, scope, { key, qty, heldQty: op === 1 ? 1 : 0 })];
                  case 2:
                    return moveStock(trx, scope, { from: key, toLocationId: other.locationId, qty });
                  case 3:
                    return [await adjustStock(trx, scope, { key, qty: -qty, reason: 'stress' })];
                  case 4:
                    return [await holdStock(trx, scope, { key, qty: random(2) ? qty : -qty })];
                  case 5:
                    return [await allocateStock(trx, scope, { key, qty })];
                  case 6:
                    return pickStock(trx, scope, { from: key, toLocationId: other.locationId, qty });
                  default:
                    return [await unallocateStock(trx, scope, { key, qty })];
                }
              });
              acknowledged.push(...applied.map((a) => a.ledgerId));
            } catch (error) {
              if (!(error instanceof AppError) || error.code !== 'INSUFFICIENT_INVENTORY') throw error;
              refused += 1;
            }
          }
        }),
      );
      console.log(`inventory stress: ${acknowledged.length} ledger rows acknowledged, ${refused} refusals in ${seconds} s`);
      expect(acknowledged.length).toBeGreaterThan(50);
      const stored = new Set((await database.db.selectFrom('inventory_transaction').select('id').execute()).map((r) => Number(r.id)));
      for (const id of acknowledged) expect(stored.has(id), `acknowledged ledger row ${id}`).toBe(true);
      await expectAgreement(database.db);
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
    }
  }, 120_000);
});

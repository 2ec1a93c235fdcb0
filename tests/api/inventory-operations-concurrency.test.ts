import { afterAll, beforeAll, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { lotFor, receiveStock, type StockScope } from '../../src/server/modules/inventory/inventory.service.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { onRealServer } from '../helpers/database.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * Sessions confirming moves of the same stock at the same moment (real PostgreSQL only: the
 * embedded database has one session): the balance rows are locked in one order, so one move
 * waits for the other and is then refused when too little is left; nothing ever goes below zero
 * and the ledger equals the balance.
 */
if (!onRealServer) console.warn('skipped: concurrent confirmations need real PostgreSQL sessions; set TEST_DATABASE_URL to run them');

let t: TestApp;
let admin: string;
let scope: StockScope;
let ownerId: number;
let skuId: number;
let locationIds: number[];
let lotId: number;

beforeAll(async () => {
  if (!onRealServer) return;
  t = await buildTestApp();
  const db = t.database.db;
  await loadDemoData(db, MODULES);
  admin = await signIn(t.app);
  const project = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
  scope = { projectId: project.id, warehouseId: warehouse.id, operator: 'receiver' };
  ownerId = (await db.selectFrom('owner').select('id').where('code', '=', 'ACME').where('project_id', '=', project.id).executeTakeFirstOrThrow()).id;
  skuId = (await db.selectFrom('sku').select('id').where('owner_id', '=', ownerId).orderBy('id').executeTakeFirstOrThrow()).id;
  locationIds = (
    await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id).where('location_type', '=', 'storage').orderBy('id').limit(10).execute()
  ).map((r) => r.id);
  lotId = await inTransaction(db, async (trx) => (await lotFor(trx, scope, ownerId, skuId, { lotNo: 'RACE-1' })).id);
});

afterAll(async () => {
  await t?.close();
});

const call = (url: string, payload: Record<string, unknown>) => injectAs(t.app, admin, { method: 'POST', url, payload });

async function moveDocument(from: number, to: number, qty: number): Promise<number> {
  const doc = await call('/api/generic/adding', { moduleCode: 'inventory', functionCode: 'lnvnMove', record: {} });
  expect(doc.statusCode, doc.body).toBe(200);
  const id = json<{ row: { _key: number } }>(doc).row._key;
  const line = await call('/api/generic/adding', {
    moduleCode: 'inventory',
    functionCode: 'lnvnMoveLine',
    record: { document_id: id, owner_id: ownerId, sku_id: skuId, lot_id: lotId, location_id: from, to_location_id: to, qty, reason: 'REPLEN' },
  });
  expect(line.statusCode, line.body).toBe(200);
  return id;
}

it.skipIf(!onRealServer)('two sessions confirming moves of the same stock: one waits, the other is refused, nothing goes below zero', async () => {
  const db = t.database.db;
  for (let round = 0; round < 5; round++) {
    const from = locationIds[round];
    await inTransaction(db, (trx) => receiveStock(trx, scope, { key: { ownerId, skuId, lotId, locationId: from }, qty: 10 }));
    // Both lines were saved while 10 were there; together they want 14.
    const first = await moveDocument(from, locationIds[9], 7);
    const second = await moveDocument(from, locationIds[8], 7);
    const answers = await Promise.all([first, second].map((id) => call('/api/inventory/invMoveHeader/confirm', { id })));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes, answers.map((a) => a.body).join(' ')).toEqual([200, 409]);
    expect(json<{ code: string }>(answers.find((a) => a.statusCode === 409)!).code).toBe('INSUFFICIENT_INVENTORY');
    const left = await db.selectFrom('inventory_balance').select(['on_hand_qty']).where('location_id', '=', from).where('sku_id', '=', skuId).executeTakeFirstOrThrow();
    expect(Number(left.on_hand_qty)).toBe(3);
  }
  // Many sessions at once on one location: exactly as many moves as the stock allows go through.
  const from = locationIds[5];
  await inTransaction(db, (trx) => receiveStock(trx, scope, { key: { ownerId, skuId, lotId, locationId: from }, qty: 10 }));
  const ids: number[] = [];
  for (let i = 0; i < 8; i++) ids.push(await moveDocument(from, locationIds[6 + (i % 3)], 3));
  const answers = await Promise.all(ids.map((id) => call('/api/inventory/invMoveHeader/confirm', { id })));
  expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
  expect(answers.filter((a) => a.statusCode !== 200).every((a) => json<{ code: string }>(a).code === 'INSUFFICIENT_INVENTORY')).toBe(true);
  const left = await db.selectFrom('inventory_balance').select(['on_hand_qty']).where('location_id', '=', from).where('sku_id', '=', skuId).executeTakeFirstOrThrow();
  expect(Number(left.on_hand_qty)).toBe(1);

  const negative = await db.selectFrom('inventory_balance').select('id').where((eb) => eb.or([eb('on_hand_qty', '<', '0'), eb('held_qty', '<', '0')])).execute();
  expect(negative).toEqual([]);
  for (const row of await ledgerAgreement(db)) expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `balance ${row.id}`).toBe(true);
}, 120_000);

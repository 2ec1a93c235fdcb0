import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { RightName } from '../../../src/common/rights.js';
import { loadDemoData } from '../../../src/server/install/demo-data.js';
import { inTransaction } from '../../../src/server/db/transaction.js';
import { adjustStock, lotFor, moveStock, receiveStock, type StockScope } from '../../../src/server/modules/inventory/inventory.service.js';
import { dayInZone } from '../../../src/server/modules/inventory/storage.repository.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../../helpers/app.js';
import { MODULES } from '../../../src/server/modules/index.js';

/**
 * The inventory area's job handlers run through "run now": the storage snapshot for billing (as of
 * today and as of a past day from the ledger, idempotent per day, limited to the warehouse asked)
 * and the expiry alert (one notification per warehouse to the users with inventory rights there,
 * a lot announced once a day).
 */

let t: TestApp;
let admin: string;
let scope: StockScope;
let wh2: number;
let ownerId: number;
let skuIds: number[];
let locationIds: number[];
let timeZone: string;
let jobSeq = 0;

interface Item {
  title: string;
  body: string | null;
  link: string | null;
  category: string;
}

beforeAll(async () => {
  t = await buildTestApp({ JOB_SCHEDULER: 'true' });
  const db = t.database.db;
  await loadDemoData(db, MODULES);
  admin = await signIn(t.app);
  const project = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const warehouse = await db.selectFrom('warehouse').select(['id', 'time_zone']).where('code', '=', 'WH1').executeTakeFirstOrThrow();
  wh2 = (await db.selectFrom('warehouse').select('id').where('code', '=', 'WH2').executeTakeFirstOrThrow()).id;
  timeZone = warehouse.time_zone;
  scope = { projectId: project.id, warehouseId: warehouse.id, operator: 'receiver' };
  ownerId = (await db.selectFrom('owner').select('id').where('code', '=', 'ACME').where('project_id', '=', project.id).executeTakeFirstOrThrow()).id;
  // SKUs with no stock anywhere yet, so that the figures below are the test's own.
  skuIds = (
    await db
      .selectFrom('sku as s')
      .select('s.id')
      .where('s.owner_id', '=', ownerId)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('inventory_balance as b').select('b.id').whereRef('b.sku_id', '=', 's.id'))))
      .orderBy('s.id')
      .limit(3)
      .execute()
  ).map((r) => r.id);
  locationIds = (
    await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id).where('location_type', '=', 'storage').orderBy('id').limit(4).execute()
  ).map((r) => r.id);
});

afterAll(async () => {
  await t?.close();
});

async function day(shift: number): Promise<string> {
  return dayInZone(t.database.db, new Date(), timeZone, shift);
}

/** Adds a job of the handler with its parameters, runs it now and answers the finished run. */
async function runNow(handler: string, params: Record<string, string>, token = admin): Promise<{ status: string; log: string }> {
  jobSeq += 1;
  const added = await injectAs(t.app, token, {
    method: 'POST',
    url: '/api/generic/adding',
    payload: { moduleCode: 'job', functionCode: 'job', record: { name: `${handler} ${jobSeq}`, handler, cron_expression: '0 30 0 * * ?', business_type: 'INV', retry_limit: 0 } },
  });
  expect(added.statusCode, added.body).toBe(200);
  const jobId = json<{ row: { _key: number } }>(added).row._key;
  let seq = 0;
  for (const [name, value] of Object.entries(params)) {
    seq += 1;
    await t.database.db.insertInto('job_param').values({ job_id: jobId, name, value, seq, created_by: 'test', updated_by: 'test' }).execute();
  }
  const started = await injectAs(t.app, token, { method: 'POST', url: '/api/manual/schedule', payload: { id: jobId } });
  expect(started.statusCode, started.body).toBe(200);
  const runId = json<{ runId: number }>(started).runId;
  for (let i = 0; i < 300; i += 1) {
    const runs = json<{ items: { id: number; status: string; log: string }[] }>(await injectAs(t.app, token, { method: 'GET', url: `/api/job/runs?jobId=${jobId}` })).items;
    const run = runs.find((r) => r.id === runId);
    if (run && ['succeeded', 'failed'].includes(run.status)) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the run did not finish');
}

async function snapshotRows(snapshotDay: string, warehouseId = scope.warehouseId) {
  return t.database.db
    .selectFrom('storage_snapshot')
    .select(['id', 'sku_id', 'owner_id', 'on_hand_qty', 'location_count', 'lpn_count', 'pallet_count'])
    .where('snapshot_date', '=', snapshotDay)
    .where('warehouse_id', '=', warehouseId)
    .where('sku_id', 'in', skuIds)
    .orderBy('sku_id')
    .execute();
}

const latest = async (token: string) => json<{ unread: number; items: Item[] }>(await injectAs(t.app, token, { method: 'GET', url: '/api/notification/latest' }));

describe('inventory.storageSnapshot', () => {
  it('takes one row per owner x SKU with locations, LPNs and pallets; a past day comes from the ledger; a re-run replaces the day', async () => {
    const db = t.database.db;
    // SKU 0: 10 received three days ago on a pallet LPN, 5 more today elsewhere; SKU 1: 7 today.
    await inTransaction(db, async (trx) => {
      const lot = await lotFor(trx, scope, ownerId, skuIds[0], { lotNo: 'SNAP-1', palletId: 'PAL-1' });
      await receiveStock(trx, scope, { key: { ownerId, skuId: skuIds[0], lotId: lot.id, locationId: locationIds[0], lpn: 'LPN-1' }, qty: 10 });
    });
    // The ledger is append-only: the test backdates the receipt as the table owner, guard lifted for the moment.
    await sql`alter table inventory_transaction disable trigger inventory_transaction_append_only`.execute(db);
    await sql`update inventory_transaction set trans_time = now() - interval '3 days' where lot_id = (select id from lot where lot_no = 'SNAP-1')`.execute(db);
    await sql`alter table inventory_transaction enable trigger inventory_transaction_append_only`.execute(db);
    await inTransaction(db, async (trx) => {
      const lot = await lotFor(trx, scope, ownerId, skuIds[0], { lotNo: 'SNAP-2' });
      await receiveStock(trx, scope, { key: { ownerId, skuId: skuIds[0], lotId: lot.id, locationId: locationIds[1] }, qty: 5 });
      const lot3 = await lotFor(trx, scope, ownerId, skuIds[1], { lotNo: 'SNAP-3' });
      await receiveStock(trx, scope, { key: { ownerId, skuId: skuIds[1], lotId: lot3.id, locationId: locationIds[2] }, qty: 7 });
    });

    const today = await day(0);
    const run = await runNow('inventory.storageSnapshot', { date: 'today', warehouse: 'WH1' });
    expect(run.status, run.log).toBe('succeeded');
    expect(run.log).toContain(`warehouse WH1 day ${today}:`);
    const rows = await snapshotRows(today);
    expect(rows.map((r) => [r.sku_id, Number(r.on_hand_qty), r.location_count, r.lpn_count, r.pallet_count])).toEqual([
      // Pallets: the pallet id of SKU 0's first lot, plus a pallet for stock on none (the demo SKUs have a pallet size).
      [skuIds[0], 15, 2, 1, 2],
      [skuIds[1], 7, 1, 0, 1],
    ]);
    // Only the warehouse asked for.
    expect(await snapshotRows(today, wh2)).toEqual([]);

    // Two days ago only the earlier receipt was there: computed back from the ledger.
    const past = await day(-2);
    const pastRun = await runNow('inventory.storageSnapshot', { date: past, warehouse: 'WH1' });
    expect(pastRun.status, pastRun.log).toBe('succeeded');
    expect((await snapshotRows(past)).map((r) => [r.sku_id, Number(r.on_hand_qty), r.location_count, r.lpn_count, r.pallet_count])).toEqual([[skuIds[0], 10, 1, 1, 1]]);
    // Before anything came in there is nothing to charge.
    expect(await snapshotRows(await day(-5))).toEqual([]);

    // Idempotent: the same day again gives the same rows, not twice as many.
    const again = await runNow('inventory.storageSnapshot', { date: 'today', warehouse: 'WH1' });
    expect(again.status).toBe('succeeded');
    const rerun = await snapshotRows(today);
    expect(rerun.map((r) => [r.sku_id, Number(r.on_hand_qty)])).toEqual(rows.map((r) => [r.sku_id, Number(r.on_hand_qty)]));
    expect(rerun.map((r) => r.id)).not.toEqual(rows.map((r) => r.id));
    // Stock changed since: a re-run replaces the day with the new figures.
    await inTransaction(db, async (trx) => {
      const lot3 = await lotFor(trx, scope, ownerId, skuIds[1], { lotNo: 'SNAP-3' });
      await receiveStock(trx, scope, { key: { ownerId, skuId: skuIds[1], lotId: lot3.id, locationId: locationIds[2] }, qty: 3 });
    });
    expect((await runNow('inventory.storageSnapshot', { date: 'today' })).status).toBe('succeeded');
    expect((await snapshotRows(today)).map((r) => [r.sku_id, Number(r.on_hand_qty)])).toEqual([
      [skuIds[0], 15],
      [skuIds[1], 10],
    ]);
  });

  it('keeps location type, pallets, cubic metres and kg; a past day rebuilt from the ledger equals what the job took that day', async () => {
    const db = t.database.db;
    const tag = Date.now().toString(36).toUpperCase();
    const sku = skuIds[2];
    // 4 a case, 5 cases a pallet (20 a pallet), 1500 cm3 and 2.5 kg a unit.
    await db.updateTable('sku').set({ case_qty: '4', pallet_cases: '5', volume_cm3: '1500', gross_weight_kg: '2.5' }).where('id', '=', sku).execute();
    const pick = (await db.selectFrom('location').select('id').where('warehouse_id', '=', scope.warehouseId).where('location_type', '=', 'pick').orderBy('id').executeTakeFirstOrThrow()).id;
    const store = locationIds[3];
    // Day D (four days ago): 30 on a pallet in a storage location, 25 loose in a pick location.
    await inTransaction(db, async (trx) => {
      const onPallet = await lotFor(trx, scope, ownerId, sku, { lotNo: `SNAPM-1-${tag}`, palletId: `PALM-${tag}` });
      await receiveStock(trx, scope, { key: { ownerId, skuId: sku, lotId: onPallet.id, locationId: store, lpn: `LPNM-${tag}` }, qty: 30 });
      const loose = await lotFor(trx, scope, ownerId, sku, { lotNo: `SNAPM-2-${tag}` });
      await receiveStock(trx, scope, { key: { ownerId, skuId: sku, lotId: loose.id, locationId: pick }, qty: 25 });
    });
    await sql`alter table inventory_transaction disable trigger inventory_transaction_append_only`.execute(db);
    await sql`update inventory_transaction set trans_time = now() - interval '4 days' where sku_id = ${sku}`.execute(db);
    await sql`alter table inventory_transaction enable trigger inventory_transaction_append_only`.execute(db);
    const dayD = await day(-4);
    expect((await runNow('inventory.storageSnapshot', { date: dayD, warehouse: 'WH1' })).status).toBe('succeeded');
    const measures = async (snapshotDay: string) =>
      (
        await db
          .selectFrom('storage_snapshot')
          .select(['location_type', 'on_hand_qty', 'location_count', 'lpn_count', 'pallet_count', 'cbm', 'weight_kg', 'owner_id', 'project_id'])
          .where('snapshot_date', '=', snapshotDay)
          .where('warehouse_id', '=', scope.warehouseId)
          .where('sku_id', '=', sku)
          .orderBy('location_type')
          .execute()
      ).map((r) => ({ ...r, on_hand_qty: Number(r.on_hand_qty), cbm: Number(r.cbm), weight_kg: Number(r.weight_kg) }));
    const taken = await measures(dayD);
    expect(taken.map((r) => [r.location_type, r.on_hand_qty, r.location_count, r.lpn_count, r.pallet_count, r.cbm, r.weight_kg])).toEqual([
      // 25 loose at 20 a pallet: 2 pallets; 25 x 1500 cm3 = 0.0375 m3; 25 x 2.5 kg.
      ['pick', 25, 1, 0, 2, 0.0375, 62.5],
      // 30 on one pallet id: 1 pallet; 0.045 m3; 75 kg.
      ['storage', 30, 1, 1, 1, 0.045, 75],
    ]);

    // Later moves: 10 from storage to pick, 7 more received in storage, 3 adjusted off the pick face.
    await inTransaction(db, async (trx) => {
      const onPallet = await lotFor(trx, scope, ownerId, sku, { lotNo: `SNAPM-1-${tag}`, palletId: `PALM-${tag}` });
      await moveStock(trx, scope, { from: { ownerId, skuId: sku, lotId: onPallet.id, locationId: store, lpn: `LPNM-${tag}` }, toLocationId: pick, toLpn: '', qty: 10 });
      const fresh = await lotFor(trx, scope, ownerId, sku, { lotNo: `SNAPM-3-${tag}` });
      await receiveStock(trx, scope, { key: { ownerId, skuId: sku, lotId: fresh.id, locationId: store }, qty: 7 });
      const loose = await lotFor(trx, scope, ownerId, sku, { lotNo: `SNAPM-2-${tag}` });
      await adjustStock(trx, scope, { key: { ownerId, skuId: sku, lotId: loose.id, locationId: pick }, qty: -3 });
    });
    expect((await runNow('inventory.storageSnapshot', { date: 'today', warehouse: 'WH1' })).status).toBe('succeeded');
    expect((await measures(await day(0))).map((r) => [r.location_type, r.on_hand_qty, r.pallet_count])).toEqual([
      // 22 loose and 10 of the pallet's lot: its pallet id plus 22 loose at 20 a pallet (2).
      ['pick', 32, 3],
      // 20 left on the pallet id plus 7 loose (a second pallet).
      ['storage', 27, 2],
    ]);

    // Day D rebuilt from the ledger now equals what the job took on day D.
    expect((await runNow('inventory.storageSnapshot', { date: dayD, warehouse: 'WH1' })).status).toBe('succeeded');
    expect(await measures(dayD)).toEqual(taken);
  });

  it.each([
    [{ date: 'someday' }, 'date must be'],
    [{ date: '2999-01-01' }, 'lies in the future'],
    [{ warehouse: 'NOPE' }, 'no warehouse has the code "NOPE"'],
  ])('refuses the parameters %j: the run fails with its reason and writes nothing', async (params, reason) => {
    const before = Number((await t.database.db.selectFrom('storage_snapshot').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const run = await runNow('inventory.storageSnapshot', params);
    expect(run.status).toBe('failed');
    expect(run.log).toContain(reason);
    expect(Number((await t.database.db.selectFrom('storage_snapshot').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)).toBe(before);
  });

  it('is listed among the job classes with what it does and its parameters', async () => {
    const handlers = json<{ items: { name: string; area: string; available: boolean; description: string | null }[] }>(
      await injectAs(t.app, admin, { method: 'GET', url: '/api/job/handlers' }),
    ).items;
    for (const name of ['inventory.storageSnapshot', 'inventory.expiryAlert', 'report.scheduled']) {
      const handler = handlers.find((h) => h.name === name);
      expect(handler, name).toMatchObject({ area: 'inventory', available: true });
      expect(handler!.description).toMatch(/Parameters: /);
    }
    const zh = json<{ items: { name: string; description: string | null }[] }>(
      await injectAs(t.app, admin, { method: 'GET', url: '/api/job/handlers', headers: { 'x-language': 'zh' } }),
    ).items;
    expect(zh.find((h) => h.name === 'inventory.expiryAlert')!.description).toContain('参数');
  });
});

describe('inventory.expiryAlert', () => {
  it('tells the users of the warehouse holding the balance right, once a day per lot, and nobody else', async () => {
    const db = t.database.db;
    const viewer = await createUser(t, { loginAccount: 'exp-viewer', rights: ['inventory.balance:view'] as RightName[], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const elsewhere = await createUser(t, { loginAccount: 'exp-wh2', rights: ['inventory.balance:view'] as RightName[], projectCodes: ['PRJ1'], warehouseCodes: ['WH2'] });
    const noRight = await createUser(t, { loginAccount: 'exp-noright', rights: ['sku:view'] as RightName[], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const soon = await day(5);
    const gone = await day(-1);
    const later = await day(100);
    const lots = await inTransaction(db, async (trx) => {
      const made: number[] = [];
      for (const [i, expiryDate] of [soon, gone, later].entries()) {
        const lot = await lotFor(trx, scope, ownerId, skuIds[2], { lotNo: `EXP-${i}`, expiryDate });
        await receiveStock(trx, scope, { key: { ownerId, skuId: skuIds[2], lotId: lot.id, locationId: locationIds[3] }, qty: 2 });
        made.push(lot.id);
      }
      return made;
    });

    const run = await runNow('inventory.expiryAlert', { days: '30', warehouse: 'WH1' });
    expect(run.status, run.log).toBe('succeeded');
    expect(run.log).toContain('2 announced');
    const sent = await db.selectFrom('expiry_alert_sent').select(['lot_id', 'warehouse_id']).orderBy('lot_id').execute();
    expect(sent.map((s) => Number(s.lot_id))).toEqual([lots[0], lots[1]]);

    const seen = await latest(viewer);
    const alerts = seen.items.filter((i) => i.category === 'inventory');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].title).toBe('Expiring stock in WH1');
    expect(alerts[0].body).toBe('2 lots with stock on hand expire within 30 days: 1 expiring, 1 already expired.');
    expect(alerts[0].link).toBe('enquiryLot');
    expect((await latest(elsewhere)).items).toEqual([]);
    expect((await latest(noRight)).items).toEqual([]);

    // The same day again: nothing new to tell, no second notification.
    const again = await runNow('inventory.expiryAlert', { days: '30', warehouse: 'WH1' });
    expect(again.status).toBe('succeeded');
    expect(again.log).toContain('0 announced');
    expect((await latest(viewer)).items.filter((i) => i.category === 'inventory')).toHaveLength(1);

    // A longer horizon finds the third lot: only it is announced.
    const wider = await runNow('inventory.expiryAlert', { days: '365' });
    expect(wider.status).toBe('succeeded');
    const after = (await latest(viewer)).items.filter((i) => i.category === 'inventory');
    expect(after).toHaveLength(2);
    expect(after[0].body).toBe('1 lots with stock on hand expire within 365 days: 1 expiring, 0 already expired.');
  });

  it.each([['0'], ['x'], ['4000']])('refuses days=%s', async (days) => {
    const run = await runNow('inventory.expiryAlert', { days });
    expect(run.status).toBe('failed');
    expect(run.log).toContain('days must be a whole number');
  });
});

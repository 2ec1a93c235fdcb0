import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StockActivity } from '../../src/common/api-types.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { MODULES } from '../../src/server/modules/index.js';
import { lotFor, receiveStock } from '../../src/server/modules/inventory/inventory.service.js';
import { buildTestApp, createUser, injectAs, json, type TestApp } from '../helpers/app.js';

/** The home page's charts (`/inventory/activity`): received per day and stock by owner, in the session's scope only. */
describe('home page charts', () => {
  let t: TestApp;
  let clerk: string;
  let stranger: string;
  let noRight: string;
  const tag = Date.now().toString(36).toUpperCase();

  const activity = async (token: string, timeZone = 'UTC') => injectAs(t.app, token, { method: 'GET', url: `/api/inventory/activity?timeZone=${encodeURIComponent(timeZone)}` });

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    await loadDemoData(db, MODULES);
    const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
    const prj2 = await db.insertInto('project').values({ organization_id: org.id, code: `P2${tag}`.slice(0, 20), name: 'Second', created_by: 'test', updated_by: 'test' }).returning(['id', 'code']).executeTakeFirstOrThrow();
    const wh1 = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
    await db.insertInto('project_warehouse').values({ project_id: prj2.id, warehouse_id: wh1.id }).execute();
    clerk = await createUser(t, { loginAccount: `chart-${tag}`, rights: ['inventory.balance:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    stranger = await createUser(t, { loginAccount: `chart2-${tag}`, rights: ['inventory.balance:view'], projectCodes: [prj2.code], warehouseCodes: ['WH1'] });
    noRight = await createUser(t, { loginAccount: `chart3-${tag}`, rights: [], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  });
  afterAll(() => t?.close());

  it("counts a receipt on today's bar and in its owner's stock, and shows nothing of it to another project in the same warehouse", async () => {
    const db = t.database.db;
    const before = json<StockActivity>(await activity(clerk));
    const strangerBefore = json<StockActivity>(await activity(stranger));
    expect(before.days).toHaveLength(14);
    const project = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
    const owner = await db.selectFrom('owner').select(['id', 'code']).where('project_id', '=', project.id).orderBy('id').executeTakeFirstOrThrow();
    const sku = await db.selectFrom('sku').select('id').where('owner_id', '=', owner.id).orderBy('id').executeTakeFirstOrThrow();
    const location = await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id).orderBy('id').executeTakeFirstOrThrow();
    const scope = { projectId: project.id, warehouseId: warehouse.id, operator: 'chart-test' };
    await inTransaction(db, async (trx) => {
      const lot = await lotFor(trx, scope, owner.id, sku.id, { lotNo: `CH-${tag}` });
      await receiveStock(trx, scope, { key: { ownerId: owner.id, skuId: sku.id, lotId: lot.id, locationId: location.id }, qty: '7.5' });
    });
    const after = json<StockActivity>(await activity(clerk));
    const today = after.days.at(-1)!;
    expect(Number(today.received) - Number(before.days.at(-1)!.received)).toBe(7.5);
    expect(today.shipped).toBe(before.days.at(-1)!.shipped);
    const onHand = (a: StockActivity) => Number(a.owners.find((o) => o.owner === owner.code)?.onHand ?? 0);
    expect(onHand(after) - onHand(before)).toBe(7.5);
    // The days run oldest first, one per day up to today.
    expect([...after.days.map((d) => d.day)].sort()).toEqual(after.days.map((d) => d.day));
    expect(new Set(after.days.map((d) => d.day)).size).toBe(14);
    expect(json<StockActivity>(await activity(stranger))).toEqual(strangerBefore);
  });

  it('refuses an unknown time zone and a user without the right to see stock', async () => {
    const bad = await activity(clerk, 'Mars/Olympus');
    expect(bad.statusCode).toBe(400);
    expect(json<{ details: { field: string }[] }>(bad).details.map((f) => f.field)).toEqual(['timeZone']);
    expect((await activity(clerk, "UTC'; select 1 --")).statusCode).toBe(400);
    expect((await activity(noRight)).statusCode).toBe(403);
  });
});

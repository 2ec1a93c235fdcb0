import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { loadConfig } from '../../src/server/config.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import { DEMO_MARKER, loadDemoData, type DemoDataResult } from '../../src/server/install/demo-data.js';
import { DEMO, gs1CheckDigit } from '../../src/server/modules/masterdata/masterdata.demo.js';
import { startServer } from '../../src/server/start.js';
import { connectPostgres } from '../../src/server/db/database.js';
import { createTestDatabase, firstStartPlace, onRealServer, type TestDatabase } from '../helpers/database.js';
import { MODULES } from '../../src/server/modules/index.js';

if (!onRealServer) {
  console.warn('skipped: the two-nodes test of the demo data needs two real PostgreSQL sessions; set TEST_DATABASE_URL to run them');
}

let database: TestDatabase;
let first: DemoDataResult;

async function count(table: 'warehouse' | 'location' | 'owner' | 'sku' | 'sku_upc' | 'partner' | 'currency' | 'code_master' | 'driver' | 'vehicle'): Promise<number> {
  const row = await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeAll(async () => {
  database = await createTestDatabase();
  await seedFirstStart(database.db, 'Adm1n!Passw0rd', MODULES);
  first = await loadDemoData(database.db, MODULES);
  // The load time is part of the report (fast on PGlite).
  console.info(`demo data loaded on ${database.kind} in ${first.milliseconds} ms`, first.counts);
});

afterAll(async () => {
  await database?.close();
});

describe(loadDemoData.name, () => {
  it('looks like a small 3PL: two warehouses with thousands of locations, three owners with a hundred SKUs each', async () => {
    expect(first.loaded).toBe(true);
    expect(await count('warehouse')).toBe(2);
    const perWarehouse = await database.db
      .selectFrom('location')
      .innerJoin('warehouse', 'warehouse.id', 'location.warehouse_id')
      .select(['warehouse.code', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('warehouse.code')
      .orderBy('warehouse.code')
      .execute();
    expect(perWarehouse.map((r) => r.code)).toEqual(['WH1', 'WH2']);
    const warehouses = await database.db
      .selectFrom('warehouse')
      .leftJoin('project_warehouse', 'project_warehouse.warehouse_id', 'warehouse.id')
      .select(['warehouse.code', 'warehouse.name', 'warehouse.city', 'warehouse.address1', 'warehouse.time_zone', 'project_warehouse.project_id'])
      .orderBy('warehouse.code')
      .execute();
    const project = await database.db.selectFrom('project').select('id').orderBy('id').executeTakeFirstOrThrow();
    expect(warehouses).toEqual([
      { code: 'WH1', name: 'Main warehouse', city: 'Hong Kong', address1: '18 Container Port Road', time_zone: 'Asia/Hong_Kong', project_id: project.id },
      { code: 'WH2', name: 'Kwai Chung distribution centre', city: 'Hong Kong', address1: '3 Container Port Road', time_zone: 'Asia/Hong_Kong', project_id: project.id },
    ]);
    for (const row of perWarehouse) expect(Number(row.n)).toBeGreaterThan(1000);
    expect(await count('location')).toBe(first.counts.location);
    expect(await count('location')).toBeGreaterThan(3000);
    expect(await count('owner')).toBe(3);
    expect(await count('sku')).toBe(3 * DEMO.skusPerOwner);
    const perOwner = await database.db.selectFrom('sku').select(['owner_id', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('owner_id').execute();
    expect(perOwner.map((r) => Number(r.n))).toEqual([100, 100, 100]);
    expect(await count('currency')).toBeGreaterThanOrEqual(10);
    expect(await count('code_master')).toBeGreaterThanOrEqual(20);
    expect(await count('vehicle')).toBeGreaterThan(0);
    expect(await count('driver')).toBeGreaterThan(0);
    const partners = await database.db.selectFrom('partner').select(['partner_type', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('partner_type').execute();
    expect(Object.fromEntries(partners.map((p) => [p.partner_type, Number(p.n)]))).toEqual({ supplier: 8, consignee: 20, carrier: 6 });
  });

  it('gives every SKU a valid EAN-13 for the each and food SKUs their shelf-life rules', async () => {
    const eaches = await database.db.selectFrom('sku_upc').select(['sku_id', 'upc']).where('uom', '=', 'EA').execute();
    expect(eaches).toHaveLength(300);
    for (const { upc } of eaches) {
      expect(upc).toMatch(/^\d{13}$/);
      expect(upc.at(-1)).toBe(gs1CheckDigit(upc.slice(0, 12)));
    }
    expect(new Set(eaches.map((e) => e.upc)).size).toBe(300);
    const food = await database.db
      .selectFrom('sku')
      .innerJoin('owner', 'owner.id', 'sku.owner_id')
      .select(['sku.shelf_life_days', 'sku.inbound_min_days', 'sku.outbound_min_days', 'sku.expiry_control'])
      .where('owner.code', '=', 'FRESH')
      .execute();
    expect(food).toHaveLength(100);
    for (const sku of food) {
      expect(sku.expiry_control).toBe(true);
      expect(sku.inbound_min_days!).toBeGreaterThan(sku.outbound_min_days!);
      expect(sku.shelf_life_days!).toBeGreaterThan(sku.inbound_min_days!);
    }
  });

  it('shows a living warehouse: ASNs in every status and stock on hand from receipts, the ledger agreeing', async () => {
    const statuses = await database.db.selectFrom('asn').select('status').distinct().execute();
    expect(new Set(statuses.map((s) => s.status))).toEqual(new Set(['new', 'partial_received', 'received', 'partial_putaway', 'putaway', 'closed', 'cancelled', 'deleted']));
    expect(first.counts.asn).toBe(await database.db.selectFrom('asn').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n)));
    const stock = await database.db.selectFrom('inventory_balance').select((eb) => eb.fn.sum<string>('on_hand_qty').as('qty')).executeTakeFirstOrThrow();
    expect(Number(stock.qty)).toBeGreaterThan(0);
    const disagreeing = await sql<{ id: number }>`
      select b.id from inventory_balance b left join inventory_transaction t on t.balance_id = b.id
      group by b.id having b.on_hand_qty <> coalesce(sum(t.qty), 0) or b.held_qty <> coalesce(sum(t.held_change), 0)`.execute(database.db);
    expect(disagreeing.rows).toEqual([]);
    const waiting = await database.db.selectFrom('receipt_line').select('id').where('status', '=', 'open').execute();
    expect(waiting.length).toBeGreaterThan(0);
  });

  it('gives the second warehouse a day of its own: stock on hand, an ASN on the dock and two orders, one allocated', async () => {
    const wh2 = await database.db.selectFrom('warehouse').select('id').where('code', '=', 'WH2').executeTakeFirstOrThrow();
    const stock = await database.db.selectFrom('inventory_balance').select((eb) => eb.fn.sum<string>('on_hand_qty').as('qty')).where('warehouse_id', '=', wh2.id).executeTakeFirstOrThrow();
    expect(Number(stock.qty)).toBeGreaterThan(0);
    const asns = await database.db.selectFrom('asn').select('status').where('warehouse_id', '=', wh2.id).orderBy('id').execute();
    expect(asns.map((a) => a.status)).toEqual(['putaway', 'received']);
    const orders = await database.db.selectFrom('so_header').select(['order_no', 'status']).where('warehouse_id', '=', wh2.id).orderBy('order_no').execute();
    expect(orders).toEqual([
      { order_no: 'SO-DEMO-WH2-1', status: 'allocated' },
      { order_no: 'SO-DEMO-WH2-2', status: 'new' },
    ]);
  });

  it('shows sales orders in every status reachable up to picking and a wave being picked, through the services', async () => {
    const statuses = await database.db.selectFrom('so_header').select('status').distinct().execute();
    expect(new Set(statuses.map((s) => s.status))).toEqual(new Set(['new', 'partial_allocated', 'allocated', 'partial_picked', 'picked', 'cancelled', 'closed', 'deleted']));
    const waves = await database.db.selectFrom('wave').select('status').execute();
    expect(waves.map((w) => w.status)).toEqual(['partial_picked']);
    const picked = await database.db.selectFrom('inventory_balance').select('picked_qty').where('lpn', '=', 'TOTE-DEMO-1').execute();
    expect(picked.reduce((sum, b) => sum + Number(b.picked_qty), 0)).toBe(4);
    expect(first.counts.so).toBe(await database.db.selectFrom('so_header').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n)));
    const psos = await database.db.selectFrom('pso_header').select(['status', 'so_id']).orderBy('pso_no').execute();
    expect(psos.map((p) => p.status)).toEqual(['new', 'confirmed']);
    expect(psos[1].so_id).not.toBeNull();
    // Allocated quantities: the lines, the allocation records, the balance and the ledger all agree.
    const disagreeing = await sql<{ id: number }>`
      select b.id from inventory_balance b
        left join (select balance_id, sum(qty) as qty from so_allocation group by balance_id) a on a.balance_id = b.id
        left join (select balance_id, sum(allocated_change) as qty from inventory_transaction group by balance_id) t on t.balance_id = b.id
       where b.allocated_qty <> coalesce(a.qty, 0) or b.allocated_qty <> coalesce(t.qty, 0)`.execute(database.db);
    expect(disagreeing.rows).toEqual([]);
    const lines = await sql<{ id: number }>`
      select l.id from so_line l left join (select so_line_id, sum(qty) as qty from so_allocation group by so_line_id) a on a.so_line_id = l.id
       where l.allocated_qty <> coalesce(a.qty, 0)`.execute(database.db);
    expect(lines.rows).toEqual([]);
    const allocated = await database.db.selectFrom('so_allocation').select('id').execute();
    expect(allocated.length).toBeGreaterThan(0);
    const shipment = await database.db.selectFrom('so_header').select('id').where('shipment_order_id', 'is not', null).execute();
    expect(shipment).toHaveLength(2);
  });

  it('gives the racked locations unique pick sequences per warehouse', async () => {
    const dupes = await database.db
      .selectFrom('location')
      .select(['warehouse_id', 'pick_seq'])
      .where('pick_seq', 'is not', null)
      .groupBy(['warehouse_id', 'pick_seq'])
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(dupes).toEqual([]);
  });

  it('loads only once: a second run changes nothing', async () => {
    const before = { location: await count('location'), sku: await count('sku'), partner: await count('partner') };
    const again = await loadDemoData(database.db, MODULES);
    expect(again.loaded).toBe(false);
    expect({ location: await count('location'), sku: await count('sku'), partner: await count('partner') }).toEqual(before);
    const marker = await database.db.selectFrom('sys_param').select('param_value').where('param_code', '=', DEMO_MARKER).execute();
    expect(marker).toHaveLength(1);
  });

  it('writes nothing when one part fails: it is one transaction', async () => {
    const other = await createTestDatabase();
    try {
      await seedFirstStart(other.db, 'Adm1n!Passw0rd', MODULES);
      // Drivers are inserted late, after warehouses, locations, SKUs and partners: refusing the
      // last one must leave none of those behind.
      const wh = await other.db.selectFrom('warehouse').select('id').executeTakeFirstOrThrow();
      await other.db.schema.alterTable('driver').addCheckConstraint('no_demo_drivers', sql`code <> 'DRV006'`).execute();
      await expect(loadDemoData(other.db, MODULES)).rejects.toThrow();
      for (const table of ['location', 'owner', 'sku', 'partner', 'vehicle'] as const) {
        const row = await other.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        expect(Number(row.n), table).toBe(0);
      }
      expect(await other.db.selectFrom('warehouse').select('code').where('id', '<>', wh.id).execute()).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it.skipIf(!onRealServer)('loads once when two nodes start together (real server only: PGlite has one session)', async () => {
    const other = await createTestDatabase();
    const nodes = await Promise.all([connectPostgres(other.url!, 2), connectPostgres(other.url!, 2)]);
    try {
      await seedFirstStart(other.db, 'Adm1n!Passw0rd', MODULES);
      const results = await Promise.all(nodes.map((node) => loadDemoData(node.db, MODULES)));
      expect(results.map((r) => r.loaded).sort()).toEqual([false, true]);
      const row = await other.db.selectFrom('sku').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(row.n)).toBe(3 * DEMO.skusPerOwner);
    } finally {
      await Promise.all(nodes.map((node) => node.close()));
      await other.close();
    }
  });
});

// Each test makes a first start of the server on the database under test: an empty database of the
// PostgreSQL server on that run, an empty data directory of the embedded database on the other.
// A first start on the embedded database takes most of a minute on a loaded machine.
describe('demo data at start', { timeout: 240_000 }, () => {
  it.each([
    ['false', 0],
    ['true', 3 * DEMO.skusPerOwner],
  ])('DEMO_DATA=%s gives %i SKUs on the first start', async (flag, skus) => {
    const place = await firstStartPlace('wms-demo-');
    try {
      const server = await startServer(loadConfig({ ...place.env, PORT: '0', LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Adm1n!Passw0rd', DEMO_DATA: flag }));
      try {
        expect(server.database.kind).toBe(onRealServer ? 'postgres' : 'pglite');
        const row = await server.database.db.selectFrom('sku').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        expect(Number(row.n)).toBe(skus);
      } finally {
        await server.stop();
      }
    } finally {
      await place.remove();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { seedFirstStart } from '../../src/server/install/seed.js';
import {
  MAX_GENERATED_LOCATIONS,
  expandRange,
  generateLocations,
  planLocations,
} from '../../src/server/modules/masterdata/location-generator.service.js';
import { readGenerateLocationsInputs } from '../../src/server/modules/masterdata/generate-locations.behaviour.js';
import { connectPostgres } from '../../src/server/db/database.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { createTestDatabase, onRealServer, type TestDatabase } from '../helpers/database.js';
import { MODULES } from '../../src/server/modules/index.js';

/** Generates in a transaction of its own, as a behaviour's call does. */
function generateLocationsNow(...args: Parameters<typeof generateLocations> extends [unknown, ...infer Rest] ? Rest : never) {
  return inTransaction(database.db, (trx) => generateLocations(trx, ...args));
}

if (!onRealServer) {
  console.warn('skipped: the concurrent generate-locations test needs several real PostgreSQL sessions; set TEST_DATABASE_URL to run it');
}

let database: TestDatabase;
let warehouseId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedFirstStart(database.db, 'Adm1n!Passw0rd', MODULES);
  warehouseId = (await database.db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await database?.close();
});

async function codesOf(where: string): Promise<string[]> {
  const rows = await database.db
    .selectFrom('location')
    .select('code')
    .where('warehouse_id', '=', warehouseId)
    .where('code', 'like', `${where}%`)
    .orderBy('pick_seq')
    .execute();
  return rows.map((r) => r.code);
}

describe(expandRange.name, () => {
  it.each([
    [{ from: 'A', to: 'C' }, ['A', 'B', 'C']],
    [{ from: 'y', to: 'ab' }, ['Y', 'Z', 'AA', 'AB']],
    [{ from: '01', to: '03' }, ['01', '02', '03']],
    [{ from: '8', to: '11' }, ['8', '9', '10', '11']],
    [{ from: '098', to: '101' }, ['098', '099', '100', '101']],
  ])('expands %j', (range, expected) => {
    expect(expandRange('aisle', range)).toEqual(expected);
  });

  it.each([
    [{ from: 'C', to: 'A' }],
    [{ from: '1', to: 'B' }],
    [{ from: '', to: '3' }],
    [{ from: 'A1', to: 'A9' }],
  ])('refuses %j', (range) => {
    expect(() => expandRange('bay', range)).toThrow(expect.objectContaining({ code: 'LOCATION_RANGE_INVALID' }));
  });
});

describe(planLocations.name, () => {
  it('gives aisle x bay x level codes, e.g. A-C x 01-20 x 1-4', () => {
    const planned = planLocations({ aisle: { from: 'A', to: 'C' }, bay: { from: '01', to: '20' }, level: { from: '1', to: '4' } });
    expect(planned).toHaveLength(3 * 20 * 4);
    expect(planned.slice(0, 5).map((p) => p.code)).toEqual(['A-01-1', 'A-01-2', 'A-01-3', 'A-01-4', 'A-02-1']);
    expect(planned.at(-1)).toEqual({ code: 'C-20-4', aisle: 'C', bay: '20', level: '4', position: null });
  });

  it('adds a position segment and a custom separator', () => {
    const planned = planLocations({
      aisle: { from: 'B', to: 'B' },
      bay: { from: '1', to: '1' },
      level: { from: '2', to: '2' },
      position: { from: 'A', to: 'B' },
      separator: '.',
    });
    expect(planned.map((p) => p.code)).toEqual(['B.1.2.A', 'B.1.2.B']);
  });

  it('refuses more than the limit at once', () => {
    expect(() =>
      planLocations({ aisle: { from: 'A', to: 'Z' }, bay: { from: '001', to: '100' }, level: { from: '1', to: '9' } }),
    ).toThrow(expect.objectContaining({ code: 'LOCATION_RANGE_TOO_LARGE', params: { count: 26 * 100 * 9, max: MAX_GENERATED_LOCATIONS } }));
  });
});

describe(generateLocations.name, () => {
  it('creates every location of the ranges with its type, zone, segments and capacity', async () => {
    const result = await generateLocationsNow(
      {
        warehouseId,
        aisle: { from: 'A', to: 'C' },
        bay: { from: '01', to: '20' },
        level: { from: '1', to: '4' },
        zone: 'Z1',
        locationType: 'storage',
        maxPallets: 2,
        maxWeightKg: '1500.5',
      },
      'tester',
    );
    expect(result).toEqual({ requested: 240, created: 240, skipped: [] });
    const a = await database.db
      .selectFrom('location')
      .selectAll()
      .where('warehouse_id', '=', warehouseId)
      .where('code', '=', 'B-07-3')
      .executeTakeFirstOrThrow();
    expect(a).toMatchObject({ aisle: 'B', bay: '07', level: '3', zone: 'Z1', location_type: 'storage', max_pallets: 2, created_by: 'tester' });
    expect(a.max_weight_kg).toBe('1500.500');
    const codes = await codesOf('');
    expect(codes).toHaveLength(240);
    expect(codes.slice(0, 2)).toEqual(['A-01-1', 'A-01-2']);
  });

  it('skips and reports codes that exist already and creates the rest', async () => {
    const result = await generateLocationsNow(
      { warehouseId, aisle: { from: 'C', to: 'D' }, bay: { from: '19', to: '20' }, level: { from: '4', to: '4' } },
      'tester',
    );
    expect(result).toEqual({ requested: 4, created: 2, skipped: ['C-19-4', 'C-20-4'] });
    expect(await codesOf('D-')).toEqual(['D-19-4', 'D-20-4']);
    // Pick sequences continue after the warehouse's highest one.
    const seq = await database.db.selectFrom('location').select(['code', 'pick_seq']).where('code', 'like', 'D-%').orderBy('code').execute();
    expect(seq.map((s) => s.pick_seq)).toEqual([243, 244]);
  });

  it('writes everything or nothing: one failing row rolls back the whole generation', async () => {
    // A trigger refuses the very last code (7,700 rows: it falls in the second chunk of inserts).
    await sql`
      create function refuse_poison_location() returns trigger language plpgsql as $$
      begin
        if new.code = 'Z-50-7' then raise exception 'poisoned location'; end if;
        return new;
      end $$
    `.execute(database.db);
    await sql`create trigger refuse_poison before insert on location for each row execute function refuse_poison_location()`.execute(database.db);
    try {
      const before = await database.db.selectFrom('location').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      await expect(
        generateLocationsNow({ warehouseId, aisle: { from: 'E', to: 'Z' }, bay: { from: '01', to: '50' }, level: { from: '1', to: '7' } }, 'tester'),
      ).rejects.toThrow(/poisoned location/);
      const after = await database.db.selectFrom('location').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
      expect(await codesOf('E-')).toEqual([]);
    } finally {
      await sql`drop trigger refuse_poison on location`.execute(database.db);
      await sql`drop function refuse_poison_location()`.execute(database.db);
    }
  });

  it('refuses a bad capacity or an unknown warehouse without writing', async () => {
    await expect(
      generateLocationsNow({ warehouseId, aisle: { from: 'X', to: 'X' }, bay: { from: '1', to: '2' }, level: { from: '1', to: '1' }, maxPallets: -1 }, 't'),
    ).rejects.toMatchObject({ code: 'LOCATION_RANGE_INVALID' });
    await expect(
      generateLocationsNow({ warehouseId: 999999, aisle: { from: 'X', to: 'X' }, bay: { from: '1', to: '2' }, level: { from: '1', to: '1' } }, 't'),
    ).rejects.toMatchObject({ code: 'NO_RECORD' });
    expect(await codesOf('X-')).toEqual([]);
  });

  it.skipIf(!onRealServer)('creates each code once when sessions generate overlapping ranges at the same time (real server only)', async () => {
    const nodes = await Promise.all(Array.from({ length: 4 }, () => connectPostgres(database.url!, 1)));
    try {
      // Aisles P-R, Q-S, R-T, S-U overlap pairwise: P..U x 01-30 x 1-3 is 6 x 90 = 540 codes in all.
      const results = await Promise.all(
        ['P', 'Q', 'R', 'S'].map((from, i) =>
          inTransaction(nodes[i].db, (trx) => generateLocations(
            trx,
            { warehouseId, aisle: { from, to: String.fromCharCode(from.charCodeAt(0) + 2) }, bay: { from: '01', to: '30' }, level: { from: '1', to: '3' } },
            `node${i}`,
          )),
        ),
      );
      expect(results.reduce((sum, r) => sum + r.created, 0)).toBe(540);
      expect(results.every((r) => r.created + r.skipped.length === 270)).toBe(true);
      const rows = await database.db
        .selectFrom('location')
        .select(['code', 'pick_seq'])
        .where('warehouse_id', '=', warehouseId)
        .where('aisle', 'in', ['P', 'Q', 'R', 'S', 'T', 'U'])
        .execute();
      expect(rows).toHaveLength(540);
      const allSeqs = await database.db.selectFrom('location').select('pick_seq').where('warehouse_id', '=', warehouseId).execute();
      expect(new Set(allSeqs.map((r) => r.pick_seq)).size).toBe(allSeqs.length);
    } finally {
      await Promise.all(nodes.map((node) => node.close()));
    }
  });
});

describe(readGenerateLocationsInputs.name, () => {
  it('reads the dialog inputs into ranges of the session warehouse', () => {
    expect(
      readGenerateLocationsInputs(
        { aisleFrom: 'A', aisleTo: 'C', bayFrom: '01', bayTo: '20', levelFrom: 1, levelTo: 4, zone: 'Z1', maxPallets: '2', warehouseId: 999 },
        7,
      ),
    ).toEqual({
      warehouseId: 7,
      aisle: { from: 'A', to: 'C' },
      bay: { from: '01', to: '20' },
      level: { from: '1', to: '4' },
      position: null,
      separator: '-',
      zone: 'Z1',
      locationType: 'storage',
      maxPallets: 2,
      maxWeightKg: null,
      maxVolumeCm3: null,
    });
  });

  it.each([
    [{ aisleFrom: 'A', bayFrom: '1', bayTo: '2', levelFrom: '1', levelTo: '1' }, /aisleTo is required/],
    [{ aisleFrom: 'A', aisleTo: 'B', bayFrom: '1', bayTo: '2', levelFrom: '1', levelTo: '1', positionFrom: 'A' }, /go together/],
    [{ aisleFrom: 'A', aisleTo: 'B', bayFrom: '1', bayTo: '2', levelFrom: '1', levelTo: '1', maxPallets: '-1' }, /whole number/],
    [{ aisleFrom: true, aisleTo: 'B', bayFrom: '1', bayTo: '2', levelFrom: '1', levelTo: '1' }, /must be text/],
  ])('refuses %j', (inputs, reason) => {
    expect(() => readGenerateLocationsInputs(inputs, 1)).toThrow(
      expect.objectContaining({ code: 'LOCATION_RANGE_INVALID', params: { reason: expect.stringMatching(reason) } }),
    );
  });
});

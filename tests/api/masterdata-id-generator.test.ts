import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connectPostgres } from '../../src/server/db/database.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import { AppError } from '../../src/common/errors.js';
import {
  calendarDate,
  formatDocumentNumber,
  nextDocumentNumber,
} from '../../src/server/modules/masterdata/id-generator.service.js';
import { createTestDatabase, onRealServer, type TestDatabase } from '../helpers/database.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { MODULES } from '../../src/server/modules/index.js';

if (!onRealServer) {
  console.warn('skipped: the concurrent-sessions tests of nextDocumentNumber need two real PostgreSQL sessions; set TEST_DATABASE_URL to run them');
}

/** One number in a transaction of its own, as a caller's would be. */
function numberNow(...args: Parameters<typeof nextDocumentNumber> extends [unknown, ...infer Rest] ? Rest : never) {
  return inTransaction(database.db, (trx) => nextDocumentNumber(trx, ...args));
}

let database: TestDatabase;
let warehouseId: number;
let projectId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedFirstStart(database.db, 'Adm1n!Passw0rd', MODULES);
  warehouseId = (await database.db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id;
  projectId = (await database.db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow()).id;
  await database.db
    .insertInto('id_rule')
    .values([
      { rule_code: 'T_DAILY', prefix: 'TD', date_pattern: 'YYMMDD', sequence_length: 4, reset_period: 'daily', scope_level: 'warehouse' },
      { rule_code: 'T_MONTHLY', prefix: 'TM', date_pattern: 'YYYYMM', sequence_length: 3, reset_period: 'monthly', scope_level: 'project' },
      { rule_code: 'T_NEVER', prefix: 'N-', date_pattern: '', sequence_length: 6, reset_period: 'never', scope_level: 'global' },
      { rule_code: 'T_TINY', prefix: 'X', date_pattern: '', sequence_length: 1, reset_period: 'never', scope_level: 'global' },
      { rule_code: 'T_OFF', prefix: 'OFF', date_pattern: '', sequence_length: 3, reset_period: 'never', scope_level: 'global', active: false },
      { rule_code: 'T_RACE', prefix: 'R', date_pattern: '', sequence_length: 8, reset_period: 'never', scope_level: 'global' },
    ])
    .execute();
});

afterAll(async () => {
  await database?.close();
});

describe(nextDocumentNumber.name, () => {
  it('formats prefix, date part and the zero-padded sequence', async () => {
    const at = new Date('2026-11-20T10:00:00Z');
    const first = await inTransaction(database.db, (trx) => nextDocumentNumber(trx, 'T_DAILY', { warehouseId }, at));
    const second = await inTransaction(database.db, (trx) => nextDocumentNumber(trx, 'T_DAILY', { warehouseId }, at));
    expect([first, second]).toEqual(['TD2611200001', 'TD2611200002']);
    expect(await numberNow('T_NEVER')).toBe('N-000001');
  });

  it('starts again at 1 in a new period, and keeps counting when the period comes back', async () => {
    const november = new Date('2026-11-05T00:00:00Z');
    const december = new Date('2026-12-01T00:00:00Z');
    expect(await numberNow('T_MONTHLY', { projectId }, november)).toBe('TM202611001');
    expect(await numberNow('T_MONTHLY', { projectId }, november)).toBe('TM202611002');
    expect(await numberNow('T_MONTHLY', { projectId }, december)).toBe('TM202612001');
    expect(await numberNow('T_MONTHLY', { projectId }, november)).toBe('TM202611003');
  });

  it('counts each warehouse separately for a rule numbered per warehouse', async () => {
    const org = await database.db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
    const other = await database.db
      .insertInto('warehouse')
      .values({ organization_id: org.id, code: 'WHX', name: 'Other', nav_layout: null, created_by: 't', updated_by: 't' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const at = new Date('2026-03-03T03:00:00Z');
    expect(await numberNow('T_DAILY', { warehouseId }, at)).toBe('TD2603030001');
    expect(await numberNow('T_DAILY', { warehouseId: other.id }, at)).toBe('TD2603030001');
    expect(await numberNow('T_DAILY', { warehouseId }, at)).toBe('TD2603030002');
  });

  it("takes the day in the warehouse's time zone", async () => {
    const org = await database.db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
    const tokyo = await database.db
      .insertInto('warehouse')
      .values({ organization_id: org.id, code: 'WHTYO', name: 'Tokyo', nav_layout: null, time_zone: 'Asia/Tokyo' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // 20:00 UTC on 31 December is already 1 January in Tokyo.
    const at = new Date('2026-12-31T20:00:00Z');
    expect(await numberNow('T_DAILY', { warehouseId: tokyo.id }, at)).toBe('TD2701010001');
    expect(calendarDate(at, 'UTC')).toEqual({ yyyy: '2026', mm: '12', dd: '31' });
  });

  it('gives the number back when the caller rolls back', async () => {
    await expect(
      inTransaction(database.db, async (trx) => {
        await nextDocumentNumber(trx, 'T_NEVER');
        throw new Error('document refused');
      }),
    ).rejects.toThrow('document refused');
    expect(await numberNow('T_NEVER')).toBe('N-000002');
  });

  it('refuses an unknown or inactive rule, and a sequence that outgrows its length', async () => {
    await expect(numberNow('NO_SUCH_RULE')).rejects.toMatchObject({ code: 'ID_RULE_NOT_FOUND' });
    await expect(numberNow('T_OFF')).rejects.toBeInstanceOf(AppError);
    for (let n = 1; n <= 9; n++) expect(await numberNow('T_TINY')).toBe(`X${n}`);
    await expect(numberNow('T_TINY')).rejects.toMatchObject({ code: 'ID_SEQUENCE_EXHAUSTED', status: 409 });
  });

  it('needs the warehouse of a rule numbered per warehouse', async () => {
    await expect(numberNow('T_DAILY', {})).rejects.toThrow(/per warehouse/);
  });

  it('ships the standard rules of the documents', async () => {
    const codes = (await database.db.selectFrom('id_rule').select('rule_code').execute()).map((r) => r.rule_code);
    expect(codes).toEqual(expect.arrayContaining(['ASN', 'SO', 'PO', 'WAVE', 'LOAD', 'ADJ', 'MOVE', 'TRF', 'CC', 'BILL', 'LPN']));
    const asn = await numberNow('ASN', { warehouseId }, new Date('2026-11-20T01:00:00Z'));
    expect(asn).toBe(`ASN261120${'1'.padStart(4, '0')}`);
    expect(formatDocumentNumber({ prefix: 'SO', date_pattern: 'YYYYMMDD', sequence_length: 5 }, { yyyy: '2026', mm: '01', dd: '02' }, 42)).toBe(
      'SO2026010200042',
    );
  });

  describe.skipIf(!onRealServer)('on the real PostgreSQL server (skipped on PGlite: it has one session)', () => {
    it('never hands out one number twice to concurrent sessions', async () => {
      const sessions = 8;
      const perSession = 40;
      // Separate pools: each worker is its own server session, as separate app nodes would be.
      const nodes = await Promise.all(Array.from({ length: sessions }, () => connectPostgres(database.url!, 1)));
      try {
        const numbers = (
          await Promise.all(
            nodes.map(async (node) => {
              const mine: string[] = [];
              for (let i = 0; i < perSession; i++) {
                mine.push(
                  await node.db.transaction().execute(async (trx) => {
                    const number = await nextDocumentNumber(trx, 'T_RACE');
                    // Hold the row a moment so that the sessions really queue on it.
                    await sql`select pg_sleep(0.001)`.execute(trx);
                    return number;
                  }),
                );
              }
              return mine;
            }),
          )
        ).flat();
        expect(numbers).toHaveLength(sessions * perSession);
        expect(new Set(numbers).size).toBe(sessions * perSession);
        const sorted = numbers.map((n) => Number(n.slice(1))).sort((a, b) => a - b);
        expect(sorted[0]).toBe(1);
        expect(sorted.at(-1)).toBe(sessions * perSession);
      } finally {
        await Promise.all(nodes.map((node) => node.close()));
      }
    });

    it('gives the first number of a new period once when sessions race to create its counter', async () => {
      const nodes = await Promise.all(Array.from({ length: 6 }, () => connectPostgres(database.url!, 1)));
      try {
        const at = new Date('2030-05-05T05:00:00Z');
        const numbers = await Promise.all(
          nodes.map((node) => node.db.transaction().execute((trx) => nextDocumentNumber(trx, 'T_DAILY', { warehouseId }, at))),
        );
        expect([...numbers].sort()).toEqual(['TD3005050001', 'TD3005050002', 'TD3005050003', 'TD3005050004', 'TD3005050005', 'TD3005050006']);
      } finally {
        await Promise.all(nodes.map((node) => node.close()));
      }
    });
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFirstStart, SEED } from '../../src/server/install/seed.js';
import { verifyPassword } from '../../src/server/modules/identity/auth/password.js';
import { connectPostgres, PREPARED, type Database } from '../../src/server/db/database.js';
import { findActiveSession } from '../../src/server/modules/identity/auth/session.repository.js';
import { createTestDatabase, onRealServer, type TestDatabase } from '../helpers/database.js';
import { MODULES } from '../../src/server/modules/index.js';

describe('database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('runs transactions of concurrent callers one after another without interleaving', async () => {
    const { db } = database;
    await sql`create table tx_probe (id serial primary key, owner text not null, step int not null)`.execute(db);
    const run = (owner: string) =>
      db.transaction().execute(async (trx) => {
        for (let step = 0; step < 5; step++) {
          await sql`insert into tx_probe (owner, step) values (${owner}, ${step})`.execute(trx);
          await new Promise((r) => setTimeout(r, 2));
        }
      });
    await Promise.all([run('a'), run('b'), run('c')]);
    const { rows } = await sql<{ owner: string }>`select owner from tx_probe order by id`.execute(db);
    // Each transaction's rows are contiguous: on PGlite because the dialect serializes them,
    // on the server because ids are taken... in commit order is not guaranteed, so only count there.
    expect(rows).toHaveLength(15);
    if (database.kind === 'pglite') {
      const owners = rows.map((r) => r.owner).join('');
      expect(owners).toMatch(/^(a{5}|b{5}|c{5}){3}$/);
    }
  });

  it('rolls back to a savepoint inside a transaction and keeps the rest', async () => {
    const { db } = database;
    await sql`create table sp_probe (v int not null)`.execute(db);
    const trx = await db.startTransaction().execute();
    await sql`insert into sp_probe values (1)`.execute(trx);
    const sp = await trx.savepoint('inner').execute();
    await sql`insert into sp_probe values (2)`.execute(sp);
    const back = await sp.rollbackToSavepoint('inner').execute();
    await sql`insert into sp_probe values (3)`.execute(back);
    await back.commit().execute();
    const { rows } = await sql<{ v: number }>`select v from sp_probe order by v`.execute(db);
    expect(rows.map((r) => r.v)).toEqual([1, 3]);
  });

  it('rolls back a whole transaction when its callback throws', async () => {
    const { db } = database;
    await sql`create table rb_probe (v int not null)`.execute(db);
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into rb_probe values (1)`.execute(trx);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    const { rows } = await sql`select * from rb_probe`.execute(db);
    expect(rows).toHaveLength(0);
    // The single PGlite session is usable again after the failure.
    await sql`insert into rb_probe values (2)`.execute(db);
  });

  it('seeds one organization, project, warehouse and admin once', async () => {
    const first = await seedFirstStart(database.db, undefined, MODULES);
    expect(first.seeded).toBe(true);
    expect(first.generatedAdminPassword).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^A-Za-z0-9]).{20}$/);
    const second = await seedFirstStart(database.db, 'Other#Passw0rd', MODULES);
    expect(second).toEqual({ seeded: false });
    const admin = await database.db.selectFrom('app_user').selectAll().where('login_account', '=', 'admin').executeTakeFirstOrThrow();
    expect(admin.is_admin).toBe(true);
    expect(admin.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(admin.password_hash, first.generatedAdminPassword!)).toBe(true);
    const counts = await Promise.all(
      (['organization', 'project', 'warehouse'] as const).map((t) =>
        database.db.selectFrom(t).select(['code']).execute(),
      ),
    );
    expect(counts.map((rows) => rows.map((r) => r.code))).toEqual([
      [SEED.organization.code],
      [SEED.project.code],
      [SEED.warehouse.code],
    ]);
  });
});

describe.runIf(onRealServer)('prepared statements on the PostgreSQL server', () => {
  let database: TestDatabase;
  let single: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ ready: true });
    // One connection, so that every statement below runs on the session whose prepared statements are read.
    single = await connectPostgres(database.url!, 1);
  });
  afterAll(async () => {
    await single?.close();
    await database?.close();
  });
  const prepared = async () =>
    (await sql<{ statement: string; calls: number }>`select statement, generic_plans + custom_plans as calls from pg_prepared_statements`.execute(single.db)).rows;

  it('prepares a marked statement once per connection and reuses it; an unmarked one is not prepared', async () => {
    for (const i of [1, 2, 3]) expect((await sql<{ x: number }>`select ${i}::int as x ${PREPARED}`.execute(single.db)).rows).toEqual([{ x: i }]);
    await sql`select 42 as unmarked`.execute(single.db);
    const rows = await prepared();
    expect(rows.filter((r) => r.statement.includes('as x'))).toEqual([{ statement: 'select $1::int as x /* prepared */', calls: 3 }]);
    expect(rows.some((r) => r.statement.includes('unmarked'))).toBe(false);
  });

  it("the session lookup of every request is one of them, and still finds only a live session's user", async () => {
    const admin = await single.db.selectFrom('app_user').select('id').where('login_account', '=', 'admin').executeTakeFirstOrThrow();
    const hash = `probe-${Date.now()}`;
    await single.db.insertInto('user_session').values({ user_id: admin.id, token_hash: hash, expires_at: sql`now() + interval '1 hour'` }).execute();
    expect((await findActiveSession(single.db, hash))?.userId).toBe(admin.id);
    expect(await findActiveSession(single.db, `${hash}-other`)).toBeUndefined();
    await single.db.updateTable('user_session').set({ revoked_at: sql`now()` }).where('token_hash', '=', hash).execute();
    expect(await findActiveSession(single.db, hash)).toBeUndefined();
    expect((await prepared()).filter((r) => r.statement.includes('"user_session"'))).toEqual([expect.objectContaining({ calls: 3 })]);
  });
});

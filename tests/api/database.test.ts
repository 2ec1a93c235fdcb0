import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFirstStart, SEED } from '../../src/server/install/seed.js';
import { verifyPassword } from '../../src/server/modules/identity/auth/password.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
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

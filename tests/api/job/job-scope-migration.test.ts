import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AreaRegistry } from '../../../src/server/modules/area-registry.js';
import { MODULES } from '../../../src/server/modules/index.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';

/**
 * The migration that gives jobs a project places the jobs already on file: a system class's job
 * stays global; another class's job takes the project its parameters name (or the only project of
 * the warehouse they name), else its creator's; one that nothing places stays without a project.
 */

let database: TestDatabase;
const ids: Record<string, number> = {};

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  const migrations = new AreaRegistry(MODULES).migrations();
  const names = Object.keys(migrations);
  const before = names[names.indexOf('0221_job_scope') - 1];
  const migrator = new Migrator({ db: database.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  expect((await migrator.migrateTo(before)).error).toBeUndefined();

  const db = database.db;
  const run = (query: ReturnType<typeof sql>) => query.execute(db);
  const one = async (query: ReturnType<typeof sql<{ id: number }>>) => Number((await query.execute(db)).rows[0].id);
  const org = await one(sql<{ id: number }>`insert into organization (code, name) values ('ORG-M', 'Org') returning id`);
  ids.p1 = await one(sql<{ id: number }>`insert into project (organization_id, code, name) values (${org}, 'MP1', 'One') returning id`);
  ids.p2 = await one(sql<{ id: number }>`insert into project (organization_id, code, name) values (${org}, 'MP2', 'Two') returning id`);
  ids.w1 = await one(sql<{ id: number }>`insert into warehouse (organization_id, code, name) values (${org}, 'MW1', 'W1') returning id`);
  ids.w2 = await one(sql<{ id: number }>`insert into warehouse (organization_id, code, name) values (${org}, 'MW2', 'W2') returning id`);
  await run(sql`insert into project_warehouse (project_id, warehouse_id) values (${ids.p1}, ${ids.w1}), (${ids.p2}, ${ids.w2}), (${ids.p2}, ${ids.w1})`);
  const maker = await one(sql<{ id: number }>`insert into app_user (login_account, display_name, password_hash) values ('maker', 'Maker', 'x') returning id`);
  await run(sql`insert into user_project (user_id, project_id) values (${maker}, ${ids.p2})`);
  await run(sql`insert into user_warehouse (user_id, warehouse_id) values (${maker}, ${ids.w2})`);
  await run(sql`insert into job_handler (name, area) values ('auth.purgeExpired', 'auth'), ('report.scheduled', 'inventory')`);
  const job = (name: string, handler: string, by: string) =>
    one(sql<{ id: number }>`insert into job (name, handler, cron_expression, business_type, created_by, updated_by) values (${name}, ${handler}, '0 0 6 * * ?', 'T', ${by}, ${by}) returning id`);
  const param = (jobId: number, name: string, value: string) => run(sql`insert into job_param (job_id, name, value) values (${jobId}, ${name}, ${value})`);
  ids.purge = await job('purge', 'auth.purgeExpired', 'maker');
  ids.named = await job('named', 'report.scheduled', 'nobody');
  await param(ids.named, 'project', 'MP1');
  await param(ids.named, 'warehouse', 'MW1');
  ids.onlyWarehouse = await job('only warehouse', 'report.scheduled', 'nobody');
  await param(ids.onlyWarehouse, 'warehouse', 'MW2');
  ids.byCreator = await job('by creator', 'report.scheduled', 'maker');
  await param(ids.byCreator, 'warehouse', 'MW1');
  ids.lost = await job('lost', 'report.scheduled', 'nobody');

  expect((await migrator.migrateToLatest()).error).toBeUndefined();
}, 120_000);

afterAll(async () => {
  await database?.close();
});

describe('migration 0221: existing jobs get a project', () => {
  it('places each job by its parameters, else its creator, and leaves system jobs global', async () => {
    const rows = await database.db.selectFrom('job').select(['id', 'project_id', 'warehouse_id']).orderBy('id').execute();
    const placed = Object.fromEntries(rows.map((r) => [Number(r.id), [r.project_id === null ? null : Number(r.project_id), r.warehouse_id === null ? null : Number(r.warehouse_id)]]));
    expect(placed[ids.purge]).toEqual([null, null]);
    expect(placed[ids.named]).toEqual([ids.p1, ids.w1]);
    expect(placed[ids.onlyWarehouse]).toEqual([ids.p2, ids.w2]);
    // MW1 serves two projects: the creator's project, and the warehouse named since it serves it.
    expect(placed[ids.byCreator]).toEqual([ids.p2, ids.w1]);
    expect(placed[ids.lost]).toEqual([null, null]);
    const handlers = await database.db.selectFrom('job_handler').select(['name', 'scope']).orderBy('name').execute();
    expect(handlers).toEqual([
      { name: 'auth.purgeExpired', scope: 'system' },
      // Installed by a later migration (0378) with its job, auto print on schedule.
      { name: 'autoprint.printScheduled', scope: 'system' },
      { name: 'report.scheduled', scope: 'project' },
    ]);
  });
});

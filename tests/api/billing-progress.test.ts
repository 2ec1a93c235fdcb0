import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { connectPostgres, type Database } from '../../src/server/db/database.js';
import type { DB } from '../../src/server/db/schema.js';
import { trackedRun } from '../../src/server/modules/billing/billing.progress.js';
import { ADMIN, buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { createTestDatabase, onRealServer, type TestDatabase } from '../helpers/database.js';
import { outboundFixture } from '../helpers/outbound.js';

interface RunState {
  id: number;
  billId: string;
  by: string;
  status: string;
  stage: string;
  percent: number;
  startedAt: string;
  finishedAt: string | null;
  headerId: number | null;
  errorCode: string | null;
}

/** A written progress crosses to the other server through the database: waits up to 10 s on a loaded machine. */
const WAIT = { timeout: 10_000, interval: 100 };

/** A customer with a contract of one fixed fee of 250 USD a month; answers its owner id and the run's period. */
async function customerWithFee(db: Kysely<DB>, tag: string) {
  const f = await outboundFixture(db, tag, 1);
  const audit = { created_by: 'tester', updated_by: 'tester' };
  await db.insertInto('currency').values({ code: 'USD', description: 'USD', decimals: 2, ...audit }).onConflict((oc) => oc.column('code').doNothing()).execute();
  const contract = await db
    .insertInto('billing_contract')
    .values({ project_id: f.scope.projectId, contract_no: `C-${tag}`, owner_id: f.ownerId, currency_code: 'USD', valid_from: '2000-01-01', ...audit })
    .returning('id')
    .executeTakeFirstOrThrow();
  const charge = await db.insertInto('charge_code').values({ project_id: f.scope.projectId, code: `FIX-${tag}`, description: 'Fee', charge_type: 'fixed', account_code: '4000', ...audit }).returning('id').executeTakeFirstOrThrow();
  await db
    .insertInto('billing_tariff')
    .values({ project_id: f.scope.projectId, contract_id: contract.id, line_no: 1, charge_code_id: charge.id, charge_method: 'fixed', bill_base: 'none', rate: '250', valid_from: '2000-01-01', ...audit })
    .execute();
  const year = 2100 + (Date.now() % 800);
  return { projectId: f.scope.projectId, ownerId: f.ownerId, period: { cutoffDate: `${year}-05-31`, periodFrom: `${year}-05-01`, periodTo: `${year}-05-31` } };
}

function calls(app: FastifyInstance, token: string, customer: { ownerId: number; period: Record<string, string> }) {
  return {
    run: (billId: string, ownerId = customer.ownerId) => injectAs(app, token, { method: 'POST', url: '/api/billing/run', payload: { ownerId, billId, ...customer.period } }),
    progress: async () => json<{ runs: RunState[] }>(await injectAs(app, token, { method: 'POST', url: '/api/billing/run/progress', payload: {} })).runs,
  };
}

/** A run held half-way in its transaction (as a long run is), until `release` is called. */
function heldRun(db: Kysely<DB>, scope: { projectId: number; by: string }, ownerId: number, billId: string) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const done = trackedRun(db, scope, ownerId, billId, async (_trx, report) => {
    report('events:receive', 1, 4);
    await gate;
    return { header: { id: 0 } };
  });
  return { release, done };
}

/**
 * The progress of billing runs: a run going on shows its stage, percent, start and who started it
 * to the bill page's poll, a second run for the same customer is refused with a clear message while
 * it goes on, and a finished run shows done at 100% with the bill it made (or failed with its code).
 */
describe('billing run progress', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp();
    token = await signIn(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows a run done with the bill it made, who started it and when, kept in the database', async () => {
    const tag = `P${Date.now().toString(36).toUpperCase()}`;
    const customer = await customerWithFee(t.database.db, tag);
    const { run, progress } = calls(t.app, token, customer);
    const made = await run(`B-${tag}`);
    expect(made.statusCode, made.body).toBe(200);
    const bill = json<{ header: { id: number; total_amount: string } }>(made);
    expect(bill.header.total_amount).toBe('250.00');
    const shown = (await progress()).find((r) => r.billId === `B-${tag}`);
    expect(shown).toMatchObject({ status: 'done', stage: 'done', percent: 100, headerId: bill.header.id, by: 'admin', errorCode: null });
    expect(Date.parse(shown!.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(shown!.startedAt));
    const stored = await t.database.db.selectFrom('billing_run').select(['status', 'header_id', 'created_by', 'percent']).where('bill_id', '=', `B-${tag}`).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: 'done', header_id: bill.header.id, created_by: 'admin', percent: 100 });
  });

  it('shows the run of a server that died abandoned, and lets the customer be run again', async () => {
    const tag = `G${Date.now().toString(36).toUpperCase()}`;
    const customer = await customerWithFee(t.database.db, tag);
    const { run, progress } = calls(t.app, token, customer);
    // What servers that died leave: a run that took the customer's lock, whose lock no session holds any more, and one without word for ten minutes.
    const left = { project_id: customer.projectId, owner_id: customer.ownerId, node: 'a-server-that-died', created_by: 'admin', updated_by: 'admin' };
    await t.database.db.insertInto('billing_run').values({ ...left, bill_id: `GONE-${tag}`, locked: true }).execute();
    await t.database.db
      .insertInto('billing_run')
      .values({ ...left, bill_id: `MUTE-${tag}`, heartbeat_at: new Date(Date.now() - 10 * 60_000) })
      .execute();
    const runs = await progress();
    expect(runs.find((r) => r.billId === `GONE-${tag}`)).toMatchObject({ status: 'abandoned' });
    // Older than the ten minutes a finished run is shown: no longer listed.
    expect(runs.find((r) => r.billId === `MUTE-${tag}`)).toBeUndefined();
    const made = await run(`F-${tag}`);
    expect(made.statusCode, made.body).toBe(200);
    const rows = await t.database.db.selectFrom('billing_run').select(['bill_id', 'status', 'finished_at']).where('bill_id', 'in', [`GONE-${tag}`, `MUTE-${tag}`]).orderBy('bill_id').execute();
    expect(rows.map((r) => [r.bill_id, r.status, r.finished_at !== null])).toEqual([
      [`GONE-${tag}`, 'abandoned', true],
      [`MUTE-${tag}`, 'abandoned', true],
    ]);
  });

  it('shows a run that a live server has just registered running, and refuses a second run of its customer', async () => {
    const tag = `R${Date.now().toString(36).toUpperCase()}`;
    const customer = await customerWithFee(t.database.db, tag);
    const { run, progress } = calls(t.app, token, customer);
    // Fresh word, its lock not taken yet: a run starting on another server.
    await t.database.db
      .insertInto('billing_run')
      .values({ project_id: customer.projectId, owner_id: customer.ownerId, node: 'another-server', bill_id: `NEW-${tag}`, stage: 'start', percent: 5, created_by: 'clerk', updated_by: 'clerk' })
      .execute();
    expect((await progress()).find((r) => r.billId === `NEW-${tag}`)).toMatchObject({ status: 'running', percent: 5, by: 'clerk' });
    const refused = await run(`B-${tag}`);
    expect(refused.statusCode).toBe(409);
    expect(json<{ code: string; message: string }>(refused)).toMatchObject({ code: 'BILL_RUN_RUNNING' });
    expect(json<{ message: string }>(refused).message).toContain(`NEW-${tag}, 5%`);
  });

  it('shows a refused run failed with its code', async () => {
    const tag = `F${Date.now().toString(36).toUpperCase()}`;
    const customer = await customerWithFee(t.database.db, tag);
    await t.database.db.updateTable('billing_contract').set({ active: false }).where('contract_no', '=', `C-${tag}`).execute();
    const { run, progress } = calls(t.app, token, customer);
    const refused = await run(`N-${tag}`);
    expect(refused.statusCode).toBe(409);
    expect(json<{ code: string }>(refused).code).toBe('BILL_NO_CONTRACT');
    expect((await progress()).find((r) => r.billId === `N-${tag}`)).toMatchObject({ status: 'failed', errorCode: 'BILL_NO_CONTRACT', headerId: null });
  });
});

/**
 * Two app servers on one PostgreSQL database: a run on server A shows its progress on server B,
 * which refuses a second run of the customer meanwhile; when server A dies in the middle of a run
 * (its sessions end, it writes nothing more), B shows the run abandoned and runs the customer
 * again. Needs two real server sessions, so it runs only with TEST_DATABASE_URL.
 */
describe.skipIf(!onRealServer)('billing run progress across servers (real server only)', () => {
  let database: TestDatabase;
  const nodes: Array<{ app: FastifyInstance; database: Database; closed: boolean }> = [];

  beforeAll(async () => {
    database = await createTestDatabase({ ready: true });
    const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_PASSWORD: ADMIN.password, DEMO_DATA: 'false', JOB_SCHEDULER: 'false', DATABASE_URL: database.url! });
    const { MODULES } = await import('../../src/server/modules/index.js');
    for (let i = 0; i < 2; i += 1) {
      const node = await connectPostgres(database.url!, 3);
      const app = await buildApp({ config, database: node, logger: false, modules: MODULES });
      await app.ready();
      nodes.push({ app, database: node, closed: false });
    }
  });

  afterAll(async () => {
    for (const node of nodes) {
      await node.app.close();
      if (!node.closed) await node.database.close();
    }
    await database?.close();
  });

  it("shows server A's run on server B and refuses a second run there until it is done", async () => {
    const [a, b] = nodes;
    const token = await signIn(a.app);
    const tag = `X${Date.now().toString(36).toUpperCase()}`;
    const customer = await customerWithFee(database.db, tag);
    const onB = calls(b.app, token, customer);

    const held = heldRun(a.database.db, { projectId: customer.projectId, by: 'admin' }, customer.ownerId, `HELD-${tag}`);
    await expect.poll(async () => (await onB.progress()).find((r) => r.billId === `HELD-${tag}`)?.stage, WAIT).toBe('events:receive');
    expect((await onB.progress()).find((r) => r.billId === `HELD-${tag}`)).toMatchObject({ status: 'running', percent: 25, by: 'admin' });

    const refused = await onB.run(`B-${tag}`);
    expect(refused.statusCode).toBe(409);
    expect(json<{ code: string; message: string }>(refused).message).toContain(`HELD-${tag}, 25%`);

    held.release();
    await held.done;
    expect((await onB.progress()).find((r) => r.billId === `HELD-${tag}`)).toMatchObject({ status: 'done', percent: 100 });
    const made = await onB.run(`B-${tag}`);
    expect(made.statusCode, made.body).toBe(200);
  });

  it('shows the run of a server that died abandoned, and lets the customer be run again', async () => {
    const [a, b] = nodes;
    const token = await signIn(a.app);
    const tag = `D${Date.now().toString(36).toUpperCase()}`;
    const customer = await customerWithFee(database.db, tag);
    const onA = calls(a.app, token, customer);
    const onB = calls(b.app, token, customer);
    expect((await onA.run(`D-${tag}`)).statusCode).toBe(200);

    // A session of the test holds the draft bill, so that server A's next run of it stops half-way, holding the customer.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select id from billing_header where bill_id = $1 for update', [`D-${tag}`]);
      const stuck = onA.run(`D-${tag}`);
      await expect.poll(async () => (await onB.progress()).find((r) => r.billId === `D-${tag}` && r.status === 'running'), WAIT).toBeTruthy();
      const lockKey = `billing.run:${customer.projectId}:${customer.ownerId}`;
      const holder = async () =>
        (await blocker.query<{ pid: number }>("select pid from pg_locks where locktype = 'advisory' and granted and ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)", [lockKey])).rows[0]?.pid;
      await expect.poll(holder, WAIT).toBeTruthy();
      expect((await onB.run(`E-${tag}`)).statusCode).toBe(409);

      // Server A dies: it writes nothing more from here on.
      a.closed = true;
      const closing = a.database.close();

      // Five minutes without word: abandoned, though its stuck session still holds the customer (a new run waits for it).
      await database.db.updateTable('billing_run').set({ heartbeat_at: new Date(Date.now() - 5 * 60_000) }).where('bill_id', '=', `D-${tag}`).where('status', '=', 'running').execute();
      expect((await onB.progress()).filter((r) => r.billId === `D-${tag}`).map((r) => r.status)).toEqual(['abandoned', 'done']);
      const waiting = await onB.run(`E-${tag}`);
      expect(json<{ code: string }>(waiting).code).toBe('BILL_RUN_RUNNING');

      // Its session ends as the server's sessions do: the customer's lock is free, and B runs the customer.
      await blocker.query('select pg_terminate_backend($1)', [await holder()]);
      await blocker.query('rollback');
      await stuck.catch(() => undefined);
      await closing;
      await expect.poll(holder, WAIT).toBeUndefined();
      const made = await onB.run(`E-${tag}`);
      expect(made.statusCode, made.body).toBe(200);
      const runs = await onB.progress();
      expect(runs.filter((r) => r.billId === `D-${tag}`).map((r) => r.status)).toEqual(['abandoned', 'done']);
      expect(runs.find((r) => r.billId === `E-${tag}` && r.status === 'done')).toBeTruthy();
    } finally {
      await blocker.end();
    }
  });
});

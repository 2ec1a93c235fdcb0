import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connectPostgres } from '../../../src/server/db/database.js';
import { defineModule } from '../../../src/server/modules/area.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../../helpers/app.js';
import { createTestDatabase, onRealServer, type TestDatabase } from '../../helpers/database.js';

/**
 * Two app nodes on one PostgreSQL database: a job scheduled every second
 * runs exactly once per tick across both, for JOB_TWO_NODE_SECONDS (default 60: a minute) seconds. Needs
 * two real sessions, so it runs only on the real server.
 */
const SECONDS = Number(process.env.JOB_TWO_NODE_SECONDS ?? 60);

/** Every execution of the handler, by tick, whichever node ran it (both nodes live in this process). */
const executions: { tick: string; node: string }[] = [];

const nodeTestArea = (node: string) =>
  defineModule({
    name: 'nodetest',
    jobs: [
      {
        name: 'nodetest.tick',
        async run({ run }) {
          executions.push({ tick: run.scheduledFor.toISOString(), node });
        },
      },
    ],
  });

describe.skipIf(!onRealServer)('one job on two app nodes (real server)', () => {
  let database: TestDatabase;
  let nodeA: TestApp;
  let nodeB: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    nodeA = await buildTestApp({ JOB_SCHEDULER: 'true' }, { database, extraModules: [nodeTestArea('A')] });
    const second = await connectPostgres(database.url!, 5);
    nodeB = await buildTestApp({ JOB_SCHEDULER: 'true' }, { database: second, extraModules: [nodeTestArea('B')] });
  }, 60_000);
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
  });

  it(`runs a job scheduled every second exactly once per tick across both nodes for ${SECONDS} s`, async () => {
    const admin = await signIn(nodeA.app);
    const added = await injectAs(nodeA.app, admin, {
      method: 'POST',
      url: '/api/generic/adding',
      payload: { moduleCode: 'job', functionCode: 'job', record: { name: 'Every second', handler: 'nodetest.tick', cron_expression: '* * * * * ?', business_type: 'TEST' } },
    });
    expect(added.statusCode, added.body).toBe(200);
    const jobId = Number(json<{ row: { _key: number } }>(added).row._key);
    const on = await injectAs(nodeA.app, admin, { method: 'POST', url: '/api/schedule/addJob', payload: { ids: [jobId] } });
    expect(on.statusCode, on.body).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const adminB = await signIn(nodeB.app);
    const off = await injectAs(nodeB.app, adminB, { method: 'POST', url: '/api/schedule/deleteJob', payload: { ids: [jobId] } });
    expect(off.statusCode, off.body).toBe(200);
    // Let the runs already claimed finish.
    const db = database.db;
    for (let i = 0; i < 100; i += 1) {
      const open = await db.selectFrom('job_run').select('id').where('job_id', '=', jobId).where('status', 'in', ['queued', 'running', 'retrying']).execute();
      if (!open.length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const runs = await db.selectFrom('job_run').select(['scheduled_for', 'status', 'node']).where('job_id', '=', jobId).where('trigger', '=', 'schedule').orderBy('scheduled_for').execute();
    const ticks = runs.map((r) => new Date(r.scheduled_for).getTime());
    // One run row per tick, and no second of the window left out.
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks.length).toBeGreaterThanOrEqual(SECONDS - 2);
    for (let i = 1; i < ticks.length; i += 1) expect(ticks[i] - ticks[i - 1]).toBe(1000);
    // The handler ran once for each tick, on one node or the other, never twice.
    const byTick = new Map<string, number>();
    for (const e of executions) byTick.set(e.tick, (byTick.get(e.tick) ?? 0) + 1);
    expect([...byTick.values()].every((count) => count === 1)).toBe(true);
    expect(byTick.size).toBe(runs.filter((r) => r.status === 'succeeded').length);
    expect(runs.filter((r) => r.status === 'succeeded').length).toBeGreaterThanOrEqual(ticks.length - 1);
    // Every run that ran travelled through pg-boss (whichever node's worker fetched it first ran it);
    // the tick cut short by switching the job off may have a run row that was never sent.
    const { rows } = await sql<{ count: number }>`select count(*)::int as count from pgboss.job where name = 'wms-job-run'`.execute(db);
    expect(rows[0].count).toBeGreaterThanOrEqual(runs.filter((r) => r.status === 'succeeded').length);
  }, (SECONDS + 60) * 1000);
});

describe.skipIf(onRealServer)('one job on two app nodes', () => {
  it('runs only on the real server (set TEST_DATABASE_URL): two nodes need two database sessions', () => {
    expect(onRealServer).toBe(false);
  });
});

import type { LightMyRequestResponse } from 'fastify';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../src/server/definitions/definition-sync.js';
import { CONFIGURATOR_SQL_LIMITS } from '../../engine/server/configurator-sql.js';
import { buildTestApp, createUserAccount, injectAs, json, type TestApp } from '../helpers/app.js';

/**
 * A configurator's query that would run for minutes ends at its time limit on either database,
 * and every other request keeps being answered meanwhile. The embedded database runs statements
 * on the server's own thread, where nothing used to stop one: a three-way cross join froze it.
 */

const LIMIT_MS = CONFIGURATOR_SQL_LIMITS.statementTimeoutMs;
/** Room for a loaded test machine on top of the time limit. */
const SLACK_MS = 3000;

/** 400 SKUs: a three-way cross join of them is 64 million rows. */
const CROSS_JOIN = "select count(*) as n from sku a, sku b, sku c where md5(a.code || b.code || c.code) < 'x'";
/**
 * Planned as cheap (the planner guesses ten elements for an array it cannot see), yet every SKU
 * makes millions of rows: a cap on the planner's cost alone would let it through.
 */
const CHEAP_LOOKING =
  "select s.* from sku s where (select count(*) from unnest(string_to_array(repeat('x,', length(s.code) * 3000), ',')) u, unnest(string_to_array(repeat('y,', length(s.code) * 3000), ',')) v) > 0";

/** A client in its own thread: asks until told to stop, then posts every answer's status and time. */
const HEALTH_CLIENT = `
const { workerData, parentPort } = require('node:worker_threads');
const stop = new Int32Array(workerData.stop);
(async () => {
  const answers = [];
  while (Atomics.load(stop, 0) === 0) {
    const asked = performance.now();
    let status = 0;
    try {
      status = (await fetch(workerData.url, { signal: AbortSignal.timeout(workerData.timeoutMs) })).status;
    } catch {}
    answers.push({ status, ms: performance.now() - asked });
    if (answers.length === 1) parentPort.postMessage('answering');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  parentPort.postMessage(answers);
})();
`;

describe('configurator SQL time limit', () => {
  let t: TestApp;
  let designer: string;
  let address: string;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    const project = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const owner = await db.insertInto('owner').values({ project_id: project.id, code: 'TL', name: 'TL', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
    await sql`insert into sku (project_id, owner_id, code, description, created_by, updated_by)
      select ${project.id}, ${owner.id}, 'TL-' || g, 'x', 'test', 'test' from generate_series(1, 400) g`.execute(db);
    await sql`analyze sku`.execute(db);
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    designer = (await createUserAccount(t, { loginAccount: 'designer', rights: ['generic:edit', 'attack:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] })).token;
  });
  afterAll(() => t?.close());

  /**
   * Runs the request while another thread, like another user's browser, asks /api/health over HTTP
   * every 100 ms and times each answer (a statement of the embedded database holds this thread).
   */
  async function whileRunning(request: () => Promise<LightMyRequestResponse>) {
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const client = new Worker(HEALTH_CLIENT, { eval: true, workerData: { url: `${address}/api/health`, stop: stop.buffer, timeoutMs: LIMIT_MS + SLACK_MS + 5000 } });
    const messages: unknown[] = [];
    let delivered: (() => void) | undefined;
    client.on('message', (message) => {
      messages.push(message);
      delivered?.();
    });
    const nextMessage = async () => {
      while (messages.length === 0) await new Promise<void>((resolve, reject) => ((delivered = resolve), client.once('error', reject)));
      return messages.shift();
    };
    // The client thread is answered once before the statement starts, however long its start takes.
    expect(await nextMessage()).toBe('answering');
    const started = performance.now();
    const response = await request();
    const ms = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
    Atomics.store(stop, 0, 1);
    const answers = (await nextMessage()) as Array<{ status: number; ms: number }>;
    await client.terminate();
    return { response, ms, health: answers };
  }

  function expectAnsweredInTime(result: Awaited<ReturnType<typeof whileRunning>>) {
    // It really ran (nothing refused it up front) and was stopped at its limit.
    expect(result.ms).toBeGreaterThan(LIMIT_MS - 500);
    expect(result.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
    expect(result.health.length).toBeGreaterThan(1);
    for (const answer of result.health) {
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
    }
    // The embedded database has one session: a health check had to wait for the statement, so
    // the measurement covers it. PostgreSQL answered it on another connection meanwhile.
    if (t.database.kind === 'pglite') expect(Math.max(...result.health.map((h) => h.ms))).toBeGreaterThan(LIMIT_MS - 2000);
  }

  it("stops the designer's test run of a three-way cross join at the time limit, and /api/health keeps answering", async () => {
    const result = await whileRunning(() => injectAs(t.app, designer, { method: 'POST', url: '/api/generic/sql/test', payload: { name: 'cross', text: CROSS_JOIN } }));
    expect(json(result.response)).toMatchObject({ ok: false, errorCode: 'SQL_TIMEOUT' });
    expectAnsweredInTime(result);

    // The session serves the next query as usual.
    const after = await injectAs(t.app, designer, { method: 'POST', url: '/api/generic/sql/test', payload: { name: 'count', text: 'select count(*)::int as n from sku' } });
    expect(json(after)).toMatchObject({ ok: true, rows: [{ n: 400 }] });
  });

  it('stops a cheaply planned but endless list SQL of a published page at the time limit', async () => {
    const content = {
      schemaVersion: 2,
      moduleCode: 'attack',
      functionCode: 'slow',
      titleCode: 'T',
      status: 'published',
      table: { name: 'sku', alias: 's' },
      scope: 'project',
      listSql: 'slow',
      sqls: [{ name: 'slow', text: CHEAP_LOOKING }],
      fields: [
        { name: 'id', labelCode: 'T', type: 'integer', editable: false },
        { name: 'code', labelCode: 'T', type: 'string', length: 40 },
        { name: 'project_id', labelCode: 'T', type: 'integer', editable: false },
      ],
      texts: { T: { en: 'T' } },
    };
    await t.database.db
      .insertInto('page_definition')
      .values({ project_id: null, module_code: 'attack', function_code: 'slow', version: 1, status: 'published', content: JSON.stringify(content), content_hash: contentHash(content), created_by: 'test', updated_by: 'test' })
      .execute();
    t.app.definitions.invalidate({ projectId: null, all: true });

    const result = await whileRunning(() => injectAs(t.app, designer, { method: 'POST', url: '/api/generic/selection', payload: { moduleCode: 'attack', functionCode: 'slow', page: 1, pageSize: 10 } }));
    expect(result.response.statusCode, result.response.body).toBe(503);
    expect(json<{ code: string }>(result.response).code).toBe('SQL_TIMEOUT');
    expectAnsweredInTime(result);
  });
});

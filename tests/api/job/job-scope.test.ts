import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RightName } from '../../../src/common/rights.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../../helpers/app.js';

/**
 * Jobs stay in their project: a job belongs to the project (and warehouse) of the session that
 * made it; its parameters may name only what its maker may see there, checked when they are saved
 * and again against its creator at every run; the lists, the run history and "run now" show only
 * the session project's jobs. Jobs of system classes (the purges, the outbox) belong to no project
 * and are made and seen by administrators only.
 */

const RIGHTS = [
  'job.job:view',
  'job.job:add',
  'job.job:edit',
  'job.job:delete',
  'job.job:run',
  'job.job:activate',
  'job.job:inactivate',
  'job.jobParam:view',
  'job.jobParam:add',
  'job.jobParam:edit',
  'job.jobParam:delete',
  'job.jobRun:view',
  'stdBalanceReport:view',
] as RightName[];

let t: TestApp;
let admin: string;
let supervisorA: string;
let supervisorB: string;
let seq = 0;

interface Row {
  _key: number;
  _version: string;
  name: string;
  [field: string]: unknown;
}

beforeAll(async () => {
  t = await buildTestApp({ JOB_SCHEDULER: 'true' });
  const db = t.database.db;
  admin = await signIn(t.app);
  const projectA = await db.selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const projectB = await db
    .insertInto('project')
    .values({ organization_id: projectA.organization_id, code: 'PRJB', name: 'Project B', created_by: 'test', updated_by: 'test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const whB = await db.insertInto('warehouse').values({ organization_id: projectA.organization_id, code: 'WHB', name: 'Warehouse B', nav_layout: null }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('project_warehouse').values({ project_id: projectB.id, warehouse_id: whB.id }).execute();
  supervisorA = await createUser(t, { loginAccount: 'sup-a', rights: RIGHTS, projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  supervisorB = await createUser(t, { loginAccount: 'sup-b', rights: RIGHTS, projectCodes: ['PRJB'], warehouseCodes: ['WHB'] });
});

afterAll(async () => {
  await t?.close();
});

const post = (token: string, url: string, payload: Record<string, unknown>) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });

async function addJob(token: string, handler: string, functionCode = 'job'): Promise<number> {
  seq += 1;
  const added = await post(token, '/generic/adding', {
    moduleCode: 'job',
    functionCode,
    record: { name: `Scoped ${seq}`, handler, cron_expression: '0 0 6 * * ?', business_type: 'REPORT', retry_limit: 0 },
  });
  expect(added.statusCode, added.body).toBe(200);
  return json<{ row: { _key: number } }>(added).row._key;
}

const addParam = (token: string, jobId: number, name: string, value: string, s = 1) =>
  post(token, '/generic/adding', { moduleCode: 'job', functionCode: 'jobParam', record: { job_id: jobId, name, value, seq: s } });

async function jobNames(token: string, functionCode = 'job'): Promise<string[]> {
  const response = await post(token, '/generic/selection', { moduleCode: 'job', functionCode, page: 1, pageSize: 100 });
  expect(response.statusCode, response.body).toBe(200);
  return json<{ rows: Row[] }>(response).rows.map((r) => r.name);
}

async function finishedRun(token: string, jobId: number, runId: number): Promise<{ status: string; log: string }> {
  for (let i = 0; i < 300; i += 1) {
    const runs = json<{ items: { id: number; status: string; log: string }[] }>(await injectAs(t.app, token, { method: 'GET', url: `/api/job/runs?jobId=${jobId}` })).items;
    const run = runs.find((r) => r.id === runId);
    if (run && ['succeeded', 'failed', 'skipped'].includes(run.status)) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} did not finish`);
}

const downloads = async () => (await t.database.db.selectFrom('download_file').select(['id', 'user_id', 'project_id']).execute()).length;

describe('a job belongs to its project', () => {
  it('takes the project and warehouse of the session that made it', async () => {
    const jobId = await addJob(supervisorB, 'report.scheduled');
    const stored = await t.database.db.selectFrom('job').select(['project_id', 'warehouse_id']).where('id', '=', jobId).executeTakeFirstOrThrow();
    const b = await t.database.db.selectFrom('project').select('id').where('code', '=', 'PRJB').executeTakeFirstOrThrow();
    const whB = await t.database.db.selectFrom('warehouse').select('id').where('code', '=', 'WHB').executeTakeFirstOrThrow();
    expect([Number(stored.project_id), Number(stored.warehouse_id)]).toEqual([Number(b.id), Number(whB.id)]);
  });

  it("refuses parameters naming another project's warehouse or project, or a user outside the project, when they are saved", async () => {
    const jobId = await addJob(supervisorB, 'report.scheduled');
    expect((await addParam(supervisorB, jobId, 'report', 'balance', 1)).statusCode).toBe(200);
    const warehouse = await addParam(supervisorB, jobId, 'warehouse', 'WH1', 2);
    expect(warehouse.statusCode, warehouse.body).toBe(400);
    expect(json<{ details: { field: string; code: string }[] }>(warehouse).details).toContainEqual(expect.objectContaining({ field: 'value', code: 'OUT_OF_SCOPE' }));
    const project = await addParam(supervisorB, jobId, 'project', 'PRJ1', 3);
    expect(project.statusCode, project.body).toBe(400);
    const user = await addParam(supervisorB, jobId, 'user', 'sup-a', 4);
    expect(user.statusCode, user.body).toBe(400);
    // Its own warehouse is fine; changing it afterwards to another project's is refused too.
    const own = await addParam(supervisorB, jobId, 'warehouse', 'WHB', 2);
    expect(own.statusCode, own.body).toBe(200);
    const row = json<{ row: Row }>(own).row;
    const changed = await post(supervisorB, '/generic/updating', { moduleCode: 'job', functionCode: 'jobParam', key: row._key, version: row._version, record: { value: 'WH1' } });
    expect(changed.statusCode, changed.body).toBe(400);
    const params = await t.database.db.selectFrom('job_param').select(['name', 'value']).where('job_id', '=', jobId).orderBy('seq').execute();
    expect(params).toEqual([
      { name: 'report', value: 'balance' },
      { name: 'warehouse', value: 'WHB' },
    ]);
  });

  it("checks them again at every run against the creator: A's balance never lands in admin's download center", async () => {
    const jobId = await addJob(supervisorB, 'report.scheduled');
    // Written around the screen (configurator SQL, an older version): only the run's check stands.
    await t.database.db
      .insertInto('job_param')
      .values([
        { job_id: jobId, name: 'report', value: 'balance', seq: 1, created_by: 'sup-b', updated_by: 'sup-b' },
        { job_id: jobId, name: 'warehouse', value: 'WH1', seq: 2, created_by: 'sup-b', updated_by: 'sup-b' },
        { job_id: jobId, name: 'user', value: 'admin', seq: 3, created_by: 'sup-b', updated_by: 'sup-b' },
      ])
      .execute();
    const before = await downloads();
    const started = await post(supervisorB, '/manual/schedule', { id: jobId });
    expect(started.statusCode, started.body).toBe(200);
    const run = await finishedRun(supervisorB, jobId, json<{ runId: number }>(started).runId);
    expect(run.status).toBe('failed');
    expect(run.log).toMatch(/warehouse.*WH1/);
    expect(await downloads()).toBe(before);
  });

  it('fails the run of a creator who lost the project since', async () => {
    const lost = await createUser(t, { loginAccount: 'sup-lost', rights: RIGHTS, projectCodes: ['PRJB'], warehouseCodes: ['WHB'] });
    const jobId = await addJob(lost, 'report.scheduled');
    expect((await addParam(lost, jobId, 'report', 'balance', 1)).statusCode).toBe(200);
    expect((await addParam(lost, jobId, 'warehouse', 'WHB', 2)).statusCode).toBe(200);
    const user = await t.database.db.selectFrom('app_user').select('id').where('login_account', '=', 'sup-lost').executeTakeFirstOrThrow();
    await t.database.db.deleteFrom('user_project').where('user_id', '=', user.id).execute();
    const before = await downloads();
    const started = await post(supervisorB, '/manual/schedule', { id: jobId });
    expect(started.statusCode, started.body).toBe(200);
    const run = await finishedRun(supervisorB, jobId, json<{ runId: number }>(started).runId);
    expect(run.status).toBe('failed');
    expect(run.log).toContain('sup-lost');
    expect(await downloads()).toBe(before);
  });

  it('runs a job whose parameters stay in its project', async () => {
    const jobId = await addJob(supervisorB, 'report.scheduled');
    expect((await addParam(supervisorB, jobId, 'report', 'balance', 1)).statusCode).toBe(200);
    expect((await addParam(supervisorB, jobId, 'warehouse', 'WHB', 2)).statusCode).toBe(200);
    const before = await downloads();
    const started = await post(supervisorB, '/manual/schedule', { id: jobId });
    const run = await finishedRun(supervisorB, jobId, json<{ runId: number }>(started).runId);
    expect(run.status, run.log).toBe('succeeded');
    expect(await downloads()).toBe(before + 1);
  });
});

describe("another project's jobs are out of sight", () => {
  it("lists, histories, parameters, the schedule and run now show only the session project's jobs", async () => {
    const jobB = await addJob(supervisorB, 'report.scheduled');
    expect((await addParam(supervisorB, jobB, 'report', 'balance', 1)).statusCode).toBe(200);
    const nameB = `Scoped ${seq}`;
    const jobA = await addJob(supervisorA, 'report.scheduled');
    const nameA = `Scoped ${seq}`;
    expect(await jobNames(supervisorA)).toContain(nameA);
    expect(await jobNames(supervisorA)).not.toContain(nameB);
    expect(await jobNames(admin)).not.toContain(nameB);
    expect(await jobNames(supervisorB)).toContain(nameB);
    expect(await jobNames(supervisorB)).not.toContain(nameA);

    expect((await injectAs(t.app, supervisorA, { method: 'GET', url: `/api/job/runs?jobId=${jobB}` })).statusCode).toBe(404);
    expect((await post(supervisorA, '/manual/schedule', { id: jobB })).statusCode).toBe(404);
    expect((await post(supervisorA, '/schedule/addJob', { ids: [jobB] })).statusCode).toBe(404);
    expect((await post(supervisorA, '/generic/behavior', { moduleCode: 'job', functionCode: 'job', behaviour: 'runNow', keys: [jobB] })).statusCode).toBe(404);
    expect((await post(supervisorA, '/generic/tab', { moduleCode: 'job', functionCode: 'job', subPage: 'params', parentKey: jobB, page: 1, pageSize: 20 })).statusCode).toBe(404);

    // The parameter and run pages directly: nothing of B's job.
    const params = json<{ rows: { job_id: number }[] }>(await post(supervisorA, '/generic/selection', { moduleCode: 'job', functionCode: 'jobParam', page: 1, pageSize: 100 })).rows;
    expect(params.map((p) => Number(p.job_id))).not.toContain(jobB);
    const startedB = await post(supervisorB, '/manual/schedule', { id: jobB });
    await finishedRun(supervisorB, jobB, json<{ runId: number }>(startedB).runId);
    const runs = json<{ rows: { job_id: number }[] }>(await post(supervisorA, '/generic/selection', { moduleCode: 'job', functionCode: 'jobRun', page: 1, pageSize: 100 })).rows;
    expect(runs.map((r) => Number(r.job_id))).not.toContain(jobB);
    // Nor may A add a parameter to B's job.
    const foreign = await addParam(supervisorA, jobB, 'days', '1', 9);
    expect(foreign.statusCode).toBe(400);

    // The schedule lists the active jobs of the session project only.
    expect((await post(supervisorB, '/schedule/addJob', { ids: [jobB] })).statusCode).toBe(200);
    const schedule = json<{ items: { id: number }[] }>(await injectAs(t.app, supervisorA, { method: 'GET', url: '/api/schedule' })).items;
    expect(schedule.map((s) => s.id)).not.toContain(jobB);
    expect(json<{ items: { id: number }[] }>(await injectAs(t.app, supervisorB, { method: 'GET', url: '/api/schedule' })).items.map((s) => s.id)).toContain(jobB);
    expect((await post(supervisorB, '/schedule/deleteJob', { ids: [jobB] })).statusCode).toBe(200);
    expect(jobA).toBeGreaterThan(0);
  });
});

describe('system jobs', () => {
  it('belong to no project and are made and seen by administrators only', async () => {
    const refused = await post(supervisorA, '/generic/adding', {
      moduleCode: 'job',
      functionCode: 'job',
      record: { name: 'Sup purge', handler: 'auth.purgeExpired', cron_expression: '0 0 6 * * ?', business_type: 'SYS', retry_limit: 0 },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(json<{ details: { field: string; code: string }[] }>(refused).details).toContainEqual(expect.objectContaining({ field: 'handler', code: 'JOB_SYSTEM_ONLY' }));

    const jobId = await addJob(admin, 'auth.purgeExpired');
    const name = `Scoped ${seq}`;
    const stored = await t.database.db.selectFrom('job').select(['project_id', 'warehouse_id']).where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(stored).toEqual({ project_id: null, warehouse_id: null });
    expect(await jobNames(admin)).toContain(name);
    expect(await jobNames(supervisorA)).not.toContain(name);
    expect((await post(supervisorA, '/manual/schedule', { id: jobId })).statusCode).toBe(404);
    const started = await post(admin, '/manual/schedule', { id: jobId });
    const run = await finishedRun(admin, jobId, json<{ runId: number }>(started).runId);
    expect(run.status, run.log).toBe('succeeded');
  });

  it("take parameters from an administrator on the parameter page, never from a supervisor naming one", async () => {
    const jobId = await addJob(admin, 'auth.purgeExpired');
    const own = await addParam(admin, jobId, 'keepDays', '30');
    expect(own.statusCode, own.body).toBe(200);
    const refused = await addParam(supervisorA, jobId, 'keepDays', '1');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(json<{ details: { field: string; code: string }[] }>(refused).details).toContainEqual(expect.objectContaining({ field: 'job_id', code: 'FIELD_FOREIGN' }));
    const params = await t.database.db.selectFrom('job_param').select(['name', 'value']).where('job_id', '=', jobId).execute();
    expect(params).toEqual([{ name: 'keepDays', value: '30' }]);
  });
});

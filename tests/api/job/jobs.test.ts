import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { defineModule } from '../../../src/server/modules/area.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../../helpers/app.js';

/**
 * Jobs and timers through the API: validation, activate and
 * inactivate, deletion refused while active, "run now" with its history, retries with back-off and
 * the failure recorded; on PGlite by default and on the real server with TEST_DATABASE_URL.
 */
const jobTestArea = defineModule({
  name: 'jobtest',
  jobs: [
    {
      name: 'jobtest.echo',
      async run({ params, log }) {
        log(`greeting=${params.greeting ?? ''}`);
      },
    },
    {
      name: 'jobtest.fail',
      async run({ attempt }) {
        throw new Error(`broken on attempt ${attempt}`);
      },
    },
  ],
});

let t: TestApp;
let admin: string;

interface Row {
  _key: number;
  _version: string;
  status: string;
  [field: string]: unknown;
}
interface Run {
  id: number;
  status: string;
  attempts: number;
  trigger: string;
  startedAt: string | null;
  finishedAt: string | null;
  log: string;
  error: string | null;
}

const validJob = (name: string, handler = 'jobtest.echo') => ({
  name,
  handler,
  cron_expression: '0 0 3 ? * MON-FRI',
  business_type: 'TEST',
  retry_limit: 1,
  retry_delay_seconds: 1,
});

async function addJob(record: Record<string, unknown>, functionCode = 'job') {
  return injectAs(t.app, admin, { method: 'POST', url: '/api/generic/adding', payload: { moduleCode: 'job', functionCode, record } });
}

async function rowOf(name: string, functionCode = 'job'): Promise<Row> {
  const response = await injectAs(t.app, admin, {
    method: 'POST',
    url: '/api/generic/selection',
    payload: { moduleCode: 'job', functionCode, page: 1, pageSize: 20, conditions: { combinator: 'and', rules: [{ field: 'name', operator: '=', value: name }] } },
  });
  expect(response.statusCode, response.body).toBe(200);
  const rows = json<{ rows: Row[] }>(response).rows;
  expect(rows).toHaveLength(1);
  return rows[0];
}

async function behaviour(name: string, behaviourCode: string, functionCode = 'job') {
  const row = await rowOf(name, functionCode);
  return injectAs(t.app, admin, { method: 'POST', url: '/api/generic/behavior', payload: { moduleCode: 'job', functionCode, behaviour: behaviourCode, keys: [row._key] } });
}

async function runs(jobId: number): Promise<Run[]> {
  const response = await injectAs(t.app, admin, { method: 'GET', url: `/api/job/runs?jobId=${jobId}` });
  expect(response.statusCode, response.body).toBe(200);
  return json<{ items: Run[] }>(response).items;
}

/** Waits until the run reaches an end state (the runner works in the background). */
async function finishedRun(jobId: number, runId: number): Promise<Run> {
  for (let i = 0; i < 300; i += 1) {
    const run = (await runs(jobId)).find((r) => r.id === runId);
    if (run && ['succeeded', 'failed', 'skipped'].includes(run.status)) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} did not finish`);
}

beforeAll(async () => {
  t = await buildTestApp({ JOB_SCHEDULER: 'true' }, { extraModules: [jobTestArea] });
  admin = await signIn(t.app);
});
afterAll(() => t.close());

describe('job records', () => {
  it('refuses empty fields, an invalid expression and an unknown class, every problem at once', async () => {
    const empty = await addJob({ name: '', handler: null, cron_expression: '', business_type: '' });
    expect(empty.statusCode).toBe(400);
    const fields = json<{ details: { field: string }[] }>(empty).details.map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'handler', 'cron_expression', 'business_type']));

    const badCron = await addJob({ ...validJob('Bad cron'), cron_expression: '0 0 25 * * ?' });
    expect(badCron.statusCode).toBe(400);
    expect(json<{ details: { field: string; code: string }[] }>(badCron).details).toContainEqual(expect.objectContaining({ field: 'cron_expression', code: 'CRON_INVALID' }));

    const unknownClass = await addJob(validJob('Unknown class', 'nobody.there'));
    expect(unknownClass.statusCode).toBe(400);
    expect(json<{ details: { field: string }[] }>(unknownClass).details.map((d) => d.field)).toContain('handler');
    // Nothing stored: the only job is the one the application installs (auto print on schedule).
    expect(await t.database.db.selectFrom('job').select('name').where('created_by', '<>', 'system').execute()).toEqual([]);
  });

  it('previews the next five run times of a Quartz expression and explains an invalid one', async () => {
    const preview = await injectAs(t.app, admin, { method: 'POST', url: '/api/job/cron', payload: { expression: '0 15 10 ? * 6L' } });
    expect(preview.statusCode).toBe(200);
    const body = json<{ valid: boolean; nextRuns: string[] }>(preview);
    expect(body.valid).toBe(true);
    expect(body.nextRuns).toHaveLength(5);
    // 6L: the last Friday of the month (Quartz counts weekdays from Sunday = 1).
    for (const time of body.nextRuns) {
      const date = new Date(time);
      expect(date.getDay()).toBe(5);
      expect(new Date(date.getTime() + 7 * 86_400_000).getMonth()).not.toBe(date.getMonth());
    }
    for (const expression of ['0 0 12 15W * ?', '0 0 12 ? * 2#1', '0 0/5 * * * ?', '0 0 12 L * ? 2099']) {
      const answer = json<{ valid: boolean }>(await injectAs(t.app, admin, { method: 'POST', url: '/api/job/cron', payload: { expression } }));
      expect(answer.valid, expression).toBe(true);
    }
    for (const expression of ['', 'every day', '0 0 12 * * ? 2001', '0 61 * * * ?']) {
      const answer = json<{ valid: boolean; reason?: string }>(await injectAs(t.app, admin, { method: 'POST', url: '/api/job/cron', payload: { expression } }));
      expect(answer.valid, expression).toBe(false);
      expect(answer.reason).toBeTruthy();
    }
  });

  it('activates and inactivates; an active job cannot be deleted', async () => {
    expect((await addJob(validJob('Nightly echo'))).statusCode).toBe(200);
    expect((await rowOf('Nightly echo')).status).toBe('inactive');
    const activated = await behaviour('Nightly echo', 'activate');
    expect(activated.statusCode, activated.body).toBe(200);
    const active = await rowOf('Nightly echo');
    expect(active.status).toBe('active');

    const refused = await injectAs(t.app, admin, {
      method: 'POST',
      url: '/api/generic/deletion',
      payload: { moduleCode: 'job', functionCode: 'job', rows: [{ key: active._key, version: active._version }] },
    });
    expect(refused.statusCode).toBe(409);
    expect(json(refused)).toMatchObject({ code: 'JOB_DELETE_ACTIVE', message: 'Not allowed to delete or cancel. An active job cannot be deleted; inactivate it first.' });
    expect((await rowOf('Nightly echo')).status).toBe('active');

    // The spec's own call: /schedule/deleteJob takes the job off the schedule.
    const off = await injectAs(t.app, admin, { method: 'POST', url: '/api/schedule/deleteJob', payload: { ids: [active._key] } });
    expect(off.statusCode, off.body).toBe(200);
    const inactive = await rowOf('Nightly echo');
    expect(inactive.status).toBe('inactive');
    const deleted = await injectAs(t.app, admin, {
      method: 'POST',
      url: '/api/generic/deletion',
      payload: { moduleCode: 'job', functionCode: 'job', rows: [{ key: inactive._key, version: inactive._version }] },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
  });

  it('keeps timers apart from jobs: each screen lists its own', async () => {
    expect((await addJob(validJob('Hourly timer'), 'timer')).statusCode).toBe(200);
    expect((await rowOf('Hourly timer', 'timer')).status).toBe('inactive');
    const jobs = await injectAs(t.app, admin, { method: 'POST', url: '/api/generic/selection', payload: { moduleCode: 'job', functionCode: 'job', page: 1, pageSize: 100 } });
    expect(json<{ rows: Row[] }>(jobs).rows.map((r) => r.name)).not.toContain('Hourly timer');
    const stored = await t.database.db.selectFrom('job').select('type').where('name', '=', 'Hourly timer').executeTakeFirstOrThrow();
    expect(stored.type).toBe('timer');
    expect((await behaviour('Hourly timer', 'activate', 'timer')).statusCode).toBe(200);
    expect((await rowOf('Hourly timer', 'timer')).status).toBe('active');
  });

  it('refuses activation without the verb and the calls without the right', async () => {
    const viewer = await createUser(t, { loginAccount: 'job-viewer', rights: ['job.job:view', 'job.job:edit'] });
    expect((await addJob(validJob('Guarded'))).statusCode).toBe(200);
    const row = await rowOf('Guarded');
    const refused = await injectAs(t.app, viewer, { method: 'POST', url: '/api/schedule/addJob', payload: { ids: [row._key] } });
    expect(refused.statusCode).toBe(403);
    const run = await injectAs(t.app, viewer, { method: 'POST', url: '/api/manual/schedule', payload: { id: row._key } });
    expect(run.statusCode).toBe(403);
    expect((await rowOf('Guarded')).status).toBe('inactive');
  });
});

describe('runs', () => {
  it('"run now" runs the handler with its parameters and writes the history: start, end, outcome, log', async () => {
    expect((await addJob(validJob('Echo now'))).statusCode).toBe(200);
    const row = await rowOf('Echo now');
    await t.database.db.insertInto('job_param').values({ job_id: row._key, name: 'greeting', value: 'hello', seq: 1, created_by: 'test', updated_by: 'test' }).execute();
    const response = await injectAs(t.app, admin, { method: 'POST', url: '/api/manual/schedule', payload: { id: row._key } });
    expect(response.statusCode, response.body).toBe(200);
    const run = await finishedRun(row._key, json<{ runId: number }>(response).runId);
    expect(run).toMatchObject({ status: 'succeeded', attempts: 1, trigger: 'manual', error: null });
    expect(run.startedAt).toBeTruthy();
    expect(run.finishedAt).toBeTruthy();
    expect(new Date(run.finishedAt!).getTime()).toBeGreaterThanOrEqual(new Date(run.startedAt!).getTime());
    expect(run.log).toContain('greeting=hello');
    expect(run.log).toContain('succeeded');
  });

  it('keeps a job\'s history of the last 30 days: a run that ends removes the runs that ended before, of that job only', async () => {
    expect((await addJob(validJob('History kept'))).statusCode).toBe(200);
    expect((await addJob(validJob('History other'))).statusCode).toBe(200);
    const [job, other] = [(await rowOf('History kept'))._key, (await rowOf('History other'))._key];
    const past = (jobId: number, days: number) =>
      t.database.db
        .insertInto('job_run')
        .values({ job_id: jobId, trigger: 'manual', scheduled_for: sql`now() - make_interval(days => ${days})`, status: 'succeeded', attempts: 1, started_at: sql`now() - make_interval(days => ${days})`, finished_at: sql`now() - make_interval(days => ${days})` })
        .returning('id')
        .executeTakeFirstOrThrow();
    const [old, recent, otherOld] = [await past(job, 31), await past(job, 29), await past(other, 31)];
    const response = await injectAs(t.app, admin, { method: 'POST', url: '/api/manual/schedule', payload: { id: job } });
    expect(response.statusCode, response.body).toBe(200);
    const runId = json<{ runId: number }>(response).runId;
    expect((await finishedRun(job, runId)).status).toBe('succeeded');
    expect((await runs(job)).map((r) => r.id).sort((a, b) => a - b)).toEqual([recent.id, runId]);
    expect((await runs(other)).map((r) => r.id)).toEqual([otherOld.id]);
    expect((await runs(job)).some((r) => r.id === old.id)).toBe(false);
  });

  it('retries a failing handler with back-off, then records the run failed and raises job.failed', async () => {
    expect((await addJob(validJob('Always fails', 'jobtest.fail'))).statusCode).toBe(200);
    const row = await rowOf('Always fails');
    const response = await injectAs(t.app, admin, { method: 'POST', url: '/api/manual/schedule', payload: { id: row._key } });
    const runId = json<{ runId: number }>(response).runId;
    const run = await finishedRun(row._key, runId);
    expect(run.status).toBe('failed');
    // retry_limit 1: the first attempt and one retry.
    expect(run.attempts).toBe(2);
    expect(run.error).toBe('broken on attempt 2');
    expect(run.log).toContain('failed: broken on attempt 1');
    expect(run.log).toContain('retry in 1 s');
    expect(run.log).toContain('failed: broken on attempt 2');
    const events = await t.database.db.selectFrom('domain_event').select('payload').where('name', '=', 'job.failed').execute();
    const payloads = events.map((e) => (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload) as { runId: number; jobName: string });
    expect(payloads).toContainEqual(expect.objectContaining({ runId, jobName: 'Always fails' }));
    // and the administrator who made the job is told, in his bell.
    const notices = await t.database.db
      .selectFrom('notification as n')
      .innerJoin('app_user as u', 'u.id', 'n.user_id')
      .select(['u.login_account', 'n.category', 'n.params'])
      .where('n.category', '=', 'jobFailed')
      .execute();
    expect(notices).toContainEqual(expect.objectContaining({ login_account: 'admin', params: expect.objectContaining({ job: 'Always fails', error: 'broken on attempt 2' }) }));
  });

  it('runs an active job on its schedule', async () => {
    expect((await addJob({ ...validJob('Every second'), cron_expression: '* * * * * ?' })).statusCode).toBe(200);
    const row = await rowOf('Every second');
    expect((await behaviour('Every second', 'activate')).statusCode).toBe(200);
    let scheduled: Run[] = [];
    for (let i = 0; i < 100 && scheduled.filter((r) => r.status === 'succeeded').length < 2; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      scheduled = (await runs(row._key)).filter((r) => r.trigger === 'schedule');
    }
    expect(scheduled.filter((r) => r.status === 'succeeded').length).toBeGreaterThanOrEqual(2);
    expect((await behaviour('Every second', 'inactivate')).statusCode).toBe(200);
  });

  it('purges expired e-mail codes with the built-in auth.purgeExpired handler', async () => {
    await t.database.db
      .insertInto('verification_code')
      .values({ purpose: 'reset', email: 'old@example.com', code_hash: 'x', expires_at: sql<Date>`now() - interval '1 hour'` })
      .execute();
    expect((await addJob(validJob('Purge', 'auth.purgeExpired'))).statusCode).toBe(200);
    const row = await rowOf('Purge');
    const response = await injectAs(t.app, admin, { method: 'POST', url: '/api/manual/schedule', payload: { id: row._key } });
    const run = await finishedRun(row._key, json<{ runId: number }>(response).runId);
    expect(run.status).toBe('succeeded');
    expect(run.log).toMatch(/purged \d+ sessions, \d+ trusted browsers, \d+ two-step challenges, 1 e-mail codes/);
    expect(await t.database.db.selectFrom('verification_code').select('id').where('email', '=', 'old@example.com').execute()).toEqual([]);
  });
});

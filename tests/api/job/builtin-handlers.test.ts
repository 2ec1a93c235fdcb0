import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../../helpers/app.js';
import { startSmtpServer, type TestSmtpServer } from '../../helpers/smtp.js';

/** The job handlers the areas bring for everyone (notify's outbox sender), run through "run now". */
let t: TestApp;
let smtp: TestSmtpServer;
let admin: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ JOB_SCHEDULER: 'true', SMTP_URL: smtp.url });
  admin = await signIn(t.app);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function runNow(name: string, handler: string): Promise<{ status: string; log: string }> {
  const added = await injectAs(t.app, admin, {
    method: 'POST',
    url: '/api/generic/adding',
    payload: { moduleCode: 'job', functionCode: 'job', record: { name, handler, cron_expression: '0 */5 * * * ?', business_type: 'MAIL', retry_limit: 0 } },
  });
  expect(added.statusCode, added.body).toBe(200);
  const jobId = json<{ row: { _key: number } }>(added).row._key;
  const started = await injectAs(t.app, admin, { method: 'POST', url: '/api/manual/schedule', payload: { id: jobId } });
  const runId = json<{ runId: number }>(started).runId;
  for (let i = 0; i < 300; i += 1) {
    const runs = json<{ items: { id: number; status: string; log: string }[] }>(await injectAs(t.app, admin, { method: 'GET', url: `/api/job/runs?jobId=${jobId}` })).items;
    const run = runs.find((r) => r.id === runId);
    if (run && ['succeeded', 'failed'].includes(run.status)) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the run did not finish');
}

describe('notify.sendOutboxEmail', () => {
  it('sends the undelivered e-mails of the outbox again, and leaves those whose code was masked and text messages', async () => {
    const db = t.database.db;
    const row = (recipient: string, channel: 'email' | 'sms', body: string) => ({
      channel,
      recipient,
      subject: channel === 'email' ? 'Stock report' : null,
      body,
      status: 'failed' as const,
      error: 'connection refused',
      created_by: 'test',
      updated_by: 'test',
    });
    await db
      .insertInto('outbox_message')
      .values([row('planner@example.com', 'email', 'The weekly report is ready.'), row('coded@example.com', 'email', 'Your code is ******'), row('+4912345', 'sms', 'Hello')])
      .execute();

    const run = await runNow('Outbox', 'notify.sendOutboxEmail');
    expect(run.status).toBe('succeeded');
    expect(run.log).toContain('sent 1 of 1 e-mails');
    const mail = await smtp.nextMailTo('planner@example.com', 0);
    expect(mail.subject).toBe('Stock report');
    expect(mail.text).toContain('The weekly report is ready.');
    expect(smtp.mails.map((m) => m.to).flat()).not.toContain('coded@example.com');

    const after = await db.selectFrom('outbox_message').select(['recipient', 'status', 'body']).orderBy('id').execute();
    expect(after).toEqual([
      { recipient: 'planner@example.com', status: 'sent', body: '(delivered)' },
      { recipient: 'coded@example.com', status: 'failed', body: 'Your code is ******' },
      { recipient: '+4912345', status: 'failed', body: 'Hello' },
    ]);
  });
});

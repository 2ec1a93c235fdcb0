import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackedRun } from '../../src/server/modules/billing/billing.progress.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture } from '../helpers/outbound.js';

interface RunState {
  billId: string;
  status: string;
  stage: string;
  percent: number;
  headerId: number | null;
}

/**
 * The progress of billing runs: a run going on shows its stage and percent to the bill page's
 * poll, a second run for the same customer is refused with a clear message while it goes on, and
 * a finished run shows done at 100% with the bill it made.
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

  it('shows a run going on, refuses a second run of its customer meanwhile, and shows the run done', async () => {
    const db = t.database.db;
    const tag = `P${Date.now().toString(36).toUpperCase()}`;
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
    const run = (billId: string) =>
      injectAs(t.app, token, { method: 'POST', url: '/api/billing/run', payload: { ownerId: f.ownerId, billId, cutoffDate: `${year}-05-31`, periodFrom: `${year}-05-01`, periodTo: `${year}-05-31` } });
    const progress = async () => json<{ runs: RunState[] }>(await injectAs(t.app, token, { method: 'POST', url: '/api/billing/run/progress', payload: {} })).runs;

    // A run of the customer held half-way (as a long run is), registered as the route registers its own.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = trackedRun({ projectId: f.scope.projectId, by: 'admin' }, f.ownerId, `HELD-${tag}`, async (report) => {
      report('events:receive', 1, 4);
      await gate;
      return { header: { id: 0 } };
    });
    const going = (await progress()).find((r) => r.billId === `HELD-${tag}`);
    expect(going).toMatchObject({ status: 'running', stage: 'events:receive', percent: 25 });

    const refused = await run(`B-${tag}`);
    expect(refused.statusCode).toBe(409);
    expect(json<{ code: string; message: string }>(refused)).toMatchObject({ code: 'BILL_RUN_RUNNING' });
    expect(json<{ message: string }>(refused).message).toContain(`HELD-${tag}, 25%`);

    release();
    await held;
    const made = await run(`B-${tag}`);
    expect(made.statusCode).toBe(200);
    const bill = json<{ header: { id: number; total_amount: string } }>(made);
    expect(bill.header.total_amount).toBe('250.00');
    const runs = await progress();
    expect(runs.find((r) => r.billId === `B-${tag}`)).toMatchObject({ status: 'done', percent: 100, headerId: bill.header.id });
    expect(runs.find((r) => r.billId === `HELD-${tag}`)).toMatchObject({ status: 'done', percent: 100 });
  });
});

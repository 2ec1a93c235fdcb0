import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { PageDefinition } from '../../engine/schema/index.js';
import { inTransaction, afterCommit } from '../../src/server/db/transaction.js';
import { connectPostgres } from '../../src/server/db/database.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { onRealServer } from '../helpers/database.js';
import { countLedger } from '../fixtures/parcel/parcel.repository.js';
import { parcelModule } from '../fixtures/parcel/parcel.module.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * The shape of a business area: a tiny area of the
 * tests (tests/fixtures/parcel, built as src/server/modules/README.md says) added with one line to
 * the module list, its behaviour and writer checked at publish, its writer inside the engine's
 * transaction, its events after commit, its own right verb, and the unit of work's retry.
 */
if (!onRealServer) console.warn('skipped: the serialization-retry test needs two real PostgreSQL sessions; set TEST_DATABASE_URL to run it');

let t: TestApp;
let admin: string;
const saved: number[] = [];

function parcelPage(extra: Partial<PageDefinition> = {}): PageDefinition {
  return {
    schemaVersion: 2,
    moduleCode: 'parcel',
    functionCode: 'parcel',
    titleCode: 'PARCELS',
    status: 'published',
    table: { name: 'parcel' },
    scope: 'project',
    writer: 'parcel.rules',
    fields: [
      { name: 'code', labelCode: 'CODE', type: 'string', length: 20, mandatory: true },
      { name: 'weight_kg', labelCode: 'WEIGHT', type: 'decimal', decimal: 3, mandatory: true },
      { name: 'status', labelCode: 'STATUS', type: 'string', editable: false },
    ],
    behaviours: [
      {
        code: 'close',
        action: 'parcel.close',
        labelCode: 'CLOSE',
        selection: 'many',
        right: 'edit',
        inputs: [{ name: 'reason', labelCode: 'REASON', type: 'text', mandatory: true, length: 40 }],
      },
    ],
    ...extra,
  };
}

async function publish(content: PageDefinition) {
  const draft = await injectAs(t.app, admin, { method: 'PUT', url: '/api/generic/draft', payload: { moduleCode: content.moduleCode, functionCode: content.functionCode, content } });
  expect(draft.statusCode, draft.body).toBe(200);
  return injectAs(t.app, admin, { method: 'POST', url: '/api/generic/publish', payload: { moduleCode: content.moduleCode, functionCode: content.functionCode } });
}

const add = (token: string, record: Record<string, unknown>) =>
  injectAs(t.app, token, { method: 'POST', url: '/api/generic/adding', payload: { moduleCode: 'parcel', functionCode: 'parcel', record } });

async function parcelCodes(): Promise<string[]> {
  return (await t.database.db.selectFrom('parcel').select('code').orderBy('code').execute()).map((r) => r.code);
}

beforeAll(async () => {
  // The one line that adds an area: the module list plus the area's own folder.
  t = await buildTestApp({}, { extraModules: [parcelModule({ saved: (id) => saved.push(id) })] });
  admin = await signIn(t.app);
});

afterAll(async () => {
  await t?.close();
});

describe('publishing checks what the areas define', () => {
  it('refuses a definition naming an action no area defines, with its message', async () => {
    const page = parcelPage();
    page.behaviours![0] = { ...page.behaviours![0], action: 'parcel.vanish' };
    const response = await publish(page);
    expect(response.statusCode, response.body).toBe(400);
    expect(json(response)).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: '/behaviours/0/action', code: 'unknownAction', message: 'no area defines the action "parcel.vanish"' }],
    });
  });

  it('refuses declared inputs that do not fit the action, and a writer nobody defines', async () => {
    const page = parcelPage({ writer: 'parcel.nobody' });
    page.behaviours![0].inputs = [{ name: 'reason', labelCode: 'REASON', type: 'integer' }, { name: 'colour', labelCode: 'C', type: 'text' }];
    const body = json<{ details: Array<{ field: string; code: string }> }>(await publish(page));
    expect(body.details.map((d) => `${d.field} ${d.code}`).sort()).toEqual(['/behaviours/0/inputs/0/type inputType', '/behaviours/0/inputs/1/name unknownInput', '/writer unknownWriter']);
  });

  it('refuses a writable page over a table only a domain service writes, and accepts it read-only', async () => {
    const ledger: PageDefinition = {
      schemaVersion: 2,
      moduleCode: 'parcel',
      functionCode: 'ledger',
      titleCode: 'LEDGER',
      status: 'published',
      table: { name: 'parcel_ledger' },
      scope: 'none',
      versionField: null,
      fields: [{ name: 'note', labelCode: 'NOTE', type: 'string' }],
    };
    const refused = await publish(ledger);
    expect(refused.statusCode).toBe(400);
    expect(json(refused)).toMatchObject({ details: [{ field: '/readOnly', code: 'serviceOnlyTable' }] });
    expect((await publish({ ...ledger, readOnly: true })).statusCode).toBe(200);
  });

  it('publishes the page when everything it names exists', async () => {
    const response = await publish(parcelPage());
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('writers run inside the engine transaction', () => {
  it('lets the writer change the row and write its own tables in the same transaction', async () => {
    const response = await add(admin, { code: 'p-1', weight_kg: '12.5' });
    expect(response.statusCode, response.body).toBe(200);
    const row = json<{ row: { _key: number; code: string } }>(response).row;
    expect(row.code).toBe('P-1');
    expect(await countLedger(t.database.db, row._key)).toBe(1);
  });

  it('a refusal in beforeSave writes nothing and answers the writer error', async () => {
    const response = await add(admin, { code: 'HEAVY', weight_kg: '1000.5' });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'weight_kg', code: 'FIELD_RANGE' }] });
    expect(await parcelCodes()).not.toContain('HEAVY');
  });

  it('a writer that throws after the insert leaves nothing behind, and its event is never delivered', async () => {
    const before = saved.length;
    const response = await add(admin, { code: 'BOOM-1', weight_kg: '1' });
    expect(response.statusCode).toBe(409);
    expect(json(response)).toMatchObject({ code: 'ORDER_STATUS_ERROR' });
    expect(await parcelCodes()).not.toContain('BOOM-1');
    expect(await t.database.db.selectFrom('parcel_ledger').select('id').where('note', '=', 'saved').execute()).toHaveLength(1);
    expect(saved.length).toBe(before);
    // The outbox row went with the rollback too.
    const outbox = await t.database.db.selectFrom('domain_event').select('payload').where('name', '=', 'parcel.saved').execute();
    expect(outbox).toHaveLength(1);
  });

  it('delivers the event of a committed save once, after the commit', async () => {
    const before = saved.length;
    const response = await add(admin, { code: 'P-2', weight_kg: '3' });
    expect(response.statusCode, response.body).toBe(200);
    expect(saved.slice(before)).toEqual([json<{ row: { _key: number } }>(response).row._key]);
  });

  it('runs beforeDelete with the stored row and refuses for it', async () => {
    const row = await t.database.db.selectFrom('parcel').select(['id', 'updated_at']).where('code', '=', 'P-2').executeTakeFirstOrThrow();
    await t.database.db.updateTable('parcel').set({ status: 'closed' }).where('id', '=', row.id).execute();
    const view = await injectAs(t.app, admin, { method: 'POST', url: '/api/generic/selection', payload: { moduleCode: 'parcel', functionCode: 'parcel', page: 1, pageSize: 10 } });
    const listed = json<{ rows: Array<{ _key: number; _version: string; code: string }> }>(view).rows.find((r) => r.code === 'P-2')!;
    const response = await injectAs(t.app, admin, {
      method: 'POST',
      url: '/api/generic/deletion',
      payload: { moduleCode: 'parcel', functionCode: 'parcel', rows: [{ key: listed._key, version: listed._version }] },
    });
    expect(response.statusCode).toBe(409);
    expect(await parcelCodes()).toContain('P-2');
  });
});

describe('after-commit callbacks', () => {
  it('run after a commit and never after a rollback', async () => {
    const ran: string[] = [];
    await inTransaction(t.database.db, async (trx) => {
      afterCommit(trx, () => {
        ran.push('committed');
      });
      ran.push('work');
    });
    await expect(
      inTransaction(t.database.db, async (trx) => {
        afterCommit(trx, () => {
          ran.push('rolled back');
        });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(ran).toEqual(['work', 'committed']);
  });

  it('refuse a transaction that inTransaction did not open', async () => {
    await t.database.db.transaction().execute(async (trx) => {
      expect(() => afterCommit(trx, () => undefined)).toThrow('inTransaction');
    });
  });
});

describe('right verbs', () => {
  it('needs the behaviour its own verb beside the page right', async () => {
    const rights = ['parcel:view', 'parcel:edit'] as const;
    const clerk = await createUser(t, { loginAccount: 'clerk', rights: [...rights], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const closer = await createUser(t, { loginAccount: 'closer', rights: [...rights, 'parcel.parcel:close'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const id = (await t.database.db.selectFrom('parcel').select('id').where('code', '=', 'P-1').executeTakeFirstOrThrow()).id;
    const run = (token: string, inputs: Record<string, unknown>) =>
      injectAs(t.app, token, { method: 'POST', url: '/api/generic/behavior', payload: { moduleCode: 'parcel', functionCode: 'parcel', behaviour: 'close', keys: [id], inputs } });
    const refused = await run(clerk, { reason: 'damaged' });
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toMatchObject({ code: 'FORBIDDEN' });
    expect((await run(closer, { reason: '' })).statusCode).toBe(400);
    const done = await run(closer, { reason: 'damaged' });
    expect(done.statusCode, done.body).toBe(200);
    expect(json(done)).toMatchObject({ result: { closed: 1 } });
    expect(await countLedger(t.database.db, Number(id))).toBe(2);
  });

  it('lists the declared verbs for the role screen', async () => {
    const verbs = await t.database.db.selectFrom('right_verb').select('code').orderBy('code').execute();
    const declared: string[] = MODULES.flatMap((m) => m.rights ?? []).map((r) => r.right);
    expect(declared).toContain('masterdata.loa:generate');
    expect(declared).toContain('job.job:run');
    expect(verbs.map((v) => v.code)).toEqual([...declared, 'parcel.parcel:close'].sort());
  });
});

describe('unit of work on the real server', () => {
  it.skipIf(!onRealServer)('retries a serialization failure: two sessions both answer 200 and nothing is lost', async () => {
    const [a, b] = await Promise.all([
      injectAs(t.app, admin, { method: 'POST', url: '/api/parcel/counter/bump' }),
      injectAs(t.app, admin, { method: 'POST', url: '/api/parcel/counter/bump' }),
    ]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200]);
    const answers = [json<{ total: number; attempts: number }>(a), json<{ total: number; attempts: number }>(b)];
    expect(answers.map((x) => x.total).sort()).toEqual([1, 2]);
    // One of them lost the race on its first attempt and was run again.
    expect(answers.map((x) => x.attempts).sort()).toEqual([1, 2]);
    const other = await connectPostgres(t.database.url!, 1);
    try {
      const { rows } = await sql<{ total: number }>`select total from parcel_counter where id = 1`.execute(other.db);
      expect(rows[0].total).toBe(2);
    } finally {
      await other.close();
    }
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/install/migrate.js';
import { contentHash } from '../../src/server/definitions/definition-sync.js';
import { buildTestApp, createUserAccount, injectAs, json, type TestApp } from '../helpers/app.js';
import { onRealServer, withAdminClient } from '../helpers/database.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * Configurator SQL, tried the way an attacker with only the designer right would. The
 * database itself refuses (restricted roles, row-level security) what the parser lets through,
 * and the parser refuses what could harm the server before the database sees it.
 */

const SECRETS = [
  'select body as value, body as label from outbox_message',
  'select login_account, password_hash from app_user',
  'select totp_secret from app_user',
  'select token_hash from user_session',
  'select code_hash from verification_code',
  'select * from audit_log',
  'select * from role_permission',
  'select content from page_definition',
];

const SYSTEM = ['select * from pg_shadow', 'select * from pg_stat_activity', 'select * from pg_catalog.pg_authid', 'select * from information_schema.tables'];

const DANGEROUS = [
  "select pg_read_file('/etc/passwd')",
  "select * from pg_ls_dir('.')",
  "select lo_import('/etc/passwd')",
  'select pg_terminate_backend(1)',
  'select pg_sleep(10)',
  "select set_config('role', 'postgres', false)",
  "select dblink('host=localhost', 'select 1')",
  'select pg_advisory_lock(1)',
  'with recursive t(n) as (select 1 union all select n + 1 from t) select * from t',
  'select * from generate_series(1, 1000000000)',
];

function page(functionCode: string, extra: Record<string, unknown> = {}) {
  return {
    schemaVersion: 2,
    moduleCode: 'attack',
    functionCode,
    titleCode: 'T',
    status: 'draft',
    table: { name: 'sku', alias: 's' },
    scope: 'project',
    fields: [
      { name: 'id', labelCode: 'T', type: 'integer', editable: false },
      { name: 'code', labelCode: 'T', type: 'string', length: 40 },
      { name: 'project_id', labelCode: 'T', type: 'integer', editable: false },
    ],
    texts: { T: { en: 'T' } },
    ...extra,
  };
}

interface Attacker {
  uid: number;
  token: string;
}

/** The attacks, run against one app (embedded, superuser or ordinary owner role). */
function attacks(context: () => { t: TestApp; attacker: Attacker }) {
  const call = (method: 'POST' | 'PUT', url: string, payload: unknown) => {
    const { t, attacker } = context();
    return injectAs(t.app, attacker.token, { method, url, payload: payload as object });
  };

  /** Stores a definition as published without the designer, as a shipped or slipped-through one would be. */
  async function storePublished(definition: ReturnType<typeof page>): Promise<void> {
    const { t } = context();
    const content = { ...definition, status: 'published' };
    await t.database.db.deleteFrom('page_definition').where('module_code', '=', 'attack').where('function_code', '=', definition.functionCode).execute();
    await t.database.db
      .insertInto('page_definition')
      .values({ project_id: null, module_code: 'attack', function_code: definition.functionCode, version: 1, status: 'published', content: JSON.stringify(content), content_hash: contentHash(content), created_by: 'test', updated_by: 'test' })
      .execute();
    t.app.definitions.invalidate({ projectId: null, all: true });
  }

  it('refuses write SQL that would make the attacker an administrator, at save and at run', async () => {
    const { t, attacker } = context();
    const promote = page('promote', {
      sqls: [{ name: 'promote', mode: 'write', text: 'update app_user set is_admin = true where id = :userId' }],
      behaviours: [{ code: 'promote', action: 'sql:promote', labelCode: 'T', selection: 'none', right: 'view' }],
    });
    const saved = await call('PUT', '/api/generic/draft', { moduleCode: 'attack', functionCode: 'promote', content: promote });
    expect(saved.statusCode).toBe(400);
    expect(saved.body).toMatch(/permission denied/);

    await storePublished(promote);
    const run = await call('POST', '/api/generic/behavior', { moduleCode: 'attack', functionCode: 'promote', behaviour: 'promote', keys: [] });
    expect(run.statusCode).toBe(403);
    expect(json<{ code: string }>(run).code).toBe('SQL_NOT_PERMITTED');
    const user = await t.database.db.selectFrom('app_user').select('is_admin').where('id', '=', attacker.uid).executeTakeFirstOrThrow();
    expect(user.is_admin).toBe(false);
  });

  it.each(SECRETS)('refuses reading secrets in the SQL test run, the preview and a stored page: %s', async (text) => {
    const tested = await call('POST', '/api/generic/sql/test', { name: 'peek', text });
    expect(tested.statusCode).toBe(200);
    expect(json<{ ok: boolean; rows: unknown[] }>(tested)).toMatchObject({ ok: false, rows: [] });

    const definition = page('peek', { listSql: 'peek', sqls: [{ name: 'peek', text: `select s.* from sku s where exists (${text})` }] });
    const preview = await call('POST', '/api/generic/preview/selection', { definition, page: 1, pageSize: 10 });
    expect(preview.statusCode).toBe(403);
    expect(json<{ code: string }>(preview).code).toBe('SQL_NOT_PERMITTED');

    await storePublished(definition);
    const selection = await call('POST', '/api/generic/selection', { moduleCode: 'attack', functionCode: 'peek', page: 1, pageSize: 10 });
    expect(selection.statusCode).toBe(403);
  });

  it('refuses a published page over users that shows their password hashes', async () => {
    const definition = {
      ...page('users'),
      table: { name: 'app_user' },
      scope: 'none',
      readOnly: true,
      fields: [
        { name: 'id', labelCode: 'T', type: 'integer', editable: false },
        { name: 'login_account', labelCode: 'T', type: 'string', length: 100 },
        { name: 'password_hash', labelCode: 'T', type: 'string', length: 200 },
      ],
    };
    expect((await call('PUT', '/api/generic/draft', { moduleCode: 'attack', functionCode: 'users', content: definition })).statusCode).toBe(200);
    const published = await call('POST', '/api/generic/publish', { moduleCode: 'attack', functionCode: 'users' });
    expect(published.statusCode).toBe(400);
    expect(json<{ details: Array<{ field: string; code: string }> }>(published).details).toContainEqual(expect.objectContaining({ field: '/fields/2/name', code: 'privilege' }));
    const preview = await call('POST', '/api/generic/preview/selection', { definition, page: 1, pageSize: 10 });
    expect(preview.statusCode).toBe(403);
  });

  it.each([...SYSTEM, ...DANGEROUS])('refuses %s before the database runs it', async (text) => {
    const tested = await call('POST', '/api/generic/sql/test', { name: 'bad', text });
    expect(json<{ ok: boolean; error: string }>(tested)).toMatchObject({ ok: false });
    expect(json<{ error: string }>(tested).error).toMatch(/not allowed|may not|only/);
    const saved = await call('PUT', '/api/generic/draft', { moduleCode: 'attack', functionCode: 'bad', content: page('bad', { listSql: 'bad', sqls: [{ name: 'bad', text }] }) });
    expect(saved.statusCode).toBe(400);
  });

  it('refuses pg_sleep at run time on a stored page and keeps answering others', async () => {
    const { t } = context();
    await storePublished(page('sleepy', { listSql: 'sleepy', sqls: [{ name: 'sleepy', text: 'select s.* from sku s, pg_sleep(10) z' }] }));
    const started = Date.now();
    const [sleepy, health] = await Promise.all([
      call('POST', '/api/generic/selection', { moduleCode: 'attack', functionCode: 'sleepy', page: 1, pageSize: 10 }),
      t.app.inject({ method: 'GET', url: '/api/health' }),
    ]);
    expect(sleepy.statusCode).toBe(400);
    expect(json<{ code: string }>(sleepy).code).toBe('SQL_REFUSED');
    expect(health.statusCode).toBe(200);
    // Refused before the database saw it: nowhere near the ten seconds it asked for.
    expect(Date.now() - started).toBeLessThan(9000);
  });

  it("shows a configurator's SQL over sku only the current project's rows, however it is written", async () => {
    const { t } = context();
    const rows = await t.database.db.selectFrom('sku').select(['code', 'project_id']).execute();
    expect(new Set(rows.map((r) => r.project_id)).size).toBe(2);
    const tested = await call('POST', '/api/generic/sql/test', { name: 'all', text: 'select code, project_id from sku where true or project_id <> :projectId' });
    const body = json<{ ok: boolean; rows: Array<{ code: string; project_id: number }> }>(tested);
    expect(body.ok).toBe(true);
    expect(body.rows.map((r) => r.code).sort()).toEqual(['ATK-1', 'ATK-2']);

    await storePublished(page('all', { listSql: 'all', sqls: [{ name: 'all', text: 'select s.* from sku s' }] }));
    const selection = await call('POST', '/api/generic/selection', { moduleCode: 'attack', functionCode: 'all', page: 1, pageSize: 100 });
    expect(selection.statusCode, selection.body).toBe(200);
    expect(json<{ rows: Array<{ code: string }> }>(selection).rows.map((r) => r.code).sort()).toEqual(['ATK-1', 'ATK-2']);
  });
}

/** SKUs in two projects and a user with nothing but the designer right (and view on its pages). */
async function prepare(t: TestApp): Promise<Attacker> {
  const db = t.database.db;
  const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
  const prj1 = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const prj2 = await db.insertInto('project').values({ organization_id: org.id, code: 'PRJ2', name: 'Other', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
  for (const [projectId, code] of [[prj1.id, 'ATK'], [prj2.id, 'OTHER']] as const) {
    const owner = await db.insertInto('owner').values({ project_id: projectId, code, name: code, created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
    for (const n of [1, 2]) {
      await sql`insert into sku (project_id, owner_id, code, description, created_by, updated_by) values (${projectId}, ${owner.id}, ${`${code}-${n}`}, 'x', 'test', 'test')`.execute(db);
    }
  }
  await db.insertInto('outbox_message').values({ channel: 'email', recipient: 'victim@example.com', subject: 'code', body: 'Your code is 123456', status: 'sent', created_by: 'test', updated_by: 'test' }).execute();
  return createUserAccount(t, { loginAccount: 'attacker', rights: ['generic:edit', 'attack:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
}

describe('configurator SQL sandbox', () => {
  let t: TestApp;
  let attacker: Attacker;
  beforeAll(async () => {
    t = await buildTestApp();
    attacker = await prepare(t);
  });
  afterAll(() => t?.close());
  attacks(() => ({ t, attacker }));
});

/**
 * The same attacks with the server connected as an ordinary role that owns its database (README,
 * "Database privileges"): not a superuser, so nothing it does is above row-level security anyway.
 */
describe.runIf(onRealServer)('configurator SQL sandbox, server connected as an ordinary database owner', () => {
  const ROLE = 'wms_test_owner';
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const name = `wms_test_owner_${Date.now().toString(36)}`;
  let t: TestApp;
  let attacker: Attacker;

  beforeAll(async () => {
    await withAdminClient(adminUrl, async (client) => {
      await client.query(`do $$ begin
        if not exists (select 1 from pg_roles where rolname = '${ROLE}') then
          begin create role ${ROLE} login createrole; exception when duplicate_object or unique_violation then null; end;
        end if; end $$`);
      await client.query(`create database ${name} owner ${ROLE}`);
    });
    const url = new URL(adminUrl);
    url.username = ROLE;
    url.pathname = `/${name}`;
    const inner = await connectPostgres(url.toString(), 5);
    const { rows } = await sql<{ rolsuper: boolean }>`select rolsuper from pg_roles where rolname = current_user`.execute(inner.db);
    expect(rows[0].rolsuper).toBe(false);
    await migrateToLatest(inner.db, MODULES);
    const database = {
      ...inner,
      async close() {
        await inner.close();
        await withAdminClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
      },
    };
    t = await buildTestApp({}, { database });
    attacker = await prepare(t);
  });
  afterAll(() => t?.close());
  attacks(() => ({ t, attacker }));
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../src/server/definitions/definition-sync.js';
import { CONFIGURATOR_READ_ROLE, CONFIGURATOR_WRITE_ROLE } from '../../src/server/db/migrations/helpers.js';
import { buildTestApp, createUserAccount, injectAs, json, type TestApp } from '../helpers/app.js';

/**
 * Configurator SQL of project B, in a warehouse B shares with project A, tried the way a designer
 * of B would: it must not change what every project shares, nor A's rows in the shared
 * warehouse, nor read A's support messages or A's stock through a view.
 */

/**
 * Tables the configurator roles may read although no row policy limits them: shared by every
 * project, and read only. Reviewed: none holds a secret or a project's own data (job run logs
 * name jobs that run for the whole installation).
 */
const GLOBAL_READ_ONLY = ['job_handler', 'job_run', 'sys_module'];

interface Actor {
  uid: number;
  token: string;
}

describe('configurator SQL reaches only its own project', () => {
  let t: TestApp;
  let designerB: Actor;
  let adminB: Actor;
  let designerBOwnWarehouse: Actor;
  let designerA: Actor;
  const ids = { prj1: 0, prj2: 0, wh1: 0, wh2: 0, locationA: 0, locationB2: 0 };

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
    ids.prj1 = (await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow()).id;
    ids.wh1 = (await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id;
    ids.prj2 = (await db.insertInto('project').values({ organization_id: org.id, code: 'PRJ2', name: 'B', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow()).id;
    ids.wh2 = (await db.insertInto('warehouse').values({ organization_id: org.id, code: 'WH2', name: 'B only', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow()).id;
    // WH1 is shared by both projects; WH2 is B's alone.
    await db.insertInto('project_warehouse').values([
      { project_id: ids.prj2, warehouse_id: ids.wh1 },
      { project_id: ids.prj2, warehouse_id: ids.wh2 },
    ]).execute();
    ids.locationA = (await db.insertInto('location').values({ warehouse_id: ids.wh1, code: 'A-01', status: 'active', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow()).id;
    ids.locationB2 = (await db.insertInto('location').values({ warehouse_id: ids.wh2, code: 'B2-01', status: 'active', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow()).id;
    await db.insertInto('inv_code').values({ code_type: 'adjust', code: 'DAMAGE', description: 'Damage', requires_approval: true, created_by: 'test', updated_by: 'test' }).execute();
    // One row in each table every project shares, so that a change would show.
    await sql`insert into job_handler (name, area) values ('test.noop', 'test') on conflict do nothing`.execute(db);
    await sql`insert into job (name, handler, cron_expression, business_type, status, created_by, updated_by) values ('nightly', 'test.noop', '0 0 2 * * ?', 'x', 'inactive', 'test', 'test')`.execute(db);
    await sql`insert into mult_text (text_code, text_en, created_by, updated_by) values ('SCOPE_TEST', 'A', 'test', 'test')`.execute(db);
    await sql`insert into currency (code, description, created_by, updated_by) values ('EUR', 'Euro', 'test', 'test') on conflict do nothing`.execute(db);
    await sql`insert into id_rule (rule_code, description, created_by, updated_by) values ('SCOPE_TEST', 'x', 'test', 'test')`.execute(db);
    await sql`insert into code_master (code_type, code, desc_en, created_by, updated_by) values ('SCOPE_TEST', 'A', 'A', 'test', 'test')`.execute(db);
    await db.insertInto('sys_param').values({ organization_id: org.id, param_code: 'SCOPE_TEST', param_value: 'A', created_by: 'test', updated_by: 'test' }).execute();
    // Project A's support ticket with a message, and one of A's inventory documents in WH1.
    const admin = await db.selectFrom('app_user').select('id').where('login_account', '=', 'admin').executeTakeFirstOrThrow();
    const ticket = await db
      .insertInto('support_ticket')
      .values({ organization_id: org.id, project_id: ids.prj1, ticket_type: 'GEN', subject: 'A only', category: 'question', priority: 'low', requester_user_id: admin.id, requester_account: 'admin', created_by: 'test', updated_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('support_message').values({ ticket_id: ticket.id, author_user_id: admin.id, author_account: 'admin', body: 'secret of A', created_by: 'test', updated_by: 'test' }).execute();
    await db.insertInto('support_log').values({ ticket_id: ticket.id, login_account: 'admin', action: 'opened' }).execute();
    await db.insertInto('inventory_document').values({ project_id: ids.prj1, warehouse_id: ids.wh1, doc_type: 'adjust', doc_no: 'ADJ-A-1', created_by: 'test', updated_by: 'test' }).execute();

    const rights = ['generic:edit', 'attack:view'] as const;
    designerB = await createUserAccount(t, { loginAccount: 'designer-b', rights: [...rights], projectCodes: ['PRJ2'], warehouseCodes: ['WH1'] });
    adminB = await createUserAccount(t, { loginAccount: 'admin-b', rights: [...rights], projectCodes: ['PRJ2'], warehouseCodes: ['WH1'], isAdmin: true });
    designerBOwnWarehouse = await createUserAccount(t, { loginAccount: 'designer-b2', rights: [...rights], projectCodes: ['PRJ2'], warehouseCodes: ['WH2'] });
    designerA = await createUserAccount(t, { loginAccount: 'designer-a', rights: [...rights], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  });
  afterAll(() => t?.close());

  let pages = 0;
  /** Stores a published page whose one behaviour runs the write SQL (as a shipped or slipped-through page would), and presses it. */
  async function runWrite(actor: Actor, text: string) {
    const functionCode = `write${++pages}`;
    const content = {
      schemaVersion: 2,
      moduleCode: 'attack',
      functionCode,
      titleCode: 'T',
      status: 'published',
      table: { name: 'sku', alias: 's' },
      scope: 'project',
      fields: [
        { name: 'id', labelCode: 'T', type: 'integer', editable: false },
        { name: 'code', labelCode: 'T', type: 'string', length: 40 },
      ],
      sqls: [{ name: 'change', mode: 'write', text }],
      behaviours: [{ code: 'change', action: 'sql:change', labelCode: 'T', selection: 'none', right: 'view' }],
      texts: { T: { en: 'T' } },
    };
    await t.database.db
      .insertInto('page_definition')
      .values({ project_id: null, module_code: 'attack', function_code: functionCode, version: 1, status: 'published', content: JSON.stringify(content), content_hash: contentHash(content), created_by: 'test', updated_by: 'test' })
      .execute();
    t.app.definitions.invalidate({ projectId: null, all: true });
    return injectAs(t.app, actor.token, { method: 'POST', url: '/api/generic/behavior', payload: { moduleCode: 'attack', functionCode, behaviour: 'change', keys: [] } });
  }

  function affected(response: Awaited<ReturnType<typeof runWrite>>): number {
    expect(response.statusCode, response.body).toBe(200);
    return json<{ result: { affected: number } }>(response).result.affected;
  }

  async function testRun(actor: Actor, text: string) {
    const response = await injectAs(t.app, actor.token, { method: 'POST', url: '/api/generic/sql/test', payload: { name: 'peek', text } });
    return json<{ ok: boolean; rows: Array<Record<string, unknown>>; error?: string }>(response);
  }

  it.each([
    ['update inv_code set requires_approval = false', 'inv_code'],
    ["update job set status = 'active', cron_expression = '* * * * * ?'", 'job'],
    ["update code_master set desc_en = 'changed by B'", 'code_master'],
    ['delete from mult_text', 'mult_text'],
    ["update currency set code = 'XXX'", 'currency'],
    ['delete from id_rule', 'id_rule'],
  ])('changes no row every project shares: %s', async (text, table) => {
    expect(Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(t.database.db)).rows[0].n)).toBeGreaterThan(0);
    const before = await sql<{ rows: string }>`select md5(string_agg(t::text, ',' order by t::text)) as rows from ${sql.table(table)} t`.execute(t.database.db);
    expect(affected(await runWrite(designerB, text))).toBe(0);
    const after = await sql<{ rows: string }>`select md5(string_agg(t::text, ',' order by t::text)) as rows from ${sql.table(table)} t`.execute(t.database.db);
    expect(after.rows).toEqual(before.rows);
  });

  it('refuses to add a job, and lets only an administrator change what every project shares', async () => {
    const insert = await runWrite(designerB, "insert into job (name, handler, cron_expression, business_type, status) values ('every second', 'auth.purgeExpired', '* * * * * ?', 'x', 'active')");
    expect(insert.statusCode, insert.body).toBe(403);
    expect(json<{ code: string }>(insert).code).toBe('SQL_NOT_PERMITTED');
    expect(await t.database.db.selectFrom('job').select('id').where('name', '=', 'every second').execute()).toEqual([]);
    expect((await t.database.db.selectFrom('inv_code').select('requires_approval').where('code', '=', 'DAMAGE').executeTakeFirstOrThrow()).requires_approval).toBe(true);

    expect(affected(await runWrite(adminB, "update inv_code set description = 'Damaged' where code = 'DAMAGE'"))).toBe(1);
  });

  it("leaves project A's location in the shared warehouse to administrators", async () => {
    const deactivate = "update location set status = 'inactive', updated_by = :userLogin where warehouse_id = :warehouseId";
    expect(affected(await runWrite(designerB, deactivate))).toBe(0);
    const location = await t.database.db.selectFrom('location').select('status').where('id', '=', ids.locationA).executeTakeFirstOrThrow();
    expect(location.status).toBe('active');
    // Nor may B add a location to the shared warehouse: the new row fails the policy's check.
    const insert = await runWrite(designerB, "insert into location (warehouse_id, code, created_by, updated_by) values (:warehouseId, 'B-NEW', 'b', 'b')");
    expect(insert.statusCode, insert.body).toBe(403);
    expect(json<{ code: string }>(insert).code).toBe('SQL_NOT_PERMITTED');

    // A warehouse B alone uses is B's to change; an administrator may change a shared one.
    expect(affected(await runWrite(designerBOwnWarehouse, "update location set status = 'hold' where warehouse_id = :warehouseId"))).toBe(1);
    expect(affected(await runWrite(adminB, "update location set status = 'hold' where id = " + String(ids.locationA)))).toBe(1);
    const held = await t.database.db.selectFrom('location').select(['id', 'status']).where('id', 'in', [ids.locationA, ids.locationB2]).orderBy('id').execute();
    expect(held.map((r) => r.status)).toEqual(['hold', 'hold']);
  });

  it("keeps organization-wide settings to administrators and never lets a row move into another project", async () => {
    expect(affected(await runWrite(designerB, "update sys_param set param_value = 'B' where param_code = 'SCOPE_TEST'"))).toBe(0);
    expect((await t.database.db.selectFrom('sys_param').select('param_value').where('param_code', '=', 'SCOPE_TEST').executeTakeFirstOrThrow()).param_value).toBe('A');

    const owner = await t.database.db.insertInto('owner').values({ project_id: ids.prj2, code: 'OWN-B', name: 'B', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
    await sql`insert into sku (project_id, owner_id, code, description, created_by, updated_by) values (${ids.prj2}, ${owner.id}, 'B-1', 'x', 'test', 'test')`.execute(t.database.db);
    for (const text of [
      `update sku set project_id = ${ids.prj1} where code = 'B-1'`,
      `insert into sku (project_id, owner_id, code, description) values (${ids.prj1}, ${owner.id}, 'B-INTO-A', 'x')`,
    ]) {
      const run = await runWrite(designerB, text);
      expect(run.statusCode, run.body).toBe(403);
      expect(json<{ code: string }>(run).code).toBe('SQL_NOT_PERMITTED');
    }
    const skus = await t.database.db.selectFrom('sku').select(['code', 'project_id']).where('code', 'like', 'B-%').execute();
    expect(skus).toEqual([{ code: 'B-1', project_id: ids.prj2 }]);
  });

  it("shows B neither A's support messages and log nor A's documents through a view", async () => {
    for (const text of ['select body from support_message', 'select action from support_log', 'select doc_no from inventory_document_summary']) {
      const asB = await testRun(designerB, text);
      expect(asB, text).toMatchObject({ ok: true, rows: [] });
      const asA = await testRun(designerA, text);
      expect(asA.ok, text).toBe(true);
      expect(asA.rows.length, text).toBe(1);
    }
  });

  it('lists every table the configurator roles reach: each has row security, or is a reviewed global read-only table', async () => {
    const { rows } = await sql<{ name: string; kind: string; rls: boolean; invoker: boolean; readable: boolean; writes: string[]; commands: string[]; unchecked: string[] }>`
      select c.relname as name, c.relkind::text as kind, c.relrowsecurity as rls,
        coalesce('security_invoker=true' = any(c.reloptions) or 'security_invoker=on' = any(c.reloptions), false) as invoker,
        has_table_privilege(${CONFIGURATOR_READ_ROLE}, c.oid, 'SELECT') or has_any_column_privilege(${CONFIGURATOR_READ_ROLE}, c.oid, 'SELECT') as readable,
        array(select p from unnest(array['INSERT', 'UPDATE', 'DELETE']) p
              where has_table_privilege(${CONFIGURATOR_WRITE_ROLE}, c.oid, p) or has_table_privilege(${CONFIGURATOR_READ_ROLE}, c.oid, p)) as writes,
        array(select distinct pol.cmd from pg_policies pol where pol.schemaname = n.nspname and pol.tablename = c.relname) as commands,
        array(select pol.cmd from pg_policies pol where pol.schemaname = n.nspname and pol.tablename = c.relname
              and pol.cmd in ('INSERT', 'UPDATE', 'ALL') and pol.with_check is null) as unchecked
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm', 'f')
        and (has_any_column_privilege(${CONFIGURATOR_READ_ROLE}, c.oid, 'SELECT') or has_any_column_privilege(${CONFIGURATOR_WRITE_ROLE}, c.oid, 'SELECT')
             or has_any_column_privilege(${CONFIGURATOR_WRITE_ROLE}, c.oid, 'INSERT') or has_any_column_privilege(${CONFIGURATOR_WRITE_ROLE}, c.oid, 'UPDATE')
             or has_table_privilege(${CONFIGURATOR_WRITE_ROLE}, c.oid, 'DELETE'))
      order by c.relname
    `.execute(t.database.db);
    expect(rows.length).toBeGreaterThan(40);
    const problems: string[] = [];
    for (const row of rows) {
      if (!row.readable) problems.push(`${row.name}: the read role cannot read what the write role reaches`);
      if (row.kind === 'v') {
        if (!row.invoker) problems.push(`${row.name}: a view that reads as its owner, past the row policies`);
        if (row.writes.length) problems.push(`${row.name}: a writable view`);
        continue;
      }
      if (row.kind !== 'r' && row.kind !== 'p') {
        problems.push(`${row.name}: relation kind ${row.kind}`);
        continue;
      }
      if (GLOBAL_READ_ONLY.includes(row.name)) {
        if (row.writes.length) problems.push(`${row.name}: global table writable (${row.writes.join(', ')})`);
        continue;
      }
      if (!row.rls || !(row.commands.includes('SELECT') || row.commands.includes('ALL'))) problems.push(`${row.name}: no row security`);
      for (const command of row.writes) {
        if (!row.commands.includes(command) && !row.commands.includes('ALL')) problems.push(`${row.name}: ${command} without a policy`);
      }
      if (row.writes.length && row.unchecked.length) problems.push(`${row.name}: a write policy without WITH CHECK`);
    }
    expect(problems).toEqual([]);
    // The reviewed list holds no table the roles no longer reach.
    expect(GLOBAL_READ_ONLY.filter((name) => !rows.some((row) => row.name === name))).toEqual([]);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import type { AreaModule } from '../../src/server/modules/area.js';
import { MODULES } from '../../src/server/modules/index.js';
import { ADMIN, buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';
import { syncAsAtStart } from '../helpers/template.js';

/**
 * The e-mail and SMS outbox is an area of its own, `outbox` (src/server/modules/README.md). A
 * database made while the outbox was part of the notification area gets it at its next start like
 * any new area: recorded as installed, giving no role a right and adding no menu entry, while its
 * job handler keeps its name `notify.sendOutboxEmail` (the jobs that name it keep working) and is
 * listed under the area that now brings it. A new database has it from the first start.
 */
const SEND_AGAIN = 'notify.sendOutboxEmail';
const apps: TestApp[] = [];

afterAll(async () => {
  for (const t of apps) await t.close();
});

/** The module list as it was: no outbox area, its job brought by the notification area. */
function modulesBeforeTheOutboxArea(): AreaModule[] {
  const outbox = MODULES.find((module) => module.name === 'outbox');
  expect(outbox?.jobs?.map((job) => job.name)).toEqual([SEND_AGAIN]);
  return MODULES.filter((module) => module !== outbox).map((module) =>
    module.name === 'notification' ? { ...module, jobs: [...(module.jobs ?? []), ...outbox!.jobs!] } : module,
  );
}

async function grantsAndMenu(t: Pick<TestApp, 'database'>) {
  const db = t.database.db;
  return {
    pageRights: await db.selectFrom('role_permission').select(['role_id', 'module_code', 'sub_module_code', 'can_view', 'can_add', 'can_edit', 'can_delete']).orderBy('id').execute(),
    verbs: await db.selectFrom('role_verb').select(['role_id', 'right_code']).orderBy('id').execute(),
    menu: (await db.selectFrom('sys_module').select('code').orderBy('code').execute()).map((row) => row.code),
  };
}

async function installed(t: Pick<TestApp, 'database'>): Promise<string[]> {
  return (await t.database.db.selectFrom('area_installation').select('area').orderBy('area').execute()).map((row) => row.area);
}

async function handlers(t: TestApp): Promise<{ name: string; area: string; available: boolean }[]> {
  const response = await injectAs(t.app, await signIn(t.app), { method: 'GET', url: '/api/job/handlers' });
  expect(response.statusCode, response.body).toBe(200);
  return json<{ items: { name: string; area: string; available: boolean }[] }>(response).items.map(({ name, area, available }) => ({ name, area, available }));
}

describe('the outbox area', () => {
  it('is installed on a database made before it, with no grant, no menu entry and its job handler under its own name', async () => {
    // A first start with the module list as it was.
    const database = await createTestDatabase();
    const before = modulesBeforeTheOutboxArea();
    await syncAsAtStart(database.db, before, ADMIN.password);
    const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_PASSWORD: ADMIN.password, DEMO_DATA: 'false', JOB_SCHEDULER: 'false' });
    const earlier = await buildApp({ config, database, logger: false, modules: before });
    await earlier.ready();
    await earlier.close();
    const old = { database };
    const areasBefore = await installed(old);
    expect(areasBefore).not.toContain('outbox');
    expect(areasBefore).toContain('notification');
    expect(await database.db.selectFrom('job_handler').select(['area', 'available']).where('name', '=', SEND_AGAIN).executeTakeFirst()).toEqual({ area: 'notification', available: true });
    const grantsBefore = await grantsAndMenu(old);
    const handlersBefore = (await database.db.selectFrom('job_handler').select('name').orderBy('name').execute()).map((row) => row.name);

    // The next start, with the outbox an area of its own.
    const t = await buildTestApp({}, { database });
    apps.push(t);
    expect(await installed(t)).toEqual([...areasBefore, 'outbox'].sort());
    expect(await grantsAndMenu(t)).toEqual(grantsBefore);
    const now = await handlers(t);
    expect(now.map((handler) => handler.name)).toEqual(handlersBefore);
    expect(now.find((handler) => handler.name === SEND_AGAIN)).toEqual({ name: SEND_AGAIN, area: 'outbox', available: true });
  });

  it('is installed on a new database from its first start', async () => {
    const t = await buildTestApp();
    apps.push(t);
    expect(await installed(t)).toEqual([...MODULES.map((module) => module.name)].sort());
    expect((await handlers(t)).find((handler) => handler.name === SEND_AGAIN)).toEqual({ name: SEND_AGAIN, area: 'outbox', available: true });
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/** /user through the engine with the user.account writer. */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});

const call = (url: string, payload: Record<string, unknown>) => injectAs(t.app, admin, { method: 'POST', url, payload });
const login = (password: string) => t.app.inject({ method: 'POST', url: '/api/user/login', payload: { loginAccount: 'night.picker', password } });

it('creates a user with a policy password, edits it and disables it; the writer refuses a weak password', async () => {
  const weak = await call('/api/generic/adding', { moduleCode: 'identity', functionCode: 'user', record: { login_account: 'night.picker', display_name: 'Night picker', password: 'short' } });
  expect(weak.statusCode).toBe(400);
  expect(json(weak)).toMatchObject({ code: 'PASSWORD_POLICY', details: expect.arrayContaining([expect.objectContaining({ field: 'password', code: 'PASSWORD_TOO_SHORT' })]) });
  expect((await login('short')).statusCode).toBe(401);
  const missing = await call('/api/generic/adding', { moduleCode: 'identity', functionCode: 'user', record: { login_account: 'night.picker', display_name: 'Night picker' } });
  expect(json(missing)).toMatchObject({ details: [{ field: 'password', code: 'FIELD_REQUIRED' }] });

  const added = await call('/api/generic/adding', { moduleCode: 'identity', functionCode: 'user', record: { login_account: 'night.picker', display_name: 'Night picker', password: 'Pick3r!Night2026' } });
  expect(added.statusCode, added.body).toBe(200);
  const row = json<{ row: { _key: number; _version: string; password: unknown } }>(added).row;
  expect(row.password).toBeNull();
  const stored = await t.database.db.selectFrom('app_user').select(['password_hash']).where('id', '=', row._key).executeTakeFirstOrThrow();
  expect(stored.password_hash).toMatch(/^\$argon2id\$/);
  expect((await login('Pick3r!Night2026')).statusCode).toBe(200);

  const edited = await call('/api/generic/updating', { moduleCode: 'identity', functionCode: 'user', key: row._key, version: row._version, record: { display_name: 'Night shift picker' } });
  expect(edited.statusCode, edited.body).toBe(200);
  const version = json<{ row: { _version: string; display_name: string } }>(edited).row;
  expect(version.display_name).toBe('Night shift picker');

  const disabled = await call('/api/generic/updating', { moduleCode: 'identity', functionCode: 'user', key: row._key, version: version._version, record: { enabled: false } });
  expect(disabled.statusCode, disabled.body).toBe(200);
  expect((await login('Pick3r!Night2026')).statusCode).not.toBe(200);

  const deleted = await call('/api/generic/deletion', { moduleCode: 'identity', functionCode: 'user', rows: [{ key: row._key, version: json<{ row: { _version: string } }>(disabled).row._version }] });
  expect(deleted.statusCode).toBe(409);
});

it("a project's user administrator adds a user who then belongs to that project", async () => {
  const editor = await createUser(t, { loginAccount: 'prj-admin', rights: ['identity.user:view', 'identity.user:add', 'identity.user:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  const added = await injectAs(t.app, editor, {
    method: 'POST',
    url: '/api/generic/adding',
    payload: { moduleCode: 'identity', functionCode: 'user', record: { login_account: 'day.packer', display_name: 'Day packer', password: 'Pack3r!Day2026' } },
  });
  expect(added.statusCode, added.body).toBe(200);
  const uid = json<{ row: { _key: number } }>(added).row._key;
  const projects = await t.database.db.selectFrom('user_project as up').innerJoin('project as p', 'p.id', 'up.project_id').select('p.code').where('up.user_id', '=', uid).execute();
  expect(projects.map((p) => p.code)).toEqual(['PRJ1']);
  const asAdmin = await injectAs(t.app, editor, {
    method: 'POST',
    url: '/api/generic/adding',
    payload: { moduleCode: 'identity', functionCode: 'user', record: { login_account: 'sneaky', display_name: 'Sneaky', password: 'Pack3r!Day2026', is_admin: true } },
  });
  expect(asAdmin.statusCode).toBe(403);
});

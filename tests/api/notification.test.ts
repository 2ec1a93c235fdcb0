import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/server/db/transaction.js';
import { raiseNotification } from '../../src/server/modules/notification/notification.service.js';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { openEventStream } from '../helpers/sse.js';

/** A push crosses the server (and, between nodes, the database): waits up to 10 s on a loaded machine. */
const WAIT = { timeout: 10_000 };

interface Item {
  id: number;
  category: string;
  title: string;
  body: string | null;
  link: string | null;
  read: boolean;
  createdAt: string;
}

/** Notifications ("notification display"): per user, read/unread, pushed live. */
describe('notification API', () => {
  let t: TestApp;
  let admin: string;
  let alice: { uid: number; token: string };
  let bob: { uid: number; token: string };
  let editor: { uid: number; token: string };
  let baseUrl: string;

  const latest = async (token: string, headers: Record<string, string> = {}) =>
    json<{ unread: number; items: Item[] }>(await injectAs(t.app, token, { method: 'GET', url: '/api/notification/latest', headers }));
  const send = (payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: '/api/notification/send', payload });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signIn(t.app);
    alice = await createUserAccount(t, { loginAccount: 'alice', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    bob = await createUserAccount(t, { loginAccount: 'bob', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    editor = await createUserAccount(t, { loginAccount: 'sku-editor', rights: ['sku:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  it.each([
    ['GET', '/api/notification/latest'],
    ['GET', '/api/notification/list'],
    ['POST', '/api/notification/read'],
    ['POST', '/api/notification/readAll'],
    ['POST', '/api/notification/send'],
    ['GET', '/api/notification/stream'],
  ] as const)('%s %s answers 401 without a session', async (method, url) => {
    const response = await t.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
    expect(response.statusCode).toBe(401);
  });

  it('delivers a message to the users named and to no one else', async () => {
    const response = await send({ userIds: [alice.uid], title: 'Stock take at five', body: 'Bring a scanner', link: 'home' });
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toEqual({ recipients: 1 });
    const mine = await latest(alice.token);
    expect(mine.unread).toBe(1);
    expect(mine.items).toMatchObject([{ category: 'message', title: 'Stock take at five', body: 'Bring a scanner', link: 'home', read: false }]);
    expect((await latest(bob.token)).items).toEqual([]);
  });

  it('lets only an administrator send, and refuses unknown users and bad links', async () => {
    expect((await send({ userIds: [bob.uid], title: 'x' }, alice.token)).statusCode).toBe(403);
    expect(json<{ code: string }>(await send({ userIds: [999_999], title: 'x' })).code).toBe('NO_RECORD');
    expect((await send({ userIds: [bob.uid], title: 'x', link: 'https://evil.example' })).statusCode).toBe(400);
    expect((await send({ title: 'nobody' })).statusCode).toBe(400);
    expect((await latest(bob.token)).items).toEqual([]);
  });

  it('renders a notification raised with a locale key in the reader’s language', async () => {
    await inTransaction(t.database.db, (trx) =>
      raiseNotification(trx, t.app.events, {
        userIds: [bob.uid],
        category: 'job',
        title: { key: 'notification.message.jobFailed' },
        body: { key: 'notification.message.jobFailedBody' },
        params: { job: 'nightly', error: 'disk full' },
        link: 'job',
      }),
    );
    const english = await latest(bob.token);
    expect(english.items[0]).toMatchObject({ category: 'job', title: 'Job nightly failed', body: 'The run of nightly ended with an error: disk full', link: 'job' });
    const japanese = await latest(bob.token, { 'x-language': 'jp' });
    expect(japanese.items[0].title).toBe('ジョブ nightly が失敗しました');
  });

  it('notifies every holder of a right in the project, administrators included', async () => {
    const project = await t.database.db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    const before = (await latest(bob.token)).items.length;
    const raised = await inTransaction(t.database.db, (trx) =>
      raiseNotification(trx, t.app.events, { right: { right: 'sku:edit', projectId: project.id }, category: 'approval', title: { text: 'SKU changes await approval' } }),
    );
    const adminUid = (await t.database.db.selectFrom('app_user').select('id').where('login_account', '=', 'admin').executeTakeFirstOrThrow()).id;
    expect(raised.userIds.sort()).toEqual([adminUid, editor.uid].sort());
    expect((await latest(editor.token)).items.map((i) => i.title)).toEqual(['SKU changes await approval']);
    expect((await latest(bob.token)).items.length).toBe(before);
  });

  it('leaves out disabled users when an area raises, instead of failing its work', async () => {
    const gone = await createUserAccount(t, { loginAccount: 'gone', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    await t.database.db.updateTable('app_user').set({ enabled: false }).where('id', '=', gone.uid).execute();
    const raised = await inTransaction(t.database.db, (trx) =>
      raiseNotification(trx, t.app.events, { userIds: [gone.uid, bob.uid], category: 'system', title: { text: 'Housekeeping tonight' } }),
    );
    expect(raised.userIds).toEqual([bob.uid]);
    const stored = await t.database.db.selectFrom('notification').select('user_id').where('title_text', '=', 'Housekeeping tonight').execute();
    expect(stored.map((r) => Number(r.user_id))).toEqual([bob.uid]);
  });

  it('stores nothing when the raising transaction rolls back', async () => {
    const before = (await latest(alice.token)).items.length;
    await expect(
      inTransaction(t.database.db, async (trx) => {
        await raiseNotification(trx, t.app.events, { userIds: [alice.uid], category: 'system', title: { text: 'never' } });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await latest(alice.token)).items.length).toBe(before);
  });

  it('marks one read, refuses another user’s notification, and marks all read', async () => {
    await send({ userIds: [alice.uid, bob.uid], title: 'Two of you' });
    const aliceItems = (await latest(alice.token)).items;
    const bobItem = (await latest(bob.token)).items.find((i) => i.title === 'Two of you')!;
    const unreadBefore = (await latest(alice.token)).unread;
    expect(unreadBefore).toBe(2);

    const foreign = await injectAs(t.app, alice.token, { method: 'POST', url: '/api/notification/read', payload: { id: bobItem.id } });
    expect(foreign.statusCode).toBe(404);
    expect(json<{ code: string }>(foreign).code).toBe('NO_RECORD');
    expect((await latest(bob.token)).items.find((i) => i.id === bobItem.id)!.read).toBe(false);

    const read = await injectAs(t.app, alice.token, { method: 'POST', url: '/api/notification/read', payload: { id: aliceItems[0].id } });
    expect(read.statusCode, read.body).toBe(200);
    expect(json(read)).toEqual({ unread: 1 });
    const after = await latest(alice.token);
    expect(after.items.find((i) => i.id === aliceItems[0].id)!.read).toBe(true);

    const all = await injectAs(t.app, alice.token, { method: 'POST', url: '/api/notification/readAll' });
    expect(json(all)).toEqual({ marked: 1, unread: 0 });
    expect((await latest(alice.token)).items.every((i) => i.read)).toBe(true);
    // Bob's stay unread.
    expect((await latest(bob.token)).unread).toBeGreaterThan(0);
  });

  it('pages the list newest first and filters the unread ones', async () => {
    const carol = await createUserAccount(t, { loginAccount: 'carol', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    for (let i = 1; i <= 25; i += 1) await send({ userIds: [carol.uid], title: `Message ${i}` });
    const injectAsSync = (token: string, url: string) => injectAs(t.app, token, { method: 'GET', url });
    const one = json<{ total: number; unread: number; items: Item[] }>(await injectAsSync(carol.token, '/api/notification/list?page=1&pageSize=20'));
    const two = json<{ total: number; unread: number; items: Item[] }>(await injectAsSync(carol.token, '/api/notification/list?page=2&pageSize=20'));
    expect([one.total, one.unread, one.items.length, two.items.length]).toEqual([25, 25, 20, 5]);
    expect(one.items[0].title).toBe('Message 25');
    expect(two.items.at(-1)!.title).toBe('Message 1');
    await injectAs(t.app, carol.token, { method: 'POST', url: '/api/notification/read', payload: { id: one.items[0].id } });
    const unread = json<{ total: number; items: Item[] }>(await injectAsSync(carol.token, '/api/notification/list?unreadOnly=true&pageSize=100'));
    expect(unread.total).toBe(24);
    expect(unread.items.some((i) => i.title === 'Message 25')).toBe(false);
    const bell = json<{ items: Item[] }>(await injectAsSync(carol.token, '/api/notification/latest?limit=5'));
    expect(bell.items.map((i) => i.title)).toEqual(['Message 25', 'Message 24', 'Message 23', 'Message 22', 'Message 21']);
  });

  it('pushes to the user’s open stream after the commit, and only the user’s', async () => {
    const aliceStream = await openEventStream(`${baseUrl}/api/notification/stream`, { authorization: `Bearer ${alice.token}` });
    const bobStream = await openEventStream(`${baseUrl}/api/notification/stream`, { authorization: `Bearer ${bob.token}` });
    try {
      expect(aliceStream.status).toBe(200);
      await expect.poll(() => aliceStream.events.map((e) => e.event), WAIT).toEqual(['ready']);
      await expect.poll(() => bobStream.events.map((e) => e.event), WAIT).toEqual(['ready']);
      await send({ userIds: [alice.uid], title: 'Live' });
      await expect.poll(() => aliceStream.events.map((e) => e.event), WAIT).toEqual(['ready', 'notification']);
      expect(JSON.parse(aliceStream.events[1].data)).toEqual({ kind: 'raised' });
      await injectAs(t.app, alice.token, { method: 'POST', url: '/api/notification/readAll' });
      await expect.poll(() => aliceStream.events.map((e) => e.data), WAIT).toContain('{"kind":"read"}');
      expect(bobStream.events.map((e) => e.event)).toEqual(['ready']);
    } finally {
      aliceStream.close();
      bobStream.close();
    }
  });

  it('never opens a stream on the cookie alone', async () => {
    const stream = await openEventStream(`${baseUrl}/api/notification/stream`, { cookie: `token=${alice.token}` });
    expect(stream.status).toBe(401);
  });
});

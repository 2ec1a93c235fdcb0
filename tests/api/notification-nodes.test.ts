import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { connectPostgres, type Database } from '../../src/server/db/database.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import { ADMIN, injectAs, json, signIn } from '../helpers/app.js';
import { createTestDatabase, onRealServer, type TestDatabase } from '../helpers/database.js';
import { openEventStream } from '../helpers/sse.js';
import { MODULES } from '../../src/server/modules/index.js';

/** A push crosses the server (and, between nodes, the database): waits up to 10 s on a loaded machine. */
const WAIT = { timeout: 10_000 };

/**
 * Two app nodes on one PostgreSQL database: a notification raised on node A
 * reaches a browser stream connected to node B, through the domain event's LISTEN/NOTIFY. Needs
 * two real server sessions, so it runs only with TEST_DATABASE_URL; the one-process path is
 * covered by notification.test.ts.
 */
describe.skipIf(!onRealServer)('notifications reach a stream on another app node (real server only)', () => {
  let database: TestDatabase;
  const nodes: Array<{ app: FastifyInstance; database: Database; url: string }> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_PASSWORD: ADMIN.password, DEMO_DATA: 'false', DATABASE_URL: database.url! });
    await seedFirstStart(database.db, config.adminPassword, MODULES);
    for (let i = 0; i < 2; i += 1) {
      const node = await connectPostgres(database.url!, 3);
      const app = await buildApp({ config, database: node, logger: false, modules: MODULES });
      await app.listen({ port: 0, host: '127.0.0.1' });
      nodes.push({ app, database: node, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` });
    }
  });

  afterAll(async () => {
    for (const node of nodes) {
      await node.app.close();
      await node.database.close();
    }
    await database?.close();
  });

  it('raises on node A and pushes on node B, where the bell then shows it', async () => {
    const [a, b] = nodes;
    const token = await signIn(a.app);
    const adminUid = (await database.db.selectFrom('app_user').select('id').where('login_account', '=', 'admin').executeTakeFirstOrThrow()).id;
    const stream = await openEventStream(`${b.url}/api/notification/stream`, { authorization: `Bearer ${token}` });
    try {
      expect(stream.status).toBe(200);
      await expect.poll(() => stream.events.map((e) => e.event), WAIT).toEqual(['ready']);
      const sent = await injectAs(a.app, token, { method: 'POST', url: '/api/notification/send', payload: { userIds: [adminUid], title: 'From node A' } });
      expect(sent.statusCode, sent.body).toBe(200);
      await expect.poll(() => stream.events.map((e) => e.event), WAIT).toEqual(['ready', 'notification']);
      const bell = json<{ unread: number; items: Array<{ title: string }> }>(await injectAs(b.app, token, { method: 'GET', url: '/api/notification/latest' }));
      expect(bell.unread).toBe(1);
      expect(bell.items[0].title).toBe('From node A');
    } finally {
      stream.close();
    }
  });
});

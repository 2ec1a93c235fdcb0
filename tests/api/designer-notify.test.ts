import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { connectPostgres, type Database } from '../../src/server/db/database.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import type { DefinitionChange } from '../../src/server/events/events.js';
import { ADMIN, injectAs, signIn } from '../helpers/app.js';
import { createTestDatabase, onRealServer, type TestDatabase } from '../helpers/database.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * Two app nodes on one PostgreSQL database: a publish on one node must reach
 * the other node's resolved-definition cache through LISTEN/NOTIFY. Needs two real sessions, so it
 * runs only on the real server (TEST_DATABASE_URL); on PGlite there is one process and the
 * in-process invalidation is covered by designer.test.ts.
 */
describe.skipIf(!onRealServer)('designer: definition changes reach every app node (real server only)', () => {
  let database: TestDatabase;
  const nodes: Array<{ app: FastifyInstance; database: Database }> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_PASSWORD: ADMIN.password, DEMO_DATA: 'false', DATABASE_URL: database.url! });
    await seedFirstStart(database.db, config.adminPassword, MODULES);
    for (let i = 0; i < 2; i += 1) {
      const node = await connectPostgres(database.url!, 3);
      const app = await buildApp({ config, database: node, logger: false, modules: MODULES });
      await app.ready();
      nodes.push({ app, database: node });
    }
  });

  afterAll(async () => {
    for (const node of nodes) {
      await node.app.close();
      await node.database.close();
    }
    await database?.close();
  });

  it('invalidates the other node on publish and on a manual clear, and only after commit', async () => {
    const [a, b] = nodes;
    const heard: DefinitionChange[] = [];
    b.app.events.on('definition.changed', (change) => { heard.push(change); });
    const token = await signIn(a.app, ADMIN.loginAccount, ADMIN.password);
    const content = {
      schemaVersion: 2,
      moduleCode: 'notify',
      functionCode: 'owners',
      titleCode: 'OWNERS',
      status: 'draft',
      table: { name: 'owner' },
      scope: 'project',
      fields: [{ name: 'code', labelCode: 'CODE', type: 'string' }],
    };
    const saved = await injectAs(a.app, token, { method: 'PUT', url: '/api/generic/draft', payload: { moduleCode: 'notify', functionCode: 'owners', content } });
    expect(saved.statusCode, saved.body).toBe(200);
    // A refused publish (a second publish of the same version) rolls back: no notification.
    const published = await injectAs(a.app, token, { method: 'POST', url: '/api/generic/publish', payload: { moduleCode: 'notify', functionCode: 'owners' } });
    expect(published.statusCode, published.body).toBe(200);
    const refused = await injectAs(a.app, token, { method: 'POST', url: '/api/generic/publish', payload: { moduleCode: 'notify', functionCode: 'owners', version: 1 } });
    expect(refused.statusCode).toBe(409);
    await expect.poll(() => heard.length, { timeout: 5000 }).toBe(1);
    expect(heard[0]).toMatchObject({ moduleCode: 'notify', functionCode: 'owners' });

    await injectAs(a.app, token, { method: 'POST', url: '/api/generic/redis/clear', payload: {} });
    await expect.poll(() => heard.length, { timeout: 5000 }).toBe(2);
    expect(heard[1]).toEqual({ projectId: null, all: true });
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { onRealServer } from '../helpers/database.js';
import { spawnServer, tempDataDir, type ServerProcess } from '../helpers/server-process.js';

// These start the real server as a process on the embedded database, as a user would with
// `npm start`. They do not use the database under test, so the PostgreSQL run would only repeat
// them: they run in the embedded run.
// Each test starts real server processes, whose first start takes most of a minute on a loaded machine.
describe.skipIf(onRealServer)('server process', { timeout: 240_000 }, () => {
  const started: ServerProcess[] = [];
  const start = (env: Record<string, string | undefined>) => {
    const server = spawnServer(env);
    started.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.stop('SIGKILL')));
  });

  it('refuses a second server on the same DATA_DIR and leaves the first serving', async () => {
    const dataDir = tempDataDir();
    const first = start({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'Adm1n!Passw0rd' });
    const url = await first.ready;
    // The second process ends on its own with the reason (a hang would end in the test's timeout).
    const second = start({ DATA_DIR: dataDir });
    const code = await second.exited;
    expect(code).not.toBe(0);
    expect(second.output()).toMatch(/data directory .* is in use by another server/);
    const health = await fetch(`${url}api/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { database: { kind: string } }).database.kind).toBe('pglite');
  });

  it('starts again after being killed with SIGKILL during its first start', async () => {
    const dataDir = tempDataDir();
    const first = start({ DATA_DIR: dataDir });
    // Kill as soon as the cluster is being created, long before it serves.
    await waitFor(() => fs.existsSync(path.join(dataDir, 'pgdata.creating')) || fs.existsSync(path.join(dataDir, 'pgdata')));
    await first.stop('SIGKILL');
    const again = start({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'Adm1n!Passw0rd' });
    const url = await again.ready;
    expect((await fetch(`${url}api/health`)).status).toBe(200);
    // The seed ran exactly once: a login for admin exists.
    expect(again.output()).toMatch(/first start|serving at/);
  });

  it('prints the generated admin password once, on the first start only, and releases the lock on SIGTERM', async () => {
    const dataDir = tempDataDir();
    const first = start({ DATA_DIR: dataDir });
    await first.ready;
    expect(first.output()).toMatch(/^First start: sign in as "admin" with the password \S{20} \(shown only this once\)$/m);
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
    const second = start({ DATA_DIR: dataDir });
    await second.ready;
    expect(second.output()).not.toMatch(/shown only this once/);
  }, 180_000);

  it('prints one URL line and one password line, then one log line per API request and none for other files', async () => {
    const server = start({ DATA_DIR: tempDataDir() });
    const url = await server.ready;
    try {
      for (let i = 0; i < 20; i++) await fetch(`${url}assets/file-${i}.js`);
      for (let i = 0; i < 5; i++) await fetch(`${url}api/health`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const lines = server.output().split('\n');
      expect(lines.filter((l) => l.includes('WMS is serving at'))).toHaveLength(1);
      expect(lines.filter((l) => l.includes('with the password'))).toHaveLength(1);
      expect(lines.filter((l) => l.includes('"msg":"request"'))).toHaveLength(5);
      expect(lines.filter((l) => l.includes('/assets/file-'))).toHaveLength(0);
      expect(server.output()).not.toMatch(/Deprecation|Warning:/);
    } finally {
      await server.stop('SIGTERM');
    }
  });

  it.each([
    ['a wrong DATABASE_URL', { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, /^Cannot start: cannot connect to DATABASE_URL/m],
    ['an invalid PORT', { PORT: 'eighty' }, /^Configuration error: PORT: /m],
    ['an invalid DATABASE_URL', { DATABASE_URL: 'mysql://x' }, /^Configuration error: DATABASE_URL: /m],
  ])('exits non-zero with one clear line on %s', async (_name, env, message) => {
    const server = start({ DATA_DIR: tempDataDir(), ...env });
    const code = await server.exited;
    expect(code).not.toBe(0);
    expect(server.output()).toMatch(message);
    expect(server.output()).not.toMatch(/^\s+at /m);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

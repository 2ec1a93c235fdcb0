import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { onRealServer } from '../helpers/database.js';
import { buildServerBundle, removeServerBundle } from '../helpers/server-bundle.js';
import { spawnServer, tempDataDir, type ServerProcess } from '../helpers/server-process.js';

// These start the real server as a process on the embedded database in a real data directory, as a
// user would. They do not use the database under test, so the PostgreSQL run would only repeat
// them: they run in the embedded run.
// One start goes through `node --import tsx src/server/main.ts`, the README's start: the first start
// in the test of what a first start prints. Every other start runs this file's bundle of the server
// (tests/helpers/server-bundle.ts, made once before the tests), which loads plain JavaScript instead
// of transpiling the whole source through tsx again on each start.
// A first start on the embedded database takes most of a minute on a loaded machine.
describe.skipIf(onRealServer)('server process', { timeout: 240_000 }, () => {
  let bundle: string | undefined;
  beforeAll(async () => {
    bundle = await buildServerBundle();
  });
  afterAll(() => {
    if (bundle) removeServerBundle(bundle);
  });

  const started: ServerProcess[] = [];
  const start = (env: Record<string, string | undefined>, from: 'bundle' | 'source' = 'bundle') => {
    const server = spawnServer(env, { bundle: from === 'source' ? null : bundle });
    started.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.stop('SIGKILL')));
  });

  /**
   * A data directory whose server made its first start and then stopped cleanly, left by the first
   * test for a later test that needs a server which has served before but no first start of its own.
   */
  let servedDataDir: string | undefined;

  it('prints one URL line and the generated admin password once, on the first start only, one log line per API request and none for other files, and releases the lock on SIGTERM', async () => {
    const dataDir = tempDataDir();
    const first = start({ DATA_DIR: dataDir }, 'source');
    const url = await first.ready;
    for (let i = 0; i < 20; i++) await fetch(`${url}assets/file-${i}.js`);
    for (let i = 0; i < 5; i++) await fetch(`${url}api/health`);
    // Counted once the process has ended, when everything it logged is in its output.
    expect(await first.stop('SIGTERM')).toBe(0);
    const output = first.output();
    const lines = output.split('\n');
    expect(lines.filter((l) => l.includes('WMS is serving at'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('with the password'))).toHaveLength(1);
    expect(output).toMatch(/^First start: sign in as "admin" with the password \S{20} \(shown only this once\)$/m);
    expect(lines.filter((l) => l.includes('"msg":"request"'))).toHaveLength(5);
    expect(lines.filter((l) => l.includes('/assets/file-'))).toHaveLength(0);
    expect(output).not.toMatch(/Deprecation|Warning:/);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

    const second = start({ DATA_DIR: dataDir });
    await second.ready;
    expect(second.output()).not.toMatch(/shown only this once/);
    expect(await second.stop('SIGTERM')).toBe(0);
    servedDataDir = dataDir;
  });

  it('refuses a second server on the same DATA_DIR and leaves the first serving', async () => {
    // The first server needs a data directory that serves, not a first start of its own: it reuses
    // the one the test above left, and makes a first start only when that test did not run or failed.
    const dataDir = servedDataDir ?? tempDataDir();
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
    await waitFor(first, () => fs.existsSync(path.join(dataDir, 'pgdata.creating')) || fs.existsSync(path.join(dataDir, 'pgdata')));
    await first.stop('SIGKILL');
    const again = start({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'Adm1n!Passw0rd' });
    const url = await again.ready;
    expect((await fetch(`${url}api/health`)).status).toBe(200);
    // The seed ran exactly once: a login for admin exists.
    expect(again.output()).toMatch(/first start|serving at/);
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

/** Waits until `condition` holds; fails at once if the server ends first (a hang ends in the test's timeout). */
async function waitFor(server: ServerProcess, condition: () => boolean): Promise<void> {
  let ended = false;
  void server.exited.then(() => (ended = true));
  while (!condition()) {
    if (ended) throw new Error(`the server ended before the condition was met:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

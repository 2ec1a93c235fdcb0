import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer } from './server-process.js';
import { TEST_ADMIN_PASSWORD as ADMIN_PASSWORD } from './accounts.js';

/**
 * The browser tests' servers start on a copy of a data directory that one real first start made
 * earlier in the run (with or without the demo data), instead of creating, migrating, syncing,
 * seeding and loading demo data again for every test file. The next start on the copy is an
 * ordinary restart: nothing is left to migrate, sync, seed or load.
 */
export interface E2eTemplates {
  /** The day the templates were made: a copy made on another day would hold yesterday's demo dates. */
  day: string;
  dirs: { demo: string; plain: string };
}

/** The global set-up hands the templates to the test workers in this variable (JSON of `E2eTemplates`). */
export const E2E_TEMPLATE_ENV = 'WMS_E2E_TEMPLATE';

/** Starts the real server once per variant, side by side, and stops it when it serves. */
export async function makeE2eTemplates(): Promise<E2eTemplates> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-e2e-template-'));
  const dirs = { demo: path.join(root, 'demo'), plain: path.join(root, 'plain') };
  await Promise.all(
    (['demo', 'plain'] as const).map(async (variant) => {
      // No job scheduler: a job it ran would leave rows that a first start does not have.
      const server = spawnServer({ DATA_DIR: dirs[variant], ADMIN_PASSWORD, DEMO_DATA: String(variant === 'demo'), JOB_SCHEDULER: 'false' });
      await server.ready;
      const code = await server.stop('SIGTERM');
      if (code !== 0) throw new Error(`the template server (${variant}) stopped with ${code}:\n${server.output()}`);
    }),
  );
  return { day: today(), dirs };
}

export function removeE2eTemplates(templates: E2eTemplates): void {
  fs.rmSync(path.dirname(templates.dirs.demo), { recursive: true, force: true });
}

/**
 * Fills the empty `dataDir` with the template that a first start with `env` would have made, and
 * answers whether there was one: only for the embedded database, the tests' administrator
 * password and DEMO_DATA true or false (other settings change nothing that a start writes).
 */
export function copyE2eTemplate(env: Record<string, string | undefined>, dataDir: string): boolean {
  const raw = process.env[E2E_TEMPLATE_ENV];
  if (!raw || env.DATABASE_URL !== undefined || (env.ADMIN_PASSWORD ?? ADMIN_PASSWORD) !== ADMIN_PASSWORD) return false;
  const templates = JSON.parse(raw) as E2eTemplates;
  if (templates.day !== today()) return false;
  const demo = env.DEMO_DATA ?? 'false';
  if (demo !== 'true' && demo !== 'false') return false;
  fs.cpSync(templates.dirs[demo === 'true' ? 'demo' : 'plain'], dataDir, { recursive: true });
  return true;
}

function today(): string {
  return new Date().toDateString();
}

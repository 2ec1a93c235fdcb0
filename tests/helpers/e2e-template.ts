import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawnServer } from './server-process.js';
import { TEST_ADMIN_PASSWORD as ADMIN_PASSWORD } from './accounts.js';
import { withAdminClient } from './database.js';

/**
 * The browser tests' servers start on a copy of a data directory that one real first start made
 * earlier in the run (with or without the demo data), instead of creating, migrating, syncing,
 * seeding and loading demo data again for every test file. The next start on the copy is an
 * ordinary restart: nothing is left to migrate, sync, seed or load.
 *
 * With `E2E_DATABASE_URL` (the administrative database of a PostgreSQL server, as CI sets it) the
 * servers run on PostgreSQL instead: the first starts make two template databases, and each server
 * gets its own database copied from one of them (`CREATE DATABASE ... TEMPLATE`), dropped when it
 * stops. The embedded database keeps its own tests in the API suite (`npm test`).
 */
export interface E2eTemplates {
  /** The day the templates were made: a copy made on another day would hold yesterday's demo dates. */
  day: string;
  dirs: { demo: string; plain: string };
  /** On PostgreSQL: the administrative URL, the prefix of this run's databases and the two templates. */
  server?: { adminUrl: string; prefix: string; databases: { demo: string; plain: string } };
}

/** The administrative database URL that puts the browser tests' servers on PostgreSQL. */
export const E2E_DATABASE_ENV = 'E2E_DATABASE_URL';

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The global set-up hands the templates to the test workers in this variable (JSON of `E2eTemplates`). */
export const E2E_TEMPLATE_ENV = 'WMS_E2E_TEMPLATE';

/** Starts the real server once per variant, side by side, and stops it when it serves. */
export async function makeE2eTemplates(): Promise<E2eTemplates> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-e2e-template-'));
  const dirs = { demo: path.join(root, 'demo'), plain: path.join(root, 'plain') };
  const adminUrl = process.env[E2E_DATABASE_ENV];
  const prefix = `wms_e2e_${Date.now().toString(36)}_${crypto.randomBytes(3).toString('hex')}`;
  const server = adminUrl ? { adminUrl, prefix, databases: { demo: `${prefix}_tdemo`, plain: `${prefix}_tplain` } } : undefined;
  if (adminUrl) await dropStaleDatabases(adminUrl);
  await Promise.all(
    (['demo', 'plain'] as const).map(async (variant) => {
      const env: Record<string, string> = {};
      if (server) {
        await withAdminClient(server.adminUrl, (client) => client.query(`create database ${server.databases[variant]}`));
        env.DATABASE_URL = databaseUrl(server.adminUrl, server.databases[variant]);
      }
      // No job scheduler: a job it ran would leave rows that a first start does not have.
      const started = spawnServer({ DATA_DIR: dirs[variant], ADMIN_PASSWORD, DEMO_DATA: String(variant === 'demo'), JOB_SCHEDULER: 'false', ...env });
      await started.ready;
      const code = await started.stop('SIGTERM');
      if (code !== 0) throw new Error(`the template server (${variant}) stopped with ${code}:\n${started.output()}`);
      // A database someone is connected to cannot be copied: nobody may connect to a template.
      if (server) await withAdminClient(server.adminUrl, (client) => client.query(`alter database ${server.databases[variant]} with is_template true allow_connections false`));
    }),
  );
  return { day: today(), dirs, server };
}

/** Databases of a run that was killed, left on a shared server, are dropped by a later run once half a day old. */
async function dropStaleDatabases(adminUrl: string): Promise<void> {
  await withAdminClient(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname like 'wms\\_e2e\\_%'`);
    for (const { datname } of rows) {
      const made = parseInt(datname.split('_')[2] ?? '', 36);
      if (!Number.isFinite(made) || Date.now() - made < 12 * 60 * 60 * 1000) continue;
      await client.query(`alter database ${datname} with is_template false`).catch(() => undefined);
      await client.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
    }
  });
}

export async function removeE2eTemplates(templates: E2eTemplates): Promise<void> {
  fs.rmSync(path.dirname(templates.dirs.demo), { recursive: true, force: true });
  const server = templates.server;
  if (!server) return;
  await withAdminClient(server.adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [`${server.prefix}\\_%`]);
    for (const { datname } of rows) {
      await client.query(`alter database ${datname} with is_template false`);
      await client.query(`drop database if exists ${datname} with (force)`);
    }
  });
}

/**
 * On PostgreSQL (see above): a database of its own for a server started with `env`, copied from
 * the template of its settings, and how to drop it; nothing when the servers run on the embedded
 * database or `env` names a database of its own.
 */
export async function e2eServerDatabase(env: Record<string, string | undefined>): Promise<{ url: string; fromTemplate: boolean; drop(): Promise<void> } | undefined> {
  const raw = process.env[E2E_TEMPLATE_ENV];
  if (!raw || env.DATABASE_URL !== undefined) return undefined;
  const templates = JSON.parse(raw) as E2eTemplates;
  const server = templates.server;
  if (!server) return undefined;
  const name = `${server.prefix}_${Date.now().toString(36)}_${crypto.randomBytes(3).toString('hex')}`;
  // An empty database, for a first start, when the settings differ from the templates' or the day changed.
  const fromTemplate = usesTemplate(env) && templates.day === today();
  const template = fromTemplate ? ` template ${server.databases[env.DEMO_DATA === 'true' ? 'demo' : 'plain']}` : '';
  await withAdminClient(server.adminUrl, (client) => client.query(`create database ${name}${template}`));
  return {
    url: databaseUrl(server.adminUrl, name),
    fromTemplate,
    drop: () => withAdminClient(server.adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/** Whether a server started with `env` may start on a copy: the tests' administrator password and DEMO_DATA true or false. */
function usesTemplate(env: Record<string, string | undefined>): boolean {
  const demo = env.DEMO_DATA ?? 'false';
  return (env.ADMIN_PASSWORD ?? ADMIN_PASSWORD) === ADMIN_PASSWORD && (demo === 'true' || demo === 'false');
}

/**
 * Fills the empty `dataDir` with the template that a first start with `env` would have made, and
 * answers whether there was one: only for the tests' administrator password and DEMO_DATA true or
 * false (other settings change nothing that a start writes). `onServer`: the server starts on a
 * PostgreSQL copy from `e2eServerDatabase`, whose data directory template goes with it.
 */
export function copyE2eTemplate(env: Record<string, string | undefined>, dataDir: string, onServer = false): boolean {
  const raw = process.env[E2E_TEMPLATE_ENV];
  if (!raw || (env.DATABASE_URL !== undefined && !onServer) || !usesTemplate(env)) return false;
  const templates = JSON.parse(raw) as E2eTemplates;
  if (templates.day !== today() || Boolean(templates.server) !== onServer) return false;
  const template = templates.dirs[env.DEMO_DATA === 'true' ? 'demo' : 'plain'];
  // On PostgreSQL a first start may leave no files at all.
  if (fs.existsSync(template)) fs.cpSync(template, dataDir, { recursive: true });
  return true;
}

function today(): string {
  return new Date().toDateString();
}

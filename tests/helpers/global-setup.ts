import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import type pg from 'pg';
import type { TestProject } from 'vitest/node';
import { PGliteDialect } from '../../src/server/db/pglite-dialect.js';
import { migrateToLatest } from '../../src/server/install/migrate.js';
import type { DB } from '../../src/server/db/schema.js';
import { MODULES } from '../../src/server/modules/index.js';
import { compactDump, dropTemplateDatabases } from './pglite-dump.js';
import { createServerDatabase, runDatabasePrefix, TEST_RUN_ENV, uniqueDatabaseName, withAdminClient } from './database.js';
import { syncAsAtStart, TEMPLATE_ENV, TEST_ADMIN_PASSWORD, templateKey, type TemplateInfo, type TemplateStage } from './template.js';

/** A template left behind by a run that was killed is dropped by a later run once it is this old. */
const STALE_TEMPLATE_MS = 12 * 60 * 60 * 1000;

/**
 * Vitest's global set-up of the API tests: makes the test database templates of this run (see
 * tests/helpers/template.ts) before any test file starts, hands them to the workers through the
 * environment, makes them again when watch mode runs the tests again, and removes them at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env[TEST_RUN_ENV] = `${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  let current = await makeTemplates();
  project.onTestsRerun(async () => {
    await removeTemplates(current);
    current = await makeTemplates();
  });
  return () => removeTemplates(current);
}

async function makeTemplates(): Promise<TemplateInfo> {
  const started = performance.now();
  const adminUrl = process.env.TEST_DATABASE_URL;
  const info = adminUrl ? await makeServerTemplates(adminUrl) : await makePGliteTemplates();
  process.env[TEMPLATE_ENV] = JSON.stringify(info);
  console.log(`test database templates (${info.kind}) made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return info;
}

/** In-memory PGlite, migrated and dumped, then synced, seeded and dumped again, into a temporary folder. */
async function makePGliteTemplates(): Promise<TemplateInfo> {
  const key = templateKey();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `wms-test-template-${key}-`));
  const pglite = await PGlite.create();
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  const stages = {} as Record<TemplateStage, string>;
  const dump = async (stage: TemplateStage) => {
    stages[stage] = path.join(folder, `${stage}.tar`);
    // Uncompressed: a copy per test file loads faster than it would unzip.
    fs.writeFileSync(stages[stage], await compactDump(pglite));
  };
  try {
    await dropTemplateDatabases(pglite);
    await migrateToLatest(db, MODULES);
    await dump('migrated');
    await syncAsAtStart(db, MODULES, TEST_ADMIN_PASSWORD);
    await dump('ready');
  } finally {
    await db.destroy();
  }
  return { key, kind: 'pglite', stages };
}

/**
 * Two template databases on the server: one migrated, and a copy of it synced and seeded. Neither
 * accepts connections afterwards, because `CREATE DATABASE ... TEMPLATE` refuses to copy a database
 * that someone is connected to; copies made at the same time do not disturb each other.
 */
async function makeServerTemplates(adminUrl: string): Promise<TemplateInfo> {
  await dropStaleTemplates(adminUrl);
  const key = templateKey();
  const base = uniqueDatabaseName(`wms_tpl_${key.slice(0, 12)}`);
  const stages: Record<TemplateStage, string> = { migrated: `${base}_m`, ready: `${base}_r` };
  const migrated = await createServerDatabase(adminUrl, undefined, stages.migrated);
  await migrateToLatest(migrated.db, MODULES);
  await migrated.db.destroy();
  await closeTemplate(adminUrl, stages.migrated);
  const ready = await createServerDatabase(adminUrl, stages.migrated, stages.ready);
  await syncAsAtStart(ready.db, MODULES, TEST_ADMIN_PASSWORD);
  await ready.db.destroy();
  await closeTemplate(adminUrl, stages.ready);
  return { key, kind: 'postgres', stages };
}

async function closeTemplate(adminUrl: string, name: string): Promise<void> {
  await withAdminClient(adminUrl, (client) => client.query(`alter database ${name} with is_template true allow_connections false`));
}

async function removeTemplates(info: TemplateInfo): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (info.kind === 'pglite') {
    fs.rmSync(path.dirname(info.stages.migrated), { recursive: true, force: true });
  } else if (adminUrl) {
    await withAdminClient(adminUrl, async (client) => {
      await dropRunDatabases(client);
      for (const name of Object.values(info.stages)) await dropTemplate(client, name);
    });
  }
}

async function dropTemplate(client: pg.Client, name: string): Promise<void> {
  await client.query(`alter database ${name} with is_template false`);
  await client.query(`drop database if exists ${name} with (force)`);
}

/** Drops this run's test databases whose drop a worker began but did not see to its end. */
async function dropRunDatabases(client: pg.Client): Promise<void> {
  const pattern = `${runDatabasePrefix().replaceAll('_', '\\_')}\\_%`;
  const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [pattern]);
  for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
}

/** Drops the templates of runs that ended without removing theirs (killed), judged by the time in their name. */
async function dropStaleTemplates(adminUrl: string): Promise<void> {
  await withAdminClient(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname like 'wms\\_tpl\\_%'`);
    for (const { datname } of rows) {
      const made = parseInt(datname.split('_')[3] ?? '', 36);
      if (Number.isFinite(made) && Date.now() - made > STALE_TEMPLATE_MS) await dropTemplate(client, datname).catch(() => undefined);
    }
  });
}

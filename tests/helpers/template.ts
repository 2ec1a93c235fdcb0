import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/server/db/schema.js';
import { seedFirstStart } from '../../src/server/install/seed.js';
import { syncMenuAtStart } from '../../src/server/install/sync-menu.js';
import { syncShippedDefinitions } from '../../src/server/definitions/definition-sync.js';
import type { AreaModule } from '../../src/server/modules/area.js';
import { AreaRegistry } from '../../src/server/modules/area-registry.js';
import { installAreas, syncRightVerbs } from '../../src/server/modules/area-sync.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * Test databases are cloned from templates made once per test run (tests/helpers/global-setup.ts)
 * instead of being created, migrated and synced again for every test file. Two stages exist:
 * `migrated` (every migration ran, nothing else) and `ready` (also synced and seeded the way a
 * first start does, with the test administrator's password).
 */
export type TemplateStage = 'migrated' | 'ready';

export interface TemplateInfo {
  /** `templateKey()` of the code that made the templates. */
  key: string;
  kind: 'pglite' | 'postgres';
  /** Per stage: the dump file of the PGlite data directory, or the template database's name. */
  stages: Record<TemplateStage, string>;
}

/** The global set-up hands the templates to the test workers in this variable (JSON of `TemplateInfo`). */
export const TEMPLATE_ENV = 'WMS_TEST_TEMPLATE';

export { TEST_ADMIN_PASSWORD } from './accounts.js';

/**
 * A hash of the migration list this code declares: every name with the source of its steps. A
 * worker whose code declares other migrations than the code that made the templates (a migration
 * added or edited while vitest watches) gets this answer changed and does not use them.
 */
export function templateKey(modules: readonly AreaModule[] = MODULES): string {
  const hash = crypto.createHash('sha256');
  for (const [name, migration] of Object.entries(new AreaRegistry(modules).migrations())) {
    hash.update(`${name}\0${migration.up.toString()}\0${migration.down?.toString() ?? ''}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The templates of this run when they were made for this database kind and from the same
 * migrations as this code; undefined otherwise (no global set-up, as in the benchmarks).
 */
export function currentTemplate(kind: TemplateInfo['kind']): TemplateInfo | undefined {
  const raw = process.env[TEMPLATE_ENV];
  if (!raw) return undefined;
  const info = JSON.parse(raw) as TemplateInfo;
  if (info.kind !== kind || info.key !== templateKey()) return undefined;
  return info;
}

/**
 * What the server's start does after the migrations (src/server/start.ts): right verbs, shipped
 * definitions and the menu are synced, and the first start's data is seeded. Every step is
 * idempotent, so running it again on a ready database changes nothing but what `modules` adds.
 */
export async function syncAsAtStart(db: Kysely<DB>, modules: readonly AreaModule[], adminPassword: string | undefined): Promise<void> {
  const areas = new AreaRegistry(modules);
  await syncRightVerbs(db, areas);
  await syncShippedDefinitions(db, undefined, { areas });
  await syncMenuAtStart(db, areas.routeTable);
  await seedFirstStart(db, adminPassword, modules);
  await installAreas(db, areas);
}

import { CURRENT_SCHEMA_VERSION } from './page-definition.schema.js';
import { SCHEMA_MIGRATIONS } from './migrations/index.js';
import type { ValidationProblem } from './validation-problem.js';

export interface UpgradeResult {
  document: unknown;
  fromVersion: number;
  /** Set when the document cannot be upgraded (newer than this code, or not an object). */
  problem?: ValidationProblem;
}

/**
 * Brings a stored or shipped document up to CURRENT_SCHEMA_VERSION by running every numbered
 * migration above its version in order. A document without schemaVersion is
 * version 1. Never changes its input.
 */
export function upgradePageDefinition(input: unknown): UpgradeResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { document: input, fromVersion: 0, problem: { path: '', code: 'type', message: 'a page definition is a JSON object' } };
  }
  const raw = (input as Record<string, unknown>).schemaVersion;
  const fromVersion = raw === undefined ? 1 : raw;
  if (typeof fromVersion !== 'number' || !Number.isInteger(fromVersion) || fromVersion < 1) {
    return { document: input, fromVersion: 0, problem: { path: '/schemaVersion', code: 'type', message: 'schemaVersion is a positive integer' } };
  }
  if (fromVersion > CURRENT_SCHEMA_VERSION) {
    return {
      document: input,
      fromVersion,
      problem: {
        path: '/schemaVersion',
        code: 'tooNew',
        message: `schemaVersion ${fromVersion} is newer than this server understands (${CURRENT_SCHEMA_VERSION})`,
      },
    };
  }
  let document = structuredClone(input) as Record<string, unknown>;
  for (const migration of SCHEMA_MIGRATIONS) {
    if (migration.version <= fromVersion) continue;
    document = { ...migration.up(document), schemaVersion: migration.version };
  }
  return { document, fromVersion };
}

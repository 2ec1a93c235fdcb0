import { structuredFieldOptions } from './0002-structured-field-options.js';
import type { SchemaMigration } from './schema-migration.js';

export type { SchemaMigration } from './schema-migration.js';

/** Every schema migration in version order; the last one's version is CURRENT_SCHEMA_VERSION. */
export const SCHEMA_MIGRATIONS: readonly SchemaMigration[] = [structuredFieldOptions];

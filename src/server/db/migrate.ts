import { Migrator, type Kysely } from 'kysely';
import type { DB } from './schema.js';
import { migrations } from './migrations/index.js';

/** Runs every pending migration; on PostgreSQL they all run in one transaction. */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return (results ?? []).map((r) => r.migrationName);
}

import { Migrator, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { AreaRegistry } from '../area-kit/area-registry.js';
import type { AreaModule } from '../area-kit/area.js';

/**
 * Runs every pending migration of every area (each area declares its own in its module); names
 * sort in the order they run across areas. On PostgreSQL they all run in one transaction. The
 * composition root (start.ts) hands over the module list.
 */
export async function migrateToLatest(db: Kysely<DB>, modules: readonly AreaModule[]): Promise<string[]> {
  const migrations = new AreaRegistry(modules).migrations();
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

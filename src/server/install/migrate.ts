import { Migrator, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { AreaRegistry } from '../area-kit/area-registry.js';
import type { AreaModule } from '../area-kit/area.js';

/**
 * Runs every pending migration of every area (each area declares its own in its module); names
 * sort in the order they run across areas; a pending one that sorts before an applied one still runs. On PostgreSQL they all run in one transaction. The
 * composition root (start.ts) hands over the module list.
 */
export async function migrateToLatest(db: Kysely<DB>, modules: readonly AreaModule[]): Promise<string[]> {
  const migrations = new AreaRegistry(modules).migrations();
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // An area added later may bring a migration that sorts before one a database has already run
    // (a column on an older area's table): it runs then, instead of the database refusing to start.
    allowUnorderedMigrations: true,
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

import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { loadPageDefinition } from '../../../engine/schema/index.js';
import { checkPageAgainstCatalog, preparePage, readTableColumns, type PreparedPage, type RowFilter } from '../../../engine/server/index.js';
import { AppError } from '../../common/errors.js';
import type { DB } from '../db/schema.js';
import type { DefinitionChange } from '../events/events.js';
import { findPublishedDefinition } from './page-definition.repository.js';

export interface ResolvedPage {
  prepared: PreparedPage;
  version: number;
  projectSpecific: boolean;
}

/**
 * Resolution and per-process cache of published definitions. A page
 * resolves to the project's published version, else the shipped default; on first use its
 * content is upgraded to the current schema version, validated and checked against the database
 * catalog, and the result is cached until a change of that page (or of everything) is announced.
 */
export class DefinitionStore {
  private readonly cache = new Map<string, Promise<ResolvedPage>>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: FastifyBaseLogger,
    /** The row filters a definition may name, as the areas contribute them (AreaRegistry.rowFilters). */
    private readonly rowFilters: ReadonlyMap<string, RowFilter>,
  ) {}

  /** Throws MODULE_NOT_FOUND when nothing is published (an unknown screen). */
  resolve(projectId: number | null, moduleCode: string, functionCode: string): Promise<ResolvedPage> {
    const key = cacheKey(projectId, moduleCode, functionCode);
    let entry = this.cache.get(key);
    if (!entry) {
      entry = this.load(projectId, moduleCode, functionCode);
      this.cache.set(key, entry);
      // A failure is not cached: the next call tries again (after a fix is published, say).
      entry.catch(() => this.cache.delete(key));
    }
    return entry;
  }

  /** Forgets what a change makes stale; a change of the shipped default touches every project. */
  invalidate(change: DefinitionChange): void {
    if (change.all || (change.moduleCode === undefined && change.projectId === null)) {
      this.cache.clear();
      return;
    }
    for (const key of [...this.cache.keys()]) {
      const [project, moduleCode, functionCode] = key.split('|');
      if (change.projectId !== null && project !== String(change.projectId)) continue;
      if (change.moduleCode !== undefined && moduleCode !== change.moduleCode) continue;
      if (change.functionCode !== undefined && functionCode !== change.functionCode) continue;
      this.cache.delete(key);
    }
  }

  private async load(projectId: number | null, moduleCode: string, functionCode: string): Promise<ResolvedPage> {
    const stored = await findPublishedDefinition(this.db, projectId, moduleCode, functionCode);
    if (!stored) throw new AppError('MODULE_NOT_FOUND', { module: `${moduleCode}/${functionCode}` });
    const loaded = loadPageDefinition(stored.content);
    if (!loaded.ok) {
      this.log.error({ moduleCode, functionCode, version: stored.version, problems: loaded.problems }, 'stored page definition is invalid');
      throw new AppError('SYSTEM_CONFIG');
    }
    const page = loaded.value;
    const problems = await checkPageAgainstCatalog(this.db, page);
    if (problems.length) {
      this.log.error({ moduleCode, functionCode, version: stored.version, problems }, 'page definition does not fit the database');
      throw new AppError('SYSTEM_CONFIG');
    }
    const tables = [page.table.name, ...page.fields.flatMap((f) => [f.foreign?.table, f.options?.type === 'foreign' ? f.options.table : undefined])];
    const catalog = await readTableColumns(
      this.db,
      tables.filter((t): t is string => t !== undefined),
    );
    return { prepared: preparePage(page, catalog, this.rowFilters), version: stored.version, projectSpecific: stored.projectId !== null };
  }
}

function cacheKey(projectId: number | null, moduleCode: string, functionCode: string): string {
  return `${projectId ?? 'shipped'}|${moduleCode}|${functionCode}`;
}

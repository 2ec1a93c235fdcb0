import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { loadPageDefinition, type PageDefinition, type ValidationProblem } from '../../../engine/schema/index.js';
import { catalogTablesOf, checkPageAgainstColumns, readTableColumns } from '../../../engine/server/index.js';
import { stableStringify } from '../../common/designer/stable-json.js';
import type { DB } from '../db/schema.js';
import type { EventBus } from '../events/events.js';
import type { AreaRegistry } from '../area-kit/area-registry.js';
import { findLatestShippedHashes, insertShippedVersion } from './page-definition.repository.js';
import { inTransaction } from '../db/transaction.js';
import { ensureDeclaredIndexes } from './definition-indexes.js';

/** The folder of shipped definitions: `definitions/<module>/<function>.page.json`. */
export const DEFINITIONS_DIR = path.resolve(import.meta.dirname, '../../../definitions');

export interface SyncReport {
  /** `<module>/<function>@<version>` of every version added. */
  added: string[];
  unchanged: number;
  /** Files that were not synced, with every problem (schema, path, catalog). */
  refused: { file: string; problems: ValidationProblem[] }[];
  /** Indexes created for the definitions' `indexed` fields (engine/schema/README.md). */
  indexes: string[];
}

/** sha256 of the canonical JSON: the same definition always has the same hash, whatever its key order. */
export function contentHash(content: unknown): string {
  return crypto.createHash('sha256').update(stableStringify(content)).digest('hex');
}

/** Every `*.page.json` under the folder, sorted, as paths relative to it. */
export function listDefinitionFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const files: string[] = [];
  for (const moduleDir of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!moduleDir.isDirectory()) continue;
    for (const file of fs.readdirSync(path.join(dir, moduleDir.name))) {
      if (file.endsWith('.page.json')) files.push(`${moduleDir.name}/${file}`);
    }
  }
  return files.sort();
}

/**
 * Syncs the shipped definitions into page_definition at start: a file whose
 * canonical content hash differs from the newest shipped version becomes a new version (published
 * ones retire the previous published default); an unchanged file writes nothing. A file that fails
 * the schema, does not sit at `<moduleCode>/<functionCode>.page.json` or names tables or columns the
 * database lacks is refused and reported, never stored. Besides `dir`, the `definitions/` folder of
 * every area kept outside the repository (its `contentRoot`) is read. All in one transaction.
 */
export async function syncShippedDefinitions(
  db: Kysely<DB>,
  dir: string = DEFINITIONS_DIR,
  options: { areas?: AreaRegistry; events?: EventBus } = {},
): Promise<SyncReport> {
  const report: SyncReport = { added: [], unchanged: 0, refused: [], indexes: [] };
  // The repository's folder, then the `definitions/` of every area kept outside it.
  const folders = [dir, ...(options.areas?.contentRoots() ?? []).map((root) => path.join(root, 'definitions'))];
  const files: { folder: string; file: string }[] = [];
  for (const folder of folders) {
    for (const file of listDefinitionFiles(folder)) {
      if (files.some((listed) => listed.file === file)) report.refused.push({ file, problems: [{ path: '', code: 'duplicate', message: `${file} is shipped twice (${folder})` }] });
      else files.push({ folder, file });
    }
  }
  await inTransaction(db, async (trx) => {
    // Two app nodes starting together must not both add the same version.
    await sql`select pg_advisory_xact_lock(hashtext('page_definition:shipped-sync'))`.execute(trx);
    const startupOf = new Map<string, string>();
    const synced: PageDefinition[] = [];
    // Every file read and checked against the schema first, so that the catalog's columns and the
    // newest shipped versions come in one query each rather than two per file.
    const loadedFiles = files.map(({ folder, file }) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));
      } catch (error) {
        return { file, problems: [{ path: '', code: 'json', message: (error as Error).message }] };
      }
      const loaded = loadPageDefinition(parsed);
      return loaded.ok ? { file, page: loaded.value } : { file, problems: loaded.problems };
    });
    const pages = loadedFiles.flatMap((loaded) => (loaded.page ? [loaded.page] : []));
    const catalog = await readTableColumns(trx, pages.flatMap(catalogTablesOf));
    const latestShipped = await findLatestShippedHashes(trx);
    for (const { file, page, problems } of loadedFiles) {
      if (!page) {
        report.refused.push({ file, problems });
        continue;
      }
      if (file !== `${page.moduleCode}/${page.functionCode}.page.json`) {
        report.refused.push({
          file,
          problems: [{ path: '/functionCode', code: 'path', message: `the file must be ${page.moduleCode}/${page.functionCode}.page.json` }],
        });
        continue;
      }
      // One module may have only one startup page.
      if (page.startup === true && page.status === 'published') {
        const holder = startupOf.get(page.moduleCode);
        if (holder !== undefined) {
          report.refused.push({ file, problems: [{ path: '/startup', code: 'startupExists', message: `${holder} is already the startup page of ${page.moduleCode}` }] });
          continue;
        }
        startupOf.set(page.moduleCode, file);
      }
      // A shipped page naming an action, writer or input no area defines is refused like one published.
      const areaProblems = options.areas?.checkPage(page) ?? [];
      if (areaProblems.length) {
        report.refused.push({ file, problems: areaProblems });
        continue;
      }
      const catalogProblems = checkPageAgainstColumns(page, catalog);
      if (catalogProblems.length) {
        report.refused.push({ file, problems: catalogProblems });
        continue;
      }
      synced.push(page);
      const hash = contentHash(page);
      // Each file names its own page (checked above), so no page is added twice in this loop.
      const latest = latestShipped.get(`${page.moduleCode}/${page.functionCode}`);
      if (latest?.contentHash === hash) {
        report.unchanged += 1;
        continue;
      }
      const version = (latest?.version ?? 0) + 1;
      await insertShippedVersion(trx, {
        moduleCode: page.moduleCode,
        functionCode: page.functionCode,
        version,
        status: page.status,
        content: page,
        contentHash: hash,
      });
      report.added.push(`${page.moduleCode}/${page.functionCode}@${version}`);
    }
    // The indexes the shipped pages declare for their large lists' searches and sorts.
    report.indexes = await ensureDeclaredIndexes(trx, synced);
    // Other app nodes drop their cached definitions when this commits.
    if (report.added.length) await options.events?.emit(trx, 'definition.changed', { projectId: null, all: true });
  });
  return report;
}

/** The start-up step (migrations -> definition sync -> seed), with its log lines. */
export async function syncDefinitionsAtStart(
  db: Kysely<DB>,
  log: FastifyBaseLogger,
  options: { areas: AreaRegistry; events?: EventBus; dir?: string },
): Promise<SyncReport> {
  const report = await syncShippedDefinitions(db, options.dir ?? DEFINITIONS_DIR, options);
  if (report.added.length) log.info({ added: report.added.length, unchanged: report.unchanged }, 'page definitions synced');
  if (report.added.length) log.debug({ added: report.added }, 'page definitions added');
  if (report.indexes.length) log.debug({ indexes: report.indexes }, 'indexes declared by page definitions created');
  for (const refused of report.refused) {
    log.error({ file: refused.file, problems: refused.problems }, `page definition ${refused.file} refused`);
  }
  return report;
}

import type { PageDefinition } from '../../../../engine/schema/index.js';
import type { DefinitionFile, ImportItem } from '../../../common/designer/api-types.js';
import { definitionFilePath, diffJson, parseDefinitionFilePath, stableStringify } from '../../../common/designer/stable-json.js';
import { AppError } from '../../../common/errors.js';
import { inTransaction } from '../../db/transaction.js';
import { projectOf, requirePublishable, type DesignerContext } from './designer.context.js';
import { findEffectivePublished, findPublished, type PageKey } from './definition.repository.js';
import { lockVersions, publishNewVersion, recordAudit } from './page-versions.service.js';

/** The export format: one file per page in the layout of `definitions/`, canonical JSON text. */
export const EXPORT_FORMAT = 'wms-page-definitions';
export const EXPORT_FORMAT_VERSION = 1;

export interface DefinitionExport {
  format: typeof EXPORT_FORMAT;
  formatVersion: typeof EXPORT_FORMAT_VERSION;
  projectCode: string;
  files: DefinitionFile[];
}

/**
 * `POST /api/generic/definitions/export`: the published definitions of the project (its own
 * copies; with `includeShipped` also the shipped defaults it still resolves to), or of the listed
 * pages. Deterministic: the same pages always give byte-identical files, in path order.
 */
export async function exportDefinitions(ctx: DesignerContext, options: { pages?: PageKey[]; includeShipped?: boolean }): Promise<DefinitionExport> {
  const projectId = projectOf(ctx);
  const contents = new Map<string, unknown>();
  if (options.pages?.length) {
    for (const key of options.pages) {
      const row = await findEffectivePublished(ctx.db, projectId, key);
      if (!row) throw new AppError('NO_RECORD', { page: `${key.moduleCode}/${key.functionCode}` });
      contents.set(definitionFilePath(key.moduleCode, key.functionCode), row.content);
    }
  } else {
    if (options.includeShipped) {
      for (const row of await findPublished(ctx.db, null)) contents.set(definitionFilePath(row.module_code, row.function_code), row.content);
    }
    for (const row of await findPublished(ctx.db, projectId)) contents.set(definitionFilePath(row.module_code, row.function_code), row.content);
  }
  const files = [...contents]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, content]) => ({ path, content: stableStringify(content) }));
  return { format: EXPORT_FORMAT, formatVersion: EXPORT_FORMAT_VERSION, projectCode: ctx.user.projectCode ?? '', files };
}

export interface ImportResult {
  dryRun: boolean;
  items: ImportItem[];
}

/** Compares without the status: an imported file is published, whatever it said. */
function comparable(content: unknown): unknown {
  if (content === null || typeof content !== 'object') return content;
  const { status: _status, ...rest } = content as Record<string, unknown>;
  return rest;
}

interface Planned {
  item: ImportItem;
  key?: PageKey;
  definition?: PageDefinition;
}

/**
 * `POST /api/generic/definitions/import`: reads export files, validates each (upgrading older
 * schema versions) and compares it with what the project resolves to. A dry run answers that list
 * and changes nothing; otherwise every added or changed page is published as the project's new
 * version in one transaction, or, if any file is invalid, nothing is.
 */
export async function importDefinitions(ctx: DesignerContext, files: DefinitionFile[], dryRun: boolean): Promise<ImportResult> {
  const projectId = projectOf(ctx);
  const planned: Planned[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const item: ImportItem = { path: file.path, moduleCode: null, functionCode: null, action: 'invalid', changes: [], problems: [] };
    const plan: Planned = { item };
    planned.push(plan);
    const key = parseDefinitionFilePath(file.path);
    if (!key) {
      item.problems.push({ field: file.path, code: 'path', message: 'the path is not <module>/<function>.page.json' });
      continue;
    }
    item.moduleCode = key.moduleCode;
    item.functionCode = key.functionCode;
    const id = `${key.moduleCode}/${key.functionCode}`;
    if (seen.has(id)) {
      item.problems.push({ field: file.path, code: 'duplicate', message: `${id} is in the import twice` });
      continue;
    }
    seen.add(id);
    let document: unknown;
    try {
      document = JSON.parse(file.content);
    } catch (error) {
      item.problems.push({ field: file.path, code: 'json', message: (error as Error).message });
      continue;
    }
    const doc = document as { moduleCode?: unknown; functionCode?: unknown } | null;
    if (doc?.moduleCode !== key.moduleCode || doc?.functionCode !== key.functionCode) {
      item.problems.push({ field: `${file.path}#/moduleCode`, code: 'const', message: `the file's moduleCode/functionCode must be ${id}` });
      continue;
    }
    let definition: PageDefinition;
    try {
      definition = await requirePublishable(ctx, document);
    } catch (error) {
      if (!(error instanceof AppError) || !error.details) throw error;
      item.problems.push(...error.details.map((d) => ({ ...d, field: `${file.path}#${d.field.startsWith('/') ? d.field : `/${d.field}`}` })));
      continue;
    }
    const current = await findEffectivePublished(ctx.db, projectId, key);
    const published = { ...definition, status: 'published' as const };
    item.changes = diffJson(comparable(current?.content ?? {}), comparable(published));
    item.action = !current ? 'add' : item.changes.length ? 'change' : 'unchanged';
    plan.key = key;
    plan.definition = published;
  }
  const items = planned.map((p) => p.item);
  if (dryRun) return { dryRun, items };
  const invalid = items.filter((i) => i.action === 'invalid');
  if (invalid.length) throw new AppError('VALIDATION_FAILED', {}, invalid.flatMap((i) => i.problems));

  // A module's startup page may move from one page to another in one import: pages that stop
  // being the startup page are written before the one that becomes it.
  const writes = planned
    .filter((p) => p.key && p.definition && (p.item.action === 'add' || p.item.action === 'change'))
    .sort((a, b) => Number(a.definition!.startup === true) - Number(b.definition!.startup === true));
  await inTransaction(ctx.db, async (trx) => {
    for (const write of writes) {
      const key = write.key!;
      const definition = write.definition!;
      const versions = await lockVersions(trx, projectId, key, { module: true });
      const { version } = await publishNewVersion(ctx, trx, projectId, key, definition, definition, versions);
      write.item.version = version;
      await recordAudit(ctx, trx, projectId, 'import', { key, version, details: { path: write.item.path, changes: write.item.changes.slice(0, 100) } });
    }
  });
  return { dryRun, items };
}

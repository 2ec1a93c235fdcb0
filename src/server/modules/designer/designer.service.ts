import type { Transaction } from 'kysely';
import { loadPageDefinition, type PageDefinition } from '../../../../engine/schema/index.js';
import type { PageDetail, PageSummary, VersionInfo } from '../../../common/designer/api-types.js';
import { diffJson, type JsonChange } from '../../../common/designer/stable-json.js';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { DefinitionChange } from '../../events/events.js';
import { saveMenuEntry } from '../identity/index.js';
import { findDesignerAudit } from './designer-audit.repository.js';
import { contentHash, problemsAsDetails, projectOf, requirePublishable, sqlSessionOf, type DesignerContext } from './designer.context.js';
import { deleteVersion, findEffectivePublished, findHeads, findVersions, publishDraft, setStatus, type PageKey, type VersionRow } from './definition.repository.js';
import { findModuleEntry, genericPageRoute } from './menu.repository.js';
import { lockVersions, publishNewVersion, recordAudit, retirePublished, writeDraft } from './page-versions.service.js';
import { checkDefinitionSqls } from './sql-guard.js';

export type { PageDetail, PageSummary, VersionInfo };

export interface MenuRequest {
  /** The menu group (a `sys_module` entry without route) the page appears under. */
  parentCode: string;
  sequence?: number;
}

const iso = (d: Date | string) => new Date(d).toISOString();

function versionInfo(row: VersionRow): VersionInfo {
  return {
    version: row.version,
    status: row.status,
    contentHash: row.content_hash,
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
    updatedAt: iso(row.updated_at),
    updatedBy: row.updated_by,
  };
}

/** `GET /api/generic/audit`: the project's designer audit trail, newest first. */
export async function listAudit(ctx: DesignerContext, filter: { moduleCode?: string; functionCode?: string; limit?: number }) {
  return findDesignerAudit(ctx.db, { projectId: projectOf(ctx), ...filter, limit: filter.limit ?? 100 });
}

/** `GET /api/generic/modules`: the modules that have pages in the project (own or shipped). */
export async function listModules(ctx: DesignerContext): Promise<Array<{ moduleCode: string; pages: number }>> {
  const pages = await listPages(ctx);
  const counts = new Map<string, number>();
  for (const page of pages) counts.set(page.moduleCode, (counts.get(page.moduleCode) ?? 0) + 1);
  return [...counts].map(([moduleCode, count]) => ({ moduleCode, pages: count }));
}

/** `GET /api/generic/module`: the pages of the project, optionally of one module. */
export async function listPages(ctx: DesignerContext, moduleCode?: string): Promise<PageSummary[]> {
  const projectId = projectOf(ctx);
  const heads = await findHeads(ctx.db, projectId, moduleCode);
  const pages = new Map<string, PageSummary>();
  for (const head of heads) {
    const id = `${head.module_code}/${head.function_code}`;
    let page = pages.get(id);
    if (!page) {
      page = {
        moduleCode: head.module_code,
        functionCode: head.function_code,
        titleCode: null,
        startup: false,
        shippedVersion: null,
        publishedVersion: null,
        draftVersion: null,
        latestVersion: null,
        updatedAt: null,
        updatedBy: null,
      };
      pages.set(id, page);
    }
    if (head.project_id === null) {
      if (head.status === 'published' && page.shippedVersion === null) page.shippedVersion = head.version;
      if (page.latestVersion === null && page.titleCode === null) {
        page.titleCode = head.title_code;
        page.startup = head.startup;
      }
      continue;
    }
    if (page.latestVersion === null) {
      page.latestVersion = head.version;
      page.titleCode = head.title_code;
      page.startup = head.startup;
      page.updatedAt = iso(head.updated_at);
      page.updatedBy = head.updated_by;
    }
    if (head.status === 'published') page.publishedVersion = head.version;
    if (head.status === 'draft') page.draftVersion = head.version;
  }
  return [...pages.values()];
}

/** `GET /api/generic/page`: versions, the shipped default and the working content of one page. */
export async function getPage(ctx: DesignerContext, key: PageKey): Promise<PageDetail> {
  const projectId = projectOf(ctx);
  const own = await findVersions(ctx.db, projectId, key);
  const shippedRow = await findShippedPublished(ctx, key);
  if (!own.length && !shippedRow) throw new AppError('NO_RECORD');
  const draft = own.find((v) => v.status === 'draft');
  const published = own.find((v) => v.status === 'published');
  const working = draft
    ? { source: 'draft' as const, version: draft.version, content: draft.content }
    : published
      ? { source: 'published' as const, version: published.version, content: published.content }
      : shippedRow
        ? { source: 'shipped' as const, version: shippedRow.version, content: shippedRow.content }
        : null;
  const loaded = working ? loadPageDefinition(working.content) : undefined;
  return {
    ...key,
    versions: own.map(versionInfo),
    shipped: shippedRow ? { version: shippedRow.version, content: shippedRow.content } : null,
    working,
    problems: loaded && !loaded.ok ? problemsAsDetails(loaded.problems) : [],
  };
}

/** The shipped default's published version of a page. */
async function findShippedPublished(ctx: DesignerContext, key: PageKey): Promise<VersionRow | undefined> {
  return (await findVersions(ctx.db, null, key)).find((v) => v.status === 'published');
}

/** One stored version's content: the project's (`shipped: false`) or the shipped default's. */
export async function getVersion(ctx: DesignerContext, key: PageKey, version: number, shipped = false): Promise<VersionRow> {
  const projectId = shipped ? null : projectOf(ctx);
  const row = (await findVersions(ctx.db, projectId, key)).find((v) => v.version === version);
  if (!row) throw new AppError('NO_RECORD');
  return row;
}

/** Side-by-side diff of two versions (0 = the shipped default). */
export async function diffVersions(
  ctx: DesignerContext,
  key: PageKey,
  left: number,
  right: number,
): Promise<{ left: unknown; right: unknown; changes: JsonChange[] }> {
  const read = async (version: number) => {
    if (version === 0) {
      const shipped = await findShippedPublished(ctx, key);
      if (!shipped) throw new AppError('NO_RECORD');
      return shipped.content;
    }
    return (await getVersion(ctx, key, version)).content;
  };
  const a = await read(left);
  const b = await read(right);
  return { left: a, right: b, changes: diffJson(a, b) };
}

function requireContentFor(key: PageKey, content: unknown): Record<string, unknown> {
  if (content === null || typeof content !== 'object' || Array.isArray(content)) {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: '/', code: 'type', message: 'a page definition is a JSON object' }]);
  }
  const doc = content as Record<string, unknown>;
  if (doc.moduleCode !== key.moduleCode || doc.functionCode !== key.functionCode) {
    throw new AppError('VALIDATION_FAILED', {}, [
      { field: '/moduleCode', code: 'const', message: `the definition must be of ${key.moduleCode}/${key.functionCode}` },
    ]);
  }
  return doc;
}

/** The named SQLs of a document that has them in a usable shape (drafts may be incomplete). */
function sqlsOf(doc: Record<string, unknown>): Array<{ name: string; text: string; mode?: 'read' | 'write' }> {
  const sqls = doc.sqls;
  if (!Array.isArray(sqls)) return [];
  return sqls.filter(
    (s): s is { name: string; text: string; mode?: 'read' | 'write' } =>
      s !== null && typeof s === 'object' && typeof (s as { name?: unknown }).name === 'string' && typeof (s as { text?: unknown }).text === 'string',
  );
}

/**
 * `PUT /api/generic/draft`: saves the project's draft of a page (creates it as the next version
 * when there is none). A draft may still have validator problems — they are answered, and publish
 * refuses them — but its SQL must pass the parse guard now.
 */
export async function saveDraft(ctx: DesignerContext, key: PageKey, content: unknown): Promise<{ version: number; problems: FieldError[] }> {
  const projectId = projectOf(ctx);
  const doc = { ...requireContentFor(key, content), status: 'draft' };
  const sqlProblems = await checkDefinitionSqls(ctx.db, sqlsOf(doc), sqlSessionOf(ctx));
  if (sqlProblems.length) throw new AppError('VALIDATION_FAILED', {}, sqlProblems);
  const loaded = loadPageDefinition(doc);
  const hash = contentHash(doc);
  const version = await inTransaction(ctx.db, async (trx) => {
    const versions = await lockVersions(trx, projectId, key, { module: false });
    const draft = versions.find((v) => v.status === 'draft');
    if (draft?.content_hash === hash) return draft.version;
    const previous = draft ?? versions.find((v) => v.status === 'published') ?? (await findEffectivePublished(trx, projectId, key));
    const changes = diffJson(previous?.content ?? {}, doc, 100);
    const saved = await writeDraft(ctx, trx, projectId, key, doc, hash, draft);
    await recordAudit(ctx, trx, projectId, 'draft.save', { key, version: saved, details: { changes } });
    return saved;
  });
  return { version, problems: loaded.ok ? [] : problemsAsDetails(loaded.problems) };
}

/** Puts a published page in the menu under a group, as its module's entry. */
async function applyMenu(ctx: DesignerContext, trx: Transaction<DB>, key: PageKey, definition: PageDefinition, menu: MenuRequest): Promise<void> {
  const parent = await findModuleEntry(trx, menu.parentCode);
  if (!parent || parent.route !== null) throw new AppError('BAD_REQUEST', { reason: `menu group ${menu.parentCode} does not exist` });
  const existing = await findModuleEntry(trx, key.moduleCode);
  // A hand-written screen's entry (its route is not a generic page's) is never taken over.
  if (existing && (existing.route === null || !existing.route.startsWith('/mapTo?'))) {
    throw new AppError('GENERIC_MENU_CONFLICT', { code: key.moduleCode });
  }
  await saveMenuEntry(trx, {
    code: key.moduleCode,
    parentCode: menu.parentCode,
    titleKey: definition.titleCode,
    route: genericPageRoute(key.moduleCode, key.functionCode),
    sequence: menu.sequence,
    by: ctx.user.loginAccount,
  });
}

/**
 * `POST /api/generic/publish`: the draft (or the named draft version) becomes the published,
 * immutable snapshot; the version published before becomes inactive. A version already published
 * or inactive is refused, as is a second startup page in the module.
 */
export async function publish(ctx: DesignerContext, key: PageKey, options: { version?: number; menu?: MenuRequest }): Promise<{ version: number }> {
  const projectId = projectOf(ctx);
  const versions = await findVersions(ctx.db, projectId, key);
  const target = options.version === undefined ? versions.find((v) => v.status === 'draft') : versions.find((v) => v.version === options.version);
  if (!target) throw new AppError('NO_RECORD');
  if (target.status !== 'draft') throw new AppError('GENERIC_ALREADY_PUBLISHED', { version: target.version });
  const definition = await requirePublishable(ctx, target.content);
  const content = { ...definition, status: 'published' as const };
  await inTransaction(ctx.db, async (trx) => {
    const current = await lockVersions(trx, projectId, key, { module: true });
    const draft = current.find((v) => v.version === target.version);
    if (!draft) throw new AppError('NO_RECORD');
    if (draft.status !== 'draft') throw new AppError('GENERIC_ALREADY_PUBLISHED', { version: draft.version });
    // The draft changed since it was checked: publish only what was checked.
    if (draft.content_hash !== target.content_hash) throw new AppError('STALE_UPDATE');
    const previous = await retirePublished(ctx, trx, projectId, key, definition, current);
    await publishDraft(trx, draft.id, content, contentHash(content), ctx.user.loginAccount);
    if (options.menu) await applyMenu(ctx, trx, key, definition, options.menu);
    await recordAudit(ctx, trx, projectId, 'publish', {
      key,
      version: draft.version,
      details: {
        previousVersion: previous?.version ?? null,
        changes: diffJson(previous?.content ?? {}, content, 100),
        ...(options.menu ? { menu: options.menu } : {}),
      },
    });
    await ctx.events.emit(trx, 'definition.changed', { projectId, ...key });
  });
  return { version: target.version };
}

/**
 * `POST /api/generic/rollback`: republishes an earlier snapshot. Published versions never change,
 * so the earlier content becomes a new version, published; the current one becomes inactive.
 */
export async function rollback(ctx: DesignerContext, key: PageKey, version: number): Promise<{ version: number }> {
  const projectId = projectOf(ctx);
  const source = (await findVersions(ctx.db, projectId, key)).find((v) => v.version === version);
  if (!source) throw new AppError('NO_RECORD');
  if (source.status === 'draft') throw new AppError('BAD_REQUEST', { reason: 'a draft is published, not rolled back to' });
  if (source.status === 'published') throw new AppError('DATA_NOT_CHANGED');
  const definition = await requirePublishable(ctx, source.content);
  const content = { ...definition, status: 'published' as const };
  const created = await inTransaction(ctx.db, async (trx) => {
    const current = await lockVersions(trx, projectId, key, { module: true });
    const { version: published, previous } = await publishNewVersion(ctx, trx, projectId, key, definition, content, current);
    await recordAudit(ctx, trx, projectId, 'rollback', { key, version: published, details: { from: version, previousVersion: previous?.version ?? null } });
    return published;
  });
  return { version: created };
}

/**
 * `POST /api/generic/status`: takes the project's published version out of use (inactive); the
 * page resolves to the shipped default again, or to nothing.
 */
export async function deactivate(ctx: DesignerContext, key: PageKey): Promise<{ version: number }> {
  const projectId = projectOf(ctx);
  const version = await inTransaction(ctx.db, async (trx) => {
    const published = (await lockVersions(trx, projectId, key, { module: false })).find((v) => v.status === 'published');
    if (!published) throw new AppError('NO_RECORD');
    await setStatus(trx, published.id, 'inactive', ctx.user.loginAccount);
    await recordAudit(ctx, trx, projectId, 'deactivate', { key, version: published.version });
    await ctx.events.emit(trx, 'definition.changed', { projectId, ...key });
    return published.version;
  });
  return { version };
}

/** `POST /api/generic/deletion/header`: deletes a draft; published and inactive versions stay. */
export async function deleteDraft(ctx: DesignerContext, key: PageKey, version: number): Promise<void> {
  const projectId = projectOf(ctx);
  await inTransaction(ctx.db, async (trx) => {
    const row = (await lockVersions(trx, projectId, key, { module: false })).find((v) => v.version === version);
    if (!row) throw new AppError('NO_RECORD');
    if (row.status !== 'draft') throw new AppError('GENERIC_DELETE_PUBLISHED', { version });
    await deleteVersion(trx, row.id);
    await recordAudit(ctx, trx, projectId, 'draft.delete', { key, version, details: { contentHash: row.content_hash } });
  });
}

/** `POST /api/generic/redis/clear`: every node drops its resolved definitions. */
export async function clearDefinitionCache(ctx: DesignerContext): Promise<void> {
  const change: DefinitionChange = { projectId: null, all: true };
  await inTransaction(ctx.db, async (trx) => {
    await recordAudit(ctx, trx, projectOf(ctx), 'cache.clear');
    await ctx.events.emit(trx, 'definition.changed', change);
  });
}

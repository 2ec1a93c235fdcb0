import type { Kysely, Transaction } from 'kysely';
import type { PageDefinition } from '../../../../engine/schema/index.js';
import type { CopyReport, RemappedReference, UnresolvedReference } from '../../../common/designer/api-types.js';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { createProjectLike, findUserProjects, grantProject, requireRight } from '../identity/index.js';
import { contentHash, projectOf, requirePublishable, type DesignerContext } from './designer.context.js';
import { findEffectivePublished, findVersions, type PageKey } from './definition.repository.js';
import { lockVersions, publishNewVersion, recordAudit, writeDraft } from './page-versions.service.js';
import { findProjectByCode, findProjectOrganization, findProjectPageKeys } from './project-copy.repository.js';

export interface CopyOptions {
  /** Copy the pages the sub-pages open as well (default true). */
  withSubPages?: boolean;
  /** Publish the copies at once (default false: they arrive as drafts). */
  publish?: boolean;
}

const keyId = (key: PageKey) => `${key.moduleCode}/${key.functionCode}`;

/** The content a page is copied from: the project's draft, else what it resolves to. */
async function sourceContent(db: Kysely<DB>, projectId: number, key: PageKey): Promise<Record<string, unknown> | undefined> {
  const draft = (await findVersions(db, projectId, key)).find((v) => v.status === 'draft');
  if (draft) return draft.content;
  return (await findEffectivePublished(db, projectId, key))?.content;
}

/**
 * The pages a copy takes: the page and, recursively, the pages its sub-pages open, each with the
 * key it gets in the target (`rename` decides). A sub-page whose page does not exist is reported.
 */
async function collectPages(
  db: Kysely<DB>,
  projectId: number,
  roots: Array<{ from: PageKey; to: PageKey }>,
  withSubPages: boolean,
  rename: (child: PageKey, root: { from: PageKey; to: PageKey }) => PageKey,
): Promise<Array<{ from: PageKey; to: PageKey; content: Record<string, unknown> }>> {
  const taken = new Map<string, { from: PageKey; to: PageKey; content: Record<string, unknown> }>();
  const queue = roots.map((root) => ({ ...root, root }));
  while (queue.length) {
    const next = queue.shift()!;
    if (taken.has(keyId(next.from))) continue;
    const content = await sourceContent(db, projectId, next.from);
    if (!content) {
      if (next.root.from === next.from) throw new AppError('NO_RECORD');
      continue;
    }
    taken.set(keyId(next.from), { from: next.from, to: next.to, content });
    if (!withSubPages || !Array.isArray(content.subPages)) continue;
    for (const sub of content.subPages as Array<{ moduleCode?: unknown; functionCode?: unknown }>) {
      if (typeof sub.moduleCode !== 'string' || typeof sub.functionCode !== 'string') continue;
      const child = { moduleCode: sub.moduleCode, functionCode: sub.functionCode };
      if (!taken.has(keyId(child))) queue.push({ from: child, to: rename(child, next.root), root: next.root });
    }
  }
  return [...taken.values()];
}

/** A label that is a multilingual text code (no dot, so not a locale key) must be in the page's texts. */
function isTextCode(label: string): boolean {
  return !label.includes('.');
}

/**
 * Rewrites one copied document for its target: its own key, its sub-pages' and hyperlinks' keys
 * through `mapping`, and reports every reference remapped or left pointing at nothing.
 */
function remapDocument(
  content: Record<string, unknown>,
  to: PageKey,
  mapping: Map<string, PageKey>,
  exists: (key: PageKey) => boolean,
  report: { projectCode: string; remapped: RemappedReference[]; unresolved: UnresolvedReference[] },
  clearStartup: boolean,
): Record<string, unknown> {
  const doc = structuredClone(content);
  doc.moduleCode = to.moduleCode;
  doc.functionCode = to.functionCode;
  const page = to;
  const follow = (ref: { moduleCode?: unknown; functionCode?: unknown }, path: string) => {
    if (typeof ref.moduleCode !== 'string' || typeof ref.functionCode !== 'string') return;
    const from = { moduleCode: ref.moduleCode, functionCode: ref.functionCode };
    const target = mapping.get(keyId(from));
    if (target) {
      ref.moduleCode = target.moduleCode;
      ref.functionCode = target.functionCode;
      if (keyId(target) !== keyId(from)) report.remapped.push({ projectCode: report.projectCode, page, path, from: keyId(from), to: keyId(target) });
    } else if (!exists(from)) {
      report.unresolved.push({ projectCode: report.projectCode, page, path, reference: keyId(from), reason: 'missingPage' });
    }
  };
  if (Array.isArray(doc.subPages)) doc.subPages.forEach((sub, i) => follow(sub as Record<string, unknown>, `/subPages/${i}`));
  if (Array.isArray(doc.fields)) {
    doc.fields.forEach((field, i) => {
      const link = (field as { hyperlink?: Record<string, unknown> }).hyperlink;
      if (link) follow(link, `/fields/${i}/hyperlink`);
    });
  }
  const texts = (doc.texts ?? {}) as Record<string, unknown>;
  const checkLabel = (label: unknown, path: string) => {
    if (typeof label === 'string' && isTextCode(label) && !(label in texts)) {
      report.unresolved.push({ projectCode: report.projectCode, page, path, reference: label, reason: 'missingText' });
    }
  };
  checkLabel(doc.titleCode, '/titleCode');
  for (const [list, property] of [
    ['fields', 'labelCode'],
    ['behaviours', 'labelCode'],
    ['subPages', 'titleCode'],
    ['queryConditions', 'titleCode'],
    ['fieldMaps', 'titleCode'],
  ] as const) {
    const items = doc[list];
    if (Array.isArray(items)) items.forEach((item, i) => checkLabel((item as Record<string, unknown>)[property], `/${list}/${i}/${property}`));
  }
  if (clearStartup && doc.startup === true) {
    doc.startup = false;
    report.unresolved.push({ projectCode: report.projectCode, page, path: '/startup', reference: keyId(page), reason: 'startupCleared' });
  }
  return doc;
}

interface TargetProject {
  id: number;
  code: string;
}

interface PreparedCopy {
  project: TargetProject;
  from: PageKey;
  to: PageKey;
  content: Record<string, unknown>;
  definition?: PageDefinition;
}

/** Which pages exist for a project: its own versions or shipped defaults. */
async function pageExistence(db: Kysely<DB>, projectId: number): Promise<Set<string>> {
  const rows = await findProjectPageKeys(db, projectId);
  return new Set(rows.map((r) => `${r.module_code}/${r.function_code}`));
}

async function prepare(
  ctx: DesignerContext,
  sourceProjectId: number,
  project: TargetProject,
  pairs: Array<{ from: PageKey; to: PageKey }>,
  options: CopyOptions,
  rename: (child: PageKey, root: { from: PageKey; to: PageKey }) => PageKey,
  report: CopyReport,
  clearStartup: boolean,
): Promise<PreparedCopy[]> {
  const pages = await collectPages(ctx.db, sourceProjectId, pairs, options.withSubPages !== false, rename);
  const mapping = new Map(pages.map((p) => [keyId(p.from), p.to]));
  const existing = await pageExistence(ctx.db, project.id);
  const prepared: PreparedCopy[] = [];
  for (const page of pages) {
    const content = remapDocument(
      page.content,
      page.to,
      mapping,
      (key) => existing.has(keyId(key)),
      { projectCode: project.code, remapped: report.remapped, unresolved: report.unresolved },
      clearStartup,
    );
    if (options.publish) {
      const definition = await requirePublishable(ctx, content, project.id, project.code);
      prepared.push({ project, from: page.from, to: page.to, content: { ...definition, status: 'published' }, definition });
    } else {
      prepared.push({ project, from: page.from, to: page.to, content: { ...content, status: 'draft' } });
    }
  }
  return prepared;
}

/** Writes prepared copies in the caller's transaction: drafts replace drafts; published copies are new versions. */
async function writeCopies(ctx: DesignerContext, trx: Transaction<DB>, sourceProjectId: number, copies: PreparedCopy[], report: CopyReport): Promise<void> {
  for (const copy of copies) {
    const { project, to } = copy;
    const versions = await lockVersions(trx, project.id, to, { module: true });
    const draft = versions.find((v) => v.status === 'draft');
    const version = copy.definition
      ? (await publishNewVersion(ctx, trx, project.id, to, copy.definition, copy.content, versions)).version
      : await writeDraft(ctx, trx, project.id, to, copy.content, contentHash(copy.content), draft);
    report.pages.push({ projectCode: project.code, from: copy.from, to, version, status: copy.definition ? 'published' : 'draft', replacedDraft: Boolean(draft) });
    await recordAudit(ctx, trx, project.id, 'copy', { key: to, version, details: { fromProjectId: sourceProjectId, from: copy.from, published: Boolean(copy.definition) } });
  }
}

/**
 * `POST /api/generic/copy`: a page (with its sub-pages) becomes a new page of the same project.
 * Sub-pages get `<new function>_<their function>` in the new module, and every reference between
 * the copied pages is remapped; the copy of a startup page is not a startup page (one per module).
 */
export async function copyWithinProject(ctx: DesignerContext, from: PageKey, to: PageKey, options: CopyOptions): Promise<CopyReport> {
  const projectId = projectOf(ctx);
  const project = { id: projectId, code: ctx.user.projectCode ?? '' };
  const report: CopyReport = { pages: [], remapped: [], unresolved: [] };
  const rename = (child: PageKey, root: { from: PageKey; to: PageKey }): PageKey => ({
    moduleCode: root.to.moduleCode,
    functionCode: `${root.to.functionCode}_${child.functionCode}`.slice(0, 64),
  });
  const prepared = await prepare(ctx, projectId, project, [{ from, to }], options, rename, report, true);
  const existing = await pageExistence(ctx.db, projectId);
  const clash = prepared.find((p) => existing.has(keyId(p.to)));
  if (clash) throw new AppError('GENERIC_PAGE_EXISTS', { moduleCode: clash.to.moduleCode, functionCode: clash.to.functionCode });
  await inTransaction(ctx.db, (trx) => writeCopies(ctx, trx, projectId, prepared, report));
  return report;
}

/** The projects the caller may copy into, by code; an unknown or ungranted code is refused. */
async function targetProjects(ctx: DesignerContext, codes: string[]): Promise<TargetProject[]> {
  const granted = await findUserProjects(ctx.db, ctx.user.userId, ctx.user.isAdmin);
  return codes.map((code) => {
    const project = granted.find((p) => p.code.toLowerCase() === code.toLowerCase());
    if (!project) throw new AppError('OUT_OF_SCOPE', { project: code });
    return { id: project.id, code: project.code };
  });
}

/**
 * `POST /api/generic/copyToProjectList`: the pages (with their sub-pages) become each listed
 * project's own copy under the same keys, overriding what the project resolved to before.
 */
export async function copyToProjects(ctx: DesignerContext, pages: PageKey[], projectCodes: string[], options: CopyOptions): Promise<CopyReport> {
  const sourceProjectId = projectOf(ctx);
  const projects = await targetProjects(ctx, projectCodes);
  const report: CopyReport = { pages: [], remapped: [], unresolved: [] };
  const prepared: PreparedCopy[] = [];
  for (const project of projects) {
    if (project.id === sourceProjectId) throw new AppError('BAD_REQUEST', { reason: 'copy within the project with /generic/copy' });
    prepared.push(...(await prepareUnderSameKeys(ctx, sourceProjectId, project, pages, options, report)));
  }
  await inTransaction(ctx.db, (trx) => writeCopies(ctx, trx, sourceProjectId, prepared, report));
  return report;
}

/** Copies of the pages (and their sub-pages) under their own keys, for another project. */
function prepareUnderSameKeys(ctx: DesignerContext, sourceProjectId: number, project: TargetProject, pages: PageKey[], options: CopyOptions, report: CopyReport) {
  return prepare(ctx, sourceProjectId, project, pages.map((p) => ({ from: p, to: p })), options, (child) => child, report, false);
}

/**
 * `POST /api/generic/copyToNewProject`: creates a project in the source project's organization
 * (the caller needs `project:add`) and copies the pages into it, in one transaction: a refused
 * copy leaves no project behind.
 */
export async function copyToNewProject(
  ctx: DesignerContext,
  project: { code: string; name: string },
  pages: PageKey[],
  options: CopyOptions,
): Promise<CopyReport & { project: { id: number; code: string } }> {
  const sourceProjectId = projectOf(ctx);
  await requireRight(ctx.db, ctx.user, 'project:add');
  const source = await findProjectOrganization(ctx.db, sourceProjectId);
  const taken = await findProjectByCode(ctx.db, project.code);
  if (taken) throw new AppError('DUPLICATE_VALUE', { field: 'projectCode' });
  // Check every copy before anything is created: a refused copy must not leave a project behind.
  const report: CopyReport = { pages: [], remapped: [], unresolved: [] };
  const target: TargetProject = { id: -1, code: project.code };
  const prepared = await prepareUnderSameKeys(ctx, sourceProjectId, target, pages, options, report);
  await inTransaction(ctx.db, async (trx) => {
    const row = await createProjectLike(trx, { organizationId: source.organization_id, code: project.code, name: project.name, by: ctx.user.loginAccount }, sourceProjectId);
    if (!ctx.user.isAdmin) await grantProject(trx, ctx.user.userId, row.id);
    await recordAudit(ctx, trx, row.id, 'project.create', { details: { fromProjectId: sourceProjectId } });
    target.id = row.id;
    target.code = row.code;
    for (const copy of prepared) copy.project = target;
    await writeCopies(ctx, trx, sourceProjectId, prepared, report);
  });
  return { ...report, project: target };
}

import type { Kysely, Transaction } from 'kysely';
import type { PageDefinition } from '../../../../engine/schema/index.js';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { findUserProjects } from '../access/access.repository.js';
import { requireRight } from '../access/rights.js';
import { insertDesignerAudit } from './designer-audit.repository.js';
import { contentHash, projectOf, requirePublishable, type DesignerContext } from './designer.context.js';
import {
  findEffectiveModulePages,
  findEffectivePublished,
  findVersions,
  insertVersion,
  lockModule,
  lockPage,
  nextVersion,
  setStatus,
  updateDraftContent,
  type PageKey,
} from './definition.repository.js';
import type { DefinitionChange } from '../../events/events.js';
import { inTransaction } from '../../db/transaction.js';
import { findProjectByCode, findProjectOrganization, findProjectPageKeys, grantProjectTo, insertProjectLike } from './project-copy.repository.js';

export interface CopiedPage {
  projectCode: string;
  from: PageKey;
  to: PageKey;
  version: number;
  status: 'draft' | 'published';
  /** The target already had a draft of this page; the copy replaced it. */
  replacedDraft: boolean;
}

/** A reference inside a copied page that now points elsewhere. */
export interface RemappedReference {
  projectCode: string;
  page: PageKey;
  path: string;
  from: string;
  to: string;
}

/** A reference the copy could not make good in the target: the report says where and why. */
export interface UnresolvedReference {
  projectCode: string;
  page: PageKey;
  path: string;
  reference: string;
  reason: 'missingPage' | 'missingText' | 'startupCleared';
}

export interface CopyReport {
  pages: CopiedPage[];
  remapped: RemappedReference[];
  unresolved: UnresolvedReference[];
}

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

/** Writes prepared copies in one transaction: drafts replace drafts; published copies are new versions. */
async function writeCopies(ctx: DesignerContext, sourceProjectId: number, copies: PreparedCopy[], report: CopyReport): Promise<void> {
  await inTransaction(ctx.db, (trx) => writeCopiesIn(ctx, trx, sourceProjectId, copies, report));
}

async function writeCopiesIn(
  ctx: DesignerContext,
  trx: Transaction<DB>,
  sourceProjectId: number,
  copies: PreparedCopy[],
  report: CopyReport,
): Promise<DefinitionChange[]> {
  const changes: DefinitionChange[] = [];
  {
    for (const copy of copies) {
      const { project, to } = copy;
      await lockModule(trx, project.id, to.moduleCode);
      await lockPage(trx, project.id, to);
      const versions = await findVersions(trx, project.id, to);
      const draft = versions.find((v) => v.status === 'draft');
      const hash = contentHash(copy.content);
      let version: number;
      if (copy.definition) {
        if (copy.definition.startup === true) {
          const other = (await findEffectiveModulePages(trx, project.id, to.moduleCode)).find((p) => p.startup && p.function_code !== to.functionCode);
          if (other) throw new AppError('GENERIC_STARTUP_EXISTS', { moduleCode: to.moduleCode, functionCode: other.function_code });
        }
        const published = versions.find((v) => v.status === 'published');
        if (published) await setStatus(trx, published.id, 'inactive', ctx.user.loginAccount);
        version = (await insertVersion(trx, { projectId: project.id, key: to, version: await nextVersion(trx, project.id, to), status: 'published', content: copy.content, contentHash: hash, by: ctx.user.loginAccount })).version;
        await ctx.events.emit(trx, 'definition.changed', { projectId: project.id, ...to });
        changes.push({ projectId: project.id, ...to });
      } else if (draft) {
        await updateDraftContent(trx, draft.id, copy.content, hash, ctx.user.loginAccount);
        version = draft.version;
      } else {
        version = (await insertVersion(trx, { projectId: project.id, key: to, version: await nextVersion(trx, project.id, to), status: 'draft', content: copy.content, contentHash: hash, by: ctx.user.loginAccount })).version;
      }
      report.pages.push({ projectCode: project.code, from: copy.from, to, version, status: copy.definition ? 'published' : 'draft', replacedDraft: Boolean(draft) });
      await insertDesignerAudit(trx, {
        userId: ctx.user.userId,
        loginAccount: ctx.user.loginAccount,
        projectId: project.id,
        action: 'copy',
        moduleCode: to.moduleCode,
        functionCode: to.functionCode,
        version,
        details: { fromProjectId: sourceProjectId, from: copy.from, published: Boolean(copy.definition) },
      });
    }
  }
  return changes;
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
  await writeCopies(ctx, projectId, prepared, report);
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
  return copyInto(ctx, sourceProjectId, projects, pages, options);
}

async function copyInto(ctx: DesignerContext, sourceProjectId: number, projects: TargetProject[], pages: PageKey[], options: CopyOptions): Promise<CopyReport> {
  const report: CopyReport = { pages: [], remapped: [], unresolved: [] };
  const prepared: PreparedCopy[] = [];
  for (const project of projects) {
    if (project.id === sourceProjectId) throw new AppError('BAD_REQUEST', { reason: 'copy within the project with /generic/copy' });
    prepared.push(...(await prepare(ctx, sourceProjectId, project, pages.map((p) => ({ from: p, to: p })), options, (child) => child, report, false)));
  }
  await writeCopies(ctx, sourceProjectId, prepared, report);
  return report;
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
  const prepared = await prepare(ctx, sourceProjectId, target, pages.map((p) => ({ from: p, to: p })), options, (child) => child, report, false);
  await inTransaction(ctx.db, async (trx) => {
    const row = await insertProjectLike(trx, { organizationId: source.organization_id, code: project.code, name: project.name, by: ctx.user.loginAccount }, sourceProjectId);
    if (!ctx.user.isAdmin) await grantProjectTo(trx, ctx.user.userId, row.id);
    await insertDesignerAudit(trx, { userId: ctx.user.userId, loginAccount: ctx.user.loginAccount, projectId: row.id, action: 'project.create', details: { fromProjectId: sourceProjectId } });
    target.id = row.id;
    target.code = row.code;
    for (const copy of prepared) copy.project = target;
    return writeCopiesIn(ctx, trx, sourceProjectId, prepared, report);
  });
  return { ...report, project: target };
}

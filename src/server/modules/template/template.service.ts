import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import type { SessionUser } from '../../http/access.js';
import { requireProject } from '../../http/access-plugin.js';
import { findUserProjects } from '../identity/index.js';
import { defaultTemplate, type TemplateKind } from './template.defaults.js';
import { renderTemplate, validateTemplate, type TemplateInputs, type TemplateJson } from './template.pdf.js';
import {
  deleteJrxml,
  findTemplate,
  insertJrxml,
  insertTemplate,
  insertVersion,
  jrxmlFile,
  jrxmlFilesOf,
  publishedOfKind,
  reportOfProject,
  publishedTemplate,
  templateIdByCode,
  templatesOfProject,
  updateTemplate,
  versionsOf,
  type TemplateRow,
} from './template.repository.js';

/*
 * Document templates (docs/templates.md): a configurator drafts a template of the session's project
 * in the designer and publishes numbered versions; printing uses the published one of its kind, or
 * the shipped one while the project has none.
 */

function projectOf(user: SessionUser): number {
  return requireProject(user).projectId;
}

export interface TemplateConfig {
  id: number;
  code: string;
  kind: string;
  name: string;
  draft: TemplateJson;
  publishedVersion: number | null;
  /** The report a template of kind `report` prints, or null. */
  reportId: number | null;
  updatedAt: string;
  updatedBy: string | null;
}

/** A template as the list shows it: all but its draft. */
export type TemplateSummary = Omit<TemplateConfig, 'draft'>;

function summaryOf(r: Omit<TemplateRow, 'project_id' | 'draft'>): TemplateSummary {
  return { id: r.id, code: r.code, kind: r.kind, name: r.name, publishedVersion: r.published_version, reportId: r.report_id, updatedAt: r.updated_at.toISOString(), updatedBy: r.updated_by };
}

function configOf(row: TemplateRow): TemplateConfig {
  return { ...summaryOf(row), draft: row.draft as TemplateJson };
}

export async function listTemplates(db: Kysely<DB>, user: SessionUser): Promise<TemplateSummary[]> {
  const rows = await templatesOfProject(db, projectOf(user));
  return rows.map(summaryOf);
}

export async function getTemplate(db: Kysely<DB>, user: SessionUser, id: number): Promise<TemplateConfig> {
  const row = await findTemplate(db, projectOf(user), id);
  if (!row) throw new AppError('TEMPLATE_NOT_FOUND');
  return configOf(row);
}

export interface SaveInput {
  id?: number;
  code: string;
  kind: TemplateKind;
  name: string;
  template: unknown;
  /** The report it prints (kind `report` only, a report of the project); null for none, left out to keep it. */
  reportId?: number | null;
}

/** Saves a draft (new or changed) after its JSON passed the checks; publishing is separate. */
export async function saveDraft(trx: Transaction<DB>, user: SessionUser, input: SaveInput): Promise<TemplateConfig> {
  const projectId = projectOf(user);
  const draft = await validateTemplate(input.template);
  if (typeof input.reportId === 'number') {
    if (input.kind !== 'report') throw new AppError('VALIDATION_FAILED', {}, [{ field: 'reportId', code: 'TEMPLATE_INVALID', params: { reason: 'only a report template prints a report' } }]);
    if (!(await reportOfProject(trx, projectId, input.reportId))) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'reportId', code: 'VALUE_INVALID' }]);
  }
  const reportId = input.kind === 'report' ? input.reportId : null;
  const taken = await templateIdByCode(trx, projectId, input.code);
  if (taken && taken.id !== input.id) throw new AppError('TEMPLATE_CODE_TAKEN', { code: input.code });
  const values = { code: input.code, kind: input.kind, name: input.name, draft, reportId, by: user.loginAccount };
  let id = input.id;
  if (id === undefined) id = await insertTemplate(trx, projectId, values);
  else {
    if (!(await findTemplate(trx, projectId, id, true))) throw new AppError('TEMPLATE_NOT_FOUND');
    await updateTemplate(trx, id, values);
  }
  return getTemplate(trx, user, id);
}

/** Publishes the draft, checked again, as the template's next version: the next print uses it. */
export async function publish(trx: Transaction<DB>, user: SessionUser, id: number): Promise<{ version: number }> {
  const row = await findTemplate(trx, projectOf(user), id, true);
  if (!row) throw new AppError('TEMPLATE_NOT_FOUND');
  const template = await validateTemplate(row.draft);
  return { version: await insertVersion(trx, id, template, user.loginAccount) };
}

export async function listVersions(db: Kysely<DB>, user: SessionUser, id: number) {
  const row = await findTemplate(db, projectOf(user), id);
  if (!row) throw new AppError('TEMPLATE_NOT_FOUND');
  const versions = await versionsOf(db, id);
  return versions.map((v) => ({ version: v.version, publishedAt: v.created_at.toISOString(), publishedBy: v.created_by, current: v.version === row.published_version }));
}

/**
 * Copies a template's draft into another project the caller holds, as that project's draft of the
 * same code (a new template, or the draft of the one of that code); it is published there apart.
 */
export async function copyToProject(trx: Transaction<DB>, user: SessionUser, id: number, targetProjectId: number): Promise<{ id: number; projectId: number }> {
  const row = await findTemplate(trx, projectOf(user), id);
  if (!row) throw new AppError('TEMPLATE_NOT_FOUND');
  const held = await findUserProjects(trx, user.userId, user.isAdmin);
  if (!held.some((p) => p.id === targetProjectId)) throw new AppError('FORBIDDEN', { right: 'project' });
  const values = { code: row.code, kind: row.kind, name: row.name, draft: row.draft, by: user.loginAccount };
  const existing = await templateIdByCode(trx, targetProjectId, row.code);
  if (existing) {
    await updateTemplate(trx, existing.id, values);
    return { id: existing.id, projectId: targetProjectId };
  }
  return { id: await insertTemplate(trx, targetProjectId, values), projectId: targetProjectId };
}

/** The projects besides the session's that a template may be copied to: those the caller holds. */
export async function copyTargets(db: Kysely<DB>, user: SessionUser) {
  const projectId = projectOf(user);
  const held = await findUserProjects(db, user.userId, user.isAdmin);
  return held.filter((p) => p.id !== projectId).map((p) => ({ id: p.id, code: p.code, name: p.name }));
}

/** The template a preview renders: the draft (for its designer) or the published version. */
export async function templateToRender(db: Kysely<DB>, user: SessionUser, id: number, draft: boolean): Promise<TemplateJson> {
  const projectId = projectOf(user);
  if (draft) {
    const row = await findTemplate(db, projectId, id);
    if (!row) throw new AppError('TEMPLATE_NOT_FOUND');
    return validateTemplate(row.draft);
  }
  const published = await publishedTemplate(db, projectId, id);
  if (!published) {
    if (!(await findTemplate(db, projectId, id))) throw new AppError('TEMPLATE_NOT_FOUND');
    throw new AppError('TEMPLATE_NOT_PUBLISHED');
  }
  return published.template as TemplateJson;
}

/**
 * Prints documents of a kind for a project: of its templates of that kind, the one published last,
 * else the shipped one. Read at every print, so a newly published version prints next.
 */
/**
 * The documents printed through the project's published template of the kind, or null while none is
 * published: the caller then prints its own layout, which writes each run of text in the font of its
 * script (a pdfme field prints in one font, so a table mixing Thai and Chinese descriptions needs a
 * template whose fields a configurator chose the fonts of).
 */
export async function printPublished(db: Kysely<DB>, projectId: number, kind: TemplateKind, documents: readonly TemplateInputs[], language: Language): Promise<Buffer | null> {
  const published = await publishedOfKind(db, projectId, kind);
  return published ? renderTemplate(published.template as TemplateJson, documents, language) : null;
}

export async function printDocuments(db: Kysely<DB>, projectId: number, kind: TemplateKind, documents: readonly TemplateInputs[], language: Language): Promise<Buffer> {
  const published = await publishedOfKind(db, projectId, kind);
  const template = published ? (published.template as TemplateJson) : await defaultTemplate(kind);
  return renderTemplate(template, documents, language);
}

/** A template as other areas choose it for printing: the project's templates with their kind and published version. */
export interface PrintableTemplate {
  id: number;
  code: string;
  kind: TemplateKind;
  name: string;
  publishedVersion: number | null;
  /** The report a template of kind `report` prints, or null. */
  reportId: number | null;
}

/** The templates of a project, for choosing what an automatic print uses. */
export async function templatesForPrinting(db: Kysely<DB>, projectId: number): Promise<PrintableTemplate[]> {
  const rows = await templatesOfProject(db, projectId);
  return rows.map((r) => ({ id: r.id, code: r.code, kind: r.kind as TemplateKind, name: r.name, publishedVersion: r.published_version, reportId: r.report_id }));
}

/** One template of a project, or undefined when the project has no template of that id. */
export async function templateForPrinting(db: Kysely<DB>, projectId: number, id: number): Promise<PrintableTemplate | undefined> {
  const row = await findTemplate(db, projectId, id);
  return row ? { id: row.id, code: row.code, kind: row.kind as TemplateKind, name: row.name, publishedVersion: row.published_version, reportId: row.report_id } : undefined;
}

/**
 * Renders documents with one template of the project, its version published last (read at every
 * print). A template with no published version answers TEMPLATE_NOT_PUBLISHED; one the project
 * does not have, TEMPLATE_NOT_FOUND.
 */
export async function printWithTemplate(db: Kysely<DB>, projectId: number, id: number, documents: readonly TemplateInputs[], language: Language): Promise<Buffer> {
  const published = await publishedTemplate(db, projectId, id);
  if (!published) {
    if (!(await findTemplate(db, projectId, id))) throw new AppError('TEMPLATE_NOT_FOUND');
    throw new AppError('TEMPLATE_NOT_PUBLISHED');
  }
  return renderTemplate(published.template as TemplateJson, documents, language);
}

/** Largest .jrxml file kept. */
export const JRXML_MAX_BYTES = 1024 * 1024;

/**
 * Whether a file is a Jasper report design: well-formed XML (every element closed in order, one
 * root) whose root is `jasperReport`. Comments, CDATA sections, processing instructions and the
 * document type are skipped.
 */
export function checkJrxml(content: Buffer): void {
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\uFFFD')) throw new AppError('JRXML_INVALID', { reason: 'not UTF-8' });
  const body = text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '')
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/i, '');
  const stack: string[] = [];
  let root: string | null = null;
  let roots = 0;
  const tag = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<|>/g;
  let match: RegExpExecArray | null;
  while ((match = tag.exec(body))) {
    const [whole, closing, name, , selfClosing] = match;
    if (whole === '<') throw new AppError('JRXML_INVALID', { reason: `malformed tag at ${match.index}` });
    if (whole === '>') continue;
    if (stack.length === 0) {
      if (closing) throw new AppError('JRXML_INVALID', { reason: `</${name}> without start` });
      roots += 1;
      root = name;
    }
    if (closing) {
      if (stack.pop() !== name) throw new AppError('JRXML_INVALID', { reason: `</${name}> does not close its element` });
    } else if (!selfClosing) stack.push(name);
  }
  if (stack.length) throw new AppError('JRXML_INVALID', { reason: `<${stack[stack.length - 1]}> not closed` });
  if (roots !== 1 || root !== 'jasperReport') throw new AppError('JRXML_INVALID', { reason: 'root element is not jasperReport' });
}

export async function listJrxml(db: Kysely<DB>, user: SessionUser) {
  const rows = await jrxmlFilesOf(db, projectOf(user));
  return rows.map((r) => ({ id: r.id, fileName: r.file_name, size: r.size, uploadedAt: r.created_at.toISOString(), uploadedBy: r.created_by }));
}

export async function storeJrxml(trx: Transaction<DB>, user: SessionUser, fileName: string, content: Buffer): Promise<{ id: number }> {
  const projectId = projectOf(user);
  if (!/\.jrxml$/i.test(fileName) || fileName.length > 200) throw new AppError('JRXML_INVALID', { reason: 'file name must end in .jrxml' });
  if (content.length > JRXML_MAX_BYTES) throw new AppError('JRXML_TOO_LARGE', { limit: '1 MB' });
  checkJrxml(content);
  return { id: await insertJrxml(trx, projectId, fileName, content, user.loginAccount) };
}

export async function readJrxml(db: Kysely<DB>, user: SessionUser, id: number) {
  const row = await jrxmlFile(db, projectOf(user), id);
  if (!row) throw new AppError('JRXML_NOT_FOUND');
  return row;
}

export async function removeJrxml(trx: Transaction<DB>, user: SessionUser, id: number): Promise<{ deleted: number }> {
  const deleted = await deleteJrxml(trx, projectOf(user), id);
  if (!deleted) throw new AppError('JRXML_NOT_FOUND');
  return { deleted };
}

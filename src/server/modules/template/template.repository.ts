import { sql, type Kysely, type Transaction } from 'kysely';
import { publishNextVersion } from '../../db/row-writes.js';
import type { DB } from '../../db/schema.js';

/** The template area's SQL: document templates, their versions and the stored .jrxml files. */

const COLUMNS = ['id', 'project_id', 'code', 'kind', 'name', 'draft', 'published_version', 'report_id', 'updated_at', 'updated_by'] as const;

export function templatesOfProject(db: Kysely<DB>, projectId: number) {
  return db.selectFrom('doc_template').select(['id', 'code', 'kind', 'name', 'published_version', 'report_id', 'updated_at', 'updated_by']).where('project_id', '=', projectId).orderBy('kind').orderBy('code').execute();
}

export function findTemplate(db: Kysely<DB>, projectId: number, id: number, forUpdate = false) {
  let query = db.selectFrom('doc_template').select(COLUMNS).where('project_id', '=', projectId).where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}
export type TemplateRow = NonNullable<Awaited<ReturnType<typeof findTemplate>>>;

export function templateIdByCode(db: Kysely<DB>, projectId: number, code: string) {
  return db.selectFrom('doc_template').select('id').where('project_id', '=', projectId).where('code', '=', code).executeTakeFirst();
}

export interface TemplateValues {
  code: string;
  kind: string;
  name: string;
  draft: unknown;
  /** The report a template of kind `report` prints; left out, a save keeps the one it had. */
  reportId?: number | null;
  by: string;
}

export async function insertTemplate(trx: Transaction<DB>, projectId: number, v: TemplateValues): Promise<number> {
  const row = await trx
    .insertInto('doc_template')
    .values({ project_id: projectId, code: v.code, kind: v.kind, name: v.name, draft: JSON.stringify(v.draft), report_id: v.reportId ?? null, created_by: v.by, updated_by: v.by })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTemplate(trx: Transaction<DB>, id: number, v: TemplateValues): Promise<void> {
  await trx
    .updateTable('doc_template')
    .set({ code: v.code, kind: v.kind, name: v.name, draft: JSON.stringify(v.draft), ...(v.reportId !== undefined ? { report_id: v.reportId } : {}), updated_by: v.by, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Whether a report is one of the project's (read model `template.reportOfProject`). */
export async function reportOfProject(db: Kysely<DB>, projectId: number, reportId: number): Promise<boolean> {
  const row = await db.selectFrom('report_definition').select('id').where('project_id', '=', projectId).where('id', '=', reportId).executeTakeFirst();
  return row !== undefined;
}

export async function insertVersion(trx: Transaction<DB>, templateId: number, template: unknown, by: string): Promise<number> {
  return publishNextVersion(trx, 'doc_template', templateId, { table: 'doc_template_version', documentColumn: 'template_id', contentColumn: 'template' }, template, by);
}

export function versionsOf(db: Kysely<DB>, templateId: number) {
  return db.selectFrom('doc_template_version').select(['version', 'created_at', 'created_by']).where('template_id', '=', templateId).orderBy('version', 'desc').execute();
}

/** The project's templates with the JSON of their published version. */
function publishedTemplates(db: Kysely<DB>, projectId: number) {
  return db
    .selectFrom('doc_template as t')
    .innerJoin('doc_template_version as v', (join) => join.onRef('v.template_id', '=', 't.id').onRef('v.version', '=', 't.published_version'))
    .select(['t.id', 't.code', 'v.version', 'v.template'])
    .where('t.project_id', '=', projectId);
}

/** The published template JSON of a template of the project. */
export function publishedTemplate(db: Kysely<DB>, projectId: number, id: number) {
  return publishedTemplates(db, projectId).where('t.id', '=', id).executeTakeFirst();
}

/** The template that prints the project's documents of a kind: of those published, the one published last. */
export function publishedOfKind(db: Kysely<DB>, projectId: number, kind: string) {
  return publishedTemplates(db, projectId)
    .where('t.kind', '=', kind)
    .orderBy('v.created_at', 'desc')
    .orderBy('v.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function jrxmlFilesOf(db: Kysely<DB>, projectId: number) {
  return db.selectFrom('jrxml_file').select(['id', 'file_name', 'size', 'created_at', 'created_by']).where('project_id', '=', projectId).orderBy('file_name').orderBy('id').execute();
}

export function jrxmlFile(db: Kysely<DB>, projectId: number, id: number) {
  return db.selectFrom('jrxml_file').select(['id', 'file_name', 'content']).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export async function insertJrxml(trx: Transaction<DB>, projectId: number, fileName: string, content: Buffer, by: string): Promise<number> {
  const row = await trx
    .insertInto('jrxml_file')
    .values({ project_id: projectId, file_name: fileName, size: content.length, content, created_by: by, updated_by: by })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteJrxml(trx: Transaction<DB>, projectId: number, id: number): Promise<number> {
  const result = await trx.deleteFrom('jrxml_file').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

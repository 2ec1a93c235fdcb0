import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import { findInScope } from '../../db/scoped-rows.js';
import type { ImportTemplateColumnTable, ImportTemplateTable } from './imports.tables.js';
import './imports.tables.js';

/** The import templates' SQL. */

export type TemplateRow = Selectable<ImportTemplateTable>;
export type TemplateColumnRow = Selectable<ImportTemplateColumnTable>;

/** The active templates of a project that add rows to this page, in display order. */
export async function templatesForPage(db: Kysely<DB>, projectId: number, moduleCode: string, functionCode: string): Promise<TemplateRow[]> {
  return db
    .selectFrom('import_template')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('module_code', '=', moduleCode)
    .where('function_code', '=', functionCode)
    .where('active', '=', true)
    .orderBy('display_seq')
    .orderBy('code')
    .execute();
}

export async function findTemplate(db: Kysely<DB>, projectId: number, id: number): Promise<TemplateRow | undefined> {
  return findInScope(db, 'import_template', { projectId }, id);
}

export async function templateColumns(db: Kysely<DB>, templateId: number): Promise<TemplateColumnRow[]> {
  return db.selectFrom('import_template_column').selectAll().where('template_id', '=', templateId).orderBy('seq').orderBy('id').execute();
}

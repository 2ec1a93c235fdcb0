import type { ColumnType } from 'kysely';
import type { Audit, Id } from '../../db/schema.js';

/** Document templates, their published versions and the stored .jrxml files (migrations 0372, 0376). */
declare module '../../db/schema.js' {
  interface DB {
    doc_template: DocTemplateTable;
    doc_template_version: DocTemplateVersionTable;
    jrxml_file: JrxmlFileTable;
  }
}

/** jsonb: written as JSON text, read as the parsed document. */
type Json<T> = ColumnType<T, string, string>;

export interface DocTemplateTable extends Audit {
  id: Id;
  project_id: number;
  code: string;
  kind: string;
  name: string;
  draft: Json<unknown>;
  published_version: number | null;
  /** The report a template of kind `report` prints. */
  report_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface DocTemplateVersionTable extends Audit {
  id: Id;
  template_id: number;
  version: number;
  template: Json<unknown>;
}

export interface JrxmlFileTable extends Audit {
  id: Id;
  project_id: number;
  file_name: string;
  size: number;
  content: Buffer;
}

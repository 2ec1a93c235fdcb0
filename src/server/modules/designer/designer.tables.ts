import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id } from '../../db/schema.js';

/** The tables of the designer area; its migrations create them. */
declare module '../../db/schema.js' {
  interface DB {
    designer_audit: DesignerAuditTable;
    page_definition: PageDefinitionTable;
  }
}

/** The designer's audit trail (migration 0040): who changed which definition, when, what. */
export interface DesignerAuditTable {
  id: Id;
  at: Generated<Date>;
  user_id: number | null;
  login_account: string;
  project_id: number | null;
  action: string;
  module_code: string | null;
  function_code: string | null;
  version: number | null;
  details: ColumnType<unknown, string | null, string | null> | null;
}

/** One stored version of a page definition (migration 0010; docs/architecture.md, "The engine"). */
export interface PageDefinitionTable extends Audit {
  id: Id;
  /** null: a shipped default synced from definitions/. */
  project_id: number | null;
  module_code: string;
  function_code: string;
  version: number;
  status: 'draft' | 'published' | 'inactive';
  /** jsonb: written as JSON text, read as the parsed document. */
  content: ColumnType<unknown, string, string>;
  content_hash: string;
}

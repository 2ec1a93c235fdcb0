import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id } from '../../db/schema.js';

/** Import templates ("report setting and import template"). */
declare module '../../db/schema.js' {
  interface DB {
    import_template: ImportTemplateTable;
    import_template_column: ImportTemplateColumnTable;
  }
}

export type ImportFileType = 'xlsx' | 'csv' | 'fixed';

export interface ImportTemplateTable extends Audit {
  id: Id;
  project_id: number;
  code: string;
  /** Names in the four languages of the spec. */
  name_en: string;
  name_zh: string | null;
  name_zh_tw: string | null;
  name_jp: string | null;
  display_seq: Generated<number>;
  calculate_type: string | null;
  customer_code: string | null;
  project_code: string | null;
  /** The page definition the rows are added to. */
  module_code: string;
  function_code: string;
  file_type: ColumnType<ImportFileType, ImportFileType, ImportFileType>;
  /** Default '/'; null: no delimiter (one value per line); 'Blank': a space. */
  delimiter: string | null;
  with_header: Generated<boolean>;
  start_row: Generated<number>;
  active: Generated<boolean>;
}

export interface ImportTemplateColumnTable extends Audit {
  id: Id;
  project_id: number;
  template_id: number;
  seq: Generated<number>;
  /** The target page's field. */
  field_name: string;
  /** Header text or 1-based column number in the file (xlsx, csv). */
  source_column: string | null;
  unique_key: Generated<boolean>;
  data_type: Generated<string>;
  length: number | null;
  decimals: number | null;
  date_format: string | null;
  /** 1-based first and last character of the value (fixed width). */
  start_pos: number | null;
  end_pos: number | null;
  default_value: string | null;
  range_min: string | null;
  range_max: string | null;
  mandatory: Generated<boolean>;
  /** Other source columns joined to this one with a space, e.g. "3+4". */
  combined_fields: string | null;
}

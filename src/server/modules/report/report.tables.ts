import type { ColumnType } from 'kysely';
import type { Audit, Id } from '../../db/schema.js';

/** Configured reports, their published versions and assignments, and each project's dashboard (migration 0370). */
declare module '../../db/schema.js' {
  interface DB {
    report_definition: ReportDefinitionTable;
    report_version: ReportVersionTable;
    report_assignment: ReportAssignmentTable;
    report_dashboard: ReportDashboardTable;
  }
}

/** jsonb: written as JSON text, read as the parsed document. */
type Json<T> = ColumnType<T, string, string>;

export interface ReportDefinitionTable extends Audit {
  id: Id;
  project_id: number;
  code: string;
  names: Json<Record<string, string>>;
  display_order: ColumnType<number, number | undefined, number>;
  draft: Json<unknown>;
  published_version: number | null;
}

export interface ReportVersionTable extends Audit {
  id: Id;
  report_id: number;
  version: number;
  spec: Json<unknown>;
}

export interface ReportAssignmentTable extends Audit {
  id: Id;
  report_id: number;
  kind: 'organization' | 'project' | 'user';
  target_id: number;
}

export interface ReportDashboardTable extends Audit {
  id: Id;
  project_id: number;
  draft: Json<unknown>;
  published: ColumnType<unknown, string | null, string | null>;
  published_version: number | null;
}

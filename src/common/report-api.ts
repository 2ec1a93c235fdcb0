/** What the report calls (`/report/*`) take and answer, on server and screen alike (docs/reports.md). */

export type ReportColumnType = 'text' | 'number' | 'date' | 'datetime';
export type ReportParamType = 'text' | 'number' | 'date';
export type ReportAggregate = 'sum' | 'count' | 'avg';

/** A column of the report's answer: the SQL's column name, its header in the six languages, type and format. */
export interface ReportColumn {
  name: string;
  labels: Record<string, string>;
  type: ReportColumnType;
  /** Decimals of a number column (0-6); left out: as the database answers it. */
  decimals?: number;
}

/** A `:name` parameter of the SQL, shown as a field of the search form. */
export interface ReportParam {
  name: string;
  labels: Record<string, string>;
  type: ReportParamType;
  required?: boolean;
}

/** A group total: the rows grouped by `groupBy`, each column of `totals` summed, counted or averaged. */
export interface ReportGrouping {
  groupBy: string;
  totals: Array<{ column: string; aggregate: ReportAggregate }>;
}

/** What is drafted and published: everything but names, order and assignments. */
export interface ReportSpec {
  sql: string;
  params: ReportParam[];
  columns: ReportColumn[];
  grouping?: ReportGrouping | null;
}

export interface ReportAssignments {
  organizationIds: number[];
  projectIds: number[];
  userIds: number[];
}

/** A report as the configurator edits it. */
export interface ReportConfig {
  id: number;
  code: string;
  names: Record<string, string>;
  displayOrder: number;
  draft: ReportSpec;
  publishedVersion: number | null;
  assignments: ReportAssignments;
  updatedAt: string;
}

/** A published report an operator may run. */
export interface RunnableReport {
  id: number;
  code: string;
  name: string;
  displayOrder: number;
  version: number;
  spec: ReportSpec;
}

export interface ReportGroupTotal {
  group: string | number | null;
  values: Record<string, string | number | null>;
}

export interface ReportPageAnswer {
  columns: ReportColumn[];
  rows: Array<Record<string, unknown>>;
  total: number;
  groups: ReportGroupTotal[];
  version: number | null;
}

export type DashboardWidgetKind = 'number' | 'chart' | 'table';

/** A widget of a dashboard: a published report shown as a number, a chart or a table. */
export interface DashboardWidget {
  kind: DashboardWidgetKind;
  reportId: number;
  title: Record<string, string>;
  /** The column whose first value is the number, or the chart's values. */
  valueColumn?: string;
  /** The chart's categories. */
  labelColumn?: string;
  chart?: 'bar' | 'line' | 'pie';
}

/** A widget with its data, as the dashboard shows it. */
export interface DashboardWidgetData extends DashboardWidget {
  columns: ReportColumn[];
  rows: Array<Record<string, unknown>>;
  error?: string;
}

/** Reports above this many rows export in the background into the download center. */
export const REPORT_DIRECT_EXPORT_ROWS = 5000;

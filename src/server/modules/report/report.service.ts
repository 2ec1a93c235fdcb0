import type { Kysely, Transaction } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import {
  REPORT_DIRECT_EXPORT_ROWS,
  type DashboardWidget,
  type DashboardWidgetData,
  type ReportAssignments,
  type ReportConfig,
  type ReportGroupTotal,
  type ReportPageAnswer,
  type ReportSpec,
  type RunnableReport,
} from '../../../common/report-api.js';
import type { DB } from '../../db/schema.js';
import { renderTableFile, type TableFileFormat } from '../../files/table-file.js';
import type { SessionUser } from '../../http/access.js';
import { requireProject } from '../../http/access-plugin.js';
import { GROUPS_MAX, reportCount, reportGroupTotals, reportRows, type RowOrder } from './report-rows.repository.js';
import { boundSql, checkReportSql, inReportSandbox, isReservedParam, sqlParams } from './report.sql.js';
import {
  assignmentsOf,
  dashboardOf,
  definitionsOfProject,
  findDefinition,
  heldProjects,
  insertDefinition,
  insertVersion,
  publishDashboardDraft,
  replaceAssignments,
  reportIdByCode,
  updateDefinition,
  upsertDashboardDraft,
  runnableReports,
  versionsOf,
  type DefinitionRow,
} from './report.repository.js';

/*
 * Configured reports (docs/reports.md): a configurator drafts a report of the session's project
 * and publishes numbered versions; operators run the published one, a page at a time with its
 * group totals, and export it. Every run goes through the configurator SQL sandbox.
 */

const NAME = /^[a-z_][a-z0-9_]*$/i;
/** Rows of one page at most, and of one export. */
export const REPORT_PAGE_MAX = 100;
export const REPORT_EXPORT_MAX = 100_000;
const BATCH = 1000;

function projectOf(user: SessionUser): number {
  return requireProject(user).projectId;
}

function nameIn(names: Record<string, string>, language: Language): string {
  return names[language] || names.en || Object.values(names).find(Boolean) || '';
}

/** Refuses a spec whose columns, parameters or totals do not fit each other, with every problem. */
export function validateSpec(spec: ReportSpec): void {
  const problems: FieldError[] = [];
  const columns = new Map(spec.columns.map((c) => [c.name, c]));
  spec.columns.forEach((c, i) => {
    if (!NAME.test(c.name)) problems.push({ field: `columns.${i}.name`, code: 'REPORT_SPEC_INVALID', params: { reason: c.name } });
  });
  if (columns.size !== spec.columns.length) problems.push({ field: 'columns', code: 'REPORT_SPEC_INVALID', params: { reason: 'duplicate column' } });
  const used = sqlParams(spec.sql);
  spec.params.forEach((p, i) => {
    if (!NAME.test(p.name) || isReservedParam(p.name) || !used.includes(p.name)) problems.push({ field: `params.${i}.name`, code: 'REPORT_SPEC_INVALID', params: { reason: p.name } });
  });
  for (const name of used) {
    if (!isReservedParam(name) && !spec.params.some((p) => p.name === name)) problems.push({ field: 'params', code: 'REPORT_SPEC_INVALID', params: { reason: `:${name}` } });
  }
  if (spec.grouping) {
    if (!columns.has(spec.grouping.groupBy)) problems.push({ field: 'grouping.groupBy', code: 'REPORT_SPEC_INVALID', params: { reason: spec.grouping.groupBy } });
    spec.grouping.totals.forEach((t, i) => {
      const column = columns.get(t.column);
      if (!column || (t.aggregate !== 'count' && column.type !== 'number')) problems.push({ field: `grouping.totals.${i}`, code: 'REPORT_SPEC_INVALID', params: { reason: t.column } });
    });
  }
  if (problems.length) throw new AppError('VALIDATION_FAILED', {}, problems);
}

function configOf(row: DefinitionRow, assignments: ReportAssignments): ReportConfig {
  return {
    id: row.id,
    code: row.code,
    names: row.names,
    displayOrder: row.display_order,
    draft: row.draft as ReportSpec,
    publishedVersion: row.published_version,
    assignments,
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function listConfigs(db: Kysely<DB>, user: SessionUser): Promise<ReportConfig[]> {
  const rows = await definitionsOfProject(db, projectOf(user));
  const assignments = await assignmentsOf(db, rows.map((r) => r.id));
  return rows.map((row) => configOf(row, assignments.get(row.id)!));
}

export async function getConfig(db: Kysely<DB>, user: SessionUser, id: number): Promise<ReportConfig> {
  const row = await findDefinition(db, projectOf(user), id);
  if (!row) throw new AppError('REPORT_NOT_FOUND');
  return configOf(row, (await assignmentsOf(db, [id])).get(id)!);
}

export interface SaveInput {
  id?: number;
  code: string;
  names: Record<string, string>;
  displayOrder?: number;
  draft: ReportSpec;
  assignments?: Partial<ReportAssignments>;
}

/** Checks a spec before anything is written: its shape, then its SQL compiled in the sandbox (never inside a write transaction). */
export async function checkSpec(db: Kysely<DB>, user: SessionUser, spec: ReportSpec): Promise<void> {
  projectOf(user);
  validateSpec(spec);
  await checkReportSql(db, user, spec);
}

/** Saves the draft (new or changed), checked before with `checkSpec`; publishing is separate. */
export async function saveDraft(trx: Transaction<DB>, user: SessionUser, input: SaveInput): Promise<ReportConfig> {
  const projectId = projectOf(user);
  const assignments: ReportAssignments = { organizationIds: [], projectIds: [], userIds: [], ...input.assignments };
  const held = await heldProjects(trx, user.userId, assignments.projectIds);
  if (!user.isAdmin && assignments.projectIds.some((p) => !held.has(p))) throw new AppError('FORBIDDEN', { right: 'project' });
  const taken = await reportIdByCode(trx, projectId, input.code);
  if (taken && taken.id !== input.id) throw new AppError('REPORT_CODE_TAKEN', { code: input.code });
  const values = { code: input.code, names: input.names, displayOrder: input.displayOrder ?? 0, draft: input.draft, by: user.loginAccount };
  let id = input.id;
  if (id === undefined) {
    id = await insertDefinition(trx, projectId, values);
  } else {
    if (!(await findDefinition(trx, projectId, id, true))) throw new AppError('REPORT_NOT_FOUND');
    await updateDefinition(trx, id, values);
  }
  await replaceAssignments(trx, id, assignments, user.loginAccount);
  return getConfig(trx, user, id);
}

/** The draft about to be published, checked as a save checks it. */
export async function draftToPublish(db: Kysely<DB>, reportDb: Kysely<DB>, user: SessionUser, id: number): Promise<ReportSpec> {
  const row = await findDefinition(db, projectOf(user), id);
  if (!row) throw new AppError('REPORT_NOT_FOUND');
  await checkSpec(reportDb, user, row.draft as ReportSpec);
  return row.draft as ReportSpec;
}

/** Publishes the checked draft as the next version; operators run it from now on. A draft changed meanwhile is published only by trying again. */
export async function publish(trx: Transaction<DB>, user: SessionUser, id: number, checked: ReportSpec): Promise<{ version: number }> {
  const row = await findDefinition(trx, projectOf(user), id, true);
  if (!row) throw new AppError('REPORT_NOT_FOUND');
  const spec = row.draft as ReportSpec;
  if (JSON.stringify(spec) !== JSON.stringify(checked)) throw new AppError('REPORT_SPEC_INVALID', { reason: 'changed' });
  return { version: await insertVersion(trx, id, spec, user.loginAccount) };
}

export async function listVersions(db: Kysely<DB>, user: SessionUser, id: number) {
  const row = await findDefinition(db, projectOf(user), id);
  if (!row) throw new AppError('REPORT_NOT_FOUND');
  const versions = await versionsOf(db, id);
  return versions.map((v) => ({ version: v.version, spec: v.spec as ReportSpec, publishedAt: v.created_at.toISOString(), publishedBy: v.created_by, current: v.version === row.published_version }));
}

export async function listRunnable(db: Kysely<DB>, user: SessionUser, language: Language): Promise<RunnableReport[]> {
  projectOf(user);
  const rows = await runnableReports(db, user);
  return rows.map((r) => ({ id: r.id, code: r.code, name: nameIn(r.names, language), displayOrder: r.display_order, version: r.version, spec: r.spec as ReportSpec }));
}

/** The spec a run uses: the published version, or the draft for its configurator. */
export async function specToRun(db: Kysely<DB>, user: SessionUser, id: number, draft: boolean): Promise<{ spec: ReportSpec; version: number | null; code: string; name: Record<string, string> }> {
  if (draft) {
    const row = await findDefinition(db, projectOf(user), id);
    if (!row) throw new AppError('REPORT_NOT_FOUND');
    return { spec: row.draft as ReportSpec, version: null, code: row.code, name: row.names };
  }
  projectOf(user);
  const [row] = await runnableReports(db, user, id);
  if (!row) throw new AppError('REPORT_NOT_FOUND');
  return { spec: row.spec as ReportSpec, version: row.version, code: row.code, name: row.names };
}

/** The search form's values, checked against the parameters' types; an empty value is null. */
export function paramValues(spec: ReportSpec, given: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const problems: FieldError[] = [];
  for (const param of spec.params) {
    const raw = given[param.name];
    const text = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : '';
    if (text === '') {
      if (param.required) problems.push({ field: `params.${param.name}`, code: 'FIELD_REQUIRED' });
      values[param.name] = null;
      continue;
    }
    if (param.type === 'number' && !/^-?\d{1,15}(\.\d{1,6})?$/.test(text)) problems.push({ field: `params.${param.name}`, code: 'VALUE_INVALID' });
    if (param.type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(text)) problems.push({ field: `params.${param.name}`, code: 'VALUE_INVALID' });
    values[param.name] = text;
  }
  if (problems.length) throw new AppError('VALIDATION_FAILED', {}, problems);
  return values;
}

export interface RunInput {
  params: Record<string, unknown>;
  page: number;
  pageSize: number;
  sort?: { column: string; desc?: boolean };
}

export function orderOf(spec: ReportSpec, sort: RunInput['sort']): RowOrder | undefined {
  if (!sort) return undefined;
  if (!spec.columns.some((c) => c.name === sort.column)) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'sort.column', code: 'VALUE_INVALID' }]);
  return { column: sort.column, desc: sort.desc === true };
}

/** One page of the report's rows, the total count and the group totals, in one sandboxed read. */
export async function runPage(db: Kysely<DB>, user: SessionUser, spec: ReportSpec, version: number | null, input: RunInput): Promise<ReportPageAnswer> {
  const values = paramValues(spec, input.params);
  const order = orderOf(spec, input.sort);
  const pageSize = Math.min(Math.max(input.pageSize, 1), REPORT_PAGE_MAX);
  const offset = (Math.max(input.page, 1) - 1) * pageSize;
  return inReportSandbox(db, user, spec, async (trx) => {
    const base = boundSql(spec, user, values);
    const rows = await reportRows(trx, base, order, pageSize, offset);
    const grouped = spec.grouping ? await reportGroupTotals(trx, base, spec.grouping) : [];
    // A first page that is not full is the whole answer; every group's count adds up to the total
    // when all groups were answered: nothing left to count.
    const total =
      offset === 0 && rows.length < pageSize
        ? rows.length
        : spec.grouping && grouped.length < GROUPS_MAX
          ? grouped.reduce((sum, row) => sum + Number(row.n), 0)
          : await reportCount(trx, base);
    return { columns: spec.columns, rows: rows.map((row) => pick(spec, row)), total, groups: groupTotals(spec, grouped), version };
  });
}

/** Only the report's columns, in its order. */
function pick(spec: ReportSpec, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of spec.columns) out[c.name] = row[c.name] ?? null;
  return out;
}

function groupTotals(spec: ReportSpec, rows: Array<Record<string, unknown>>): ReportGroupTotal[] {
  const grouping = spec.grouping;
  if (!grouping) return [];
  return rows.map((row) => ({
    group: (row.g ?? null) as string | number | null,
    values: Object.fromEntries(grouping.totals.map((t, i) => [`${t.column}:${t.aggregate}`, (row[`t${i}`] ?? null) as string | number | null])),
  }));
}

export interface ExportPlan {
  title: string;
  fileBase: string;
  total: number;
  render(format: TableFileFormat, progress: (rows: number) => void): Promise<{ content: Buffer; rows: number }>;
}

/** Counts the rows first (checking everything a run checks); the file is rendered afterwards, in one sandboxed read. */
export async function planExport(db: Kysely<DB>, user: SessionUser, run: { spec: ReportSpec; code: string; name: Record<string, string> }, input: Omit<RunInput, 'page' | 'pageSize'>, language: Language): Promise<ExportPlan> {
  const { spec } = run;
  const values = paramValues(spec, input.params);
  const order = orderOf(spec, input.sort);
  const counted = await inReportSandbox(db, user, spec, (trx) => reportCount(trx, boundSql(spec, user, values)));
  const total = Math.min(counted, REPORT_EXPORT_MAX);
  const columns = spec.columns.map((c) => ({ key: c.name, header: nameIn(c.labels, language) || c.name, numeric: c.type === 'number' }));
  return {
    title: nameIn(run.name, language) || run.code,
    fileBase: run.code,
    total,
    render: (format, progress) =>
      inReportSandbox(db, user, spec, (trx) => {
        const base = boundSql(spec, user, values);
        async function* batches() {
          for (let offset = 0; offset < total; offset += BATCH) {
            const rows = await reportRows(trx, base, order, Math.min(BATCH, total - offset), offset);
            if (!rows.length) return;
            yield rows;
            if (rows.length < BATCH) return;
          }
        }
        return renderTableFile(nameIn(run.name, language) || run.code, columns, batches(), format, progress);
      }),
  };
}

export function exportsInBackground(plan: ExportPlan): boolean {
  return plan.total > REPORT_DIRECT_EXPORT_ROWS;
}

/** The dashboard of the session's project: its draft for the configurator, or the published one. */
export async function getDashboard(db: Kysely<DB>, user: SessionUser, draft: boolean): Promise<{ widgets: DashboardWidget[]; version: number | null }> {
  const row = await dashboardOf(db, projectOf(user));
  const widgets = (draft ? row?.draft : row?.published) as DashboardWidget[] | null | undefined;
  return { widgets: widgets ?? [], version: row?.published_version ?? null };
}

export async function saveDashboard(trx: Transaction<DB>, user: SessionUser, widgets: DashboardWidget[]): Promise<void> {
  const projectId = projectOf(user);
  const own = new Set((await definitionsOfProject(trx, projectId)).map((r) => r.id));
  const problems = widgets.flatMap((w, i) => (own.has(w.reportId) ? [] : [{ field: `widgets.${i}.reportId`, code: 'REPORT_NOT_FOUND' }]));
  if (problems.length) throw new AppError('VALIDATION_FAILED', {}, problems);
  await upsertDashboardDraft(trx, projectId, widgets, user.loginAccount);
}

export async function publishDashboard(trx: Transaction<DB>, user: SessionUser): Promise<{ version: number }> {
  const projectId = projectOf(user);
  const row = await dashboardOf(trx, projectId);
  if (!row) throw new AppError('REPORT_NOT_FOUND');
  const version = (row.published_version ?? 0) + 1;
  await publishDashboardDraft(trx, row.id, row.draft, version, user.loginAccount);
  return { version };
}

/** Rows a widget shows at most. */
const WIDGET_ROWS = 50;

/** The published dashboard with every widget's data (first rows of its report's published version, parameters empty). */
export async function dashboardData(db: Kysely<DB>, reportDb: Kysely<DB>, user: SessionUser): Promise<{ widgets: DashboardWidgetData[]; version: number | null }> {
  const { widgets, version } = await getDashboard(db, user, false);
  const runnable = new Map((await runnableReports(db, user)).map((r) => [r.id, r.spec as ReportSpec]));
  const data: DashboardWidgetData[] = [];
  for (const widget of widgets) {
    const spec = runnable.get(widget.reportId);
    if (!spec) continue;
    try {
      const page = await runPage(reportDb, user, spec, null, { params: {}, page: 1, pageSize: WIDGET_ROWS });
      data.push({ ...widget, columns: page.columns, rows: page.rows });
    } catch (error) {
      data.push({ ...widget, columns: spec.columns, rows: [], error: error instanceof AppError ? error.code : 'INTERNAL' });
    }
  }
  return { widgets: data, version };
}

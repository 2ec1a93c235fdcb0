import type { Kysely } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import type { ReportColumn, ReportSpec } from '../../../common/report-api.js';
import type { DB } from '../../db/schema.js';
import type { SessionUser } from '../../http/access.js';
import { requireProject } from '../../http/access-plugin.js';
import { printWithTemplate, templateForPrinting, templatesForPrinting, type TemplateInputs } from '../template/index.js';
import { reportCount, reportGroupTotals, reportRows } from './report-rows.repository.js';
import { boundSql, inReportSandbox } from './report.sql.js';
import { orderOf, paramValues, type RunInput } from './report.service.js';

/*
 * Printing a report through a document template (docs/templates.md "Templates for a report"): the
 * report's rows, read by the report's own run in the sandbox with the caller's scope, become one
 * document of the template's fields:
 *   title        the report's name in the reader's language
 *   printed      when and by whom
 *   number       the report's code (for a barcode)
 *   param.<name> each search value as given
 *   lines        the rows, each a list of its columns' texts (table)
 *   totals       the group totals, each the group and its totals' texts (table)
 *   total        the number of rows of the report
 * The designer previews a report template with the same document made of the report's first rows.
 */

/** Rows printed at most (a template's table takes up to this many). */
export const REPORT_PRINT_ROWS = 2000;
/** Rows of the designer's sample document. */
export const REPORT_SAMPLE_ROWS = 20;

export interface PrintedReport {
  spec: ReportSpec;
  code: string;
  name: Record<string, string>;
}

function nameIn(names: Record<string, string>, language: Language): string {
  return names[language] || names.en || Object.values(names).find(Boolean) || '';
}

/** A cell as the report's column formats it (numbers with the column's decimals, dates as the runner shows them). */
export function cellForPrint(value: unknown, column: Pick<ReportColumn, 'type' | 'decimals'>): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return column.type === 'date' ? value.toISOString().slice(0, 10) : value.toISOString().replace('T', ' ').slice(0, 19);
  if (column.type === 'number' && column.decimals !== undefined && value !== '' && !Number.isNaN(Number(value))) return Number(value).toFixed(column.decimals);
  if (column.type === 'date' && typeof value === 'string') return value.slice(0, 10);
  if (column.type === 'datetime' && typeof value === 'string') return value.replace('T', ' ').slice(0, 19);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

function stamp(now: Date): string {
  return now.toISOString().replace('T', ' ').slice(0, 16);
}

/** The report's rows (at most `limit`, sorted as asked) as one template document, in one sandboxed read. */
export async function reportDocument(
  db: Kysely<DB>,
  user: SessionUser,
  report: PrintedReport,
  input: Omit<RunInput, 'page' | 'pageSize'>,
  limit: number,
  language: Language,
): Promise<TemplateInputs> {
  const { spec } = report;
  const values = paramValues(spec, input.params);
  const order = orderOf(spec, input.sort);
  return inReportSandbox(db, user, spec, async (trx) => {
    const base = boundSql(spec, user, values);
    const rows = await reportRows(trx, base, order, limit, 0);
    const total = rows.length < limit ? rows.length : await reportCount(trx, base);
    const grouping = spec.grouping;
    const groups = grouping ? await reportGroupTotals(trx, base, grouping) : [];
    const groupColumn = grouping ? spec.columns.find((c) => c.name === grouping.groupBy) : undefined;
    const document: TemplateInputs = {
      title: nameIn(report.name, language) || report.code,
      printed: `${stamp(new Date())} ${user.loginAccount}`,
      number: report.code,
      total: String(total),
      lines: rows.map((row) => spec.columns.map((c) => cellForPrint(row[c.name], c))),
      totals: grouping
        ? groups.map((g) => [
            cellForPrint(g.g, groupColumn ?? { type: 'text' }),
            ...grouping.totals.map((t, i) => {
              const column = spec.columns.find((c) => c.name === t.column);
              return t.aggregate === 'count' ? cellForPrint(g[`t${i}`], { type: 'number' }) : cellForPrint(g[`t${i}`], { type: 'number', decimals: column?.decimals });
            }),
          ])
        : [],
    };
    for (const param of spec.params) document[`param.${param.name}`] = values[param.name] === null || values[param.name] === undefined ? '' : String(values[param.name]);
    return document;
  });
}

/** The project's published templates that print this report, for the runner's print button. */
export async function printTemplatesOf(db: Kysely<DB>, user: SessionUser, reportId: number) {
  const templates = await templatesForPrinting(db, requireProject(user).projectId);
  return templates.filter((t) => t.kind === 'report' && t.reportId === reportId && t.publishedVersion !== null).map((t) => ({ id: t.id, code: t.code, name: t.name }));
}

/** The report printed through one of the project's published templates for it, as PDF. */
export async function printReport(db: Kysely<DB>, reportDb: Kysely<DB>, user: SessionUser, reportId: number, report: PrintedReport, templateId: number, input: Omit<RunInput, 'page' | 'pageSize'>, language: Language): Promise<Buffer> {
  const projectId = requireProject(user).projectId;
  const template = await templateForPrinting(db, projectId, templateId);
  if (!template || template.kind !== 'report' || template.reportId !== reportId) throw new AppError('TEMPLATE_NOT_FOUND');
  const document = await reportDocument(reportDb, user, report, input, REPORT_PRINT_ROWS, language);
  return printWithTemplate(db, projectId, templateId, [document], language);
}

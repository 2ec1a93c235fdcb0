import { isLanguage, type Language } from '../../../common/languages.js';
import type { RightName } from '../../../common/rights.js';
import { inTransaction } from '../../db/transaction.js';
import type { JobContext, JobDefinition } from '../area.js';
import { hasRight } from '../identity/index.js';
import { raiseNotification } from '../notification/index.js';
import { createReportFile, writeReportFile } from './report.files.js';
import { findReportRecipient, findReportWarehouse, findWarehouseProjects } from './report.repository.js';
import { planBalance, planTransactionLog, REPORT_RIGHTS, type InventoryReport, type ReportFormat, type ReportPlan } from './report.service.js';
import { validDay } from './query.service.js';
import { dayInZone } from './storage.repository.js';
import { warehouseTimeZone } from './query.repository.js';

/*
 * report.scheduled - a report generated on the job's schedule into a user's download center, with a
 * notification when it is ready (or failed). Parameters:
 *   report     transactionLog | balance | standardBalance (required)
 *   warehouse  warehouse code (required)
 *   project    project code; may be left out (the job's own project; for a job of no project,
 *              the one project the warehouse serves)
 *   format     xlsx (default) | csv
 *   user       login account the file is for; default the job's creator. He, and the job's creator,
 *              must hold the report's view right and work in the project and warehouse, or the run
 *              fails. The job's project is the only one it reports on.
 *   transactionLog: transType (default all), and from/to (YYYY-MM-DD) or days (the whole days before
 *              the run's day, default 1: yesterday); the period rule of the screen applies
 *              (INV_TRANS_LOG_MAX_DAYS).
 *   standardBalance: asOf, YYYY-MM-DD or yesterday (default).
 */

const REPORTS: InventoryReport[] = ['transactionLog', 'balance', 'standardBalance'];

function text(params: Record<string, string>, name: string): string | undefined {
  const value = params[name]?.trim();
  return value ? value : undefined;
}

function fail(message: string): never {
  throw new Error(message);
}

async function planOf(context: JobContext, report: InventoryReport, scope: { organizationId: number; projectId: number; warehouseId: number }, language: Language): Promise<ReportPlan> {
  const { db, params } = context;
  const timeZone = await warehouseTimeZone(db, scope.warehouseId);
  const runDay = (shift: number) => dayInZone(db, context.run.scheduledFor, timeZone, shift);
  if (report === 'transactionLog') {
    let from = text(params, 'from');
    let to = text(params, 'to');
    if (!from && !to) {
      const days = text(params, 'days') === undefined ? 1 : Number(text(params, 'days'));
      if (!Number.isInteger(days) || days < 1 || days > 366) fail(`days must be a whole number from 1 to 366, got "${params.days}"`);
      from = await runDay(-days);
      to = await runDay(-1);
    }
    return planTransactionLog(db, scope, { transType: text(params, 'transType') ?? 'all', from: from ?? null, to: to ?? null }, language);
  }
  if (report === 'balance') return planBalance(db, scope, {}, language);
  const asOf = (text(params, 'asOf') ?? 'yesterday').toLowerCase();
  const day = asOf === 'yesterday' ? await runDay(-1) : asOf;
  if (!validDay(day)) fail(`asOf must be yesterday or a day written YYYY-MM-DD, got "${params.asOf}"`);
  return planBalance(db, scope, { asOf: day }, language);
}

export const scheduledReportJob: JobDefinition = {
  name: 'report.scheduled',
  async run(context) {
    const { db, params, log, events } = context;
    const report = text(params, 'report') as InventoryReport | undefined;
    if (!report || !REPORTS.includes(report)) fail(`report must be one of ${REPORTS.join(', ')}, got "${params.report ?? ''}"`);
    const format = (text(params, 'format') ?? 'xlsx').toLowerCase() as ReportFormat;
    if (format !== 'xlsx' && format !== 'csv') fail(`format must be xlsx or csv, got "${params.format}"`);
    const warehouseCode = text(params, 'warehouse') ?? fail('warehouse (a warehouse code) is required');
    const warehouse = (await findReportWarehouse(db, warehouseCode)) ?? fail(`no warehouse has the code "${warehouseCode}"`);
    const projectCode = text(params, 'project');
    const jobProject = context.job.projectId ?? null;
    // A job of a project reports on its own project only, whatever the warehouse serves besides.
    const projects = (await findWarehouseProjects(db, warehouse.id, projectCode)).filter((p) => jobProject === null || p.id === jobProject);
    if (projects.length === 0) {
      if (jobProject !== null) fail(`warehouse ${warehouse.code} does not serve the job's project${projectCode ? ` ${projectCode}` : ''}`);
      fail(projectCode ? `project "${projectCode}" is not served by warehouse ${warehouse.code}` : `warehouse ${warehouse.code} serves no project`);
    }
    if (projects.length > 1) fail(`warehouse ${warehouse.code} serves several projects: name one with the parameter project`);
    const project = projects[0];
    const right = REPORT_RIGHTS[report] as RightName;
    const mayRead = async (login: string, role: string) => {
      const user = await findReportRecipient(db, login, project.id, warehouse.id);
      if (!user) fail(`no enabled user "${login}"`);
      if (!user.inScope || !(await hasRight(db, { userId: user.id, isAdmin: user.isAdmin }, right))) {
        fail(`${role} "${login}" may not see this report in ${project.code}/${warehouse.code} (needs ${right} there)`);
      }
      return user;
    };
    // Nobody gets a report through a job that its creator could not read himself.
    if (jobProject !== null && context.job.createdBy) await mayRead(context.job.createdBy, 'the job\'s creator');
    const login = text(params, 'user') ?? context.job.createdBy ?? fail('user is required: the job has no creator to send the report to');
    const recipient = await mayRead(login, 'user');
    const language: Language = isLanguage(recipient.language) ? recipient.language : 'en';
    const plan = await planOf(context, report, { organizationId: project.organizationId, projectId: project.id, warehouseId: warehouse.id }, language);
    const by = `job:${context.job.name}`.slice(0, 100);
    const id = await createReportFile(db, { userId: recipient.id, projectId: project.id, by }, plan, format, context.config.downloadDays);
    log(`file ${id} for ${login}: ${plan.title}, ${plan.total} rows`);
    const outcome = await writeReportFile(db, id, plan, format, context.logger);
    await inTransaction(db, (trx) =>
      raiseNotification(trx, events, {
        userIds: [recipient.id],
        category: 'inventory',
        title: { key: outcome.ok ? 'inv.notice.reportReady' : 'inv.notice.reportFailed' },
        ...(outcome.ok ? { body: { key: 'inv.notice.reportReadyBody' } } : {}),
        params: { title: plan.title },
        projectId: project.id,
        by,
      }),
    );
    if (!outcome.ok) fail(`file ${id} failed: ${outcome.code}`);
    log(`file ${id} done: ${outcome.rows} rows, ${outcome.size} bytes`);
  },
};

import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { SessionUser } from '../../http/access.js';
import { checkCronExpression } from '../job/index.js';
import { findPackingOrder } from '../outbound/index.js';
import { listRunnable, REPORT_PAGE_MAX, runPage, specToRun } from '../report/index.js';
import { packListOf, shippingDocument } from '../packing/index.js';
import { enqueuePrint, labelPrinters, recordFailedPrint } from '../printing/index.js';
import { printWithTemplate, templateForPrinting, templatesForPrinting, type TemplateKind } from '../template/index.js';
import * as repo from './autoprint.repository.js';
import type { AutoPrintEvent, AutoPrintRule } from '../../../common/autoprint-api.js';

/*
 * Auto print (docs/printing.md "Auto print"): rules per project and warehouse say which document
 * prints, from which template, on which printer and in how many copies when an event happens. The
 * event's transaction has committed before anything prints: a document that cannot be made or a
 * printer that does not take it leaves a print job (failed, or queued with its error) in the print
 * queue, never undoes the check-complete or the ship confirm.
 */

export interface AutoPrintScope {
  projectId: number;
  warehouseId: number;
  by: string;
}

/** The template kinds each event prints: the pack list at check-complete, a delivery note or pack list at ship. */
export const EVENT_KINDS: Record<AutoPrintEvent, readonly TemplateKind[]> = {
  'packing.checkCompleted': ['packList'],
  'loading.shipped': ['deliveryNote', 'packList'],
  schedule: ['report'],
};

/** The most rows of a report one scheduled print holds. */
export const SCHEDULED_REPORT_ROWS = 1000;

export type { AutoPrintRule };

function ruleOf(row: repo.RuleRow): AutoPrintRule {
  return {
    id: Number(row.id),
    event: row.event,
    templateId: Number(row.template_id),
    printerId: Number(row.printer_id),
    copies: row.copies,
    active: row.active,
    remark: row.remark,
    cron: row.cron_expression,
    reportId: row.report_id === null ? null : Number(row.report_id),
    updatedAt: row.updated_at.toISOString(),
    updatedBy: row.updated_by,
  };
}

/** The codes of a scope, which a report's SQL may name (`:projectCode`, `:warehouseCode`). */
export interface ScopeCodes {
  projectCode: string | null;
  warehouseCode: string | null;
}

/**
 * Who a scheduled report runs as: the rule's project and warehouse, and no person. Its SQL runs in
 * the configurator SQL sandbox with that project and warehouse, as an operator's run does; a report
 * the project may run prints, one given only to some organizations or users does not.
 */
export function scheduleSessionOf(scope: AutoPrintScope & ScopeCodes): SessionUser {
  return {
    sessionId: 0,
    userId: 0,
    loginAccount: scope.by,
    displayName: scope.by,
    isAdmin: false,
    organizationId: null,
    projectId: scope.projectId,
    projectCode: scope.projectCode,
    warehouseId: scope.warehouseId,
    warehouseCode: scope.warehouseCode,
    simulatedBy: null,
  };
}

/**
 * The rules of the scope, with what a rule may choose: the project's templates of a printable kind,
 * the warehouse's active printers and the published reports a schedule of the project may print.
 */
export async function listRules(db: Kysely<DB>, scope: AutoPrintScope & ScopeCodes, language: Language = 'en') {
  const [rows, templates, printers, reports] = await Promise.all([
    repo.rulesOf(db, scope),
    templatesForPrinting(db, scope.projectId),
    labelPrinters(db, scope.warehouseId),
    listRunnable(db, scheduleSessionOf(scope), language),
  ]);
  const kinds = new Set<TemplateKind>(Object.values(EVENT_KINDS).flat());
  return {
    rules: rows.map(ruleOf),
    templates: templates.filter((t) => kinds.has(t.kind)),
    printers: printers.map((p) => ({ id: p.id, name: p.name, type: p.type })),
    reports: reports.map((r) => ({ id: r.id, code: r.code, name: r.name })),
    events: Object.entries(EVENT_KINDS).map(([event, templateKinds]) => ({ event, templateKinds })),
  };
}

export interface RuleInput {
  id?: number;
  event: AutoPrintEvent;
  templateId: number;
  printerId: number;
  copies: number;
  active: boolean;
  remark?: string | null;
  cron?: string | null;
  reportId?: number | null;
}

/**
 * A schedule rule's cron expression and report, checked: the expression must be valid and have a
 * time to come (CRON_INVALID with the reason), the report one the project publishes and a schedule
 * may run (AUTO_PRINT_REPORT_REQUIRED without one, REPORT_NOT_FOUND for another). The other
 * events keep neither.
 */
async function scheduleOf(trx: Transaction<DB>, scope: AutoPrintScope & ScopeCodes, input: RuleInput): Promise<{ cron_expression: string | null; report_id: number | null }> {
  if (input.event !== 'schedule') return { cron_expression: null, report_id: null };
  const cron = (input.cron ?? '').trim();
  const check = checkCronExpression(cron);
  if (!check.valid) throw new AppError('CRON_INVALID', { reason: check.reason }, [{ field: 'cron', code: 'CRON_INVALID', params: { reason: check.reason } }]);
  if (input.reportId === undefined || input.reportId === null) throw new AppError('AUTO_PRINT_REPORT_REQUIRED');
  await specToRun(trx, scheduleSessionOf(scope), input.reportId, false);
  return { cron_expression: cron, report_id: input.reportId };
}

/**
 * Saves a rule of the scope (new, or changed when `id` names one). The template must be the
 * project's and of a kind the event prints (AUTO_PRINT_TEMPLATE_KIND); the printer must be an
 * active printer of the session's warehouse (PRINTER_NOT_FOUND: a printer of another warehouse is
 * refused as one that does not exist); a schedule rule needs a valid cron expression and a report.
 */
export async function saveRule(trx: Transaction<DB>, scope: AutoPrintScope & ScopeCodes, input: RuleInput): Promise<AutoPrintRule> {
  const schedule = await scheduleOf(trx, scope, input);
  const template = await templateForPrinting(trx, scope.projectId, input.templateId);
  if (!template) throw new AppError('TEMPLATE_NOT_FOUND');
  if (!EVENT_KINDS[input.event].includes(template.kind)) throw new AppError('AUTO_PRINT_TEMPLATE_KIND', { kind: template.kind, kinds: EVENT_KINDS[input.event].join(', ') });
  const printers = await labelPrinters(trx, scope.warehouseId);
  if (!printers.some((p) => p.id === input.printerId)) throw new AppError('PRINTER_NOT_FOUND');
  const values: repo.RuleValues = {
    event: input.event,
    template_id: input.templateId,
    printer_id: input.printerId,
    copies: input.copies,
    active: input.active,
    remark: input.remark?.trim() || null,
    ...schedule,
  };
  let id = input.id;
  if (id === undefined) id = await repo.insertRule(trx, scope, values, scope.by);
  else {
    if (!(await repo.findRule(trx, scope, id, true))) throw new AppError('AUTO_PRINT_RULE_NOT_FOUND');
    await repo.updateRule(trx, id, values, scope.by);
  }
  return ruleOf((await repo.findRule(trx, scope, id))!);
}

/** Deletes rules of the scope; a rule that is not the scope's is AUTO_PRINT_RULE_NOT_FOUND and nothing is deleted. */
export async function deleteRules(trx: Transaction<DB>, scope: AutoPrintScope, ids: readonly number[]): Promise<{ deleted: number }> {
  const unique = [...new Set(ids)];
  const deleted = await repo.deleteRules(trx, scope, unique);
  if (deleted !== unique.length) throw new AppError('AUTO_PRINT_RULE_NOT_FOUND');
  return { deleted };
}

/** The load a delivery note names. */
export interface ShippedLoad {
  loadNo: string;
  containerNo?: string | null;
  sealNo?: string | null;
  vessel?: string | null;
  voyage?: string | null;
}

/** What an event asks to print: its orders, and for a ship the load and the cartons that left on it. */
export interface PrintOccasion {
  soIds: number[];
  load?: ShippedLoad;
  cartonIds?: number[];
}

function describe(error: unknown): string {
  if (error instanceof AppError) return Object.keys(error.params).length ? `${error.code} ${JSON.stringify(error.params)}` : error.code;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Prints one rule's document for each order: rendered from the rule's template (its published
 * version, in `copies` copies as one print job) and queued on the rule's printer, each order in a
 * transaction of its own and sent once it committed. A document that cannot be made becomes a
 * failed print job with the reason (`recordFailedPrint`). Answers the jobs' ids.
 */
export async function printRule(db: Kysely<DB>, scope: AutoPrintScope, rule: AutoPrintRule, occasion: PrintOccasion, language: Language = 'en'): Promise<number[]> {
  const jobs: number[] = [];
  const template = await templateForPrinting(db, scope.projectId, rule.templateId);
  const kind = template?.kind === 'deliveryNote' ? 'deliveryNote' : 'packList';
  for (const soId of occasion.soIds) {
    let reference = String(soId);
    let made: Buffer | { error: string };
    try {
      const list = await packListOf(db, scope, soId, occasion.cartonIds);
      reference = list.orderNo;
      const document = shippingDocument(kind, list, scope.by, kind === 'deliveryNote' ? occasion.load : undefined);
      made = await printWithTemplate(db, scope.projectId, rule.templateId, Array.from({ length: rule.copies }, () => document), language);
    } catch (error) {
      made = { error: describe(error) };
    }
    const request = { warehouseId: scope.warehouseId, printerId: rule.printerId, documentKind: kind, reference, by: scope.by };
    jobs.push(
      await inTransaction(db, (trx) => (Buffer.isBuffer(made) ? enqueuePrint(trx, { ...request, payload: made }, { sendWith: db }) : recordFailedPrint(trx, { ...request, error: made.error }))),
    );
  }
  return jobs;
}

/** Runs the active rules of an event for the scope (the event's own), each printing its document for the event's orders. */
export async function printForEvent(db: Kysely<DB>, scope: AutoPrintScope, event: AutoPrintEvent, occasion: PrintOccasion): Promise<number[]> {
  const rules = await repo.activeRulesOf(db, scope, event);
  const jobs: number[] = [];
  for (const row of rules) jobs.push(...(await printRule(db, scope, ruleOf(row), occasion)));
  return jobs;
}

/** A report's value as a cell of the printed table. */
function cellText(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 19).replace('T', ' ');
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * The document a scheduled report prints: its name as the title, when it was made for, its code as
 * the number, and its rows (at most SCHEDULED_REPORT_ROWS, every column in the report's order) as
 * the table `lines`; the template's table takes as many columns as it has.
 */
async function scheduledReportDocument(db: Kysely<DB>, reportDb: Kysely<DB>, user: SessionUser, reportId: number, tick: Date): Promise<{ code: string; document: Record<string, string | ReadonlyArray<ReadonlyArray<string | number | null>>> }> {
  const run = await specToRun(db, user, reportId, false);
  const lines: Array<Array<string | number | null>> = [];
  for (let page = 1; lines.length < SCHEDULED_REPORT_ROWS; page += 1) {
    const answer = await runPage(reportDb, user, run.spec, run.version, { params: {}, page, pageSize: REPORT_PAGE_MAX });
    for (const row of answer.rows) if (lines.length < SCHEDULED_REPORT_ROWS) lines.push(run.spec.columns.map((c) => cellText(row[c.name])));
    if (answer.rows.length < REPORT_PAGE_MAX || lines.length >= answer.total) break;
  }
  const name = run.name.en || Object.values(run.name).find(Boolean) || run.code;
  const printed = `${tick.toISOString().slice(0, 16).replace('T', ' ')} UTC · ${lines.length} row(s)`;
  return { code: run.code, document: { title: name, printed, number: run.code, lines } };
}

/**
 * Prints a schedule rule's report for one of its times: the report run in the rule's project and
 * warehouse (the configurator SQL sandbox, scheduleSessionOf), rendered from the rule's template in
 * `copies` copies and queued on the rule's printer, sent once queued. A report that cannot run or a
 * template that cannot print becomes a failed print job with the reason. Answers the job's id.
 */
export async function printSchedule(db: Kysely<DB>, scope: AutoPrintScope & ScopeCodes, rule: AutoPrintRule, tick: Date, reportDb: () => Promise<Kysely<DB>> = () => Promise.resolve(db)): Promise<number> {
  let reference = rule.reportId === null ? `rule ${rule.id}` : `report ${rule.reportId}`;
  let made: Buffer | { error: string };
  try {
    if (rule.reportId === null) throw new AppError('AUTO_PRINT_REPORT_REQUIRED');
    const { code, document } = await scheduledReportDocument(db, await reportDb(), scheduleSessionOf(scope), rule.reportId, tick);
    reference = code;
    made = await printWithTemplate(db, scope.projectId, rule.templateId, Array.from({ length: rule.copies }, () => document), 'en');
  } catch (error) {
    made = { error: describe(error) };
  }
  const request = { warehouseId: scope.warehouseId, printerId: rule.printerId, documentKind: 'report', reference, by: scope.by };
  return inTransaction(db, (trx) => (Buffer.isBuffer(made) ? enqueuePrint(trx, { ...request, payload: made }, { sendWith: db }) : recordFailedPrint(trx, { ...request, error: made.error })));
}

/** What one look at the schedules did: the rules printed, with their time and print job. */
export interface ScheduleOutcome {
  ruleId: number;
  tick: string;
  jobId: number;
}

/**
 * Prints every active schedule rule that is due at `now`: a rule whose cron expression has a time
 * after the last one it printed for (else after its last change) and not after `now` prints once,
 * for the latest such time (times missed while nothing ran do not print one by one). Each time is
 * taken in a transaction of its own before it prints (repo.claimScheduleTick), so two nodes or a
 * retried run never print it twice. A rule whose expression no longer parses is passed over.
 */
export async function printDueSchedules(
  db: Kysely<DB>,
  now: Date,
  log: (line: string) => void = () => undefined,
  reportDb: () => Promise<Kysely<DB>> = () => Promise.resolve(db),
): Promise<ScheduleOutcome[]> {
  const outcomes: ScheduleOutcome[] = [];
  for (const row of await repo.activeScheduleRules(db)) {
    const check = checkCronExpression(row.cron_expression ?? '');
    if (!check.valid) {
      log(`rule ${row.id}: cron expression "${row.cron_expression ?? ''}" not valid: ${check.reason}`);
      continue;
    }
    const from = row.last_tick ?? row.updated_at;
    // The latest time not after now (a time in the same second as the reference counts).
    const [tick] = check.cron.previousRuns(1, new Date(now.getTime() + 1));
    if (!tick || tick <= from) continue;
    if (!(await inTransaction(db, (trx) => repo.claimScheduleTick(trx, Number(row.id), tick)))) continue;
    const scope = { projectId: Number(row.project_id), warehouseId: Number(row.warehouse_id), by: 'auto print', projectCode: row.project_code, warehouseCode: row.warehouse_code };
    const jobId = await printSchedule(db, scope, ruleOf(row), tick, reportDb);
    log(`rule ${row.id} (warehouse ${row.warehouse_code}): printed for ${tick.toISOString()} as print job ${jobId}`);
    outcomes.push({ ruleId: Number(row.id), tick: tick.toISOString(), jobId });
  }
  return outcomes;
}

/**
 * Prints one rule now for an order of the scope, as its event would (the delivery note names no
 * load and lists every closed carton): to try a rule, or to print a document again. A schedule
 * rule prints its report now and needs no order.
 */
export async function printNow(
  db: Kysely<DB>,
  scope: AutoPrintScope & ScopeCodes,
  ruleId: number,
  orderNo: string | undefined,
  language: Language,
  reportDb: () => Promise<Kysely<DB>> = () => Promise.resolve(db),
): Promise<{ jobIds: number[] }> {
  const row = await repo.findRule(db, scope, ruleId);
  if (!row) throw new AppError('AUTO_PRINT_RULE_NOT_FOUND');
  if (row.event === 'schedule') return { jobIds: [await printSchedule(db, scope, ruleOf(row), new Date(), reportDb)] };
  if (!orderNo) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'orderNo', code: 'FIELD_REQUIRED' }]);
  const order = await findPackingOrder(db, scope, { orderNo });
  if (!order) throw new AppError('NO_RECORD');
  return { jobIds: await printRule(db, scope, ruleOf(row), { soIds: [order.id] }, language) };
}

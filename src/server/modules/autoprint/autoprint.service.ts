import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { findPackingOrder } from '../outbound/index.js';
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
};

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
    updatedAt: row.updated_at.toISOString(),
    updatedBy: row.updated_by,
  };
}

/** The rules of the scope, with what a rule may choose: the project's templates of a printable kind and the warehouse's active printers. */
export async function listRules(db: Kysely<DB>, scope: AutoPrintScope) {
  const [rows, templates, printers] = await Promise.all([repo.rulesOf(db, scope), templatesForPrinting(db, scope.projectId), labelPrinters(db, scope.warehouseId)]);
  const kinds = new Set<TemplateKind>(Object.values(EVENT_KINDS).flat());
  return {
    rules: rows.map(ruleOf),
    templates: templates.filter((t) => kinds.has(t.kind)),
    printers: printers.map((p) => ({ id: p.id, name: p.name, type: p.type })),
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
}

/**
 * Saves a rule of the scope (new, or changed when `id` names one). The template must be the
 * project's and of a kind the event prints (AUTO_PRINT_TEMPLATE_KIND); the printer must be an
 * active printer of the session's warehouse (PRINTER_NOT_FOUND: a printer of another warehouse is
 * refused as one that does not exist).
 */
export async function saveRule(trx: Transaction<DB>, scope: AutoPrintScope, input: RuleInput): Promise<AutoPrintRule> {
  const template = await templateForPrinting(trx, scope.projectId, input.templateId);
  if (!template) throw new AppError('TEMPLATE_NOT_FOUND');
  if (!EVENT_KINDS[input.event].includes(template.kind)) throw new AppError('AUTO_PRINT_TEMPLATE_KIND', { kind: template.kind, kinds: EVENT_KINDS[input.event].join(', ') });
  const printers = await labelPrinters(trx, scope.warehouseId);
  if (!printers.some((p) => p.id === input.printerId)) throw new AppError('PRINTER_NOT_FOUND');
  const values: repo.RuleValues = { event: input.event, template_id: input.templateId, printer_id: input.printerId, copies: input.copies, active: input.active, remark: input.remark?.trim() || null };
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

/**
 * Prints one rule now for an order of the scope, as its event would (the delivery note names no
 * load and lists every closed carton): to try a rule, or to print a document again.
 */
export async function printNow(db: Kysely<DB>, scope: AutoPrintScope, ruleId: number, orderNo: string, language: Language): Promise<{ jobIds: number[] }> {
  const row = await repo.findRule(db, scope, ruleId);
  if (!row) throw new AppError('AUTO_PRINT_RULE_NOT_FOUND');
  const order = await findPackingOrder(db, scope, { orderNo });
  if (!order) throw new AppError('NO_RECORD');
  return { jobIds: await printRule(db, scope, ruleOf(row), { soIds: [order.id] }, language) };
}

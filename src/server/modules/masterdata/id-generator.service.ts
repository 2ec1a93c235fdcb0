import type { Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import type { IdDatePattern, IdResetPeriod } from './masterdata.tables.js';
import { bumpIdCounter, findActiveIdRule, findWarehouseTimeZone } from './masterdata.repository.js';

/** Which warehouse or project a number belongs to, for rules numbered per warehouse or project. */
export interface NumberScope {
  warehouseId?: number | null;
  projectId?: number | null;
}

/** The calendar date of `at` in `timeZone`, as its year, month and day digits. */
export function calendarDate(at: Date, timeZone: string): { yyyy: string; mm: string; dd: string } {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return { yyyy: part('year'), mm: part('month'), dd: part('day') };
}

/** The counter's period: a new period starts the sequence again at 1. */
export function periodKey(resetPeriod: IdResetPeriod, date: { yyyy: string; mm: string; dd: string }): string {
  switch (resetPeriod) {
    case 'never':
      return '';
    case 'yearly':
      return date.yyyy;
    case 'monthly':
      return date.yyyy + date.mm;
    case 'daily':
      return date.yyyy + date.mm + date.dd;
  }
}

export function formatDatePart(pattern: IdDatePattern, date: { yyyy: string; mm: string; dd: string }): string {
  const yy = date.yyyy.slice(2);
  switch (pattern) {
    case '':
      return '';
    case 'YYYY':
      return date.yyyy;
    case 'YY':
      return yy;
    case 'YYYYMM':
      return date.yyyy + date.mm;
    case 'YYMM':
      return yy + date.mm;
    case 'YYYYMMDD':
      return date.yyyy + date.mm + date.dd;
    case 'YYMMDD':
      return yy + date.mm + date.dd;
  }
}

/** prefix + date part + the sequence zero-padded to its length, e.g. `ASN2611200007`. */
export function formatDocumentNumber(
  rule: { prefix: string; date_pattern: IdDatePattern; sequence_length: number },
  date: { yyyy: string; mm: string; dd: string },
  sequence: number,
): string {
  return rule.prefix + formatDatePart(rule.date_pattern, date) + String(sequence).padStart(rule.sequence_length, '0');
}

/**
 * The next document number of a numbering rule (/idGener), e.g. the next ASN or order number.
 *
 * Call it with the caller's transaction: the counter row is incremented with one atomic
 * `insert ... on conflict do update set current_value = current_value + 1 returning`, so concurrent
 * callers never get the same number; the row stays locked until the caller commits, and a caller
 * that rolls back gives its number back, so the numbers of committed documents have no gaps.
 * The period (for rules that reset daily, monthly or yearly) is the date in the warehouse's time
 * zone for warehouse-scoped rules, otherwise UTC.
 */
export async function nextDocumentNumber(
  trx: Transaction<DB>,
  ruleCode: string,
  scope: NumberScope = {},
  at: Date = new Date(),
): Promise<string> {
  const rule = await findActiveIdRule(trx, ruleCode);
  if (!rule) throw new AppError('ID_RULE_NOT_FOUND', { rule: ruleCode });

  let scopeId = 0;
  let timeZone = 'UTC';
  if (rule.scope_level === 'warehouse') {
    if (scope.warehouseId == null) throw new Error(`numbering rule ${ruleCode} is numbered per warehouse: pass the warehouse id`);
    const warehouseTimeZone = await findWarehouseTimeZone(trx, scope.warehouseId);
    if (warehouseTimeZone === undefined) throw new AppError('NO_RECORD');
    scopeId = scope.warehouseId;
    timeZone = warehouseTimeZone;
  } else if (rule.scope_level === 'project') {
    if (scope.projectId == null) throw new Error(`numbering rule ${ruleCode} is numbered per project: pass the project id`);
    scopeId = scope.projectId;
  }

  const date = calendarDate(at, timeZone);
  const period = periodKey(rule.reset_period, date);
  const sequence = await bumpIdCounter(trx, rule.id, scopeId, period);

  if (String(sequence).length > rule.sequence_length) {
    throw new AppError('ID_SEQUENCE_EXHAUSTED', { rule: ruleCode, length: rule.sequence_length });
  }
  return formatDocumentNumber(rule, date, sequence);
}

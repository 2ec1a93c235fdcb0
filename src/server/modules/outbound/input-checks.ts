import Decimal from 'decimal.js';
import { AppError, type FieldError } from '../../../common/errors.js';
import { QTY_DECIMALS } from '../../../common/quantity.js';

/** Whether a YYYY-MM-DD text is a day of the calendar (2030-02-30 and 0000-00-00 are not). */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1) return false;
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/**
 * The problems of the dates and quantities of a request, by field: a date that is no calendar day
 * (FIELD_TYPE) and a quantity with more than four decimals (FIELD_DECIMALS). Empty values are
 * left to the rules that require them.
 */
export function inputProblems(dates: Record<string, string | null | undefined>, qtys: Record<string, Decimal.Value | null | undefined> = {}): FieldError[] {
  const problems: FieldError[] = [];
  for (const [field, value] of Object.entries(dates)) {
    if (value !== null && value !== undefined && value !== '' && !isCalendarDate(value)) problems.push({ field, code: 'FIELD_TYPE' });
  }
  for (const [field, value] of Object.entries(qtys)) {
    if (value === null || value === undefined || value === '') continue;
    let qty: Decimal;
    try {
      qty = new Decimal(value);
    } catch {
      problems.push({ field, code: 'FIELD_TYPE' });
      continue;
    }
    if (!qty.isFinite()) problems.push({ field, code: 'FIELD_TYPE' });
    else if (qty.decimalPlaces() > QTY_DECIMALS) problems.push({ field, code: 'FIELD_DECIMALS', params: { max: QTY_DECIMALS } });
  }
  return problems;
}

/** Refuses the request (VALIDATION_FAILED, nothing written) when `inputProblems` finds any. */
export function assertInputs(dates: Record<string, string | null | undefined>, qtys: Record<string, Decimal.Value | null | undefined> = {}): void {
  const problems = inputProblems(dates, qtys);
  if (problems.length) throw new AppError('VALIDATION_FAILED', {}, problems);
}

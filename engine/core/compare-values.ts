import Decimal from 'decimal.js';
import { isEmptyValue } from './is-empty-value.js';
import { toText } from './to-text.js';

const NUMERIC_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function isNumeric(value: unknown): value is number | string {
  if (typeof value === 'number') return Number.isFinite(value) && NUMERIC_TEXT.test(toText(value));
  return typeof value === 'string' && NUMERIC_TEXT.test(value.trim());
}

/**
 * Orders two values the way the condition SQL does: numbers (and numeric text, as PostgreSQL
 * `numeric` arrives) as exact decimals, so 0.1 + 0.2 equals 0.3 and "10" sorts after "9"; booleans
 * only equal or not; the rest as text by code point. Answers 0 when both are empty and undefined
 * when only one is, so that every ordering operator is false against an empty value (SQL NULL).
 */
export function compareValues(a: unknown, b: unknown): number | undefined {
  if (isEmptyValue(a) || isEmptyValue(b)) return isEmptyValue(a) && isEmptyValue(b) ? 0 : undefined;
  if (typeof a === 'boolean' || typeof b === 'boolean') return toText(a) === toText(b) ? 0 : 1;
  if (isNumeric(a) && isNumeric(b)) return new Decimal(toText(a).trim()).comparedTo(toText(b).trim());
  const left = toText(a);
  const right = toText(b);
  return left === right ? 0 : left < right ? -1 : 1;
}

/** Whether two values are the same value under {@link compareValues} (decimal 1.0 is 1, '' is null). */
export function sameValue(a: unknown, b: unknown): boolean {
  return compareValues(a, b) === 0;
}

import Decimal from 'decimal.js';
import type { FieldCalc, FieldDefinition, ScalarValue } from '../schema/index.js';
import { isEmptyValue } from './is-empty-value.js';
import { toText } from './to-text.js';

/** What a calculation needs of its field: the calculation itself, the type and decimals of the result. */
export type CalculatedField = Pick<FieldDefinition, 'type' | 'decimal'> & { calc: FieldCalc };

/**
 * The value of a calculated field from the record's
 * values, with exact decimal arithmetic, never floats: 0.1 + 0.2 is 0.3.
 * Arithmetic takes its parameters left to right and answers null while one is empty or not a number,
 * or on a division by zero, so nothing shows rather than a wrong figure. The result has the bound
 * form of the field's type: an integer field a number rounded half up, any other field exact text
 * (a decimal field rounded half up to its decimals). A concatenation of nothing but empty values
 * is null.
 */
export function calculateField(field: CalculatedField, record: Readonly<Record<string, unknown>>): ScalarValue {
  const { calc } = field;
  const inputs = calc.params.map((name) => record[name]);
  switch (calc.type) {
    case 'copy':
      return asScalar(inputs[0]);
    case 'concat':
      return inputs.every(isEmptyValue) ? null : inputs.map(toText).join(calc.separator ?? '');
    case 'sum':
    case 'difference':
    case 'product':
    case 'quotient': {
      const numbers = inputs.map(toDecimal);
      if (numbers.some((number) => number === null)) return null;
      const [first, ...rest] = numbers as Decimal[];
      let total = first;
      for (const next of rest) {
        if (calc.type === 'sum') total = total.plus(next);
        else if (calc.type === 'difference') total = total.minus(next);
        else if (calc.type === 'product') total = total.times(next);
        else if (next.isZero()) return null;
        else total = total.dividedBy(next);
      }
      if (field.type === 'integer') return total.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
      if (field.type === 'decimal' && field.decimal !== undefined) return total.toDecimalPlaces(field.decimal, Decimal.ROUND_HALF_UP).toFixed();
      return total.toFixed();
    }
  }
}

/**
 * Every calculated field of a record, in definition order so that a calculation may use an earlier
 * one; the other values are kept as they are.
 */
export function applyCalculations<V>(fields: readonly FieldDefinition[], record: Readonly<Record<string, V>>): Record<string, V | ScalarValue> {
  const result: Record<string, V | ScalarValue> = { ...record };
  for (const field of fields) {
    if (field.calc) result[field.name] = calculateField({ type: field.type, decimal: field.decimal, calc: field.calc }, result);
  }
  return result;
}

/** A parameter as an exact decimal: numbers and numeric text; null for empty, booleans and anything else. */
function toDecimal(value: unknown): Decimal | null {
  if (isEmptyValue(value) || (typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'bigint')) return null;
  try {
    const number = new Decimal(typeof value === 'string' ? value.trim() : toText(value));
    return number.isFinite() ? number : null;
  } catch {
    return null;
  }
}

function asScalar(value: unknown): ScalarValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return toText(value);
}

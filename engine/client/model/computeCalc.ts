import Decimal from 'decimal.js';
import { textOf } from './textOf.js';
import type { FieldCalc } from '../../schema/index.js';

function toDecimal(value: unknown): Decimal | null {
  if (value === null || value === undefined || value === '') return null;
  try {
    return new Decimal(textOf(value));
  } catch {
    return null;
  }
}

/**
 * The value of a calculated field from the record (spec section 3 "calc type and parameters").
 * Numbers go through decimal arithmetic, never floats (DESIGN.md section 4); answers null while a
 * parameter is missing or not a number, or on a division by zero, so the form shows nothing rather
 * than a wrong figure. `decimals` rounds the result to the field's decimals.
 */
export function computeCalc(calc: FieldCalc, record: Record<string, unknown>, decimals?: number): string | number | null {
  const values = calc.params.map((name) => record[name]);
  switch (calc.type) {
    case 'copy':
      return (values[0] as string | number | null | undefined) ?? null;
    case 'concat':
      return values.map((value) => textOf(value)).join(calc.separator ?? '');
    case 'sum':
    case 'difference':
    case 'product':
    case 'quotient': {
      const numbers = values.map(toDecimal);
      if (numbers.some((n) => n === null)) return null;
      const [first, ...rest] = numbers as Decimal[];
      let result = first;
      for (const n of rest) {
        if (calc.type === 'sum') result = result.plus(n);
        else if (calc.type === 'difference') result = result.minus(n);
        else if (calc.type === 'product') result = result.times(n);
        else {
          if (n.isZero()) return null;
          result = result.dividedBy(n);
        }
      }
      if (decimals !== undefined) result = result.toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP);
      return result.toNumber();
    }
  }
}

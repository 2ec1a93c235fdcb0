import Decimal from 'decimal.js';
import type { FieldDefinition } from '../schema/index.js';
import type { BoundValue } from './coerce-field-value.js';

/**
 * Computes every calculated field of a record from its parameters, with decimal arithmetic (never
 * floats: DESIGN.md section 4). A calculation with an empty parameter, or a division by zero, gives
 * null. Fields are computed in definition order, so a calculation may use an earlier one.
 */
export function applyCalculations(fields: FieldDefinition[], record: Record<string, BoundValue>): Record<string, BoundValue> {
  const result = { ...record };
  for (const field of fields) {
    if (!field.calc) continue;
    const inputs = field.calc.params.map((name) => result[name] ?? null);
    result[field.name] = calculate(field, inputs);
  }
  return result;
}

function calculate(field: FieldDefinition, inputs: BoundValue[]): BoundValue {
  const calc = field.calc!;
  switch (calc.type) {
    case 'copy':
      return inputs[0];
    case 'concat':
      return inputs.every((v) => v === null) ? null : inputs.map((v) => (v === null ? '' : String(v))).join(calc.separator ?? '');
    case 'sum':
    case 'difference':
    case 'product':
    case 'quotient': {
      if (inputs.some((v) => v === null || v === '' || typeof v === 'boolean')) return null;
      const numbers = inputs.map((v) => new Decimal(v as string | number));
      let total = numbers[0];
      for (const next of numbers.slice(1)) {
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

import Decimal from 'decimal.js';
import type { FieldDefinition } from '../schema/index.js';
import type { BoundValue } from './coerce-field-value.js';
import type { EngineFieldError } from './engine-error.js';

/** The rules of one parsed, non-null value: length, decimals, range (README: field properties). */
export function checkFieldValue(field: FieldDefinition, value: BoundValue): EngineFieldError[] {
  const errors: EngineFieldError[] = [];
  if (value === null) return errors;
  if (typeof value === 'string' && field.length !== undefined && (field.type === 'string' || field.type === 'text')) {
    const length = [...value].length;
    if (length > field.length) errors.push({ field: field.name, code: 'FIELD_TOO_LONG', params: { max: field.length, length } });
  }
  if (field.type === 'decimal' || field.type === 'integer') {
    const number = new Decimal(value as string | number);
    if (field.type === 'decimal' && field.decimal !== undefined && number.decimalPlaces() > field.decimal) {
      errors.push({ field: field.name, code: 'FIELD_DECIMALS', params: { max: field.decimal } });
    }
    if ((field.min !== undefined && number.lessThan(field.min)) || (field.max !== undefined && number.greaterThan(field.max))) {
      errors.push({
        field: field.name,
        code: 'FIELD_RANGE',
        params: { min: field.min ?? '-', max: field.max ?? '-' },
      });
    }
  }
  return errors;
}

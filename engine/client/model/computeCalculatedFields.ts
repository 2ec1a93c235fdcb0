import { applyCalculations } from '../../core/index.js';
import type { FieldDefinition } from '../../schema/index.js';

/**
 * The form's record with every calculated field recomputed by the engine core, exactly as the
 * server will compute it on save (decimal arithmetic, rounded half up to the field's decimals).
 * The form's number inputs hold numbers, so a numeric result is handed to them as one; the text
 * it comes from is exact, so the number shows the same digits. Answers the same object when no
 * calculated value changed, so React sees no change.
 */
export function computeCalculatedFields(fields: readonly FieldDefinition[], record: Record<string, unknown>): Record<string, unknown> {
  const computed = applyCalculations(fields, record);
  let next = record;
  for (const field of fields) {
    if (!field.calc) continue;
    const value = toFormValue(field, computed[field.name]);
    if (next[field.name] !== value) next = { ...next, [field.name]: value };
  }
  return next;
}

function toFormValue(field: FieldDefinition, value: unknown): unknown {
  if ((field.type === 'decimal' || field.type === 'integer') && typeof value === 'string') return Number(value);
  return value;
}

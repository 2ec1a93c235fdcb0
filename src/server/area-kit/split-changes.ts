import { AppError } from '../../common/errors.js';

/**
 * The changes of a line split (a receipt line, an order line): part of a line becomes a new line
 * whose named fields go from their from-values to their to-values.
 */
export interface SplitChange {
  field: string;
  fromValue?: string | null;
  toValue?: string | null;
}

export interface CheckedSplitChange<Field extends string> {
  field: Field;
  fromValue: string;
  toValue: string;
}

/**
 * Checks a split's changes in order: each names one of `fields`, once, with a from-value and a
 * to-value (trimmed); `checkValue` may refuse a change's to-value before the next change is read.
 * A split changes at least one field.
 */
export function checkSplitChanges<Field extends string>(
  changes: readonly SplitChange[],
  fields: readonly Field[],
  checkValue?: (change: CheckedSplitChange<Field>, index: number) => void,
): CheckedSplitChange<Field>[] {
  const seen = new Set<string>();
  const checked = changes.map((c, i) => {
    if (!(fields as readonly string[]).includes(c.field)) throw new AppError('SPLIT_NOT_ALLOWED', {}, [{ field: `changes[${i}].field`, code: 'SPLIT_NOT_ALLOWED' }]);
    if (seen.has(c.field)) throw new AppError('SPLIT_DUPLICATE_FIELD', { field: c.field }, [{ field: `changes[${i}].field`, code: 'SPLIT_DUPLICATE_FIELD' }]);
    seen.add(c.field);
    const fromValue = c.fromValue?.trim() ?? '';
    const toValue = c.toValue?.trim() ?? '';
    if (fromValue === '' || toValue === '') throw new AppError('SPLIT_VALUE_REQUIRED', { field: c.field }, [{ field: `changes[${i}]`, code: 'SPLIT_VALUE_REQUIRED' }]);
    const change = { field: c.field as Field, fromValue, toValue };
    checkValue?.(change, i);
    return change;
  });
  if (checked.length === 0) throw new AppError('SPLIT_VALUE_REQUIRED', { field: '' });
  return checked;
}

/**
 * The new line's values of the split `fields`, as text ('' where the line has none): each change's
 * from-value must be the line's current value, which its to-value replaces.
 */
export function splitValues<Field extends string>(
  fields: readonly Field[],
  line: Partial<Record<Field, string | null>>,
  changes: readonly CheckedSplitChange<Field>[],
): Record<Field, string> {
  const current = Object.fromEntries(fields.map((field) => [field, line[field] ?? ''])) as Record<Field, string>;
  const next = { ...current };
  for (const c of changes) {
    if (current[c.field] !== c.fromValue) throw new AppError('SPLIT_NOT_ALLOWED', {}, [{ field: c.field, code: 'SPLIT_NOT_ALLOWED' }]);
    next[c.field] = c.toValue;
  }
  return next;
}

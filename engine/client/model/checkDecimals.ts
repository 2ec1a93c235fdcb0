import { toText } from '../../core/index.js';
import type { FieldDefinition } from '../../schema/index.js';

/**
 * Decimal fields whose value has more digits after the point than the field's `decimal` allows;
 * checked on the text of the number so that no float rounding hides an extra digit.
 * Answers the offending field names.
 */
export function fieldsWithTooManyDecimals(fields: readonly FieldDefinition[], record: Record<string, unknown>): string[] {
  const wrong: string[] = [];
  for (const field of fields) {
    if (field.type !== 'decimal' || field.decimal === undefined) continue;
    const value = record[field.name];
    if (value === null || value === undefined || value === '') continue;
    const text = toText(value);
    const fraction = /\.(\d+)$/.exec(text.includes('e') ? Number(text).toFixed(20).replace(/0+$/, '') : text)?.[1] ?? '';
    if (fraction.length > field.decimal) wrong.push(field.name);
  }
  return wrong;
}

import { toText } from '../../core/index.js';
import type { FieldDefinition } from '../../schema/index.js';

/**
 * The text a grid cell shows for a value: booleans and dropdown values through their labels,
 * dates cut to the day, everything else as text. Truncation to 12 characters is the renderer's job.
 */
export function formatCellValue(
  field: FieldDefinition,
  value: unknown,
  labels: { yes: string; no: string; choice?: (value: unknown) => string | undefined; dateTime?: (value: string) => string },
): string {
  if (value === null || value === undefined) return '';
  if (field.type === 'boolean') return value === true || value === 'true' ? labels.yes : labels.no;
  const choice = labels.choice?.(value);
  if (choice !== undefined) return choice;
  if (field.type === 'date' && typeof value === 'string') return value.slice(0, 10);
  if (field.type === 'datetime' && typeof value === 'string') {
    return labels.dateTime ? labels.dateTime(value) : value.replace('T', ' ').replace(/\.\d+Z?$|Z$/, '').slice(0, 19);
  }
  return toText(value);
}

/**
 * The text of a value from a driver, a request or a form: scalars as they are, a Date as ISO text,
 * null and undefined as empty text, anything structured as JSON rather than "[object Object]".
 * Rule groups compare and search through it, concatenations join it, grids show it.
 */
export function toText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      if (value === null) return '';
      // JSON.stringify would quote a date ("\"2024-…\""), which no one wants to read or compare.
      return value instanceof Date ? value.toISOString() : (JSON.stringify(value) ?? '');
    default:
      return '';
  }
}

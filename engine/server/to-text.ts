/** Text of a scalar from a driver or a request; objects become JSON rather than "[object Object]". */
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
      return value instanceof Date ? value.toISOString() : JSON.stringify(value);
    default:
      return '';
  }
}

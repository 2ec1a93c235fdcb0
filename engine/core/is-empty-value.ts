/**
 * Whether a value counts as empty for rules and calculations. The server stores empty text as null
 * (engine/server coerce-field-value), so '' and null must mean the same in the browser's form too.
 */
export function isEmptyValue(value: unknown): value is null | undefined | '' {
  return value === null || value === undefined || value === '';
}

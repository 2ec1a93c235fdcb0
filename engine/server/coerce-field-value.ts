import type { FieldDefinition } from '../schema/index.js';

/** A value as it is bound for its column: text for decimals (decimal.js, never floats), ISO text for dates. */
export type BoundValue = string | number | boolean | null;

export type CoerceResult = { ok: true; value: BoundValue } | { ok: false; code: 'FIELD_TYPE'; params: Record<string, string | number> };

const INTEGER = /^[+-]?\d{1,18}$/;
const DECIMAL = /^[+-]?(\d{1,30}(\.\d*)?|\.\d+)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;
const TRUE_TEXTS = new Set(['true', '1', 'y', 'yes']);
const FALSE_TEXTS = new Set(['false', '0', 'n', 'no']);

/**
 * Parses one input value (JSON, an xlsx cell or csv text) into the bound form of the field's type,
 * or says FIELD_TYPE. Empty text is null. Nothing here trusts the input: a value that does not parse
 * is refused before any SQL runs, so the database never sees it as anything but a bound value.
 */
export function coerceFieldValue(field: Pick<FieldDefinition, 'type'>, input: unknown): CoerceResult {
  const refuse = (): CoerceResult => ({ ok: false, code: 'FIELD_TYPE', params: { type: field.type } });
  if (input === null || input === undefined) return { ok: true, value: null };
  if (typeof input === 'string' && input.trim() === '' && field.type !== 'string' && field.type !== 'text') {
    return { ok: true, value: null };
  }
  switch (field.type) {
    case 'string':
    case 'text':
      if (typeof input === 'string') return { ok: true, value: input === '' ? null : input };
      if (typeof input === 'number' && Number.isFinite(input)) return { ok: true, value: String(input) };
      return refuse();
    case 'integer': {
      const text = typeof input === 'number' ? (Number.isInteger(input) ? String(input) : '') : typeof input === 'string' ? input.trim() : '';
      if (!INTEGER.test(text)) return refuse();
      const value = Number(text);
      return Number.isSafeInteger(value) ? { ok: true, value } : refuse();
    }
    case 'decimal': {
      const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : typeof input === 'string' ? input.trim() : '';
      if (!DECIMAL.test(text)) return refuse();
      return { ok: true, value: text };
    }
    case 'boolean':
      if (typeof input === 'boolean') return { ok: true, value: input };
      if (typeof input === 'string' && TRUE_TEXTS.has(input.trim().toLowerCase())) return { ok: true, value: true };
      if (typeof input === 'string' && FALSE_TEXTS.has(input.trim().toLowerCase())) return { ok: true, value: false };
      if (input === 1 || input === 0) return { ok: true, value: input === 1 };
      return refuse();
    case 'date': {
      if (input instanceof Date) return Number.isNaN(input.getTime()) ? refuse() : { ok: true, value: input.toISOString().slice(0, 10) };
      if (typeof input !== 'string') return refuse();
      const text = input.trim().slice(0, 10);
      const match = DATE.exec(text);
      if (!match || input.trim().length > 10 && !DATETIME.test(input.trim())) return refuse();
      const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
      const probe = new Date(Date.UTC(year, month - 1, day));
      if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return refuse();
      return { ok: true, value: text };
    }
    case 'datetime': {
      if (input instanceof Date) return Number.isNaN(input.getTime()) ? refuse() : { ok: true, value: input.toISOString() };
      if (typeof input !== 'string' || !DATETIME.test(input.trim()) || Number.isNaN(Date.parse(input.trim().replace(' ', 'T')))) return refuse();
      return { ok: true, value: input.trim() };
    }
  }
}

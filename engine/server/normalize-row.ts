import { toText } from '../core/index.js';
import type { PreparedPage } from './prepared-page.js';

/** A row as the API answers it: field values by name plus `_key`, `_version` and, in lists, `_labels` (engine/schema/api.ts). */
export type EngineRow = Record<string, unknown> & { _key: string | number; _version: string | null; _labels?: Record<string, string> };

/** Prefix of the columns a list selects for the labels of foreign values (`_label:<field>`). */
export const LABEL_PREFIX = '_label:';

/**
 * Gives both drivers' answers one JSON shape: decimals as text (exact), integers and bigints as
 * numbers, timestamps as ISO text, dates as YYYY-MM-DD.
 */
export function normalizeRow(prepared: PreparedPage, raw: Record<string, unknown>): EngineRow {
  const row: Record<string, unknown> = {};
  for (const field of prepared.page.fields) {
    row[field.name] = normalizeValue(field.type, raw[field.name]);
  }
  const key = raw._key;
  row._key = typeof key === 'bigint' ? Number(key) : key;
  row._version = raw._version === null || raw._version === undefined ? null : toText(raw._version);
  const labels: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name.startsWith(LABEL_PREFIX) && value !== null && value !== undefined) labels[name.slice(LABEL_PREFIX.length)] = toText(value);
  }
  if (Object.keys(labels).length > 0) row._labels = labels;
  return row as EngineRow;
}

function normalizeValue(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'decimal':
      return toText(value);
    case 'integer':
      return typeof value === 'bigint' ? Number(value) : typeof value === 'string' ? Number(value) : value;
    case 'datetime':
      return toText(value);
    case 'date':
      return toText(value).slice(0, 10);
    default:
      return value;
  }
}

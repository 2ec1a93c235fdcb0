import type { FieldDefinition } from '../schema/index.js';
import { isEditable, isMandatory, isStored, keyFieldOf } from '../schema/index.js';
import { applyCalculations, evaluateRuleGroup } from '../core/index.js';
import { checkFieldValue } from './check-field-value.js';
import { coerceFieldValue, type BoundValue } from './coerce-field-value.js';
import type { EngineFieldError } from './engine-error.js';
import { scopeColumnOf } from './engine-session.js';
import type { PreparedPage } from './prepared-page.js';

export interface PreparedRecord {
  /** Values to write, by field (column) name, in bound form. */
  values: Record<string, BoundValue>;
  /** Checked values of fields that are not columns (`stored: false`), for the page's writer only. */
  unstored: Record<string, BoundValue>;
  /** The whole record after the change (stored row + changes + calculations), for the checks. */
  merged: Record<string, BoundValue>;
  /** Every field problem found without the database. */
  errors: EngineFieldError[];
  /** Fields that already have a problem; the database checks skip them. */
  failed: Set<string>;
}

/**
 * The field rules that need no database: unknown fields refused,
 * types parsed, defaults applied on add, non-editable and calculated fields never taken from the
 * caller, calculations recomputed, conditions applied, mandatory, length, decimals and range.
 * Collects every problem of the record; never stops at the first.
 */
export function prepareRecord(
  prepared: PreparedPage,
  mode: 'add' | 'update',
  input: Record<string, unknown>,
  stored: Record<string, unknown> = {},
): PreparedRecord {
  const { page, fieldsByName } = prepared;
  const errors: EngineFieldError[] = [];
  const failed = new Set<string>();
  const values: Record<string, BoundValue> = {};
  const protectedColumns = new Set([scopeColumnOf(page.scope), mode === 'update' ? keyFieldOf(page) : null].filter((c) => c !== null));
  const storedRecord: Record<string, BoundValue> = {};
  for (const field of page.fields) storedRecord[field.name] = (stored[field.name] ?? null) as BoundValue;

  for (const [name, raw] of Object.entries(input)) {
    if (name === '_key' || name === '_version') continue;
    const field = fieldsByName.get(name);
    if (!field) {
      errors.push({ field: name.slice(0, 64), code: 'FIELD_UNKNOWN' });
      continue;
    }
    // The scope column is the session's, the calculation the server's, a non-editable field the
    // stored one: what the caller sends for them is not taken (README: editable, calc, scope).
    if (protectedColumns.has(name) || field.calc) continue;
    if (mode === 'update' && (!isEditable(field) || isReadonlyNow(field, storedRecord))) continue;
    const parsed = coerceFieldValue(field, raw);
    if (!parsed.ok) {
      errors.push({ field: name, code: parsed.code, params: parsed.params });
      failed.add(name);
      continue;
    }
    values[name] = parsed.value;
  }

  if (mode === 'add') {
    for (const field of page.fields) {
      if (Object.hasOwn(values, field.name) || failed.has(field.name) || field.defaultValue === undefined || field.calc) continue;
      if (protectedColumns.has(field.name)) continue;
      const parsed = coerceFieldValue(field, field.defaultValue);
      if (parsed.ok) values[field.name] = parsed.value;
    }
  }

  const computed = applyCalculations(page.fields, { ...(mode === 'update' ? storedRecord : {}), ...values });
  // On update a calculation is written only when one of its inputs changes (in definition order,
  // so a calculation over another calculation follows it).
  for (const field of page.fields) {
    if (field.calc && (mode === 'add' || field.calc.params.some((param) => Object.hasOwn(values, param)))) {
      values[field.name] = computed[field.name] ?? null;
    }
  }
  const merged: Record<string, BoundValue> = {};
  for (const field of page.fields) merged[field.name] = computed[field.name] ?? null;

  for (const field of page.fields) {
    if (failed.has(field.name) || protectedColumns.has(field.name)) continue;
    const visible = field.condition?.effect !== 'visible' || evaluateRuleGroup(field.condition.when, merged);
    const required = isMandatory(field) || (field.condition?.effect === 'mandatory' && evaluateRuleGroup(field.condition.when, merged));
    const value = merged[field.name];
    if (visible && required && (value === null || value === '')) {
      errors.push({ field: field.name, code: 'FIELD_REQUIRED' });
      failed.add(field.name);
      continue;
    }
    if (Object.hasOwn(values, field.name)) {
      const problems = checkFieldValue(field, values[field.name]);
      if (problems.length) failed.add(field.name);
      errors.push(...problems);
    }
  }
  const unstored: Record<string, BoundValue> = {};
  for (const field of page.fields) {
    if (isStored(field) || !Object.hasOwn(values, field.name)) continue;
    unstored[field.name] = values[field.name];
    delete values[field.name];
  }
  return { values, unstored, merged, errors, failed };
}

function isReadonlyNow(field: FieldDefinition, stored: Record<string, BoundValue>): boolean {
  return field.condition?.effect === 'readonly' && evaluateRuleGroup(field.condition.when, stored);
}

import { sql, type RawBuilder } from 'kysely';
import type { FieldOptions } from '../schema/index.js';
import { coerceFieldValue } from './coerce-field-value.js';
import type { PreparedPage } from './prepared-page.js';

/** The options of a dropdown over a foreign table. */
export type ForeignOptions = Extract<FieldOptions, { type: 'foreign' }>;

/**
 * The text a foreign dropdown shows for a row of `alias` (README: options): the label column, then
 * the description column when the definition names one and it says something else ("STORE001 -
 * CityMart Mong Kok"), so the user reads both and typing either finds the row.
 */
export function foreignChoiceText(options: ForeignOptions, alias: string): RawBuilder<string> {
  const label = sql`cast(${sql.ref(`${alias}.${options.labelField ?? options.valueField}`)} as text)`;
  if (!options.descriptionField) return label as RawBuilder<string>;
  const description = sql`cast(${sql.ref(`${alias}.${options.descriptionField}`)} as text)`;
  return sql<string>`concat_ws(' - ', ${label}, nullif(nullif(${description}, ''), ${label}))`;
}

/**
 * The value a field filter of the options compares with: the record's value of that field, parsed
 * by the field's rules, or null while the field is empty (or not a value of its type), which
 * leaves the list open.
 */
function filterValue(prepared: PreparedPage, fieldName: string, record: Record<string, unknown>): unknown {
  const field = prepared.fieldsByName.get(fieldName);
  if (!field) return null;
  const parsed = coerceFieldValue(field, record[fieldName]);
  return parsed.ok ? parsed.value : null;
}

/**
 * The options' `filter` as conditions on the foreign table's alias: a fixed value always, a field
 * of the record once it has a value. The same conditions narrow what the dropdown offers, what its
 * fill reads and what a write accepts (`checkForeignValues`).
 */
export function foreignFilterConditions(prepared: PreparedPage, options: ForeignOptions, record: Record<string, unknown>, alias: string): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [];
  for (const filter of options.filter ?? []) {
    const column = sql.ref(`${alias}.${filter.column}`);
    const value = 'field' in filter ? filterValue(prepared, filter.field, record) : filter.value;
    if (value === null || value === undefined) continue;
    where.push(sql`${column} = ${value}`);
  }
  return where;
}

/** The values the filter of the options reads from the record, as one text (part of a cache key). */
export function foreignFilterKey(prepared: PreparedPage, options: ForeignOptions, record: Record<string, unknown>): string {
  return (options.filter ?? []).map((filter) => ('field' in filter ? String(filterValue(prepared, filter.field, record)) : '')).join('\u0000');
}

import { sql, type RawBuilder } from 'kysely';
import type { FieldDefinition } from '../schema/index.js';
import type { EngineFieldError } from './engine-error.js';

/**
 * ORDER BY items from a requested sort: only fields of the page, looked up by name (so the
 * identifier is the definition's), only `asc`/`desc` as fixed SQL keywords. Unknown fields or
 * directions are reported, not ignored, so that an attack string in a sort is refused.
 */
export function compileSort(
  input: unknown,
  whitelist: ReadonlyMap<string, FieldDefinition>,
  column: (field: FieldDefinition) => RawBuilder<unknown>,
): { orderBy: RawBuilder<unknown>[]; errors: EngineFieldError[] } {
  const errors: EngineFieldError[] = [];
  const orderBy: RawBuilder<unknown>[] = [];
  if (input === undefined || input === null) return { orderBy, errors };
  if (!Array.isArray(input)) return { orderBy, errors: [{ field: 'sort', code: 'QUERY_INVALID', params: { path: 'sort' } }] };
  input.forEach((item: unknown, i) => {
    const path = `sort.${i}`;
    const entry = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    const name = entry.field;
    const field = typeof name === 'string' && whitelist.has(name) ? whitelist.get(name) : undefined;
    if (!field) {
      errors.push({ field: path, code: 'QUERY_FIELD', params: { path, name: typeof name === 'string' ? name.slice(0, 64) : '' } });
      return;
    }
    if (entry.direction !== 'asc' && entry.direction !== 'desc') {
      errors.push({ field: path, code: 'QUERY_INVALID', params: { path } });
      return;
    }
    // PostgreSQL's own null ordering (last ascending, first descending) is the order a plain btree
    // index has in both directions: saying `nulls last` on a descending sort kept the planner from
    // walking the index backwards and made it sort the whole table.
    orderBy.push(entry.direction === 'asc' ? sql`${column(field)} asc` : sql`${column(field)} desc`);
  });
  return { orderBy, errors };
}

import { sql, type RawBuilder } from 'kysely';
import { isQueryOperator, type FieldDefinition } from '../schema/index.js';
import { coerceFieldValue, type BoundValue } from './coerce-field-value.js';
import type { EngineFieldError } from './engine-error.js';

const MAX_DEPTH = 8;
const MAX_RULES = 200;
const MAX_LIST = 1000;

export interface CompiledConditions {
  /** The WHERE expression, or null when the group holds no active rule. */
  where: RawBuilder<unknown> | null;
  errors: EngineFieldError[];
}

/**
 * Compiles a react-querybuilder rule group into SQL: fields only from the whitelist (the
 * page's searchable fields, looked up by name so that the identifier written is the definition's,
 * never the caller's), operators only from the fixed list, every value parsed for the field's type
 * and bound. Anything else is reported, all problems at once; nothing partial is returned.
 */
export function compileConditions(
  input: unknown,
  whitelist: ReadonlyMap<string, FieldDefinition>,
  column: (field: FieldDefinition) => RawBuilder<unknown>,
): CompiledConditions {
  const errors: EngineFieldError[] = [];
  let ruleCount = 0;

  const group = (node: unknown, path: string, depth: number): RawBuilder<unknown> | null => {
    if (!isObject(node) || (node.combinator !== 'and' && node.combinator !== 'or') || !Array.isArray(node.rules)) {
      errors.push({ field: path, code: 'QUERY_INVALID', params: { path } });
      return null;
    }
    if (depth > MAX_DEPTH) {
      errors.push({ field: path, code: 'QUERY_INVALID', params: { path } });
      return null;
    }
    const parts: RawBuilder<unknown>[] = [];
    node.rules.forEach((child, i) => {
      const at = `${path}.rules.${i}`;
      if (isObject(child) && child.disabled === true) return;
      ruleCount += 1;
      if (ruleCount > MAX_RULES) {
        if (ruleCount === MAX_RULES + 1) errors.push({ field: at, code: 'QUERY_INVALID', params: { path: at } });
        return;
      }
      const compiled = isObject(child) && 'rules' in child ? group(child, at, depth + 1) : rule(child, at);
      if (compiled) parts.push(compiled);
    });
    if (!parts.length) return null;
    const joined = sql.join(parts, node.combinator === 'or' ? sql` or ` : sql` and `);
    return node.not === true ? sql`not (${joined})` : sql`(${joined})`;
  };

  const rule = (node: unknown, path: string): RawBuilder<unknown> | null => {
    if (!isObject(node)) {
      errors.push({ field: path, code: 'QUERY_INVALID', params: { path } });
      return null;
    }
    const name = node.field;
    const field = typeof name === 'string' && whitelist.has(name) ? whitelist.get(name) : undefined;
    if (!field) {
      errors.push({ field: path, code: 'QUERY_FIELD', params: { path, name: typeof name === 'string' ? name.slice(0, 64) : '' } });
    }
    const operator = node.operator;
    if (!isQueryOperator(operator)) {
      errors.push({ field: path, code: 'QUERY_OPERATOR', params: { path, operator: typeof operator === 'string' ? operator.slice(0, 20) : '' } });
    }
    if (!field || !isQueryOperator(operator)) return null;
    const col = column(field);
    const one = (raw: unknown): BoundValue | undefined => {
      const parsed = coerceFieldValue(field, raw);
      if (!parsed.ok) {
        errors.push({ field: path, code: 'FIELD_TYPE', params: { path, name: field.name, type: field.type } });
        return undefined;
      }
      return parsed.value;
    };
    switch (operator) {
      case 'null':
        return sql`${col} is null`;
      case 'notNull':
        return sql`${col} is not null`;
      case '=':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const value = one(node.value);
        if (value === undefined) return null;
        if (value === null) return operator === '=' ? sql`${col} is null` : operator === '!=' ? sql`${col} is not null` : sql`false`;
        return operator === '!=' ? sql`${col} is distinct from ${value}` : sql`${col} ${sql.raw(operator)} ${value}`;
      }
      case 'contains':
      case 'beginsWith':
      case 'endsWith': {
        if (typeof node.value !== 'string' && typeof node.value !== 'number') {
          errors.push({ field: path, code: 'FIELD_TYPE', params: { path, name: field.name, type: 'string' } });
          return null;
        }
        const escaped = String(node.value).replace(/[\\%_]/g, (c) => `\\${c}`);
        const pattern = operator === 'contains' ? `%${escaped}%` : operator === 'beginsWith' ? `${escaped}%` : `%${escaped}`;
        return sql`cast(${col} as text) ilike ${pattern} escape '\\'`;
      }
      case 'in':
      case 'notIn': {
        const items = toList(node.value);
        if (items.length > MAX_LIST) {
          errors.push({ field: path, code: 'QUERY_INVALID', params: { path } });
          return null;
        }
        const values = items.map(one);
        if (values.some((v) => v === undefined)) return null;
        const present = values.filter((v): v is Exclude<BoundValue, null> => v !== null && v !== undefined);
        if (!present.length) return operator === 'in' ? sql`false` : sql`true`;
        const list = sql.join(present.map((v) => sql`${v}`));
        return operator === 'in' ? sql`${col} in (${list})` : sql`(${col} not in (${list}) or ${col} is null)`;
      }
      case 'between': {
        const items = toList(node.value);
        if (items.length !== 2) {
          errors.push({ field: path, code: 'QUERY_INVALID', params: { path } });
          return null;
        }
        const [low, high] = items.map(one);
        if (low === undefined || high === undefined) return null;
        if (low === null || high === null) return sql`false`;
        return sql`${col} between ${low} and ${high}`;
      }
    }
  };

  const where = input === undefined || input === null ? null : group(input, 'conditions', 0);
  return errors.length ? { where: null, errors } : { where, errors };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** react-querybuilder sends lists as arrays or as comma-separated text. */
function toList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value === '' ? [] : value.split(',').map((part) => part.trim());
  if (value === undefined || value === null) return [];
  return [value];
}

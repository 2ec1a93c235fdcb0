import Decimal from 'decimal.js';
import type { QueryRule, RuleGroup } from '../schema/index.js';
import { toText } from './to-text.js';

/**
 * Whether a record satisfies a rule group (field conditions: visible / mandatory / readonly while
 * the group holds). Same operators and meaning as the SQL the condition compiler writes.
 */
export function evaluateRuleGroup(group: RuleGroup, record: Record<string, unknown>): boolean {
  const active = group.rules.filter((rule) => !rule.disabled);
  const results = active.map((rule) => ('rules' in rule ? evaluateRuleGroup(rule, record) : evaluateRule(rule, record)));
  const combined = group.combinator === 'or' ? results.some(Boolean) : results.every(Boolean);
  return group.not ? !combined : combined;
}

function evaluateRule(rule: QueryRule, record: Record<string, unknown>): boolean {
  const actual = record[rule.field];
  const expected = rule.value;
  switch (rule.operator) {
    case 'null':
      return actual === null || actual === undefined || actual === '';
    case 'notNull':
      return !(actual === null || actual === undefined || actual === '');
    case '=':
      return compare(actual, expected) === 0;
    case '!=':
      return compare(actual, expected) !== 0;
    case '<':
      return (compare(actual, expected) ?? 0) < 0;
    case '<=':
      return (compare(actual, expected) ?? 1) <= 0;
    case '>':
      return (compare(actual, expected) ?? 0) > 0;
    case '>=':
      return (compare(actual, expected) ?? -1) >= 0;
    case 'contains':
      return text(actual).includes(text(expected));
    case 'beginsWith':
      return text(actual).startsWith(text(expected));
    case 'endsWith':
      return text(actual).endsWith(text(expected));
    case 'in':
      return list(expected).some((item) => compare(actual, item) === 0);
    case 'notIn':
      return !list(expected).some((item) => compare(actual, item) === 0);
    case 'between': {
      const [low, high] = list(expected);
      return (compare(actual, low) ?? -1) >= 0 && (compare(actual, high) ?? 1) <= 0;
    }
  }
}

function text(value: unknown): string {
  return toText(value).toLowerCase();
}

function list(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.split(',').map((part) => part.trim());
  return [value];
}

/** Numbers compare as numbers (decimal), booleans as booleans, the rest as text; undefined when either is empty. */
function compare(a: unknown, b: unknown): number | undefined {
  if (a === null || a === undefined || b === null || b === undefined) return a === b || (a == null && b == null) ? 0 : undefined;
  if (typeof a === 'boolean' || typeof b === 'boolean') return toText(a) === toText(b) ? 0 : 1;
  const isNumeric = (v: unknown) => (typeof v === 'number' || typeof v === 'string') && /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(toText(v).trim());
  if (isNumeric(a) && isNumeric(b)) return new Decimal(toText(a).trim()).comparedTo(toText(b).trim());
  const left = toText(a);
  const right = toText(b);
  return left === right ? 0 : left < right ? -1 : 1;
}

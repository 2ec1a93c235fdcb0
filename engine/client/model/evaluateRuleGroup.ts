import { textOf } from './textOf.js';
import type { QueryRule, RuleGroup, ScalarValue } from '../../schema/index.js';

type Values = Record<string, unknown>;

function isGroup(rule: QueryRule | RuleGroup): rule is RuleGroup {
  return 'rules' in rule;
}

function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value as unknown[];
  if (typeof value === 'string') return value.split(',').map((part) => part.trim());
  return [value];
}

function compare(left: unknown, right: unknown): number {
  const a = Number(left);
  const b = Number(right);
  if (left !== '' && right !== '' && !Number.isNaN(a) && !Number.isNaN(b)) return a - b;
  return textOf(left).localeCompare(textOf(right));
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

function evaluateRule(rule: QueryRule, values: Values): boolean {
  const actual = values[rule.field];
  const expected = rule.value;
  const text = textOf(actual).toLowerCase();
  const wanted = textOf(expected).toLowerCase();
  switch (rule.operator) {
    case '=':
      return isEmpty(actual) ? isEmpty(expected) : compare(actual, expected) === 0;
    case '!=':
      return isEmpty(actual) ? !isEmpty(expected) : compare(actual, expected) !== 0;
    case '<':
      return !isEmpty(actual) && compare(actual, expected) < 0;
    case '<=':
      return !isEmpty(actual) && compare(actual, expected) <= 0;
    case '>':
      return !isEmpty(actual) && compare(actual, expected) > 0;
    case '>=':
      return !isEmpty(actual) && compare(actual, expected) >= 0;
    case 'contains':
      return text.includes(wanted);
    case 'beginsWith':
      return text.startsWith(wanted);
    case 'endsWith':
      return text.endsWith(wanted);
    case 'in':
      return asList(expected).some((item) => compare(actual, item) === 0);
    case 'notIn':
      return !asList(expected).some((item) => compare(actual, item) === 0);
    case 'between': {
      const [low, high] = asList(expected);
      return !isEmpty(actual) && compare(actual, low) >= 0 && compare(actual, high) <= 0;
    }
    case 'null':
      return isEmpty(actual);
    case 'notNull':
      return !isEmpty(actual);
  }
}

/**
 * Whether a record satisfies a react-querybuilder rule group, evaluated in the browser for field
 * conditions (visible / mandatory / readonly while the rule holds). Disabled rules are ignored; an
 * empty group holds.
 */
export function evaluateRuleGroup(group: RuleGroup, values: Record<string, ScalarValue | undefined> | Values): boolean {
  const active = group.rules.filter((rule) => !rule.disabled);
  const results = active.map((rule) => (isGroup(rule) ? evaluateRuleGroup(rule, values) : evaluateRule(rule, values)));
  const holds = group.combinator === 'or' ? results.length === 0 || results.some(Boolean) : results.every(Boolean);
  return group.not ? !holds : holds;
}

import type { QueryRule, RuleGroup } from '../schema/index.js';
import { compareValues } from './compare-values.js';
import { isEmptyValue } from './is-empty-value.js';
import { toText } from './to-text.js';

/**
 * Whether a record satisfies a react-querybuilder rule group: field conditions (visible, mandatory,
 * readonly while the group holds) in the browser's form and again on the server before a save.
 * Operators mean what the condition SQL of engine/server compile-conditions means.
 *
 * Disabled rules and groups are left out first. An empty group then follows plain logic:
 * an empty AND group holds (every one of no rules holds) and an empty OR group does not (no rule
 * holds), before `not` is applied. The server has always judged saves this way; the browser used to
 * hold an empty OR group true, so a field could be shown as mandatory that the server then did not
 * require. One rule on both sides keeps the form and the save in agreement.
 */
export function evaluateRuleGroup(group: RuleGroup, record: Readonly<Record<string, unknown>>): boolean {
  const active = group.rules.filter((rule) => !rule.disabled);
  const results = active.map((rule) => ('rules' in rule ? evaluateRuleGroup(rule, record) : evaluateRule(rule, record)));
  const holds = group.combinator === 'or' ? results.some(Boolean) : results.every(Boolean);
  return group.not ? !holds : holds;
}

function evaluateRule(rule: QueryRule, record: Readonly<Record<string, unknown>>): boolean {
  const actual = record[rule.field];
  const expected = rule.value;
  switch (rule.operator) {
    case 'null':
      return isEmptyValue(actual);
    case 'notNull':
      return !isEmptyValue(actual);
    case '=':
      return compareValues(actual, expected) === 0;
    case '!=':
      return compareValues(actual, expected) !== 0;
    case '<':
      return ordered(actual, expected, (order) => order < 0);
    case '<=':
      return ordered(actual, expected, (order) => order <= 0);
    case '>':
      return ordered(actual, expected, (order) => order > 0);
    case '>=':
      return ordered(actual, expected, (order) => order >= 0);
    case 'contains':
      return lower(actual).includes(lower(expected));
    case 'beginsWith':
      return lower(actual).startsWith(lower(expected));
    case 'endsWith':
      return lower(actual).endsWith(lower(expected));
    case 'in':
      return listOf(expected).some((item) => compareValues(actual, item) === 0);
    case 'notIn':
      return !listOf(expected).some((item) => compareValues(actual, item) === 0);
    case 'between': {
      const [low, high] = listOf(expected);
      return ordered(actual, low, (order) => order >= 0) && ordered(actual, high, (order) => order <= 0);
    }
  }
}

/** An ordering with an empty side is false, as it is in SQL (NULL <= 1 and NULL <= NULL are not true). */
function ordered(a: unknown, b: unknown, test: (order: number) => boolean): boolean {
  if (isEmptyValue(a) || isEmptyValue(b)) return false;
  return test(compareValues(a, b) ?? Number.NaN);
}

function lower(value: unknown): string {
  return toText(value).toLowerCase();
}

/** The values of `in`, `notIn` and `between`: a list, or comma-separated text as the query builder writes it. */
function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value as unknown[];
  if (typeof value === 'string') return value.split(',').map((part) => part.trim());
  return [value];
}

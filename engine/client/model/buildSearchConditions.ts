import type { FieldDefinition, QueryRule, RuleGroup, ScalarValue } from '../../schema/index.js';

export type SearchValues = Record<string, ScalarValue | undefined>;

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** The rule a search-panel input stands for: free text contains, anything typed or chosen equals. */
export function searchRule(field: FieldDefinition, value: ScalarValue): QueryRule {
  const freeText = (field.type === 'string' || field.type === 'text') && !field.options;
  return { field: field.name, operator: freeText ? 'contains' : '=', value: typeof value === 'string' ? value.trim() : value };
}

/** Equality rules of a filter (a hyperlink's or a sub-page's link values). */
export function filterToRuleGroup(filter: Record<string, ScalarValue>): RuleGroup {
  return { combinator: 'and', rules: Object.entries(filter).map(([field, value]) => ({ field, operator: '=', value })) };
}

function hasRules(group: RuleGroup | undefined): group is RuleGroup {
  return group !== undefined && group.rules.length > 0;
}

/**
 * The conditions of a selection (searchable fields, saved query conditions): the search
 * panel's inputs, the chosen saved condition and the free query of the builder, all ANDed; blank
 * inputs and empty groups add nothing. Undefined when nothing filters, so the request stays minimal.
 */
export function buildSearchConditions(
  fields: readonly FieldDefinition[],
  values: SearchValues,
  ...groups: (RuleGroup | undefined)[]
): RuleGroup | undefined {
  const rules: (QueryRule | RuleGroup)[] = [];
  for (const field of fields) {
    const value = values[field.name];
    if (!isBlank(value)) rules.push(searchRule(field, value as ScalarValue));
  }
  for (const group of groups) if (hasRules(group)) rules.push(group);
  return rules.length > 0 ? { combinator: 'and', rules } : undefined;
}

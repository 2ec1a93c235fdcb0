import { useMemo } from 'react';
import { QueryBuilder, type Field, type RuleGroupType } from 'react-querybuilder';
import 'react-querybuilder/dist/query-builder.css';
import { useTranslation } from 'react-i18next';
import { QUERY_OPERATORS, type PageDefinition, type RuleGroup } from '../../../../engine/schema/index.js';

const EMPTY: RuleGroupType = { combinator: 'and', rules: [] };

/**
 * A query condition's rules with react-querybuilder, over the page's searchable fields and the
 * operators the engine compiles (engine/schema query-operators); the stored JSON is its format.
 */
export function ConditionBuilder({ page, value, onChange }: { page: Partial<PageDefinition>; value: unknown; onChange: (query: RuleGroup) => void }) {
  const { t } = useTranslation();
  const fields = useMemo<Field[]>(
    () => (page.fields ?? []).filter((f) => f.searchable === true).map((f) => ({ name: f.name, label: f.name })),
    [page.fields],
  );
  const operators = useMemo(() => QUERY_OPERATORS.map((op) => ({ name: op, value: op, label: t(`ui.designer.operator.${op}`) })), [t]);
  const query = (value && typeof value === 'object' ? value : EMPTY) as RuleGroupType;
  return (
    <div data-testid="designer-condition-builder" style={{ marginTop: 8 }}>
      <QueryBuilder
        fields={fields}
        operators={operators}
        query={query}
        combinators={[
          { name: 'and', value: 'and', label: t('ui.designer.operator.and') },
          { name: 'or', value: 'or', label: t('ui.designer.operator.or') },
        ]}
        onQueryChange={(next) => onChange(stripValueSources(next) as RuleGroup)}
      />
    </div>
  );
}

/** The builder adds bookkeeping the schema does not take (`valueSource: field`, `path`); keep the rest. */
function stripValueSources(group: RuleGroupType): unknown {
  return {
    ...(group.id ? { id: group.id } : {}),
    combinator: group.combinator === 'or' ? 'or' : 'and',
    ...(group.not ? { not: true } : {}),
    rules: group.rules
      .filter((r) => typeof r !== 'string')
      .map((r) =>
        'rules' in r
          ? stripValueSources(r)
          : { ...(r.id ? { id: r.id } : {}), field: r.field, operator: r.operator, ...(r.value !== undefined ? { value: r.value as unknown } : {}), ...(r.disabled ? { disabled: true } : {}) },
      ),
  };
}

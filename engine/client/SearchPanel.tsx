import { lazy, Suspense, useMemo, useState, type ComponentType } from 'react';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space, Spin } from 'antd';
import dayjs from 'dayjs';
import type { Field, FullCombinator, FullField, FullOperator, QueryBuilderProps, RuleGroupType, RuleType } from 'react-querybuilder';
import 'react-querybuilder/dist/query-builder.css';
import { QUERY_OPERATORS, type FieldDefinition, type PageDefinition, type QueryRule, type RuleGroup } from '../schema/index.js';
import { useEngineServices } from './services.js';
import type { SearchValues } from './model/buildSearchConditions.js';

// The advanced search's builder loads when first shown: a page's list needs none of its code.
type BuilderProps = QueryBuilderProps<RuleGroupType, FullField, FullOperator, FullCombinator>;
const LazyQueryBuilder = lazy(() => import('react-querybuilder').then((module) => ({ default: module.QueryBuilder as ComponentType<BuilderProps> })));

function QueryBuilder(props: BuilderProps) {
  return (
    <Suspense fallback={<Spin size="small" />}>
      <LazyQueryBuilder {...props} />
    </Suspense>
  );
}

export interface SearchState {
  values: SearchValues;
  /** Code of the chosen saved query condition of the page. */
  savedCondition?: string;
  /** The free AND/OR query of the builder. */
  query?: RuleGroup;
}

export interface SearchPanelProps {
  page: PageDefinition;
  fields: FieldDefinition[];
  choices: Record<string, { value: string | number | boolean; label: string }[] | undefined>;
  label: (code: string) => string;
  onSearch: (state: SearchState) => void;
}

const EMPTY_QUERY: RuleGroupType = { combinator: 'and', rules: [] };

/** The builder's query as the definition schema accepts it: only the known keys, no UI ids or paths. */
export function toRuleGroup(query: RuleGroupType): RuleGroup {
  return {
    combinator: query.combinator === 'or' ? 'or' : 'and',
    ...(query.not ? { not: true } : {}),
    rules: query.rules
      .filter((rule): rule is RuleType | RuleGroupType => typeof rule !== 'string')
      .map((rule): QueryRule | RuleGroup =>
        'rules' in rule
          ? toRuleGroup(rule)
          : { field: rule.field, operator: rule.operator as QueryRule['operator'], value: rule.value as unknown, ...(rule.disabled ? { disabled: true } : {}) },
      ),
  };
}

interface FieldInputProps {
  field: FieldDefinition;
  choices?: { value: string | number | boolean; label: string }[];
  yes: string;
  no: string;
  // Form.Item hands its control these three; they must reach the input itself.
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
}

const ISO_DATE = 'YYYY-MM-DD';
const ISO_DATE_TIME = 'YYYY-MM-DDTHH:mm';

const DATE_TOKENS: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = { year: 'YYYY', month: 'MM', day: 'DD' };

/**
 * The short date pattern of the page's language (the `lang` the host sets), as picker tokens:
 * YYYY/MM/DD in Chinese and Japanese, MM/DD/YYYY in English, YYYY. MM. DD. in Korean.
 */
export function datePatternOf(tag: string): string {
  try {
    const parts = new Intl.DateTimeFormat(tag || 'en', { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(2006, 0, 2));
    return parts.map((part) => DATE_TOKENS[part.type] ?? (part.type === 'literal' ? part.value.replace(/[A-Za-z]/g, '') : '')).join('');
  } catch {
    return ISO_DATE;
  }
}

/** A date (or date and time) box in the format of the user's language; its value is the ISO text. */
function DateBox({ id, value, onChange, withTime }: Pick<FieldInputProps, 'id' | 'value' | 'onChange'> & { withTime: boolean }) {
  const parsed = typeof value === 'string' && value !== '' ? dayjs(value) : null;
  const pattern = datePatternOf(document.documentElement.lang);
  return (
    <DatePicker
      id={id}
      value={parsed?.isValid() ? parsed : null}
      showTime={withTime ? { format: 'HH:mm' } : false}
      format={withTime ? `${pattern} HH:mm` : pattern}
      onChange={(date) => onChange?.(date ? date.format(withTime ? ISO_DATE_TIME : ISO_DATE) : undefined)}
      style={{ width: withTime ? 200 : 160 }}
    />
  );
}

function FieldInput({ field, choices, yes, no, id, value, onChange }: FieldInputProps) {
  const control = { id, value: value as never, onChange: onChange as never };
  if (choices) {
    return (
      <Select
        {...control}
        allowClear
        showSearch
        optionFilterProp="label"
        options={choices.map((c) => ({ value: c.value as string, label: c.label }))}
        style={{ minWidth: 160 }}
      />
    );
  }
  switch (field.type) {
    case 'integer':
    case 'decimal':
      return <InputNumber {...control} style={{ width: 140 }} />;
    case 'boolean':
      return (
        <Select
          {...control}
          allowClear
          style={{ width: 100 }}
          options={[
            { value: true, label: yes },
            { value: false, label: no },
          ]}
        />
      );
    // The browser's own date box writes dates the browser's way, whatever the user's language: the
    // picker writes them the way the user's language does, and the value sent stays ISO.
    case 'date':
      return <DateBox id={id} value={value} onChange={onChange} withTime={false} />;
    case 'datetime':
      return <DateBox id={id} value={value} onChange={onChange} withTime />;
    case 'string':
    case 'text':
      return <Input {...control} allowClear style={{ width: 160 }} />;
  }
}

/**
 * The search panel of a page (docs/architecture.md, "The engine"): one input per searchable field,
 * the page's saved query conditions, and a query builder for AND/OR groups over the searchable
 * fields with the operators the server knows.
 */
export function SearchPanel(props: SearchPanelProps) {
  const services = useEngineServices();
  const [form] = Form.useForm<SearchValues & { __saved?: string }>();
  const [showBuilder, setShowBuilder] = useState(false);
  const [query, setQuery] = useState<RuleGroupType>(EMPTY_QUERY);
  const yes = services.t('ui.engine.yes');
  const no = services.t('ui.engine.no');

  const builderFields = useMemo<Field[]>(
    () => props.fields.map((field) => ({ name: field.name, label: props.label(field.labelCode) })),
    [props],
  );
  const operators = useMemo(() => QUERY_OPERATORS.map((name) => ({ name, value: name, label: services.t(`ui.engine.operator.${name}`) })), [services]);
  const combinators = useMemo(
    () => [
      { name: 'and', value: 'and', label: services.t('ui.engine.and') },
      { name: 'or', value: 'or', label: services.t('ui.engine.or') },
    ],
    [services],
  );
  const translations = useMemo(
    () => ({
      addRule: { label: services.t('ui.engine.addRule'), title: services.t('ui.engine.addRule') },
      addGroup: { label: services.t('ui.engine.addGroup'), title: services.t('ui.engine.addGroup') },
      removeRule: { label: '×', title: services.t('ui.engine.remove') },
      removeGroup: { label: '×', title: services.t('ui.engine.remove') },
    }),
    [services],
  );

  const submit = () => {
    const { __saved, ...values } = form.getFieldsValue();
    const cleaned: SearchValues = {};
    for (const [name, value] of Object.entries(values)) cleaned[name] = value ?? undefined;
    props.onSearch({ values: cleaned, savedCondition: __saved, query: showBuilder ? toRuleGroup(query) : undefined });
  };

  const reset = () => {
    form.resetFields();
    setQuery(EMPTY_QUERY);
    props.onSearch({ values: {} });
  };

  const saved = props.page.queryConditions ?? [];
  return (
    <div className="engine-search" data-testid="engine-search">
      <Form form={form} name={`engine_search_${props.page.functionCode}`} layout="inline" onFinish={submit} style={{ rowGap: 8 }}>
        {props.fields.map((field) => (
          <Form.Item key={field.name} name={field.name} label={props.label(field.labelCode)}>
            <FieldInput field={field} choices={props.choices[field.name]} yes={yes} no={no} />
          </Form.Item>
        ))}
        {saved.length > 0 && (
          <Form.Item name="__saved" label={services.t('ui.engine.savedCondition')}>
            <Select allowClear style={{ minWidth: 180 }} options={saved.map((c) => ({ value: c.code, label: props.label(c.titleCode) }))} />
          </Form.Item>
        )}
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid="engine-search-submit">
              {services.t('ui.engine.search')}
            </Button>
            <Button onClick={reset}>{services.t('ui.engine.reset')}</Button>
            {props.fields.length > 0 && <Button onClick={() => setShowBuilder((shown) => !shown)}>{services.t('ui.engine.advanced')}</Button>}
          </Space>
        </Form.Item>
      </Form>
      {showBuilder && (
        <div style={{ marginTop: 8 }} data-testid="engine-query-builder">
          <QueryBuilder
            fields={builderFields}
            query={query}
            onQueryChange={setQuery}
            operators={operators}
            combinators={combinators}
            translations={translations}
          />
        </div>
      )}
    </div>
  );
}

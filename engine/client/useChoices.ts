import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldDefinition, PageDefinition, ScalarValue } from '../schema/index.js';
import type { DropdownResponse } from '../schema/api.js';
import { useEngineServices } from './services.js';
import type { ChoiceOption } from './model/buildFormSchema.js';

type ChoiceMap = Record<string, ChoiceOption[]>;

type RouteOptions = Extract<NonNullable<FieldDefinition['options']>, { type: 'route' }>;

/** An item of a route's answer: a dropdown option, or a row whose properties the definition names. */
type RouteItem = Record<string, unknown>;

const asScalar = (value: unknown): string | number | boolean => (typeof value === 'number' || typeof value === 'boolean' ? value : String(value));
const isScalar = (value: unknown): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value);

/**
 * The call a route dropdown makes (README: options `route`): its path without the query string,
 * the fixed query parameters and the record's values of its `params` (left out while a field is
 * empty), in the query of a GET or the JSON body of a POST.
 */
export function routeCall(options: RouteOptions, record: Record<string, unknown>): { path: string; method: 'GET' | 'POST'; values: Record<string, string | number | boolean> } {
  const [path, query = ''] = options.path.split('?');
  const values: Record<string, string | number | boolean> = Object.fromEntries(new URLSearchParams(query));
  for (const param of options.params ?? []) {
    const value = record[param.field];
    if (isScalar(value) && value !== '') values[param.name] = value;
  }
  return { path, method: options.method ?? 'GET', values };
}

/**
 * The choices of a route's answer: its `options` (value and label, as /api/generic/dropdown
 * answers), else its `items` read through `valueField`, `labelField` and `descriptionField`
 * ("CODE - Description", the description left out when empty or equal to the label).
 */
export function routeChoices(options: RouteOptions, answer: unknown, label: (code: string) => string): ChoiceOption[] {
  const body = (answer ?? {}) as { options?: DropdownResponse['options']; items?: RouteItem[] };
  if (Array.isArray(body.options)) {
    return body.options.map((option) => ({ value: option.value, label: option.label ?? (option.labelCode ? label(option.labelCode) : String(option.value)) }));
  }
  const valueField = options.valueField ?? 'value';
  const labelField = options.labelField ?? valueField;
  return (Array.isArray(body.items) ? body.items : [])
    .filter((item) => isScalar(item[valueField]) && item[valueField] !== '')
    .map((item) => {
      const shownLabel = item[labelField];
      // An empty label shows the value, so that no choice reads as blank.
      const text = isScalar(shownLabel) && String(shownLabel) !== '' ? String(shownLabel) : String(item[valueField]);
      const description = options.descriptionField ? item[options.descriptionField] : undefined;
      const shown = isScalar(description) && String(description) !== '' && String(description) !== text ? `${text} - ${String(description)}` : text;
      return { value: asScalar(item[valueField]), label: shown };
    });
}

function recordValues(record: Record<string, unknown>): Record<string, ScalarValue> {
  const values: Record<string, ScalarValue> = {};
  for (const [name, value] of Object.entries(record)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) values[name] = value as ScalarValue;
  }
  return values;
}

/**
 * Dropdown choices of a page's fields: static lists come from the
 * definition, code masters, foreign tables and SQL from `/api/generic/dropdown`, a route's
 * choices from that route of the application (called as the user, with the user's rights). `reloadFor(null)`
 * loads every list; `reloadFor(changed)` reloads only the lists whose trigger fields changed, with
 * the record as it is now, so a dependent dropdown follows the field it depends on.
 */
export function useChoices(page: PageDefinition, fields: readonly FieldDefinition[], record: Record<string, unknown>, label: (code: string) => string) {
  const services = useEngineServices();
  const [choices, setChoices] = useState<ChoiceMap>({});
  // Lists the server cut at its row cap: their dropdowns search on the server as the user types.
  const [truncated, setTruncated] = useState<Record<string, boolean>>({});
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const fetchChoices = useCallback(
    async (field: FieldDefinition, current: Record<string, unknown>, search?: string) => {
      const answer = await services.call<DropdownResponse>('/generic/dropdown', {
        moduleCode: page.moduleCode,
        functionCode: page.functionCode,
        field: field.name,
        record: recordValues(current),
        ...(search ? { search } : {}),
      });
      const list: ChoiceOption[] = answer.options.map((option) => ({
        value: option.value,
        label: option.label ?? (option.labelCode ? label(option.labelCode) : String(option.value)),
      }));
      return { list, truncated: answer.truncated };
    },
    [page.moduleCode, page.functionCode, services, label],
  );

  const load = useCallback(
    async (field: FieldDefinition, current: Record<string, unknown>) => {
      const options = field.options;
      if (!options) return;
      let list: ChoiceOption[];
      let cut = false;
      if (options.type === 'static') {
        list = options.items.map((item) => ({ value: item.value, label: label(item.labelCode) }));
      } else if (options.type === 'route') {
        const call = routeCall(options, current);
        const answer = await services.call<unknown>(
          call.path,
          call.method === 'POST' ? call.values : undefined,
          call.method === 'POST' ? { method: 'POST' } : { method: 'GET', query: call.values },
        );
        list = routeChoices(options, answer, label);
      } else {
        ({ list, truncated: cut } = await fetchChoices(field, current));
      }
      if (!mounted.current) return;
      setChoices((previous) => ({ ...previous, [field.name]: list }));
      setTruncated((previous) => ({ ...previous, [field.name]: cut }));
    },
    [fetchChoices, label, services],
  );

  /**
   * The choices of a cut list that match `text`, asked of the server; the current value's choice
   * stays in the list so the field keeps showing it.
   */
  const searchChoices = useCallback(
    (fieldName: string, text: string, current: Record<string, unknown>) => {
      const field = fields.find((f) => f.name === fieldName);
      // A route answers its whole list; the dropdown filters it as the user types.
      if (!field?.options || field.options.type === 'static' || field.options.type === 'route') return;
      fetchChoices(field, current, text.trim() || undefined)
        .then(({ list }) => {
          if (!mounted.current) return;
          setChoices((previous) => {
            const kept = (previous[fieldName] ?? []).filter((choice) => choice.value === current[fieldName] && !list.some((c) => c.value === choice.value));
            return { ...previous, [fieldName]: [...kept, ...list] };
          });
        })
        // A failed search leaves the list as it was; the host already showed the error.
        .catch(() => undefined);
    },
    [fields, fetchChoices],
  );

  const reloadFor = useCallback(
    (changed: string[] | null, current: Record<string, unknown>) => {
      for (const field of fields) {
        if (!field.options) continue;
        if (changed && !(field.triggerFields ?? []).some((name) => changed.includes(name))) continue;
        // A failed list leaves the field a free input; the host already showed the error.
        load(field, current).catch(() => undefined);
      }
    },
    [fields, load],
  );

  /**
   * What picking `value` in a field's foreign dropdown fills (its `options.fill`): the filled fields'
   * texts by name, as the server read them from the chosen row; nothing for another kind of field.
   */
  const fetchFill = useCallback(
    async (field: FieldDefinition, value: ScalarValue, current: Record<string, unknown>): Promise<Record<string, string>> => {
      if (field.options?.type !== 'foreign' || !field.options.fill?.length || value === null) return {};
      const answer = await services.call<DropdownResponse>('/generic/dropdown', {
        moduleCode: page.moduleCode,
        functionCode: page.functionCode,
        field: field.name,
        record: recordValues(current),
        fillFrom: value,
      });
      return Object.fromEntries(answer.options.map((option) => [String(option.value), option.label ?? '']));
    },
    [page.moduleCode, page.functionCode, services],
  );

  return { choices, truncated, reloadFor, searchChoices, fetchFill, record };
}

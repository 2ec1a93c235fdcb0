import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldDefinition, PageDefinition, ScalarValue } from '../schema/index.js';
import type { DropdownResponse } from '../schema/api.js';
import { useEngineServices } from './services.js';
import type { ChoiceOption } from './model/buildFormSchema.js';

type ChoiceMap = Record<string, ChoiceOption[]>;

function recordValues(record: Record<string, unknown>): Record<string, ScalarValue> {
  const values: Record<string, ScalarValue> = {};
  for (const [name, value] of Object.entries(record)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) values[name] = value as ScalarValue;
  }
  return values;
}

/**
 * Dropdown choices of a page's fields: static lists come from the
 * definition, code masters, foreign tables and SQL from `/api/generic/dropdown`. `reloadFor(null)`
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
      } else {
        ({ list, truncated: cut } = await fetchChoices(field, current));
      }
      if (!mounted.current) return;
      setChoices((previous) => ({ ...previous, [field.name]: list }));
      setTruncated((previous) => ({ ...previous, [field.name]: cut }));
    },
    [fetchChoices, label],
  );

  /**
   * The choices of a cut list that match `text`, asked of the server; the current value's choice
   * stays in the list so the field keeps showing it.
   */
  const searchChoices = useCallback(
    (fieldName: string, text: string, current: Record<string, unknown>) => {
      const field = fields.find((f) => f.name === fieldName);
      if (!field?.options || field.options.type === 'static') return;
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

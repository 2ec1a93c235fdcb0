import { useEffect, useMemo, useRef } from 'react';
import { Select } from 'antd';
import type { WidgetProps } from '@rjsf/utils';

/**
 * What the form tells its dropdowns through rjsf's form context: which lists the server cut at its
 * row cap, and how to ask it for the choices matching typed text.
 */
export interface ChoiceSearchContext {
  truncated: Record<string, boolean>;
  searchChoices(fieldName: string, text: string): void;
}

/** The field name of a widget: rjsf's id is the form's prefix, an underscore and the name. */
function fieldNameOf(props: WidgetProps): string {
  return typeof props.name === 'string' && props.name !== '' ? props.name : props.id.split('_').slice(2).join('_');
}

const matches = (input: string, label: unknown) => (typeof label === 'string' || typeof label === 'number' ? String(label) : '').toLowerCase().includes(input.trim().toLowerCase());

/**
 * The engine form's dropdown: typing filters the choices by their label (what the user reads, a
 * SKU code or a warehouse name, never the stored key), the keyboard alone picks one, an optional
 * field can be cleared, and a list the server cut at its row cap is searched on the server as the
 * user types, so a SKU among twenty thousand is found like one among ten.
 */
export function ChoiceSelectWidget(props: WidgetProps) {
  const { id, required, disabled, readonly, autofocus, placeholder, onChange, onBlur, onFocus, options, registry } = props;
  const value: unknown = props.value;
  const context = (registry.formContext as { choiceSearch?: ChoiceSearchContext }).choiceSearch;
  const fieldName = fieldNameOf(props);
  const serverSearch = Boolean(context?.truncated[fieldName]);
  const enumOptions = useMemo(() => options.enumOptions ?? [], [options.enumOptions]);
  // Options carry their index as the Select's value: stored values may be numbers, strings or booleans.
  const selectOptions = useMemo(() => enumOptions.map((option, index) => ({ value: String(index), label: option.label })), [enumOptions]);
  const selected = enumOptions.findIndex((option) => option.value === value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const valueAt = (index: string | undefined): unknown => (index === undefined ? undefined : enumOptions[Number(index)]?.value);
  return (
    <Select
      id={id}
      value={selected >= 0 ? String(selected) : undefined}
      options={selectOptions}
      showSearch
      filterOption={(input, option) => matches(input, option?.label)}
      onSearch={
        serverSearch
          ? (text) => {
              clearTimeout(timer.current);
              timer.current = setTimeout(() => context?.searchChoices(fieldName, text), 250);
            }
          : undefined
      }
      allowClear={!required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      placeholder={placeholder}
      style={{ width: '100%' }}
      // The list opens inside the form's own scroll area, so it scrolls with the field, never the window.
      getPopupContainer={(node: HTMLElement) => node.parentElement ?? document.body}
      onChange={(index: string | undefined) => onChange(valueAt(index) ?? options.emptyValue)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      aria-required={required || undefined}
    />
  );
}

import { useEffect, useState } from 'react';
import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ValidationProblem } from '../../../../engine/schema/index.js';
import { problemsAt, problemsUnder } from '../problems';

export type PropertyKind = 'text' | 'number' | 'switch' | 'select' | 'tags' | 'json' | 'scalar';

/** One editable property of an object of the definition (a field, a behaviour, the page). */
export interface PropertySpec {
  key: string;
  kind: PropertyKind;
  options?: readonly (string | number)[];
  /** Locale keys of the choices of a select, by choice. */
  optionLabels?: Record<string, string>;
  /** Required by the schema: cannot be cleared. */
  required?: boolean;
}

type Obj = Record<string, unknown>;

/** A JSON-valued property edited as text; applied when it parses, flagged while it does not. */
function JsonInput({ value, onChange, testId }: { value: unknown; onChange: (next: unknown) => void; testId: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value, null, 2));
  const [bad, setBad] = useState(false);
  useEffect(() => {
    setText(value === undefined ? '' : JSON.stringify(value, null, 2));
    setBad(false);
  }, [value]);
  return (
    <>
      <Input.TextArea
        data-testid={testId}
        autoSize={{ minRows: 2, maxRows: 10 }}
        value={text}
        status={bad ? 'error' : undefined}
        style={{ fontFamily: 'monospace', fontSize: 12 }}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          if (text.trim() === '') {
            setBad(false);
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(text));
            setBad(false);
          } catch {
            setBad(true);
          }
        }}
      />
      {bad && <div style={{ color: '#cf1322', fontSize: 12 }}>{t('ui.designer.invalidJson')}</div>}
    </>
  );
}

function scalarOf(text: string): unknown {
  if (text === '') return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/**
 * The property panel of one object: one control per property of the schema, each showing the
 * validator's problems on its own path.
 */
export function PropertyForm({
  value,
  onChange,
  properties,
  basePath,
  problems,
  testIdPrefix,
}: {
  value: Obj;
  onChange: (next: Obj) => void;
  properties: PropertySpec[];
  basePath: string;
  problems: ValidationProblem[];
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const set = (key: string, next: unknown) => {
    const copy = { ...value };
    if (next === undefined || next === '' || (Array.isArray(next) && next.length === 0 && !properties.find((p) => p.key === key)?.required)) delete copy[key];
    else copy[key] = next;
    onChange(copy);
  };
  return (
    <Form layout="vertical" size="small">
      {properties.map((spec) => {
        const path = `${basePath}/${spec.key}`;
        const here = spec.kind === 'json' ? problemsUnder(problems, path) : problemsAt(problems, path);
        const current = value[spec.key];
        const testId = `${testIdPrefix}-${spec.key}`;
        let control;
        switch (spec.kind) {
          case 'text':
            control = <Input data-testid={testId} value={typeof current === 'string' ? current : ''} onChange={(e) => set(spec.key, e.target.value)} />;
            break;
          case 'number':
            control = (
              <InputNumber
                data-testid={testId}
                style={{ width: '100%' }}
                value={typeof current === 'number' ? current : null}
                onChange={(n) => set(spec.key, n === null ? undefined : n)}
              />
            );
            break;
          case 'switch':
            control = <Switch data-testid={testId} checked={current === true} onChange={(checked) => set(spec.key, checked)} />;
            break;
          case 'select':
            control = (
              <Select
                data-testid={testId}
                allowClear={!spec.required}
                value={typeof current === 'string' || typeof current === 'number' ? current : undefined}
                options={(spec.options ?? []).map((o) => {
                  const labelKey = spec.optionLabels?.[String(o)];
                  return { value: o, label: labelKey ? t(labelKey) : String(o) };
                })}
                onChange={(v: string | number | undefined) => set(spec.key, v)}
              />
            );
            break;
          case 'tags':
            control = (
              <Select
                data-testid={testId}
                mode="tags"
                value={Array.isArray(current) ? (current as string[]) : []}
                options={(spec.options ?? []).map((o) => ({ value: String(o), label: String(o) }))}
                onChange={(v: string[]) => set(spec.key, v)}
              />
            );
            break;
          case 'scalar':
            control = (
              <Input
                data-testid={testId}
                value={current === undefined ? '' : typeof current === 'string' ? current : JSON.stringify(current)}
                placeholder={t('ui.designer.scalarHint')}
                onChange={(e) => set(spec.key, scalarOf(e.target.value))}
              />
            );
            break;
          case 'json':
            control = <JsonInput testId={testId} value={current} onChange={(next) => set(spec.key, next)} />;
            break;
        }
        return (
          <Form.Item
            key={spec.key}
            // The label in the user's language; the property's key in the definition on hover.
            label={<span title={spec.key}>{t(`ui.designer.prop.${spec.key}`)}</span>}
            required={spec.required}
            validateStatus={here.length ? 'error' : undefined}
            help={here.length ? here.map((p) => p.message).join('; ') : undefined}
            data-testid={`${testId}-item`}
          >
            {control}
          </Form.Item>
        );
      })}
    </Form>
  );
}

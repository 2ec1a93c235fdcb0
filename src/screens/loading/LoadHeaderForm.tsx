import { useEffect, useState } from 'react';
import { Button, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { BIG } from '../inbound/handheld';
import { HEADER_FIELDS, type HeaderField, type HeaderValues, type LoadHeader } from '../../common/loading-api';

/** Date fields are typed as local date and time and sent as an instant. */
const TIME_FIELDS: readonly HeaderField[] = ['etd', 'eta'];

function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The header of a load: container, seal, vessel, voyage, bills of lading, driver, dates, ports and
 * remarks. Enter in a field goes to the next and saves at the last; Escape cancels. A shipped load
 * is shown read-only.
 */
export function LoadHeaderForm(props: { load: LoadHeader | null; busy: boolean; readOnly: boolean; narrow: boolean; onSave: (values: HeaderValues) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const initial = (load: LoadHeader | null): Record<HeaderField, string> =>
    Object.fromEntries(HEADER_FIELDS.map((field) => [field, TIME_FIELDS.includes(field) ? toLocalInput(load?.[field]) : (load?.[field] ?? '')])) as Record<HeaderField, string>;
  const [values, setValues] = useState(() => initial(props.load));
  useEffect(() => setValues(initial(props.load)), [props.load]);

  const submit = () => {
    const out: HeaderValues = {};
    for (const field of HEADER_FIELDS) {
      const value = values[field].trim();
      out[field] = value === '' ? null : TIME_FIELDS.includes(field) ? new Date(value).toISOString() : value;
    }
    props.onSave(out);
  };

  return (
    <div
      data-testid="loading-header-form"
      onKeyDown={(event) => {
        if (event.key === 'Escape') props.onCancel();
      }}
      style={{ display: 'grid', gridTemplateColumns: props.narrow ? '1fr' : 'repeat(4, 1fr)', gap: 8 }}
    >
      {HEADER_FIELDS.map((field, index) => (
        <label key={field} style={{ display: 'block', gridColumn: field === 'remarks' && !props.narrow ? 'span 4' : undefined }}>
          <div style={{ fontSize: 13 }}>{t(`loading.field.${field}`)}</div>
          <Input
            data-testid={`loading-field-${field}`}
            type={TIME_FIELDS.includes(field) ? 'datetime-local' : 'text'}
            value={values[field]}
            disabled={props.readOnly || props.busy}
            autoFocus={index === 0 && !props.readOnly}
            onChange={(event) => setValues((was) => ({ ...was, [field]: event.target.value }))}
            onPressEnter={(event) => {
              const inputs = [...document.querySelectorAll<HTMLInputElement>('[data-testid^="loading-field-"]')];
              const at = inputs.indexOf(event.currentTarget);
              if (at >= 0 && at < inputs.length - 1) inputs[at + 1].focus();
              else submit();
            }}
          />
        </label>
      ))}
      {!props.readOnly && (
        <Space style={{ gridColumn: props.narrow ? undefined : 'span 4' }}>
          <Button type="primary" style={BIG} data-testid="loading-header-save" disabled={props.busy} onClick={submit}>
            {props.load ? t('loading.screen.saveHeader') : t('loading.screen.newLoad')}
          </Button>
          <Button style={BIG} data-testid="loading-header-cancel" onClick={props.onCancel}>
            {t('loading.screen.back')} [Esc]
          </Button>
        </Space>
      )}
    </div>
  );
}

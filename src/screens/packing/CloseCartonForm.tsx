import { useEffect, useRef, useState } from 'react';
import { Button, Input, Select, Space, type InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import { BIG } from '../inbound/handheld';
import { parseQty, type CodeRow, type PackCarton } from './pack-api';

export interface CloseValues {
  cartonType: string | null;
  grossWeight: string;
  netWeight: string;
  weightUom: string;
  length: string | null;
  width: string | null;
  height: string | null;
}

const FIELDS = ['grossWeight', 'netWeight', 'length', 'width', 'height'] as const;
type Field = (typeof FIELDS)[number];

/**
 * Closing a carton: gross and net weight (required), the weight unit (the first offered, unless
 * chosen), the carton type and the dimensions (optional). Enter goes to the next field and closes
 * in the last; Escape steps back to the scan without closing.
 */
export function CloseCartonForm(props: {
  carton: PackCarton;
  cartonTypes: CodeRow[];
  units: CodeRow[];
  busy: boolean;
  narrow: boolean;
  onSubmit: (values: CloseValues) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<Field, string>>({ grossWeight: '', netWeight: '', length: '', width: '', height: '' });
  const [unit, setUnit] = useState<string | undefined>(props.units[0]?.code);
  const [cartonType, setCartonType] = useState<string | null>(props.carton.cartonType);
  const [problem, setProblem] = useState<string | null>(null);
  const refs = useRef<Partial<Record<Field, InputRef | null>>>({});

  useEffect(() => {
    refs.current.grossWeight?.focus();
  }, []);
  useEffect(() => {
    if (unit === undefined && props.units.length > 0) setUnit(props.units[0].code);
  }, [props.units, unit]);

  const submit = () => {
    const gross = parseQty(values.grossWeight);
    const net = parseQty(values.netWeight);
    if (gross === null || net === null) {
      setProblem(t('packing.screen.weightsRequired'));
      refs.current[gross === null ? 'grossWeight' : 'netWeight']?.focus();
      return;
    }
    const dimension = (field: Field) => (values[field].trim() === '' ? null : parseQty(values[field]));
    for (const field of ['length', 'width', 'height'] as const) {
      if (values[field].trim() !== '' && dimension(field) === null) {
        setProblem(t('packing.screen.dimensionInvalid'));
        refs.current[field]?.focus();
        return;
      }
    }
    if (!unit) return setProblem(t('packing.screen.unitRequired'));
    setProblem(null);
    props.onSubmit({ cartonType, grossWeight: gross, netWeight: net, weightUom: unit, length: dimension('length'), width: dimension('width'), height: dimension('height') });
  };

  // Enter goes down the fields (weights, then dimensions, empty ones left out by Enter alone) and closes at the last.
  const onEnter = (field: Field) => {
    if ((field === 'grossWeight' || field === 'netWeight') && parseQty(values[field]) === null) {
      setProblem(t('packing.screen.weightsRequired'));
      return;
    }
    setProblem(null);
    const next = FIELDS[FIELDS.indexOf(field) + 1];
    if (next) refs.current[next]?.focus();
    else submit();
  };

  const input = (field: Field, label: string) => (
    <label key={field} style={{ display: 'block' }}>
      <div style={{ fontSize: 14 }}>{label}</div>
      <Input
        ref={(el) => {
          refs.current[field] = el;
        }}
        data-testid={`pack-close-${field}`}
        size="large"
        inputMode="decimal"
        autoComplete="off"
        disabled={props.busy}
        value={values[field]}
        onChange={(event) => setValues((was) => ({ ...was, [field]: event.target.value }))}
        onPressEnter={() => onEnter(field)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            props.onCancel();
          }
        }}
      />
    </label>
  );

  const columns = props.narrow ? '1fr 1fr' : '1fr 1fr 1fr';
  return (
    <Space direction="vertical" size={8} style={{ width: '100%' }} data-testid="pack-close-form">
      <div style={{ fontSize: 18 }}>{t('packing.screen.closing', { cartonNo: props.carton.cartonNo })}</div>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
        {input('grossWeight', t('packing.screen.grossWeight'))}
        {input('netWeight', t('packing.screen.netWeight'))}
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
        <label style={{ display: 'block' }}>
          <div style={{ fontSize: 14 }}>{t('packing.screen.weightUom')}</div>
          <Select
            data-testid="pack-close-weightUom"
            size="large"
            style={{ width: '100%' }}
            value={unit}
            onChange={setUnit}
            options={props.units.map((u) => ({ value: u.code, label: `${u.code} · ${u.description}` }))}
          />
        </label>
        <label style={{ display: 'block' }}>
          <div style={{ fontSize: 14 }}>{t('packing.screen.cartonType')}</div>
          <Select
            data-testid="pack-close-cartonType"
            size="large"
            allowClear
            style={{ width: '100%' }}
            value={cartonType ?? undefined}
            onChange={(value?: string) => setCartonType(value ?? null)}
            options={props.cartonTypes.map((c) => ({ value: c.code, label: `${c.code} · ${c.description}` }))}
          />
        </label>
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: columns, gap: 8 }}>
        {input('length', t('packing.screen.length'))}
        {input('width', t('packing.screen.width'))}
        {input('height', t('packing.screen.height'))}
      </div>
      {problem && (
        <div data-testid="pack-close-problem" style={{ color: '#cf1322' }}>
          {problem}
        </div>
      )}
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
        <Button style={BIG} data-testid="pack-close-cancel" disabled={props.busy} onClick={props.onCancel}>
          {t('packing.screen.back')} [Esc]
        </Button>
        <Button style={BIG} type="primary" data-testid="pack-close-ok" loading={props.busy} onClick={submit}>
          {t('packing.screen.closeCarton')} [Enter]
        </Button>
      </div>
    </Space>
  );
}

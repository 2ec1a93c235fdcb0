import { useEffect, useMemo, useRef, useState } from 'react';
import { Select, Typography } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/public';
import type { OwnerSkuHit } from '../../common/outbound-api';


/** What the engine's form tells its widgets (engine/client/services.ts, `widgets`). */
interface FormContext {
  record?: Record<string, unknown>;
  choiceSearch?: { truncated: Record<string, boolean>; searchChoices(fieldName: string, text: string): void };
}

/** A stored decimal as people write it: `15.0000` as 15, `2.5000` as 2.5. */
function withoutTrailingZeros(qty: string): string {
  return qty.includes('.') ? qty.replace(/\.?0+$/, '') : qty;
}

/** Wait this long after the last key before asking the server, so typing stays smooth. */
const DEBOUNCE_MS = 250;
const LIMIT = 50;

/**
 * The SKU of a sales order line: typing searches the order owner's SKUs by code and description
 * (`/so/sku`), each offered with its code, name and the qty available in the warehouse, so the
 * user sees before saving whether the line can be served. Without an order (a line form opened on
 * its own) it offers the field's own choices.
 */
export default function SoSkuPicker(props: WidgetProps) {
  const { t } = useTranslation();
  const { id, required, disabled, readonly, autofocus, onChange, onBlur, onFocus, options, registry } = props;
  const value: unknown = props.value;
  const context = registry.formContext as FormContext;
  const soId = Number(context.record?.so_id);
  const fieldName = typeof props.name === 'string' && props.name !== '' ? props.name : 'sku_id';
  const choices = useMemo(() => options.enumOptions ?? [], [options.enumOptions]);
  const [hits, setHits] = useState<OwnerSkuHit[] | null>(null);
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const serial = useRef(0);
  const asked = useRef(new Set<unknown>());
  const hasOrder = Number.isInteger(soId) && soId > 0;

  const search = (text: string) => {
    if (!hasOrder) return;
    const mine = ++serial.current;
    setLoading(true);
    api<{ skus: OwnerSkuHit[] }>('/so/sku', { body: { soId, text: text.trim(), limit: LIMIT } })
      .then((answer) => mine === serial.current && setHits(answer.skus))
      .catch(() => mine === serial.current && setHits([]))
      .finally(() => mine === serial.current && setLoading(false));
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  // A SKU chosen here that the form's own choices do not hold yet (a list cut at its row cap) is
  // looked up there too, so that the form accepts it as one of the field's values.
  const chosen = hits?.find((hit) => hit.id === value);
  useEffect(() => {
    if (!chosen || choices.some((choice) => choice.value === chosen.id) || asked.current.has(chosen.id)) return;
    asked.current.add(chosen.id);
    context.choiceSearch?.searchChoices(fieldName, chosen.code);
  }, [chosen, choices, context.choiceSearch, fieldName]);

  const selectOptions: Array<{ value: number; label: string; hit: OwnerSkuHit | undefined }> = hasOrder
    ? (hits ?? []).map((hit) => ({ value: hit.id, label: hit.code, hit }))
    : choices.map((choice) => ({ value: choice.value as number, label: String(choice.label), hit: undefined }));
  // The chosen value keeps its label while the offered SKUs are those of another search.
  const current = choices.find((choice) => choice.value === value);
  if (value !== undefined && value !== null && !selectOptions.some((option) => option.value === value)) {
    selectOptions.unshift({ value: value as number, label: current ? String(current.label) : typeof value === 'number' || typeof value === 'string' ? String(value) : '', hit: undefined });
  }

  return (
    <Select
      id={id}
      data-testid="so-sku-picker"
      value={value === undefined || value === null ? undefined : (value as number)}
      options={selectOptions}
      showSearch
      filterOption={hasOrder ? false : (input, option) => String(option?.label ?? '').toLowerCase().includes(input.trim().toLowerCase())}
      onSearch={
        hasOrder
          ? (text) => {
              clearTimeout(timer.current);
              timer.current = setTimeout(() => search(text), DEBOUNCE_MS);
            }
          : undefined
      }
      onOpenChange={(open) => {
        if (open && hits === null) search('');
      }}
      loading={loading}
      notFoundContent={hasOrder && hits !== null && !loading ? t('outbound.soTools.noSkus') : undefined}
      optionRender={(option) => {
        const hit = (option.data as { hit?: OwnerSkuHit }).hit;
        if (!hit) return option.label;
        return (
          // Code and name as every dropdown writes them ("code - name"), the available qty at the end.
          <div style={{ display: 'flex', justifyContent: 'space-between', gap: 16 }} data-testid="so-sku-option">
            <span>{`${hit.code} - ${hit.description ?? ''}`}</span>
            <Typography.Text type={Number(hit.available) > 0 ? undefined : 'danger'}>{t('outbound.soTools.availableQty', { qty: withoutTrailingZeros(hit.available), uom: hit.base_uom })}</Typography.Text>
          </div>
        );
      }}
      allowClear={!required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      placeholder={t('outbound.soTools.skuSearchHint')}
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
      getPopupContainer={(node: HTMLElement) => node.parentElement ?? document.body}
      onChange={(next: number | undefined) => onChange(next ?? options.emptyValue)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      aria-required={required || undefined}
    />
  );
}

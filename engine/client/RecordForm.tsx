import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Form from '@rjsf/antd';
import type { IChangeEvent, default as CoreForm } from '@rjsf/core';
import type { ErrorSchema, FormValidation, ObjectFieldTemplateProps, RJSFValidationError, WidgetProps } from '@rjsf/utils';
import { Alert, Input, Modal, Typography } from 'antd';
import { formValidator as validator } from './model/formValidator.js';
import { formColumnsOf, isEditable, keyFieldOf, type FieldDefinition, type PageDefinition, type ScalarValue } from '../schema/index.js';
import type { AddingResponse, GenericRow, RecordValues } from '../schema/api.js';
import { useEngineServices } from './services.js';
import { buildFormSchema, isFormField, type FormMode } from './model/buildFormSchema.js';
import { computeCalculatedFields } from './model/computeCalculatedFields.js';
import { fieldsWithTooManyDecimals } from './model/checkDecimals.js';
import { fieldErrorsToErrorSchema } from './model/fieldErrorsToErrorSchema.js';
import { useChoices } from './useChoices.js';
import { ChoiceSelectWidget, type ChoiceSearchContext } from './ChoiceSelectWidget.js';
import { columnsFor, formLayout, type LayoutSection } from './model/formLayout.js';

type FormRecord = Record<string, unknown>;

export interface RecordFormProps {
  page: PageDefinition;
  mode: FormMode;
  /** The row being edited, or the values an added record starts with (sub-page links). */
  initial: FormRecord;
  /** The row's `_key` and `_version` when editing. */
  row?: GenericRow;
  label: (code: string) => string;
  onClose: () => void;
  onSaved: (row: GenericRow) => void;
}

/** Numbers arrive as text from PostgreSQL `numeric`; the form's number inputs need numbers. */
function toFormValues(page: PageDefinition, values: FormRecord): FormRecord {
  const result: FormRecord = {};
  for (const field of page.fields) {
    const value = values[field.name];
    // An empty value stays out of the form data: rjsf then neither validates it against the
    // field's choices nor shows "null"; saving sends null for it again.
    if (value === undefined || value === null) continue;
    if ((field.type === 'decimal' || field.type === 'integer') && typeof value === 'string' && value !== '') result[field.name] = Number(value);
    else if (field.type === 'datetime' && typeof value === 'string' && value !== '' && !Number.isNaN(Date.parse(value))) result[field.name] = new Date(value).toISOString();
    else if (field.type === 'date' && typeof value === 'string') result[field.name] = value.slice(0, 10);
    else result[field.name] = value;
  }
  return result;
}

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/** A filled text as the form holds the field's values (numbers as numbers, dates as YYYY-MM-DD). */
function fromText(field: FieldDefinition, text: string): unknown {
  switch (field.type) {
    case 'integer':
    case 'decimal':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    case 'boolean':
      return text === 'true' || text === 't';
    case 'date':
      return text.slice(0, 10);
    case 'datetime':
      return Number.isNaN(Date.parse(text)) ? text : new Date(text).toISOString();
    default:
      return text;
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  const blank = (v: unknown) => v === undefined || v === null || v === '';
  if (blank(a) && blank(b)) return true;
  return String(a) === String(b);
}

/** A read-only stored time, shown in the user's time zone and language. */
function LocalDateTimeWidget(props: WidgetProps) {
  const services = useEngineServices();
  const value = typeof props.value === 'string' ? props.value : '';
  return <Input id={props.id} readOnly value={value && services.formatDateTime ? services.formatDateTime(value) : value} />;
}

/**
 * A number typed as text into a number input (`step` from the field's decimals): digits from the
 * keyboard or a scanner are taken as they come; the value stays the typed text until rjsf's number
 * field reads it, with no arithmetic on the way.
 */
function NumberInputWidget(props: WidgetProps) {
  const { id, options, schema, disabled, readonly, onChange, onBlur, onFocus } = props;
  const value: unknown = props.value;
  return (
    <Input
      id={id}
      name={id}
      type="number"
      inputMode="decimal"
      step={typeof options.step === 'string' ? options.step : 'any'}
      min={typeof schema.minimum === 'number' ? schema.minimum : undefined}
      max={typeof schema.maximum === 'number' ? schema.maximum : undefined}
      value={typeof value === 'number' || typeof value === 'string' ? String(value) : ''}
      disabled={disabled}
      readOnly={readonly}
      onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
      // A mouse wheel over the field scrolls the form, it does not change the number.
      onWheel={(event) => (event.target as HTMLInputElement).blur()}
    />
  );
}

const WIDGETS = { localDateTime: LocalDateTimeWidget, engineNumber: NumberInputWidget, SelectWidget: ChoiceSelectWidget };

/** What the form's object template needs to lay the fields out (passed as rjsf's form context). */
interface LayoutContext {
  columns: number;
  sections: LayoutSection[];
  label: (code: string) => string;
}

/**
 * The form's fields in a grid of one to three columns (engine/schema README "Form layout"): the
 * sections in order, a group under its heading, each field spanning its width.
 */
function LayoutObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const layout = (props.registry.formContext as { engineLayout?: LayoutContext }).engineLayout;
  const byName = new Map(props.properties.filter((property) => !property.hidden).map((property) => [property.name, property]));
  if (!layout) return <div>{[...byName.values()].map((property) => property.content)}</div>;
  return (
    <div data-testid="engine-form-layout" data-columns={layout.columns}>
      {layout.sections.map((section, index) => {
        const cells = section.cells.filter((cell) => byName.has(cell.name));
        if (cells.length === 0) return null;
        return (
          <section key={section.group ?? `section-${index}`} data-testid="engine-form-section" data-group={section.group ?? ''}>
            {section.group && (
              <Typography.Title level={5} data-testid="engine-form-group-title" style={{ margin: '4px 0 8px', paddingBottom: 4, borderBottom: '1px solid rgba(5,5,5,0.06)' }}>
                {layout.label(section.group)}
              </Typography.Title>
            )}
            <div style={{ display: 'grid', gridTemplateColumns: `repeat(${layout.columns}, minmax(0, 1fr))`, columnGap: 16 }}>
              {cells.map((cell) => (
                <div key={cell.name} data-field={cell.name} style={{ gridColumn: `span ${cell.span}`, minWidth: 0 }}>
                  {byName.get(cell.name)?.content}
                </div>
              ))}
            </div>
          </section>
        );
      })}
    </div>
  );
}

const TEMPLATES = { ObjectFieldTemplate: LayoutObjectFieldTemplate };

/** Phone-sized screens (antd's xs) show the form in one column. */
const NARROW_SCREEN = '(max-width: 575px)';

function useNarrowScreen(): boolean {
  const query = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(NARROW_SCREEN) : undefined;
  const [narrow, setNarrow] = useState(() => query?.matches === true);
  useEffect(() => {
    if (!query) return;
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener?.('change', update);
    return () => query.removeEventListener?.('change', update);
    // oxlint-disable-next-line react/exhaustive-deps
  }, []);
  return narrow;
}

/** One field a refused save named, with its text, for the summary at the top of the form. */
interface FieldProblem {
  name: string;
  message: string;
}

const MODAL_WIDTHS = [720, 720, 900, 1160];

/**
 * The add/edit form of a page: rjsf with the antd theme, generated from the
 * definition's fields; dropdowns from the server, defaults, field conditions, calculated and
 * trigger fields. The browser checks what it can before sending (mandatory, length, range,
 * decimals); the server checks everything again, and every field problem it answers (duplicate,
 * foreign value, validation SQL) is shown under its field while nothing is changed.
 */
export function RecordForm(props: RecordFormProps) {
  const services = useEngineServices();
  const { page, mode, label } = props;
  const formRef = useRef<CoreForm<FormRecord>>(null);
  const [record, setRecord] = useState<FormRecord>(() => {
    const start = toFormValues(page, props.initial);
    if (mode === 'add') for (const field of page.fields) if (field.defaultValue !== undefined && start[field.name] === undefined) start[field.name] = field.defaultValue;
    return computeCalculatedFields(page.fields, start);
  });
  const [extraErrors, setExtraErrors] = useState<ErrorSchema | undefined>(undefined);
  // The fields a refused save named, shown at the top; each refusal brings the first into view.
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [refusals, setRefusals] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [saving, setSaving] = useState(false);
  const narrow = useNarrowScreen();
  const columns = columnsFor(formColumnsOf(page), narrow);
  const initialValues = useMemo(() => toFormValues(page, props.initial), [page, props.initial]);
  const formFields = useMemo(() => page.fields.filter((field) => isFormField(page, field, mode)), [page, mode]);
  const { choices, truncated, reloadFor, searchChoices, fetchFill } = useChoices(page, formFields, record, label);

  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  /**
   * Picking a choice whose dropdown fills other fields (a consignee's name and address onto the
   * order): the server reads the chosen row, and each such field the form shows, may change and
   * is still empty takes its text. What the user already typed stays; a choice changed again
   * before the answer came fills nothing.
   */
  const fillFrom = useCallback(
    (field: FieldDefinition, value: unknown, current: FormRecord) => {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return;
      fetchFill(field, value, current)
        .then((texts) => {
          if (!mounted.current || Object.keys(texts).length === 0) return;
          setRecord((previous) => {
            if (!sameValue(previous[field.name], value)) return previous;
            const filled: FormRecord = { ...previous };
            const names: string[] = [];
            for (const [name, text] of Object.entries(texts)) {
              const target = formFields.find((candidate) => candidate.name === name);
              if (!target || target.calc || (mode === 'edit' && !isEditable(target)) || !isBlank(previous[name])) continue;
              filled[name] = fromText(target, text);
              names.push(name);
            }
            if (names.length === 0) return previous;
            const next = computeCalculatedFields(page.fields, filled);
            reloadFor(names, next);
            return next;
          });
        })
        // A failed fill leaves the fields as they were; the host already showed the error.
        .catch(() => undefined);
    },
    [fetchFill, formFields, mode, page.fields, reloadFor],
  );

  const widgets = useMemo(() => ({ ...WIDGETS, ...services.widgets }), [services.widgets]);
  const hostWidgets = useMemo(() => Object.keys(services.widgets ?? {}), [services.widgets]);
  const schemas = useMemo(
    () => buildFormSchema(page, { mode, record, choices, label, hostWidgets }),
    [page, mode, record, choices, label, hostWidgets],
  );

  const idPrefix = `engine_${page.functionCode}`;
  const layout = useMemo<LayoutContext>(
    () => ({ columns, sections: formLayout(schemas.fields, columns), label }),
    [columns, schemas.fields, label],
  );
  const choiceSearch = useMemo<ChoiceSearchContext>(
    () => ({ truncated, searchChoices: (fieldName, text) => searchChoices(fieldName, text, record) }),
    [truncated, searchChoices, record],
  );
  // The record goes along for the host's widgets, whose choices may follow other fields.
  const formContext = useMemo(() => ({ engineLayout: layout, choiceSearch, record }), [layout, choiceSearch, record]);

  /** Brings a field into view inside the form's own scroll area and puts the cursor in it. */
  const focusField = useCallback(
    (name: string) => {
      const container = scrollRef.current;
      const input = document.getElementById(`${idPrefix}_${name}`);
      if (!container || !input) return;
      const cell = input.closest<HTMLElement>('[data-field]') ?? input;
      const box = container.getBoundingClientRect();
      const place = cell.getBoundingClientRect();
      if (place.top < box.top || place.bottom > box.bottom) container.scrollTop += place.top - box.top - 8;
      input.focus({ preventScroll: true });
    },
    [idPrefix],
  );

  /** Shows the summary of a refused save, in the order the form shows the fields. */
  const showProblems = useCallback(
    (found: FieldProblem[]) => {
      const order = layout.sections.flatMap((section) => section.cells.map((cell) => cell.name));
      const sorted = [...found].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
      setProblems(sorted);
      if (sorted.length > 0) setRefusals((count) => count + 1);
    },
    [layout],
  );

  // After a refusal has been drawn, the first field in error comes into view with the cursor in it.
  useEffect(() => {
    if (refusals > 0 && problems.length > 0) focusField(problems[0].name);
    // Only a new refusal moves the cursor, not a summary that shrinks while the user corrects.
    // oxlint-disable-next-line react/exhaustive-deps
  }, [refusals]);

  const onChange = useCallback(
    (event: IChangeEvent<FormRecord>) => {
      const next = computeCalculatedFields(page.fields, { ...(event.formData ?? {}) });
      setRecord((previous) => {
        const differs = (name: string) => !sameValue(previous[name], next[name]);
        // A choice that follows another field (the lot of the chosen SKU) is emptied when that field
        // changes: it belonged to the old one.
        for (const field of formFields) {
          if (differs(field.name) || isBlank(next[field.name])) continue;
          if (field.options?.type === 'foreign' && (field.options.filter ?? []).some((filter) => 'field' in filter && differs(filter.field))) delete next[field.name];
          // A route's choices asked with another field's value (the units of the chosen SKU) follow it the same way.
          if (field.options?.type === 'route' && (field.options.params ?? []).some((param) => differs(param.field))) delete next[field.name];
        }
        const changed = Object.keys({ ...previous, ...next }).filter(differs);
        if (changed.length > 0) {
          reloadFor(changed, next);
          for (const name of changed) {
            const field = page.fields.find((candidate) => candidate.name === name);
            if (field?.options?.type === 'foreign' && field.options.fill?.length && !isBlank(next[name])) fillFrom(field, next[name], next);
          }
          // A problem the server reported on a field goes away once the user changes that field.
          setExtraErrors((errors) => {
            if (!errors) return errors;
            const rest = { ...errors } as Record<string, unknown>;
            for (const name of changed) delete rest[name];
            return Object.keys(rest).length > 0 ? (rest as ErrorSchema) : undefined;
          });
          setProblems((shown) => (shown.some((problem) => changed.includes(problem.name)) ? shown.filter((problem) => !changed.includes(problem.name)) : shown));
        }
        return next;
      });
    },
    [page.fields, formFields, reloadFor, fillFrom],
  );

  const transformErrors = useCallback(
    (errors: RJSFValidationError[]) =>
      // A value outside a dropdown's choices fails every `const` of its `oneOf`: one text is enough.
      errors.filter((error) => error.name !== 'const').map((error) => {
        const params = (error.params ?? {}) as Record<string, unknown>;
        switch (error.name) {
          case 'required':
            return { ...error, message: services.t('ui.engine.form.required') };
          case 'maxLength':
            return { ...error, message: services.t('ui.engine.form.maxLength', { limit: params.limit }) };
          case 'minimum':
            return { ...error, message: services.t('ui.engine.form.minimum', { limit: params.limit }) };
          case 'maximum':
            return { ...error, message: services.t('ui.engine.form.maximum', { limit: params.limit }) };
          case 'type':
            return { ...error, message: services.t('ui.engine.form.type') };
          case 'format':
            return { ...error, message: services.t('ui.engine.form.format') };
          case 'oneOf':
          case 'enum':
            return { ...error, message: services.t('ui.engine.form.choice') };
          default:
            return error;
        }
      }),
    [services],
  );

  const customValidate = useCallback(
    (formData: FormRecord | undefined, errors: FormValidation<FormRecord>) => {
      for (const name of fieldsWithTooManyDecimals(schemas.fields, formData ?? {})) {
        const field = schemas.fields.find((candidate) => candidate.name === name);
        (errors as unknown as Record<string, { addError(message: string): void }>)[name]?.addError(
          services.t('ui.engine.form.decimals', { limit: field?.decimal ?? 0 }),
        );
      }
      return errors;
    },
    [schemas.fields, services],
  );

  const save = async (formData: FormRecord) => {
    const values: RecordValues = {};
    for (const field of schemas.fields) {
      const readonly = (schemas.uiSchema[field.name] as Record<string, unknown> | undefined)?.['ui:readonly'] === true && !field.calc;
      if (mode === 'edit' && readonly) continue;
      const value = formData[field.name];
      if (mode === 'edit' && sameValue(value, initialValues[field.name])) continue;
      values[field.name] = value === undefined || value === '' ? null : (value as ScalarValue);
    }
    // Values an added record inherits that the form does not show (a sub-page's link to its header).
    if (mode === 'add') {
      for (const [name, value] of Object.entries(props.initial)) {
        if (!(name in values) && page.fields.some((field) => field.name === name) && name !== keyFieldOf(page)) values[name] = value as ScalarValue;
      }
    }
    if (mode === 'edit' && Object.keys(values).length === 0) {
      // Unchanged data needs no save.
      await services.message({ type: 'info', content: services.t('ui.engine.nothingChanged') });
      return;
    }
    setSaving(true);
    try {
      const answer =
        mode === 'add'
          ? await services.call<AddingResponse>('/generic/adding', { moduleCode: page.moduleCode, functionCode: page.functionCode, record: values }, { quiet: true })
          : await services.call<AddingResponse>(
              '/generic/updating',
              { moduleCode: page.moduleCode, functionCode: page.functionCode, key: props.row?._key, version: props.row?._version ?? null, record: values },
              { quiet: true },
            );
      setProblems([]);
      props.onSaved(answer.row);
    } catch (error) {
      const refusal = services.callError(error);
      if (!refusal) throw error;
      const { errorSchema, unplaced } = fieldErrorsToErrorSchema(refusal.details ?? [], new Set(schemas.fields.map((field) => field.name)));
      setExtraErrors(Object.keys(errorSchema).length > 0 ? errorSchema : undefined);
      const placed = (refusal.details ?? []).filter((detail) => !unplaced.includes(detail));
      showProblems(placed.map((detail) => ({ name: detail.field, message: detail.message ?? detail.code })));
      if (Object.keys(errorSchema).length === 0 || unplaced.length > 0) {
        const lines = [refusal.message, ...unplaced.map((detail) => `${detail.field}: ${detail.message ?? detail.code}`)];
        await services.message({ type: 'error', content: lines.join('\n') });
      }
    } finally {
      setSaving(false);
    }
  };

  // Dropdown choices that depend on nothing load once when the form opens.
  useEffect(() => {
    reloadFor(null, record);
    // oxlint-disable-next-line react/exhaustive-deps
  }, []);

  return (
    <Modal
      open
      width={MODAL_WIDTHS[columns]}
      style={{ top: 24 }}
      title={`${services.t(mode === 'add' ? 'ui.engine.addTitle' : 'ui.engine.editTitle')} · ${label(page.titleCode)}`}
      okText={services.t('ui.engine.save')}
      cancelText={services.t('ui.engine.cancel')}
      confirmLoading={saving}
      maskClosable={false}
      destroyOnHidden
      onOk={() => formRef.current?.submit()}
      onCancel={props.onClose}
      okButtonProps={{ id: 'engine-form-save' }}
    >
      <div data-testid="engine-form" data-mode={mode} data-columns={columns} style={{ display: 'flex', flexDirection: 'column', maxHeight: 'calc(100vh - 190px)' }}>
        {problems.length > 0 && (
          <Alert
            data-testid="engine-form-summary"
            type="error"
            showIcon
            style={{ marginBottom: 12, flex: 'none', maxHeight: '30vh', overflowY: 'auto' }}
            message={services.t('ui.engine.form.summary', { count: problems.length })}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                {problems.map((problem) => (
                  <li key={`${problem.name}:${problem.message}`}>
                    <Typography.Link data-testid="engine-form-summary-item" data-field={problem.name} onClick={() => focusField(problem.name)}>
                      {label(page.fields.find((field) => field.name === problem.name)?.labelCode ?? problem.name)}
                    </Typography.Link>
                    {`: ${problem.message}`}
                  </li>
                ))}
              </ul>
            }
          />
        )}
        <div ref={scrollRef} data-testid="engine-form-scroll" style={{ flex: '1 1 auto', minHeight: 0, overflowY: 'auto', overflowX: 'hidden', paddingRight: 4 }}>
        <Form
          ref={formRef}
          schema={schemas.schema}
          uiSchema={schemas.uiSchema}
          formData={record}
          validator={validator}
          onChange={onChange}
          onSubmit={(event: IChangeEvent<FormRecord>) => void save(event.formData ?? {})}
          extraErrors={extraErrors}
          // The errors are shown on their fields and listed in the summary at the top.
          onError={(errors) =>
            showProblems(
              errors
                .map((error) => ({ name: (error.property ?? '').replace(/^\./, '').split('.')[0], message: error.message ?? '' }))
                .filter((problem) => problem.name !== ''),
            )
          }
          widgets={widgets}
          templates={TEMPLATES}
          formContext={formContext}
          transformErrors={transformErrors}
          customValidate={customValidate}
          showErrorList={false}
          noHtml5Validate
          // A dropdown starts empty: rjsf would otherwise preselect its first choice, and a
          // mandatory field would be filled without the user choosing it.
          experimental_defaultFormStateBehavior={{ constAsDefaults: 'never' }}
          idPrefix={idPrefix}
        />
        </div>
      </div>
    </Modal>
  );
}

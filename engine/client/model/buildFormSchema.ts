import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { fieldsInOrder, isDisplayable, isEditable, isMandatory, isUnique, keyFieldOf, type FieldDefinition, type PageDefinition } from '../../schema/index.js';
import { evaluateRuleGroup } from '../../core/index.js';

export type FormMode = 'add' | 'edit';

export interface ChoiceOption {
  value: string | number | boolean;
  label: string;
}

export interface FormSchemas {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  /** The fields the form shows, in order. */
  fields: FieldDefinition[];
}

export interface BuildFormOptions {
  mode: FormMode;
  /** The record as it is now: field conditions are evaluated against it. */
  record: Record<string, unknown>;
  /** Loaded dropdown choices by field name. */
  choices: Record<string, ChoiceOption[] | undefined>;
  label(code: string): string;
  /** Names of the host's form widgets: a field whose `format` is one of them is edited with it. */
  hostWidgets?: readonly string[];
}

/**
 * Whether a field belongs in the form. Adding shows what can be entered: every field that is
 * editable or mandatory, except the key when the database generates it (not mandatory). Editing
 * shows every displayed field, those that cannot change read-only.
 */
export function isFormField(page: PageDefinition, field: FieldDefinition, mode: FormMode): boolean {
  if (!isDisplayable(field)) return false;
  if (mode === 'edit') return true;
  if (field.name === keyFieldOf(page)) return isMandatory(field);
  return isEditable(field) || isMandatory(field) || field.calc !== undefined;
}

/**
 * The step of a number input: 1 for integers, one unit of the last allowed decimal digit for
 * decimals (`0.001` for three decimals, written as text: no float arithmetic), any otherwise.
 */
export function numberStep(field: FieldDefinition): string {
  if (field.type === 'integer') return '1';
  if (field.decimal === undefined) return 'any';
  return field.decimal === 0 ? '1' : `0.${'0'.repeat(field.decimal - 1)}1`;
}

function valueSchema(field: FieldDefinition): RJSFSchema {
  switch (field.type) {
    case 'string':
    case 'text':
      return { type: 'string', ...(field.length ? { maxLength: field.length } : {}) };
    case 'integer':
      return { type: 'integer', ...(field.min !== undefined ? { minimum: field.min } : {}), ...(field.max !== undefined ? { maximum: field.max } : {}) };
    case 'decimal':
      return { type: 'number', ...(field.min !== undefined ? { minimum: field.min } : {}), ...(field.max !== undefined ? { maximum: field.max } : {}) };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
  }
}

/**
 * The rjsf JSON Schema and uiSchema of a page's form, rebuilt whenever the
 * record changes because field conditions (visible, mandatory, readonly while a rule holds) and
 * dropdown choices depend on it. Nullable values are allowed unless the field is mandatory, so an
 * emptied optional field is sent as null rather than refused.
 */
export function buildFormSchema(page: PageDefinition, options: BuildFormOptions): FormSchemas {
  const properties: Record<string, RJSFSchema> = {};
  const required: string[] = [];
  const uiSchema: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
  const order: string[] = [];
  const shown: FieldDefinition[] = [];
  for (const field of fieldsInOrder(page)) {
    if (!isFormField(page, field, options.mode)) continue;
    const holds = field.condition ? evaluateRuleGroup(field.condition.when, options.record) : false;
    if (field.condition?.effect === 'visible' && !holds) continue;
    const mandatory = isMandatory(field) || (field.condition?.effect === 'mandatory' && holds);
    // A unique field is how people name the record (a SKU code, a location): it is chosen when the
    // record is added and then stays, like the key.
    const readonly =
      field.calc !== undefined ||
      (options.mode === 'edit' && (!isEditable(field) || isUnique(field))) ||
      (field.condition?.effect === 'readonly' && holds);
    // A read-only value is shown, not checked: whatever the server stored (a timestamp in its own
    // format, a value longer than today's limit) must not block saving the other fields.
    let schema: RJSFSchema = readonly ? { type: valueSchema(field).type } : valueSchema(field);
    const choices = field.options ? options.choices[field.name] : undefined;
    if (choices && choices.length > 0) {
      schema = { ...schema, oneOf: choices.map((choice) => ({ const: choice.value, title: choice.label })) };
      if (field.type === 'string' || field.type === 'text') delete schema.maxLength;
    }
    if (!mandatory && schema.type !== 'boolean') schema = { ...schema, type: [schema.type, 'null'] as RJSFSchema['type'] };
    properties[field.name] = { ...schema, title: options.label(field.labelCode) };
    if (field.defaultValue !== undefined && options.mode === 'add') properties[field.name].default = field.defaultValue;
    if (mandatory) required.push(field.name);
    const ui: UiSchema = {};
    if (field.type === 'text') ui['ui:widget'] = 'textarea';
    // Numbers get a number input stepping by the field's decimals; a field with choices keeps its
    // dropdown, also while the choices are still loading.
    if ((field.type === 'integer' || field.type === 'decimal') && !readonly && !field.options) {
      ui['ui:widget'] = 'engineNumber';
      ui['ui:options'] = { step: numberStep(field) };
    }
    if (readonly) ui['ui:readonly'] = true;
    // A stored time is read in the user's time zone, not as raw UTC.
    if (readonly && field.type === 'datetime') ui['ui:widget'] = 'localDateTime';
    if (field.format === 'password') {
      ui['ui:widget'] = 'password';
      ui['ui:options'] = { autocomplete: 'new-password' };
    } else if (field.format && !readonly && options.hostWidgets?.includes(field.format)) {
      ui['ui:widget'] = field.format;
    } else if (field.format) ui['ui:placeholder'] = field.format;
    uiSchema[field.name] = ui;
    order.push(field.name);
    shown.push(field);
  }
  uiSchema['ui:order'] = [...order, '*'];
  return { schema: { type: 'object', properties, required }, uiSchema, fields: shown };
}

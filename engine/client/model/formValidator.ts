import {
  createErrorHandler,
  toErrorList,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';

type FormRecord = Record<string, unknown>;

/**
 * The form's validator without code generation: ajv compiles every schema into a
 * function with `new Function`, which a Content-Security-Policy without 'unsafe-eval' forbids. The
 * engine's forms use a small, fixed part of JSON Schema (buildFormSchema.ts): an object of
 * properties with `required`, and per property `type` (one or with null), `maxLength`, `minimum`,
 * `maximum`, `format` date/date-time and `oneOf` of `const` choices. This checks exactly that and
 * answers errors in the shape rjsf gives its `transformErrors` and `customValidate`. The server
 * checks every field rule again in any case.
 */
export class FormValidator implements ValidatorType<FormRecord, RJSFSchema> {
  validateFormData(
    formData: FormRecord | undefined,
    schema: RJSFSchema,
    customValidate?: CustomValidator<FormRecord, RJSFSchema>,
    transformErrors?: ErrorTransformer<FormRecord, RJSFSchema>,
    uiSchema?: UiSchema<FormRecord, RJSFSchema>,
  ): ValidationData<FormRecord> {
    let errors = this.errorsOf(schema, formData ?? {});
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const data: ValidationData<FormRecord> = { errors, errorSchema: toErrorSchema<FormRecord>(errors) };
    if (!customValidate) return data;
    const handler = customValidate(formData, createErrorHandler<FormRecord>(formData ?? {}), uiSchema);
    return validationDataMerge(data, unwrapErrorHandler<FormRecord>(handler));
  }

  toErrorList = toErrorList;

  isValid(schema: RJSFSchema, formData: FormRecord | undefined): boolean {
    return this.errorsOf(schema, formData ?? {}).length === 0;
  }

  rawValidation<Result = RJSFValidationError>(schema: RJSFSchema, formData?: FormRecord): { errors?: Result[]; validationError?: Error } {
    const errors = this.errorsOf(schema, formData ?? {});
    return errors.length ? { errors: errors as Result[] } : {};
  }

  private errorsOf(schema: RJSFSchema, record: FormRecord): RJSFValidationError[] {
    const errors: RJSFValidationError[] = [];
    const add = (name: string, property: string, message: string, params: Record<string, unknown>) =>
      errors.push({ name, property: `.${property}`, message, params, stack: `.${property} ${message}`, schemaPath: `#/properties/${property}/${name}` });
    for (const name of schema.required ?? []) {
      const value = record[name];
      if (value === undefined || value === null || value === '') add('required', name, 'is required', { missingProperty: name });
    }
    for (const [name, definition] of Object.entries(schema.properties ?? {})) {
      const value = record[name];
      if (value === undefined || typeof definition !== 'object') continue;
      checkValue(definition, value, (keyword, message, params) => add(keyword, name, message, params));
    }
    return errors;
  }
}

type Report = (keyword: string, message: string, params: Record<string, unknown>) => void;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function checkValue(schema: RJSFSchema, value: unknown, report: Report): void {
  const types: string[] = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const actual = typeOf(value);
  if (types.length && !types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
    report('type', `must be ${types.join(',')}`, { type: types.join(',') });
    return;
  }
  if (value === null) return;
  if (Array.isArray(schema.oneOf) && schema.oneOf.length) {
    const matches = schema.oneOf.some((choice) => typeof choice === 'object' && 'const' in choice && choice.const === value);
    if (!matches) report('oneOf', 'must match exactly one schema in oneOf', {});
  }
  if (typeof value === 'string') {
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) report('maxLength', `must NOT have more than ${schema.maxLength} characters`, { limit: schema.maxLength });
    if (schema.format === 'date' && !DATE.test(value)) report('format', 'must match format "date"', { format: 'date' });
    if (schema.format === 'date-time' && !DATE_TIME.test(value)) report('format', 'must match format "date-time"', { format: 'date-time' });
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) report('minimum', `must be >= ${schema.minimum}`, { limit: schema.minimum, comparison: '>=' });
    if (schema.maximum !== undefined && value > schema.maximum) report('maximum', `must be <= ${schema.maximum}`, { limit: schema.maximum, comparison: '<=' });
  }
}

/** The one instance the engine's forms use. */
export const formValidator = new FormValidator();

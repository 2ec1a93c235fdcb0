import type { BehaviourInputDefinition, FieldDefinition, ScalarValue } from '../schema/index.js';
import { checkFieldValue } from './check-field-value.js';
import { coerceFieldValue } from './coerce-field-value.js';
import type { EngineFieldError } from './engine-error.js';

const FIELD_TYPE_OF_INPUT: Record<BehaviourInputDefinition['type'], FieldDefinition['type']> = {
  text: 'string',
  integer: 'integer',
  number: 'decimal',
  date: 'date',
  boolean: 'boolean',
};

/** The field an input is checked as: the same parsing and rules as a page field (README: behaviours). */
function inputAsField(input: BehaviourInputDefinition): FieldDefinition {
  return {
    name: input.name,
    labelCode: input.labelCode,
    type: FIELD_TYPE_OF_INPUT[input.type],
    ...(input.length !== undefined ? { length: input.length } : {}),
    ...(input.min !== undefined ? { min: input.min } : {}),
    ...(input.max !== undefined ? { max: input.max } : {}),
  };
}

/**
 * Checks the inputs of a behaviour call against the behaviour's declared `inputs`: type, mandatory,
 * length, range, one of its `choices` when it has some; a missing value takes its `default`; a name that is not declared is FIELD_UNKNOWN.
 * Answers the parsed values and every problem at once (details keyed by input name).
 */
export function checkBehaviourInputs(
  declared: BehaviourInputDefinition[],
  given: Record<string, unknown>,
): { values: Record<string, ScalarValue>; errors: EngineFieldError[] } {
  const values: Record<string, ScalarValue> = {};
  const errors: EngineFieldError[] = [];
  const names = new Set(declared.map((input) => input.name));
  for (const name of Object.keys(given)) {
    if (!names.has(name)) errors.push({ field: name, code: 'FIELD_UNKNOWN', params: { name } });
  }
  for (const input of declared) {
    const field = inputAsField(input);
    const raw = Object.hasOwn(given, input.name) ? given[input.name] : undefined;
    const coerced = coerceFieldValue(field, raw === undefined ? (input.default ?? null) : raw);
    if (!coerced.ok) {
      errors.push({ field: input.name, code: coerced.code, params: coerced.params });
      continue;
    }
    const value = typeof coerced.value === 'string' && field.type === 'string' && coerced.value.trim() === '' ? null : coerced.value;
    if (value === null) {
      if (input.mandatory === true) errors.push({ field: input.name, code: 'FIELD_REQUIRED' });
      continue;
    }
    const problems = checkFieldValue(field, value);
    // A value outside the declared choices is refused as a dropdown refuses a value it does not offer.
    if (problems.length === 0 && input.choices && !input.choices.some((choice) => choice.value === String(value))) {
      problems.push({ field: input.name, code: 'FIELD_FOREIGN', params: { list: input.name } });
    }
    errors.push(...problems);
    if (problems.length === 0) values[input.name] = value;
  }
  return { values, errors };
}

import type { SchemaMigration } from './schema-migration.js';

/**
 * Version 1 was the flat layout of the spec's generic page configuration (section 3), one property
 * per column of the old configuration table: `foreignTable`/`foreignField`, `optionType` with
 * `codeType`/`optionSql`/`optionItems`, `calcType` with comma-separated `calcParams`, and
 * comma-separated `triggerFields`. Version 2 groups them into `foreign`, `options` and `calc` objects
 * and lists, so that the schema can check each dropdown source with the properties it needs.
 */
export const structuredFieldOptions: SchemaMigration = {
  version: 2,
  description: 'flat field properties (foreignTable, optionType, calcType, ...) become foreign, options and calc objects',
  up(document) {
    const fields = Array.isArray(document.fields) ? (document.fields as Record<string, unknown>[]) : [];
    return { ...document, fields: fields.map(upgradeField) };
  },
};

function upgradeField(input: Record<string, unknown>): Record<string, unknown> {
  const {
    foreignTable,
    foreignField,
    optionType,
    codeType,
    optionSql,
    optionItems,
    calcType,
    calcParams,
    triggerFields,
    ...field
  } = input;
  if (foreignTable !== undefined || foreignField !== undefined) field.foreign = { table: foreignTable, field: foreignField };
  switch (optionType) {
    case undefined:
    case null:
    case 'none':
      break;
    case 'codeMaster':
      field.options = { type: 'codeMaster', codeType };
      break;
    case 'foreign':
      field.options = { type: 'foreign', table: foreignTable, valueField: foreignField };
      break;
    case 'sql':
      field.options = { type: 'sql', sql: optionSql };
      break;
    case 'static':
      field.options = { type: 'static', items: optionItems };
      break;
    default:
      // An unknown option type is kept where the validator will name it with its path.
      field.options = { type: optionType };
  }
  if (calcType !== undefined && calcType !== null && calcType !== 'none') {
    field.calc = { type: calcType, params: splitList(calcParams) };
  }
  if (triggerFields !== undefined && triggerFields !== null) field.triggerFields = splitList(triggerFields);
  return field;
}

function splitList(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

import { CALC_TYPES, FIELD_TYPES, PAGE_SCOPES, RIGHT_ACTIONS, SELECTION_RULES } from '../../../../engine/schema/index.js';
import type { PropertySpec } from './PropertyForm';

/** The locale keys of a property's choices: `ui.designer.value.<list>.<choice>`. */
function labelsOf(list: string, values: readonly (string | number)[], name: (value: string | number) => string = String): Record<string, string> {
  return Object.fromEntries(values.map((value) => [String(value), `ui.designer.value.${list}.${name(value)}`]));
}

const COLUMN_NAMES: Record<string, string> = { '1': 'one', '2': 'two', '3': 'three', full: 'full' };
const columnName = (value: string | number) => COLUMN_NAMES[String(value)];

export const FIELD_TYPE_LABELS = labelsOf('type', FIELD_TYPES);

/** Properties of one kind and no choices, in this order. */
const ofKind = (kind: PropertySpec['kind'], ...keys: string[]): PropertySpec[] => keys.map((key) => ({ key, kind }));
/** Text properties the schema requires, in this order. */
const requiredTexts = (...keys: string[]): PropertySpec[] => ofKind('text', ...keys).map((spec) => ({ ...spec, required: true }));

/** Every property of the page header the designer edits (engine/schema README "Page properties"). */
export const PAGE_PROPERTIES: PropertySpec[] = [
  { key: 'titleCode', kind: 'text', required: true },
  { key: 'genericName', kind: 'text' },
  { key: 'startup', kind: 'switch' },
  { key: 'paging', kind: 'switch' },
  { key: 'pageSize', kind: 'number' },
  { key: 'formColumns', kind: 'select', options: [1, 2, 3], optionLabels: labelsOf('formColumns', [1, 2, 3], columnName) },
  { key: 'table', kind: 'json', required: true },
  { key: 'listSql', kind: 'text' },
  { key: 'scope', kind: 'select', options: PAGE_SCOPES, optionLabels: labelsOf('scope', PAGE_SCOPES), required: true },
  { key: 'keyField', kind: 'text' },
  { key: 'versionField', kind: 'scalar' },
  { key: 'readOnly', kind: 'switch' },
  { key: 'defaultSort', kind: 'json' },
];

/** Every field property of the schema (engine/schema README "Field properties"). */
export function fieldProperties(fieldNames: string[]): PropertySpec[] {
  return [
    ...requiredTexts('name', 'labelCode'),
    { key: 'type', kind: 'select', options: FIELD_TYPES, optionLabels: FIELD_TYPE_LABELS, required: true },
    ...ofKind('number', 'length', 'decimal', 'min', 'max'),
    ...ofKind('switch', 'editable', 'searchable', 'displayable', 'mandatory', 'unique'),
    { key: 'defaultValue', kind: 'scalar' },
    { key: 'sequence', kind: 'number' },
    { key: 'group', kind: 'text' },
    { key: 'width', kind: 'select', options: [1, 2, 3, 'full'], optionLabels: labelsOf('width', [1, 2, 3, 'full'], columnName) },
    { key: 'format', kind: 'text' },
    ...ofKind('json', 'foreign', 'options', 'calc'),
    { key: 'triggerFields', kind: 'tags', options: fieldNames },
    ...ofKind('json', 'condition', 'validationSql', 'hyperlink'),
  ];
}

export const BEHAVIOUR_PROPERTIES: PropertySpec[] = [
  ...requiredTexts('code', 'action', 'labelCode'),
  { key: 'selection', kind: 'select', options: SELECTION_RULES, optionLabels: labelsOf('selection', SELECTION_RULES), required: true },
  { key: 'right', kind: 'select', options: RIGHT_ACTIONS, optionLabels: labelsOf('right', RIGHT_ACTIONS), required: true },
  { key: 'confirm', kind: 'switch' },
  { key: 'confirmTextCode', kind: 'text' },
  { key: 'confirmPreview', kind: 'switch' },
  { key: 'enabledBy', kind: 'json' },
  { key: 'sequence', kind: 'number' },
];

export const SUB_PAGE_PROPERTIES: PropertySpec[] = [
  ...requiredTexts('code', 'titleCode', 'moduleCode', 'functionCode'),
  { key: 'links', kind: 'json', required: true },
  { key: 'sequence', kind: 'number' },
];

export const SQL_PROPERTIES: PropertySpec[] = [
  ...requiredTexts('name'),
  { key: 'mode', kind: 'select', options: ['read', 'write'], optionLabels: labelsOf('mode', ['read', 'write']) },
];

export const QUERY_CONDITION_PROPERTIES: PropertySpec[] = requiredTexts('code', 'titleCode');

export const FIELD_MAP_PROPERTIES: PropertySpec[] = [
  ...requiredTexts('code', 'titleCode'),
  { key: 'headerRow', kind: 'switch' },
  { key: 'startRow', kind: 'number' },
  { key: 'delimiter', kind: 'text' },
  { key: 'columns', kind: 'json', required: true },
];

export { CALC_TYPES };

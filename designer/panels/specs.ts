import { CALC_TYPES, FIELD_TYPES, PAGE_SCOPES, RIGHT_ACTIONS, SELECTION_RULES } from '../../engine/schema/index.js';
import type { PropertySpec } from './PropertyForm';

/** Every property of the page header the designer edits (engine/schema README "Page properties"). */
export const PAGE_PROPERTIES: PropertySpec[] = [
  { key: 'titleCode', kind: 'text', required: true },
  { key: 'genericName', kind: 'text' },
  { key: 'startup', kind: 'switch' },
  { key: 'paging', kind: 'switch' },
  { key: 'pageSize', kind: 'number' },
  { key: 'table', kind: 'json', required: true },
  { key: 'listSql', kind: 'text' },
  { key: 'scope', kind: 'select', options: PAGE_SCOPES, required: true },
  { key: 'keyField', kind: 'text' },
  { key: 'versionField', kind: 'scalar' },
  { key: 'readOnly', kind: 'switch' },
  { key: 'defaultSort', kind: 'json' },
];

/** Every field property of the schema (engine/schema README "Field properties"). */
export function fieldProperties(fieldNames: string[]): PropertySpec[] {
  return [
    { key: 'name', kind: 'text', required: true },
    { key: 'labelCode', kind: 'text', required: true },
    { key: 'type', kind: 'select', options: FIELD_TYPES, required: true },
    { key: 'length', kind: 'number' },
    { key: 'decimal', kind: 'number' },
    { key: 'min', kind: 'number' },
    { key: 'max', kind: 'number' },
    { key: 'editable', kind: 'switch' },
    { key: 'searchable', kind: 'switch' },
    { key: 'displayable', kind: 'switch' },
    { key: 'mandatory', kind: 'switch' },
    { key: 'unique', kind: 'switch' },
    { key: 'defaultValue', kind: 'scalar' },
    { key: 'sequence', kind: 'number' },
    { key: 'format', kind: 'text' },
    { key: 'foreign', kind: 'json' },
    { key: 'options', kind: 'json' },
    { key: 'calc', kind: 'json' },
    { key: 'triggerFields', kind: 'tags', options: fieldNames },
    { key: 'condition', kind: 'json' },
    { key: 'validationSql', kind: 'json' },
    { key: 'hyperlink', kind: 'json' },
  ];
}

export const BEHAVIOUR_PROPERTIES: PropertySpec[] = [
  { key: 'code', kind: 'text', required: true },
  { key: 'action', kind: 'text', required: true },
  { key: 'labelCode', kind: 'text', required: true },
  { key: 'selection', kind: 'select', options: SELECTION_RULES, required: true },
  { key: 'right', kind: 'select', options: RIGHT_ACTIONS, required: true },
  { key: 'confirm', kind: 'switch' },
  { key: 'confirmTextCode', kind: 'text' },
  { key: 'enabledBy', kind: 'json' },
  { key: 'sequence', kind: 'number' },
];

export const SUB_PAGE_PROPERTIES: PropertySpec[] = [
  { key: 'code', kind: 'text', required: true },
  { key: 'titleCode', kind: 'text', required: true },
  { key: 'moduleCode', kind: 'text', required: true },
  { key: 'functionCode', kind: 'text', required: true },
  { key: 'links', kind: 'json', required: true },
  { key: 'sequence', kind: 'number' },
];

export const SQL_PROPERTIES: PropertySpec[] = [
  { key: 'name', kind: 'text', required: true },
  { key: 'mode', kind: 'select', options: ['read', 'write'] },
];

export const QUERY_CONDITION_PROPERTIES: PropertySpec[] = [
  { key: 'code', kind: 'text', required: true },
  { key: 'titleCode', kind: 'text', required: true },
];

export const FIELD_MAP_PROPERTIES: PropertySpec[] = [
  { key: 'code', kind: 'text', required: true },
  { key: 'titleCode', kind: 'text', required: true },
  { key: 'headerRow', kind: 'switch' },
  { key: 'startRow', kind: 'number' },
  { key: 'delimiter', kind: 'text' },
  { key: 'columns', kind: 'json', required: true },
];

export { CALC_TYPES };

import type { FieldDefinition, PageDefinition } from './page-definition.schema.js';

/** The documented defaults of optional flags (README.md), in one place for server and client. */
/** A column of the page's table (false: a value handed to the page's writer only). */
export const isStored = (field: FieldDefinition): boolean => field.stored !== false;
export const isEditable = (field: FieldDefinition): boolean => field.editable !== false;
export const isSearchable = (field: FieldDefinition): boolean => field.searchable === true;
export const isDisplayable = (field: FieldDefinition): boolean => field.displayable !== false;
export const isMandatory = (field: FieldDefinition): boolean => field.mandatory === true;
export const isUnique = (field: FieldDefinition): boolean => field.unique === true;

export const keyFieldOf = (page: PageDefinition): string => page.keyField ?? 'id';
/** null: the page has no concurrency column and updates are not checked for staleness. */
export const versionFieldOf = (page: PageDefinition): string | null =>
  page.versionField === undefined ? 'updated_at' : page.versionField;
export const tableAliasOf = (page: PageDefinition): string => page.table.alias ?? 't';
export const pageSizeOf = (page: PageDefinition): number => page.pageSize ?? 20;
/** Paged grid (pagination) or one scrolling list; default paged. */
export const isPaged = (page: PageDefinition): boolean => page.paging !== false;
/** Columns of the add/edit form on a wide screen; default 2 (a phone-sized screen always shows 1). */
export const formColumnsOf = (page: PageDefinition): number => page.formColumns ?? 2;

/** Fields in their display order: by sequence, then by position. */
export function fieldsInOrder(page: PageDefinition): FieldDefinition[] {
  return page.fields
    .map((field, position) => ({ field, position }))
    .sort((a, b) => (a.field.sequence ?? a.position) - (b.field.sequence ?? b.position) || a.position - b.position)
    .map(({ field }) => field);
}

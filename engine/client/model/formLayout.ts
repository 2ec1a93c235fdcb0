import type { FieldDefinition } from '../../schema/index.js';

/** One field of the form grid and how many columns it spans. */
export interface LayoutCell {
  name: string;
  span: number;
}

/** A run of fields shown together: a titled group, or the fields that belong to none. */
export interface LayoutSection {
  /** The group's heading (a label code), absent for fields without a group. */
  group?: string;
  cells: LayoutCell[];
}

/** How many of the form's columns a field spans: its `width` (at most the columns), full for a text area. */
export function spanOf(field: FieldDefinition, columns: number): number {
  if (field.width === 'full') return columns;
  if (typeof field.width === 'number') return Math.min(Math.max(field.width, 1), columns);
  return field.type === 'text' ? columns : 1;
}

/**
 * The sections of a form (engine/schema README "Form layout"): fields in their order, every field
 * of a group gathered in that group's section where the group first appears, fields without a group
 * in untitled sections between them.
 */
export function formLayout(fields: readonly FieldDefinition[], columns: number): LayoutSection[] {
  const sections: LayoutSection[] = [];
  const byGroup = new Map<string, LayoutSection>();
  for (const field of fields) {
    const cell = { name: field.name, span: spanOf(field, columns) };
    if (field.group) {
      let section = byGroup.get(field.group);
      if (!section) {
        section = { group: field.group, cells: [] };
        byGroup.set(field.group, section);
        sections.push(section);
      }
      section.cells.push(cell);
      continue;
    }
    const last = sections[sections.length - 1];
    if (last && last.group === undefined) last.cells.push(cell);
    else sections.push({ cells: [cell] });
  }
  return sections;
}

/** Form columns on a screen: the page's columns (1 to 3), one on a phone-sized screen. */
export function columnsFor(formColumns: number, narrow: boolean): number {
  if (narrow) return 1;
  return Math.min(Math.max(Math.trunc(formColumns), 1), 3);
}

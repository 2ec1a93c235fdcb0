import { describe, expect, it } from 'vitest';
import { CURRENT_SCHEMA_VERSION, formColumnsOf, validatePageDefinition, type PageDefinition } from '../../../engine/schema/index.js';

function page(extra: Record<string, unknown>, field: Record<string, unknown> = {}): unknown {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    moduleCode: 'm',
    functionCode: 'f',
    titleCode: 'T',
    status: 'draft',
    table: { name: 't' },
    scope: 'none',
    ...extra,
    fields: [{ name: 'a', labelCode: 'A', type: 'string', ...field }],
  };
}

function problems(document: unknown): string[] {
  const result = validatePageDefinition(document);
  return result.ok ? [] : result.problems.map((problem) => problem.path);
}

describe('form layout in the page schema', () => {
  it('accepts a group, a width of 1 to 3 or full, and 1 to 3 form columns', () => {
    expect(problems(page({ formColumns: 3 }, { group: 'md.group.address', width: 2 }))).toEqual([]);
    expect(problems(page({ formColumns: 1 }, { group: 'ADDRESS', width: 'full' }))).toEqual([]);
    expect(problems(page({}, { width: 1 }))).toEqual([]);
  });

  it('refuses other widths, other column counts and a group that is literal text', () => {
    expect(problems(page({}, { width: 4 }))).toContain('/fields/0/width');
    expect(problems(page({}, { width: 'half' }))).toContain('/fields/0/width');
    expect(problems(page({}, { width: 1.5 }))).toContain('/fields/0/width');
    expect(problems(page({ formColumns: 4 }))).toContain('/formColumns');
    expect(problems(page({ formColumns: 0 }))).toContain('/formColumns');
    expect(problems(page({}, { group: 'Contact details' }))).toContain('/fields/0/group');
  });

  it('shows two columns unless the page says otherwise', () => {
    expect(formColumnsOf(page({}) as PageDefinition)).toBe(2);
    expect(formColumnsOf(page({ formColumns: 3 }) as PageDefinition)).toBe(3);
  });
});

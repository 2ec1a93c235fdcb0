import { describe, expect, it } from 'vitest';
import { CURRENT_SCHEMA_VERSION, type PageDefinition } from '../../../engine/schema/index.js';
import { buildFormSchema } from '../../../engine/client/model/buildFormSchema.js';
import { formatCellValue } from '../../../engine/client/model/formatCellValue.js';

const page: PageDefinition = {
  schemaVersion: CURRENT_SCHEMA_VERSION,
  moduleCode: 'm',
  functionCode: 'f',
  titleCode: 'T',
  status: 'published',
  table: { name: 't' },
  scope: 'none',
  fields: [
    { name: 'code', labelCode: 'C', type: 'string', length: 20, mandatory: true, unique: true },
    { name: 'qty', labelCode: 'Q', type: 'decimal', decimal: 3 },
    { name: 'count', labelCode: 'N', type: 'integer' },
    { name: 'updated_at', labelCode: 'U', type: 'datetime', editable: false },
  ],
};

describe('forms a new user meets', () => {
  it('lets the unique key be chosen when adding and keeps it when editing', () => {
    const add = buildFormSchema(page, { mode: 'add', record: {}, choices: {}, label: (c) => c });
    const edit = buildFormSchema(page, { mode: 'edit', record: {}, choices: {}, label: (c) => c });
    expect((add.uiSchema.code as Record<string, unknown>)['ui:readonly']).toBeUndefined();
    expect((edit.uiSchema.code as Record<string, unknown>)['ui:readonly']).toBe(true);
  });

  it('gives stored times the local-time widget', () => {
    const edit = buildFormSchema(page, { mode: 'edit', record: {}, choices: {}, label: (c) => c });
    expect((edit.uiSchema.updated_at as Record<string, unknown>)['ui:widget']).toBe('localDateTime');
  });

  it('shows a stored time through the host formatter (the user time zone) in the grid', () => {
    const field = page.fields[3];
    const shown = formatCellValue(field, '2026-11-23T04:00:00.000Z', { yes: 'Y', no: 'N', dateTime: (v) => `local(${v})` });
    expect(shown).toBe('local(2026-11-23T04:00:00.000Z)');
  });
});

import { describe, expect, it } from 'vitest';
import type { FieldDefinition, PageDefinition } from '../../../engine/schema/index.js';
import { buildFormSchema } from '../../../engine/client/model/buildFormSchema.js';

const field = (name: string, extra: Partial<FieldDefinition> = {}): FieldDefinition => ({ name, labelCode: `label.${name}`, type: 'string', ...extra });

const page: PageDefinition = {
  schemaVersion: 2,
  moduleCode: 'job',
  functionCode: 'job',
  titleCode: 'job.page.job',
  status: 'published',
  table: { name: 'job' },
  scope: 'none',
  fields: [field('cron_expression', { format: 'cron', mandatory: true }), field('action_no', { format: 'A-0000' }), field('locked', { format: 'cron', editable: false })],
};

const build = (hostWidgets?: string[], mode: 'add' | 'edit' = 'edit') => buildFormSchema(page, { mode, record: {}, choices: {}, label: (code) => code, hostWidgets });

describe('host widgets chosen by field format', () => {
  it("edits a field with the host's widget named by its format", () => {
    expect(build(['cron']).uiSchema.cron_expression).toMatchObject({ 'ui:widget': 'cron' });
  });

  it('keeps the format as a placeholder when the host brings no such widget', () => {
    const ui = build([]).uiSchema;
    expect(ui.cron_expression).toEqual({ 'ui:placeholder': 'cron' });
    expect(build(['cron']).uiSchema.action_no).toEqual({ 'ui:placeholder': 'A-0000' });
  });

  it('shows a read-only field as read-only, not in the widget', () => {
    expect(build(['cron']).uiSchema.locked).toMatchObject({ 'ui:readonly': true });
    expect(build(['cron']).uiSchema.locked).not.toHaveProperty('ui:widget');
  });
});

import { describe, expect, it } from 'vitest';
import type { BehaviourDefinition, FieldDefinition, PageDefinition, RuleGroup } from '../../../engine/schema/index.js';
import { computeCalculatedFields } from '../../../engine/client/model/computeCalculatedFields.js';
import { buildFormSchema, isFormField } from '../../../engine/client/model/buildFormSchema.js';
import { buildSearchConditions, filterToRuleGroup } from '../../../engine/client/model/buildSearchConditions.js';
import { isBehaviourEnabled, MAX_SELECTION } from '../../../engine/client/model/isBehaviourEnabled.js';
import { effectiveRights } from '../../../engine/client/model/pageRights.js';
import { fieldsWithTooManyDecimals } from '../../../engine/client/model/checkDecimals.js';
import { fieldErrorsToErrorSchema } from '../../../engine/client/model/fieldErrorsToErrorSchema.js';
import { columnPreferenceKey, parseColumnPreference } from '../../../engine/client/model/columnPreferences.js';
import { formatCellValue } from '../../../engine/client/model/formatCellValue.js';
import { resolveLabel } from '../../../engine/client/model/resolveLabel.js';

const field = (name: string, extra: Partial<FieldDefinition> = {}): FieldDefinition => ({ name, labelCode: `label.${name}`, type: 'string', ...extra });

const page: PageDefinition = {
  schemaVersion: 2,
  moduleCode: 'masterdata',
  functionCode: 'sku',
  titleCode: 'md.page.sku',
  status: 'published',
  table: { name: 'sku' },
  scope: 'project',
  fields: [
    field('id', { type: 'integer', editable: false }),
    field('code', { length: 10, mandatory: true }),
    field('expiry_control', { type: 'boolean' }),
    field('shelf_life_days', {
      type: 'integer',
      condition: { when: { combinator: 'and', rules: [{ field: 'expiry_control', operator: '=', value: true }] }, effect: 'mandatory' },
    }),
    field('length_cm', { type: 'decimal', decimal: 3 }),
    field('volume_cm3', { type: 'decimal', editable: false, calc: { type: 'product', params: ['length_cm', 'length_cm'] } }),
    field('note', { type: 'text', condition: { when: { combinator: 'and', rules: [{ field: 'code', operator: 'notNull' }] }, effect: 'visible' } }),
    field('updated_at', { type: 'datetime', editable: false }),
    field('internal', { displayable: false }),
  ],
};

describe(computeCalculatedFields.name, () => {
  const calc = (type: 'sum' | 'product' | 'quotient' | 'difference', extra: Partial<FieldDefinition> = {}) => [
    field('a', { type: 'decimal' }),
    field('b', { type: 'decimal' }),
    field('c', { type: 'decimal', calc: { type, params: ['a', 'b'] }, ...extra }),
  ];
  it('multiplies in decimal arithmetic, not floats, and gives the number inputs numbers', () => {
    expect(computeCalculatedFields(calc('product'), { a: '0.1', b: 3 })).toEqual({ a: '0.1', b: 3, c: 0.3 });
    expect(computeCalculatedFields(calc('sum'), { a: 0.1, b: 0.2 })).toMatchObject({ c: 0.3 });
  });
  it('rounds to the field decimals and answers null for a missing value or a division by zero', () => {
    expect(computeCalculatedFields(calc('quotient', { decimal: 3 }), { a: 10, b: 3 })).toMatchObject({ c: 3.333 });
    expect(computeCalculatedFields(calc('quotient'), { a: 10, b: 0 })).toMatchObject({ c: null });
    expect(computeCalculatedFields(calc('difference'), { a: 10 })).toMatchObject({ c: null });
  });
  it('concatenates and copies', () => {
    const fields = [field('a'), field('b'), field('joined', { calc: { type: 'concat', params: ['a', 'b'], separator: '-' } }), field('copied', { calc: { type: 'copy', params: ['a'] } })];
    expect(computeCalculatedFields(fields, { a: 'X', b: null })).toMatchObject({ joined: 'X-', copied: 'X' });
  });
  it('answers the same record when nothing calculated changed', () => {
    const record = { a: 1, b: 2, c: 3 };
    expect(computeCalculatedFields(calc('sum'), record)).toBe(record);
  });
});

describe(buildFormSchema.name, () => {
  const label = (code: string) => `[${code}]`;
  it('adds what can be entered and edits every displayed field, the fixed ones read-only', () => {
    const add = buildFormSchema(page, { mode: 'add', record: {}, choices: {}, label });
    expect(add.fields.map((f) => f.name)).toEqual(['code', 'expiry_control', 'shelf_life_days', 'length_cm', 'volume_cm3']);
    const edit = buildFormSchema(page, { mode: 'edit', record: { code: 'A' }, choices: {}, label });
    expect(edit.fields.map((f) => f.name)).toEqual(['id', 'code', 'expiry_control', 'shelf_life_days', 'length_cm', 'volume_cm3', 'note', 'updated_at']);
    expect(edit.uiSchema.updated_at).toMatchObject({ 'ui:readonly': true });
    expect(edit.uiSchema.volume_cm3).toMatchObject({ 'ui:readonly': true });
    expect(edit.uiSchema.code).not.toHaveProperty('ui:readonly');
    expect(isFormField(page, page.fields[8], 'edit')).toBe(false);
  });
  it('requires mandatory fields, limits length and applies conditions to the record', () => {
    const off = buildFormSchema(page, { mode: 'add', record: { expiry_control: false }, choices: {}, label });
    expect(off.schema.required).toEqual(['code']);
    expect(off.schema.properties?.code).toMatchObject({ type: 'string', maxLength: 10, title: '[label.code]' });
    const on = buildFormSchema(page, { mode: 'add', record: { expiry_control: true }, choices: {}, label });
    expect(on.schema.required).toEqual(['code', 'shelf_life_days']);
    expect(on.schema.properties?.shelf_life_days).toMatchObject({ type: 'integer' });
    expect(off.schema.properties?.shelf_life_days).toMatchObject({ type: ['integer', 'null'] });
  });
  it('offers loaded choices as a select', () => {
    const withOptions = { ...page, fields: page.fields.map((f) => (f.name === 'code' ? { ...f, options: { type: 'codeMaster' as const, codeType: 'C' } } : f)) };
    const built = buildFormSchema(withOptions, { mode: 'add', record: {}, choices: { code: [{ value: 'A', label: 'Alpha' }] }, label });
    expect(built.schema.properties?.code).toMatchObject({ oneOf: [{ const: 'A', title: 'Alpha' }] });
    expect(built.schema.properties?.code).not.toHaveProperty('maxLength');
    // choices that did not come (yet) leave a free input
    expect(buildFormSchema(withOptions, { mode: 'add', record: {}, choices: {}, label }).schema.properties?.code).not.toHaveProperty('oneOf');
  });
});

describe(buildSearchConditions.name, () => {
  const fields = [field('code'), field('qty', { type: 'integer' }), field('group', { options: { type: 'codeMaster', codeType: 'G' } })];
  it('ANDs the inputs, the saved condition and the free query, skipping blanks', () => {
    const saved: RuleGroup = { combinator: 'or', rules: [{ field: 'qty', operator: '>', value: 1 }] };
    expect(buildSearchConditions(fields, { code: ' AB ', qty: 3, group: '' }, saved, { combinator: 'and', rules: [] })).toEqual({
      combinator: 'and',
      rules: [{ field: 'code', operator: 'contains', value: 'AB' }, { field: 'qty', operator: '=', value: 3 }, saved],
    });
    expect(buildSearchConditions(fields, { group: 'X' })?.rules).toEqual([{ field: 'group', operator: '=', value: 'X' }]);
  });
  it('answers undefined when nothing filters', () => {
    expect(buildSearchConditions(fields, { code: '  ' }, undefined)).toBeUndefined();
  });
  it('turns a hyperlink filter into equality rules', () => {
    expect(filterToRuleGroup({ sku_id: 7 })).toEqual({ combinator: 'and', rules: [{ field: 'sku_id', operator: '=', value: 7 }] });
  });
});

describe(isBehaviourEnabled.name, () => {
  const behaviour: BehaviourDefinition = {
    code: 'deactivate',
    action: 'sql:deactivate',
    labelCode: 'x',
    selection: 'many',
    right: 'edit',
    enabledBy: { field: 'active', values: [true] },
  };
  it('needs a selection within the cap whose rows all have an allowed status', () => {
    expect(isBehaviourEnabled(behaviour, [])).toBe(false);
    expect(isBehaviourEnabled(behaviour, [{ active: true }, { active: true }])).toBe(true);
    expect(isBehaviourEnabled(behaviour, [{ active: true }, { active: false }])).toBe(false);
    expect(isBehaviourEnabled(behaviour, Array.from({ length: MAX_SELECTION + 1 }, () => ({ active: true })))).toBe(false);
  });
  it('needs exactly one row for a single-row behaviour and none for a page behaviour', () => {
    expect(isBehaviourEnabled({ ...behaviour, selection: 'one' }, [{ active: true }, { active: true }])).toBe(false);
    expect(isBehaviourEnabled({ ...behaviour, selection: 'none' }, [])).toBe(true);
  });
});

describe(effectiveRights.name, () => {
  it('offers no writing on a read-only page whatever the rights', () => {
    const all = { view: true, add: true, edit: true, delete: true };
    expect(effectiveRights(all, true)).toEqual({ view: true, add: false, edit: false, delete: false });
    expect(effectiveRights(all, false)).toBe(all);
  });
});

describe(fieldsWithTooManyDecimals.name, () => {
  it('counts digits on the text of the number', () => {
    const fields = [field('a', { type: 'decimal', decimal: 2 }), field('b', { type: 'decimal', decimal: 0 })];
    expect(fieldsWithTooManyDecimals(fields, { a: 1.25, b: 3 })).toEqual([]);
    expect(fieldsWithTooManyDecimals(fields, { a: 1.255, b: '3.5' })).toEqual(['a', 'b']);
  });
});

describe(fieldErrorsToErrorSchema.name, () => {
  it('puts each server problem under its field and keeps the others apart', () => {
    const result = fieldErrorsToErrorSchema(
      [
        { field: 'code', code: 'DUPLICATE_VALUE', message: 'already exists' },
        { field: 'ghost', code: 'X' },
      ],
      new Set(['code']),
    );
    expect(result.errorSchema).toEqual({ code: { __errors: ['already exists'] } });
    expect(result.unplaced).toEqual([{ field: 'ghost', code: 'X' }]);
  });
});

describe(parseColumnPreference.name, () => {
  it('keeps users and pages apart and survives a broken value', () => {
    expect(columnPreferenceKey('7', 'masterdata', 'sku')).not.toBe(columnPreferenceKey('8', 'masterdata', 'sku'));
    expect(parseColumnPreference('{"hidden":["a",3]}')).toEqual({ hidden: ['a'], widths: {} });
    // Widths the user dragged columns to, within sane bounds.
    expect(parseColumnPreference('{"hidden":[],"widths":{"code":180,"x":"wide","y":5}}')).toEqual({ hidden: [], widths: { code: 180 } });
    expect(parseColumnPreference('not json')).toEqual({ hidden: [] });
  });
});

describe(formatCellValue.name, () => {
  const labels = { yes: 'Yes', no: 'No' };
  it('shows booleans, choices and dates as text', () => {
    expect(formatCellValue(field('b', { type: 'boolean' }), true, labels)).toBe('Yes');
    expect(formatCellValue(field('d', { type: 'date' }), '2024-05-06T00:00:00Z', labels)).toBe('2024-05-06');
    expect(formatCellValue(field('t', { type: 'datetime' }), '2024-05-06T07:08:09.123Z', labels)).toBe('2024-05-06 07:08:09');
    expect(formatCellValue(field('c'), 'A', { ...labels, choice: (v) => (v === 'A' ? 'Alpha' : undefined) })).toBe('Alpha');
    expect(formatCellValue(field('n'), null, labels)).toBe('');
  });
});

describe(resolveLabel.name, () => {
  const translator = { t: (key: string) => `t:${key}`, hasText: (key: string) => key.startsWith('ui.'), language: 'zh' };
  it('prefers the page text in the language, then the host text (multilingual texts, locale files), then English, then the code', () => {
    const texts = { texts: { SKU: { en: 'SKU', zh: '货品' }, ONLY_EN: { en: 'Only' }, ui_EN: { en: 'Page English' } } };
    const withInstallTexts = { ...translator, hasText: (key: string) => key.startsWith('ui') };
    expect(resolveLabel('SKU', texts, translator)).toBe('货品');
    expect(resolveLabel('ONLY_EN', texts, translator)).toBe('Only');
    // A page without a text in the user's language falls back to the host's text of the code.
    expect(resolveLabel('ui_EN', texts, withInstallTexts)).toBe('t:ui_EN');
    expect(resolveLabel('ui.engine.add', texts, translator)).toBe('t:ui.engine.add');
    expect(resolveLabel('md.unknown', texts, translator)).toBe('md.unknown');
  });
});

import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../../engine/client/model/buildFormSchema.js';
import { computeCalculatedFields } from '../../../engine/client/model/computeCalculatedFields.js';
import { formatCellValue } from '../../../engine/client/model/formatCellValue.js';
import { isBehaviourEnabled } from '../../../engine/client/model/isBehaviourEnabled.js';
import { rowsEnableBehaviour, toText } from '../../../engine/core/index.js';
import type { BehaviourDefinition, FieldDefinition, FieldType, PageDefinition, QueryRule, RuleGroup } from '../../../engine/schema/index.js';
import { normalizeRow } from '../../../engine/server/normalize-row.js';
import { prepareRecord } from '../../../engine/server/prepare-record.js';
import { preparePage } from '../../../engine/server/prepared-page.js';

/*
 * The browser and the server once had their own copies of rule groups, calculations and the text
 * of values, and they drifted: an empty OR group held in the form and not on save, and the form
 * computed with floats. Each case below goes through the code the form and the toolbar call and
 * through the code the server runs on save, and both must give the expected answer written here.
 */

const field = (name: string, type: FieldType, extra: Partial<FieldDefinition> = {}): FieldDefinition => ({ name, labelCode: `label.${name}`, type, ...extra });

const pageWith = (fields: FieldDefinition[]): PageDefinition => ({
  schemaVersion: 2,
  moduleCode: 'test',
  functionCode: 'agreement',
  titleCode: 'test.agreement',
  status: 'published',
  table: { name: 'agreement' },
  scope: 'none',
  fields: [field('id', 'integer', { editable: false }), ...fields],
});

describe('rule groups: the form and the save agree', () => {
  const conditionFields = [field('status', 'string'), field('code', 'string'), field('qty', 'decimal'), field('n', 'integer'), field('flag', 'boolean')];
  const pageFor = (when: RuleGroup) => pageWith([...conditionFields, field('target', 'string', { condition: { when, effect: 'mandatory' } })]);

  /** The form: does it ask for `target` (the condition makes it mandatory while it holds)? */
  const formHolds = (when: RuleGroup, record: Record<string, unknown>) => {
    const { schema } = buildFormSchema(pageFor(when), { mode: 'add', record, choices: {}, label: (code) => code });
    return (schema.required ?? []).includes('target');
  };
  /** The save: does the server refuse the record for want of `target`? */
  const serverHolds = (when: RuleGroup, record: Record<string, unknown>) => {
    const { errors } = prepareRecord(preparePage(pageFor(when), new Map()), 'add', record);
    return errors.some((error) => error.field === 'target' && error.code === 'FIELD_REQUIRED');
  };

  const rule = (fieldName: string, operator: QueryRule['operator'], value?: unknown): QueryRule => ({ field: fieldName, operator, ...(value === undefined ? {} : { value }) });
  const and = (...rules: RuleGroup['rules']): RuleGroup => ({ combinator: 'and', rules });
  const or = (...rules: RuleGroup['rules']): RuleGroup => ({ combinator: 'or', rules });

  it.each<[string, RuleGroup, Record<string, unknown>, boolean]>([
    // Empty groups: every one of no rules holds, some one of no rules does not.
    ['empty AND group holds', and(), { status: 'hold' }, true],
    ['empty OR group does not hold', or(), { status: 'hold' }, false],
    ['NOT of an empty AND group does not hold', { ...and(), not: true }, {}, false],
    ['NOT of an empty OR group holds', { ...or(), not: true }, {}, true],
    ['AND of disabled rules only is empty and holds', and({ ...rule('status', '=', 'x'), disabled: true }), { status: 'hold' }, true],
    ['OR of disabled rules only is empty and does not hold', or({ ...rule('status', '=', 'hold'), disabled: true }), { status: 'hold' }, false],
    // Nested groups.
    ['AND with a nested OR that holds', and(rule('status', '=', 'hold'), or(rule('qty', '>', 10), rule('code', 'beginsWith', 'ab'))), { status: 'hold', qty: 5, code: 'ABC' }, true],
    ['AND with a nested OR that fails', and(rule('status', '=', 'hold'), or(rule('qty', '>', 10), rule('code', 'beginsWith', 'ab'))), { status: 'hold', qty: 5, code: 'XY' }, false],
    ['AND with a nested empty OR group', and(rule('status', '=', 'hold'), or()), { status: 'hold' }, false],
    ['OR with a nested empty AND group', or(rule('status', '=', 'x'), and()), { status: 'hold' }, true],
    ['NOT of a nested group', and({ ...or(rule('status', '=', 'hold'), rule('status', '=', 'new')), not: true }), { status: 'done' }, true],
    // Each operator.
    ['= text', and(rule('status', '=', 'hold')), { status: 'hold' }, true],
    ['= is case-sensitive', and(rule('status', '=', 'hold')), { status: 'HOLD' }, false],
    ['= decimal 0.30 is 0.3', and(rule('qty', '=', 0.3)), { qty: '0.30' }, true],
    ['= decimal beyond float precision', and(rule('qty', '=', 1)), { qty: '1.00000000000000001' }, false],
    ['= integer against numeric text', and(rule('n', '=', '7')), { n: 7 }, true],
    ['= boolean', and(rule('flag', '=', true)), { flag: true }, true],
    ['= boolean false', and(rule('flag', '=', true)), { flag: false }, false],
    ['!= text', and(rule('status', '!=', 'hold')), { status: 'new' }, true],
    ['!= same decimal', and(rule('qty', '!=', '2.50')), { qty: 2.5 }, false],
    ['< compares numbers as numbers', and(rule('qty', '<', 10)), { qty: '9' }, true],
    ['< text by code point', and(rule('code', '<', 'a')), { code: 'B' }, true],
    ['<= equal', and(rule('qty', '<=', '0.3')), { qty: 0.3 }, true],
    ['> decimal', and(rule('qty', '>', 10)), { qty: '10.5' }, true],
    ['> not when equal', and(rule('qty', '>', 10)), { qty: '10.00' }, false],
    ['>= equal', and(rule('n', '>=', 3)), { n: 3 }, true],
    ['contains ignores case', and(rule('code', 'contains', 'BC')), { code: 'abcd' }, true],
    ['contains misses', and(rule('code', 'contains', 'x')), { code: 'abcd' }, false],
    ['beginsWith', and(rule('code', 'beginsWith', 'AB')), { code: 'abcd' }, true],
    ['endsWith', and(rule('code', 'endsWith', 'cd')), { code: 'abcd' }, true],
    ['endsWith misses', and(rule('code', 'endsWith', 'ab')), { code: 'abcd' }, false],
    ['in comma-separated text', and(rule('status', 'in', 'new, hold')), { status: 'hold' }, true],
    ['in a list of decimals', and(rule('qty', 'in', [1, 2.5])), { qty: '2.50' }, true],
    ['notIn', and(rule('status', 'notIn', ['new', 'hold'])), { status: 'done' }, true],
    ['notIn a listed value', and(rule('status', 'notIn', ['new', 'hold'])), { status: 'new' }, false],
    ['between includes its ends', and(rule('qty', 'between', [1, 5])), { qty: 5 }, true],
    ['between is exact on decimals', and(rule('qty', 'between', ['0.1', '0.3'])), { qty: '0.30000000000000004' }, false],
    ['between comma-separated', and(rule('n', 'between', '1, 5')), { n: 3 }, true],
    // Nulls: an empty value equals only emptiness and is never ordered.
    ['null of null', and(rule('code', 'null')), { code: null }, true],
    ['null of empty text', and(rule('code', 'null')), { code: '' }, true],
    ['null of a missing value', and(rule('code', 'null')), {}, true],
    ['null of a value', and(rule('code', 'null')), { code: 'A' }, false],
    ['notNull of a value', and(rule('code', 'notNull')), { code: 'A' }, true],
    ['notNull of null', and(rule('code', 'notNull')), { code: null }, false],
    ['= of an empty value', and(rule('code', '=', 'A')), { code: null }, false],
    ['= empty text means empty', and(rule('code', '=', '')), { code: null }, true],
    ['!= of an empty value', and(rule('code', '!=', 'A')), { code: null }, true],
    ['< of an empty value', and(rule('qty', '<', 10)), { qty: null }, false],
    ['<= of an empty value against empty', and(rule('qty', '<=', null)), { qty: null }, false],
    ['>= of an empty value', and(rule('qty', '>=', 0)), {}, false],
    ['between of an empty value', and(rule('qty', 'between', [0, 10])), { qty: null }, false],
    ['in of an empty value', and(rule('status', 'in', ['new'])), { status: null }, false],
    ['notIn of an empty value', and(rule('status', 'notIn', ['new'])), { status: null }, true],
    ['contains of an empty value', and(rule('code', 'contains', 'a')), { code: null }, false],
  ])('%s', (_name, group, record, expected) => {
    expect({ form: formHolds(group, record), server: serverHolds(group, record) }).toEqual({ form: expected, server: expected });
  });
});

describe('calculations: the form shows what the server stores', () => {
  const inputs = [field('a', 'decimal'), field('b', 'decimal'), field('s', 'string'), field('t', 'string')];
  const resultField = (type: FieldType, calc: FieldDefinition['calc'], decimal?: number) => field('result', type, { editable: false, calc, ...(decimal === undefined ? {} : { decimal }) });

  it.each<[string, FieldDefinition, Record<string, unknown>, string | number | null]>([
    ['0.1 + 0.2 from text', resultField('decimal', { type: 'sum', params: ['a', 'b'] }), { a: '0.1', b: '0.2' }, '0.3'],
    ['0.1 + 0.2 from number inputs', resultField('decimal', { type: 'sum', params: ['a', 'b'] }), { a: 0.1, b: 0.2 }, '0.3'],
    ['1 - 0.9', resultField('decimal', { type: 'difference', params: ['a', 'b'] }), { a: 1, b: 0.9 }, '0.1'],
    ['1.1 x 1.1', resultField('decimal', { type: 'product', params: ['a', 'b'] }, 2), { a: '1.1', b: '1.1' }, '1.21'],
    ['money: 3 x 19.99', resultField('decimal', { type: 'product', params: ['a', 'b'] }, 2), { a: 3, b: '19.99' }, '59.97'],
    ['money: 0.07 x 100', resultField('decimal', { type: 'product', params: ['a', 'b'] }, 2), { a: '0.07', b: 100 }, '7'],
    ['money rounds half up: 1.005 x 1', resultField('decimal', { type: 'product', params: ['a', 'b'] }, 2), { a: '1.005', b: 1 }, '1.01'],
    ['quantity rounds half up: 2.5 x 1.15', resultField('decimal', { type: 'product', params: ['a', 'b'] }, 2), { a: '2.5', b: '1.15' }, '2.88'],
    ['quantity in four decimals: 12 x 0.3333', resultField('decimal', { type: 'product', params: ['a', 'b'] }, 4), { a: 12, b: '0.3333' }, '3.9996'],
    ['negative half rounds away from zero', resultField('decimal', { type: 'product', params: ['a', 'b'] }, 0), { a: '-2.5', b: 1 }, '-3'],
    ['10 / 3 in three decimals', resultField('decimal', { type: 'quotient', params: ['a', 'b'] }, 3), { a: 10, b: 3 }, '3.333'],
    ['2 / 3 in two decimals', resultField('decimal', { type: 'quotient', params: ['a', 'b'] }, 2), { a: 2, b: 3 }, '0.67'],
    ['division by zero is empty', resultField('decimal', { type: 'quotient', params: ['a', 'b'] }, 2), { a: 10, b: 0 }, null],
    ['an empty parameter gives empty', resultField('decimal', { type: 'sum', params: ['a', 'b'] }), { a: 1, b: null }, null],
    ['a missing parameter gives empty', resultField('decimal', { type: 'sum', params: ['a', 'b'] }), { a: 1 }, null],
    ['integer result rounds half up: 2.5 x 3', resultField('integer', { type: 'product', params: ['a', 'b'] }), { a: '2.5', b: 3 }, 8],
    ['integer result of 10 / 4', resultField('integer', { type: 'quotient', params: ['a', 'b'] }), { a: 10, b: 4 }, 3],
    ['concat with a separator', resultField('string', { type: 'concat', params: ['s', 't'], separator: '-' }), { s: 'A', t: 'B' }, 'A-B'],
    ['concat with one empty value', resultField('string', { type: 'concat', params: ['s', 't'], separator: '-' }), { s: 'A', t: null }, 'A-'],
    ['concat of nothing is empty', resultField('string', { type: 'concat', params: ['s', 't'], separator: '-' }), { s: null, t: '' }, null],
    ['copy', resultField('string', { type: 'copy', params: ['s'] }), { s: 'LOC-01' }, 'LOC-01'],
  ])('%s', (_name, result, record, expected) => {
    const fields = [...inputs, result];
    const server = prepareRecord(preparePage(pageWith(fields), new Map()), 'add', record).values.result;
    const form = computeCalculatedFields(fields, record).result;
    // The form's number inputs hold numbers; the server binds decimals as exact text.
    const formExpected = typeof expected === 'string' && result.type === 'decimal' ? Number(expected) : expected;
    expect({ form, server }).toEqual({ form: formExpected, server: expected });
    if (server !== null) expect(toText(form)).toBe(toText(server));
  });
});

describe('behaviour status rules: the button and the server agree', () => {
  const behaviour: BehaviourDefinition = {
    code: 'close',
    action: 'outbound.close',
    labelCode: 'x',
    selection: 'many',
    right: 'edit',
    enabledBy: { field: 'status', values: ['OPEN', 10] },
  };

  it.each<[string, Record<string, unknown>[], boolean]>([
    ['an allowed text status', [{ status: 'OPEN' }], true],
    ['a decimal status 10.00 is 10', [{ status: '10.00' }], true],
    ['status text is case-sensitive', [{ status: 'open' }], false],
    ['an empty status', [{ status: null }], false],
    ['every row must be allowed', [{ status: 'OPEN' }, { status: 'SHIPPED' }], false],
  ])('%s', (_name, rows, expected) => {
    expect({ button: isBehaviourEnabled(behaviour, rows), server: rowsEnableBehaviour(behaviour.enabledBy, rows) }).toEqual({ button: expected, server: expected });
  });
});

describe('text of values: the grid shows what the server answers', () => {
  it.each<[string, FieldType, unknown, string]>([
    ['exact decimal text keeps its zeros', 'decimal', '0.30', '0.30'],
    ['a decimal number from the driver', 'decimal', 12.5, '12.5'],
    ['a bigint from the driver', 'integer', 10n, '10'],
    ['structured data as JSON', 'string', { a: 1 }, '{"a":1}'],
    ['null as nothing', 'string', null, ''],
  ])('%s', (_name, type, raw, expected) => {
    const page = pageWith([field('value', type)]);
    const row = normalizeRow(preparePage(page, new Map()), { _key: 1, _version: null, value: raw });
    const overTheWire = (JSON.parse(JSON.stringify(row)) as Record<string, unknown>).value;
    const grid = formatCellValue(field('value', type), overTheWire, { yes: 'Yes', no: 'No' });
    expect({ grid, server: toText(row.value) }).toEqual({ grid: expected, server: expected });
  });
});

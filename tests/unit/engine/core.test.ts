import { describe, expect, it } from 'vitest';
import { applyCalculations, compareValues, evaluateRuleGroup, rowsEnableBehaviour, toText } from '../../../engine/core/index.js';
import type { FieldDefinition, RuleGroup } from '../../../engine/schema/index.js';

describe(applyCalculations.name, () => {
  const fields: FieldDefinition[] = [
    { name: 'qty', labelCode: 'q', type: 'decimal' },
    { name: 'price', labelCode: 'p', type: 'decimal' },
    { name: 'amount', labelCode: 'a', type: 'decimal', decimal: 2, calc: { type: 'product', params: ['qty', 'price'] } },
    { name: 'total', labelCode: 't', type: 'decimal', calc: { type: 'sum', params: ['amount', 'qty'] } },
    { name: 'ratio', labelCode: 'r', type: 'decimal', calc: { type: 'quotient', params: ['qty', 'price'] } },
    { name: 'label', labelCode: 'l', type: 'string', calc: { type: 'concat', params: ['qty', 'price'], separator: 'x' } },
  ];

  it('computes with decimal arithmetic, in order, rounding to the field decimals', () => {
    expect(applyCalculations(fields, { qty: '0.1', price: '0.2' })).toMatchObject({ amount: '0.02', total: '0.12', ratio: '0.5', label: '0.1x0.2' });
  });

  it('gives null for empty inputs and division by zero', () => {
    expect(applyCalculations(fields, { qty: '3', price: '0' })).toMatchObject({ amount: '0', ratio: null });
    expect(applyCalculations(fields, { qty: null, price: '2' })).toMatchObject({ amount: null, total: null });
  });
});

describe(evaluateRuleGroup.name, () => {
  it('evaluates like the SQL compiler', () => {
    const group = { combinator: 'or' as const, rules: [{ field: 'status', operator: '=' as const, value: 'hold' }, { field: 'qty', operator: '>' as const, value: 10 }] };
    expect(evaluateRuleGroup(group, { status: 'hold', qty: '1' })).toBe(true);
    expect(evaluateRuleGroup(group, { status: 'new', qty: '10.5' })).toBe(true);
    expect(evaluateRuleGroup(group, { status: 'new', qty: '9' })).toBe(false);
    expect(evaluateRuleGroup({ ...group, not: true }, { status: 'new', qty: '9' })).toBe(true);
  });
});

describe(`${evaluateRuleGroup.name} (nested groups)`, () => {
  const group: RuleGroup = {
    combinator: 'or',
    rules: [
      { field: 'qty', operator: '>', value: 10 },
      { combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'ab' }, { field: 'code', operator: 'endsWith', value: 'z' }] },
    ],
  };
  it.each([
    [{ qty: 11, code: 'x' }, true],
    [{ qty: '9', code: 'ABcz' }, true],
    [{ qty: 9, code: 'abc' }, false],
    [{ code: 'abz' }, true],
  ])('holds for %o: %s', (values, expected) => {
    expect(evaluateRuleGroup(group, values)).toBe(expected);
  });
  it('negates with not and ignores disabled rules', () => {
    expect(evaluateRuleGroup({ combinator: 'and', not: true, rules: [{ field: 'a', operator: 'null' }] }, { a: null })).toBe(false);
    expect(evaluateRuleGroup({ combinator: 'and', rules: [{ field: 'a', operator: '=', value: 1, disabled: true }] }, { a: 2 })).toBe(true);
  });
  it('knows in, notIn and between', () => {
    expect(evaluateRuleGroup({ combinator: 'and', rules: [{ field: 's', operator: 'in', value: 'A, B' }] }, { s: 'B' })).toBe(true);
    expect(evaluateRuleGroup({ combinator: 'and', rules: [{ field: 's', operator: 'notIn', value: ['A'] }] }, { s: 'A' })).toBe(false);
    expect(evaluateRuleGroup({ combinator: 'and', rules: [{ field: 'n', operator: 'between', value: [1, 5] }] }, { n: 5 })).toBe(true);
  });
});

describe(compareValues.name, () => {
  it.each([
    ['0.3', 0.3, 0],
    ['10', '9', 1],
    ['1.50', 1.5, 0],
    ['a', 'b', -1],
    ['B', 'a', -1],
    [null, '', 0],
    [null, 1, undefined],
    [true, 'true', 0],
  ] as const)('%j against %j is %j', (a, b, order) => {
    const answer = compareValues(a, b);
    expect(answer === undefined ? undefined : Math.sign(answer)).toBe(order);
  });
});

describe(toText.name, () => {
  it.each([
    ['A', 'A'],
    [12.5, '12.5'],
    [false, 'false'],
    [null, ''],
    [undefined, ''],
    [new Date('2024-05-06T07:08:09.000Z'), '2024-05-06T07:08:09.000Z'],
    [{ a: 1 }, '{"a":1}'],
  ] as const)('%j -> %j', (value, text) => {
    expect(toText(value)).toBe(text);
  });
  it('writes a bigint from the driver as its digits', () => {
    expect(toText(12345678901234567890n)).toBe('12345678901234567890');
  });
});

describe(rowsEnableBehaviour.name, () => {
  it('needs every row to hold an allowed status, compared as values', () => {
    const enabledBy = { field: 'status', values: ['OPEN', 10] };
    expect(rowsEnableBehaviour(enabledBy, [{ status: 'OPEN' }, { status: '10.00' }])).toBe(true);
    expect(rowsEnableBehaviour(enabledBy, [{ status: 'OPEN' }, { status: 'open' }])).toBe(false);
    expect(rowsEnableBehaviour(undefined, [{ status: 'X' }])).toBe(true);
  });
});

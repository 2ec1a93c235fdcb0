import { describe, expect, it } from 'vitest';
import { parseQuantity } from '../../src/common/quantity.js';

const codeOf = (value: unknown, zero = false) => {
  const result = parseQuantity(value, { zero });
  return result.ok ? result.value : result.problem.code;
};

describe('the quantity rule', () => {
  it('reads a JSON number or a decimal text as its exact decimal text', () => {
    expect(codeOf(1)).toBe('1');
    expect(codeOf(0.5)).toBe('0.5');
    expect(codeOf('1.2345')).toBe('1.2345');
    expect(codeOf(' 01.50 ')).toBe('1.5');
    expect(codeOf(1e3)).toBe('1000');
    expect(codeOf(1e12)).toBe('1000000000000');
    expect(codeOf('1000000000000.0000')).toBe('1000000000000');
  });

  it('takes no other kind of value, and no text but plain decimal notation', () => {
    for (const value of [true, false, null, undefined, [], {}, [1], '', ' ', 'abc', '1e3', '0x10', '1,5', '.5', '5.', '+1', 'Infinity', 'NaN', Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(codeOf(value), JSON.stringify(value)).toBe('FIELD_TYPE');
    }
  });

  it('refuses 0 and below, unless 0 is allowed; never a negative', () => {
    for (const value of [0, '0', '0.0000', -1, '-1', -0.0001, -1e308]) expect(codeOf(value), String(value)).toBe('QTY_NOT_POSITIVE');
    expect(codeOf(0, true)).toBe('0');
    expect(codeOf(-0, true)).toBe('0');
    expect(codeOf('-0', true)).toBe('0');
    expect(codeOf(-1, true)).toBe('QTY_NOT_POSITIVE');
  });

  it('refuses more than 10^12 and more than four decimals instead of rounding', () => {
    for (const value of [1e13, 1e308, '1000000000000.0001', '10000000000000']) expect(codeOf(value), String(value)).toBe('FIELD_RANGE');
    for (const value of [1e-7, '0.00001', '1.23456', 1.23456, 0.1 + 0.2]) expect(codeOf(value), String(value)).toBe('FIELD_DECIMALS');
    expect(parseQuantity('1.23456')).toEqual({ ok: false, problem: { code: 'FIELD_DECIMALS', params: { max: 4 } } });
  });
});

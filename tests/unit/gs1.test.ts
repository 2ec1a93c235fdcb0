import { describe, expect, it } from 'vitest';
import { gs1CheckDigit, looksLikeGs1, parseGs1 } from '../../src/common/gs1.js';

const GS = '\u001d';
const gtin = (thirteen: string) => thirteen + gs1CheckDigit(thirteen);
const sscc = (seventeen: string) => seventeen + gs1CheckDigit(seventeen);

describe('GS1-128 parsing', () => {
  it('computes the mod-10 check digit of GS1 keys', () => {
    expect(gs1CheckDigit('0950110153000')).toBe('3'); // GTIN-14 09501101530003 (GS1 General Specifications example)
    expect(gs1CheckDigit('00614141123456789')).toBe('0'); // SSCC 006141411234567890
    expect(gs1CheckDigit('400638133393')).toBe('1'); // EAN-13 4006381333931
  });

  it('reads fixed and variable fields with group separators and the symbology identifier', () => {
    const code = `]C101${gtin('0950110153000')}17261231` + `10LOT-7A${GS}21SER001${GS}3103001250` + `37${'24'}`;
    const parsed = parseGs1(code);
    expect(parsed).toEqual({
      ok: true,
      data: { gtin: '09501101530003', expiry: '2026-12-31', batch: 'LOT-7A', serial: 'SER001', netWeightKg: 1.25, count: 24 },
    });
  });

  it('reads the SSCC of a pallet label and AI 02 with its count', () => {
    expect(parseGs1(`00${sscc('00614141123456789')}02${gtin('0950110153000')}3712${GS}`)).toEqual({
      ok: true,
      data: { sscc: '006141411234567890', contentGtin: '09501101530003', count: 12 },
    });
  });

  it('reads the human-readable form with brackets', () => {
    expect(parseGs1(`(01)${gtin('0950110153000')}(10)B42(17)270200`)).toEqual({
      ok: true,
      data: { gtin: '09501101530003', batch: 'B42', expiry: '2027-02-28' },
    });
  });

  it('refuses a wrong check digit, an unknown AI, a bad date and a too long lot', () => {
    expect(parseGs1('0109501101530004')).toMatchObject({ ok: false, error: 'wrong GTIN check digit' });
    expect(parseGs1('99abc')).toMatchObject({ ok: false });
    expect(parseGs1(`01${gtin('0950110153000')}17261340`)).toMatchObject({ ok: false, error: 'invalid expiry date' });
    expect(parseGs1(`10${'X'.repeat(21)}`)).toMatchObject({ ok: false, error: 'wrong length for AI 10' });
    expect(parseGs1('(01)123')).toMatchObject({ ok: false });
    expect(parseGs1('')).toMatchObject({ ok: false });
  });

  it('tells a GS1 scan from a plain location, LPN or SKU code', () => {
    expect(looksLikeGs1(`01${gtin('0950110153000')}`)).toBe(true);
    expect(looksLikeGs1(`00${sscc('00614141123456789')}`)).toBe(true);
    expect(looksLikeGs1('(10)ABC')).toBe(true);
    expect(looksLikeGs1(']C110ABC')).toBe(true);
    expect(looksLikeGs1('A-01-2')).toBe(false);
    expect(looksLikeGs1('DOCK-01')).toBe(false);
    expect(looksLikeGs1('4006381333931')).toBe(false);
  });
});

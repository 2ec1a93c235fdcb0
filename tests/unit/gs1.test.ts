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

/**
 * The examples the GS1 General Specifications and the GS1 barcode literature publish: check digits of
 * GTIN-8, GTIN-12, GTIN-13, GTIN-14 and SSCC, and element strings in both transmitted forms.
 */
describe('GS1 published examples', () => {
  const valid = (key: string) => gs1CheckDigit(key.slice(0, -1)) === key.slice(-1);

  it('accepts the check digits of the published GTINs and SSCCs, and refuses each with another check digit', () => {
    const keys = ['96385074', '73513537', '614141000036', '036000291452', '4006381333931', '95012345678903', '09506000134352', '106141412345678908', '006141411234567890'];
    expect(gs1CheckDigit('400638133393')).toBe('1');
    expect(gs1CheckDigit('10614141234567890')).toBe('8');
    for (const key of keys) {
      expect(valid(key), key).toBe(true);
      const wrong = key.slice(0, -1) + String((Number(key.slice(-1)) + 1) % 10);
      expect(valid(wrong), wrong).toBe(false);
    }
  });

  it('reads the SSCC example (00)106141412345678908 in both forms and refuses it with a wrong check digit', () => {
    expect(parseGs1('(00)106141412345678908')).toEqual({ ok: true, data: { sscc: '106141412345678908' } });
    expect(parseGs1(']C100106141412345678908')).toEqual({ ok: true, data: { sscc: '106141412345678908' } });
    expect(parseGs1('(00)106141412345678907')).toMatchObject({ ok: false, error: 'wrong SSCC check digit' });
  });

  it('reads (01)(17)(10)(21)(37) with the variable-length fields ended by FNC1 (GS) or by the end', () => {
    const data = { gtin: '09506000134352', expiry: '2027-12-31', batch: 'ABC123', serial: '12345', count: 24 };
    expect(parseGs1('(01)09506000134352(17)271231(10)ABC123(21)12345(37)24')).toEqual({ ok: true, data });
    expect(parseGs1(`0109506000134352171212311` + '0ABC123')).toMatchObject({ ok: true, data: { batch: 'ABC123', expiry: '2012-12-31' } });
    // Fixed-length fields first, then each variable-length one ended by FNC1 except the last.
    expect(parseGs1(`]C10109506000134352172712311` + `0ABC123${GS}2112345${GS}3724`)).toEqual({ ok: true, data });
    // The order of the element strings does not matter; a GS after the last field is harmless.
    expect(parseGs1(`10ABC123${GS}0109506000134352${'17271231'}21${'12345'}${GS}3724${GS}`)).toEqual({ ok: true, data });
    // A scanner may send the GS in the bracketed form too.
    expect(parseGs1(`(01)09506000134352(10)ABC123${GS}(21)12345${GS}`)).toMatchObject({ ok: true, data: { batch: 'ABC123', serial: '12345' } });
  });

  it('reads the example (01)95012345678903(3103)000123 as 0.123 kg net', () => {
    expect(parseGs1('(01)95012345678903(3103)000123')).toEqual({ ok: true, data: { gtin: '95012345678903', netWeightKg: 0.123 } });
    expect(parseGs1('0195012345678903' + '3103000123')).toEqual({ ok: true, data: { gtin: '95012345678903', netWeightKg: 0.123 } });
  });

  it('reads a date with DD 00 as the last day of its month, leap years included, and refuses day 31 of a 30-day month', () => {
    expect(parseGs1('(01)09506000134352(17)280200')).toMatchObject({ ok: true, data: { expiry: '2028-02-29' } });
    expect(parseGs1('(01)09506000134352(17)270200')).toMatchObject({ ok: true, data: { expiry: '2027-02-28' } });
    expect(parseGs1('(01)09506000134352(17)271100')).toMatchObject({ ok: true, data: { expiry: '2027-11-30' } });
    expect(parseGs1('(01)09506000134352(17)270431')).toMatchObject({ ok: false });
    expect(parseGs1('(01)09506000134352(17)271300')).toMatchObject({ ok: false });
    expect(parseGs1('(01)09506000134352(15)270000')).toMatchObject({ ok: false, error: 'invalid date for AI 15' });
  });

  it('reads past the other AIs a label carries (dates, order number, price) by their predefined or FNC1-ended length', () => {
    const raw = `0109506000134352${'11'}270115${'15'}271200${'400'}PO-77${GS}${'3922'}1250${GS}10B9`;
    expect(parseGs1(raw)).toEqual({ ok: true, data: { gtin: '09506000134352', batch: 'B9' } });
    expect(parseGs1('(01)09506000134352(11)270115(400)PO-77(10)B9')).toEqual({ ok: true, data: { gtin: '09506000134352', batch: 'B9' } });
    expect(parseGs1('(01)09506000134352(11)271340')).toMatchObject({ ok: false, error: 'invalid date for AI 11' });
  });
});

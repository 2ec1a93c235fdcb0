import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { gs1CheckDigit, parseGs1 } from '../../src/common/gs1.js';
import { AppError } from '../../src/common/errors.js';
import { sendRaw } from '../../src/server/modules/printing/printer-client.js';
import { isCompanyPrefix, isSscc, ssccOf } from '../../src/server/modules/printing/sscc.js';
import { cartonLabelZpl, gs1Code128Data, zplText, type CartonLabel } from '../../src/server/modules/printing/zpl.js';

/** SSCCs and GS1-128 carton labels in ZPL, and the raw-port sender's time limit. */

describe('SSCC', () => {
  it('computes the mod-10 check digit of the GS1 General Specifications examples', () => {
    // SSCC 1 0614141 123456789 7, and GTINs of a known UPC-A and EAN-13 padded to 14 digits.
    expect(gs1CheckDigit('10614141123456789')).toBe('7');
    expect(gs1CheckDigit('0003600029145')).toBe('2');
    expect(gs1CheckDigit('0400638133393')).toBe('1');
    expect(gs1CheckDigit('1003600029145')).toBe('9');
  });

  it('is the extension digit, the company prefix, the serial padded to 16 digits with the prefix, and the check digit', () => {
    expect(ssccOf(1, '0614141', 123456789)).toBe('106141411234567897');
    expect(ssccOf(0, '0614141', 1)).toBe('006141410000000012');
    expect(ssccOf(0, '0614141999', 1)).toHaveLength(18);
    expect(ssccOf(0, '0614141999', 1).slice(0, 11)).toBe('00614141999');
    for (const sscc of [ssccOf(1, '0614141', 123456789), ssccOf(9, '12345678', 42)]) expect(isSscc(sscc)).toBe(true);
    expect(isSscc('106141411234567890')).toBe(false);
  });

  it('takes only a company prefix of 7 to 10 digits, and refuses a serial that no longer fits', () => {
    expect(['123456', '12345678901', '12345a7', ''].map(isCompanyPrefix)).toEqual([false, false, false, false]);
    expect(['1234567', '1234567890'].map(isCompanyPrefix)).toEqual([true, true]);
    expect(() => ssccOf(0, '123456', 1)).toThrow(expect.objectContaining({ code: 'GS1_PREFIX_INVALID' }) as AppError);
    expect(ssccOf(0, '1234567890', 999_999)).toHaveLength(18);
    expect(() => ssccOf(0, '1234567890', 1_000_000)).toThrow(expect.objectContaining({ code: 'SSCC_SERIAL_EXHAUSTED' }) as AppError);
    expect(() => ssccOf(10, '1234567', 1)).toThrow();
  });
});

const LABEL: CartonLabel = {
  sscc: '106141411234567897',
  shipFrom: 'Main DC',
  shipTo: { name: 'Shop ^1~ 東京', lines: ['1 High St_', 'Tokyo'] },
  orderNo: 'SO0001',
  cartonNo: 2,
  cartonCount: 5,
};

describe(cartonLabelZpl.name, () => {
  it('is one ^XA ... ^XZ format in UTF-8 with the SSCC as a GS1-128 barcode (FNC1, AI 00) and its human-readable line', () => {
    const zpl = cartonLabelZpl(LABEL);
    expect(zpl.startsWith('^XA\n^CI28\n')).toBe(true);
    expect(zpl.endsWith('^XZ\n')).toBe(true);
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).toContain('^BCN,200,N,N,N^FD>;>800106141411234567897^FS');
    expect(zpl).toContain('^FH^FD(00) 106141411234567897^FS');
    expect(zpl).toContain('^FH^FDORDER: SO0001^FS');
    expect(zpl).toContain('^FH^FDCARTON 2 OF 5^FS');
    expect(zpl).not.toContain('(02)');
  });

  it('escapes ^, ~ and the hex indicator in free text and keeps other characters as UTF-8', () => {
    expect(zplText('a^b~c_d\ne')).toBe('a_5Eb_7Ec_5Fd e');
    const zpl = cartonLabelZpl(LABEL);
    expect(zpl).toContain('^FH^FDShop _5E1_7E 東京^FS');
    expect(zpl).toContain('^FH^FD1 High St_5F^FS');
    // Every ^ and ~ of the label is a command: none comes from the texts.
    const fieldData = [...zpl.matchAll(/\^FD(.*?)\^FS/g)].map((m) => m[1]);
    for (const data of fieldData) expect(data).not.toMatch(/[\^~]/);
    expect(Buffer.from(zpl, 'utf8').includes(Buffer.from('東京', 'utf8'))).toBe(true);
  });

  it('encodes GTIN, expiry, count and lot (AIs 02, 17, 37, 10) in a second GS1-128 barcode with FNC1 after the variable count', () => {
    const zpl = cartonLabelZpl({ ...LABEL, content: { gtin: '10036000291459', lot: 'AB>1', expiry: '2027-03-31', qty: 12 } });
    expect(zpl).toContain('^FD>;>80210036000291459172703313712>810>6AB><1^FS');
    expect(zpl).toContain('^FH^FD(02) 10036000291459 (17) 270331 (37) 12 (10) AB>1^FS');
    // The element string the barcode carries reads back with the GS1 parser.
    const parsed = parseGs1('0210036000291459' + '17270331' + '3712' + '\u001d' + '10AB>1');
    expect(parsed.ok).toBe(true);
  });

  it('puts an odd run of digits partly in subset B so that subset C takes pairs', () => {
    expect(gs1Code128Data([{ ai: '37', value: '5', variable: true }, { ai: '10', value: 'X', variable: true }])).toBe('>;>837>65>810X');
    expect(gs1Code128Data([{ ai: '10', value: 'A12345', variable: true }])).toBe('>;>810>6A1>52345');
  });

  it('refuses what a GS1-128 barcode cannot carry', () => {
    const refused = (content: CartonLabel['content']) => expect(() => cartonLabelZpl({ ...LABEL, content })).toThrow(AppError);
    refused({ gtin: '10036000291450' });
    refused({ gtin: '1003600029145' });
    refused({ lot: 'A^B' });
    refused({ lot: '' });
    refused({ expiry: '2027-3-31' });
    refused({ qty: 0 });
    expect(() => cartonLabelZpl({ ...LABEL, sscc: '106141411234567890' })).toThrow(AppError);
    expect(() => cartonLabelZpl({ ...LABEL, cartonNo: 6 })).toThrow(AppError);
  });
});

describe(sendRaw.name, () => {
  it('gives up on a printer that takes nothing more, after its time limit', async () => {
    // A listener that never reads: the connection opens, the bytes pile up until the buffers are full.
    const server = net.createServer({ pauseOnConnect: true }, () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      await expect(sendRaw('127.0.0.1', port, Buffer.alloc(64 * 1024 * 1024, 0x41), 1000)).rejects.toThrow(/did not take the document/);
    } finally {
      server.close();
    }
  });
});

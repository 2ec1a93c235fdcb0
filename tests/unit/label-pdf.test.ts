import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGs1 } from '../../src/common/gs1.js';
import { gs1Code128Text, labelPdf } from '../../src/server/modules/printing/label-pdf.js';
import { gs1ElementString, labelElements, palletLabelZpl, type CartonLabel } from '../../src/server/modules/printing/zpl.js';

/**
 * Carton and pallet labels as 4 x 6 inch PDFs: poppler renders the page, zbar (an independent
 * decoder) reads the GS1-128 barcodes back from the image, and pdftotext finds the texts.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'label-pdf-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const LABEL: CartonLabel = {
  sscc: '106141411234567897',
  shipFrom: 'Main DC',
  shipTo: { name: '上海门店 1', lines: ['浦东新区 88 号', 'Shanghai'] },
  orderNo: 'SO0001',
  cartonNo: 2,
  cartonCount: 5,
  content: { gtin: '10036000291459', lot: 'AB-12', expiry: '2027-03-31', qty: 12 },
};

function read(pdf: Buffer, name: string) {
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  execFileSync('pdftoppm', ['-r', '300', '-gray', '-singlefile', '-png', file, path.join(dir, name)]);
  const image = path.join(dir, `${name}.png`);
  // zbarimg prints one line per symbol (exit 4 when it finds none).
  let decoded: string[] = [];
  try {
    decoded = execFileSync('zbarimg', ['-q', '--raw', image], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    decoded = [];
  }
  return { text, info, decoded, image };
}

/** The share of dark pixels in a band of rows of a grey PGM rendering (pdftoppm -gray). */
function darkShare(pdfFile: string, fromRow: number, toRow: number): number {
  const pgm = execFileSync('pdftoppm', ['-r', '100', '-gray', '-singlefile', pdfFile]);
  const header = pgm.subarray(0, 30).toString('latin1').split(/\s+/);
  const width = Number(header[1]);
  const offset = pgm.indexOf(Buffer.from(`${header[3]}\n`, 'latin1'), 2) + header[3].length + 1;
  let dark = 0;
  let all = 0;
  for (let row = fromRow; row < toRow; row += 1) {
    for (let col = 0; col < width; col += 1) {
      all += 1;
      if (pgm[offset + row * width + col] < 128) dark += 1;
    }
  }
  return dark / all;
}

describe('carton and pallet labels as PDF', () => {
  it('builds the GS1 element strings and the Code 128 text with FNC1 first and after a variable element', () => {
    const { sscc, content } = labelElements(LABEL);
    expect(gs1ElementString(sscc)).toBe('00106141411234567897');
    expect(gs1ElementString(content)).toBe('0210036000291459' + '17270331' + '3712\u001d' + '10AB-12');
    expect(gs1Code128Text(content)).toBe('^FNC10210036000291459172703313712^FNC110AB-12');
    const parsed = parseGs1(gs1ElementString(content));
    expect(parsed.ok).toBe(true);
  });

  it('is one 4 x 6 inch page whose barcodes decode to the SSCC and the content, with the texts in the reader language', async () => {
    const { text, info, decoded } = read(await labelPdf(LABEL, 'carton', 'zh'), 'carton');
    expect(info).toMatch(/Pages:\s+1\b/);
    expect(info).toMatch(/Page size:\s+288 x 432 pts/);
    expect(text).toContain('(00) 106141411234567897');
    expect(text).toContain('(02) 10036000291459 (17) 270331 (37) 12 (10) AB-12');
    expect(text.replace(/\s+/g, '')).toContain('上海门店1');
    expect(text.replace(/\s+/g, '')).toContain('第2箱/共5箱');
    expect(text).toContain('SO0001');
    const { sscc, content } = labelElements(LABEL);
    expect(decoded.sort()).toEqual([gs1ElementString(sscc), gs1ElementString(content)].sort());
  });

  it('prints a pallet label with its own heading and a dark barcode area, in Thai', async () => {
    const label = { ...LABEL, content: undefined, shipTo: { name: 'ร้านค้ากรุงเทพ', lines: ['ถนนสุขุมวิท 1'] } };
    const pdf = await labelPdf(label, 'pallet', 'th');
    const { text, decoded } = read(pdf, 'pallet');
    expect(text).toContain('พาเลท 2 จาก 5');
    expect(text.replace(/\s+/g, '')).toContain('ร้านค้ากรุงเทพ');
    expect(decoded).toEqual(['00106141411234567897']);
    // At 100 dpi the page is 400 x 600 pixels: the SSCC's bars sit in the lower part, the upper part is mostly white.
    const file = path.join(dir, 'pallet.pdf');
    expect(darkShare(file, 440, 540)).toBeGreaterThan(0.2);
    expect(darkShare(file, 200, 260)).toBeLessThan(0.1);
  });

  it('prints the pallet label in ZPL with its heading and the SSCC barcode', () => {
    const zpl = palletLabelZpl(LABEL);
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl).toContain('^FH^FDPALLET 2 OF 5^FS');
    expect(zpl).toContain('^BCN,220,N,N,N^FD>;>800106141411234567897^FS');
    expect(zpl).toContain('^FH^FD(00) 106141411234567897^FS');
  });
});

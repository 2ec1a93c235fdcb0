import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PickListRow } from '../../src/server/modules/outbound/wave.repository.js';
import { renderPickList } from '../../src/server/modules/outbound/pick-list.pdf.js';
import { fontRuns, openPdf, pdfText } from '../../src/server/files/pdf-text.js';

/** Texts in the six languages come back out of a PDF as they went in (poppler's pdftotext reads the embedded fonts). */

const TEXTS = {
  en: 'Pick list for Warehouse North',
  zh: '仓库拣货单发货',
  zh_tw: '倉庫揀貨單發貨',
  th: 'ใบหยิบสินค้าคลัง',
  kor: '피킹 리스트 창고',
  jp: 'ピッキングリスト倉庫',
} as const;

function pdfToText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-text-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    fs.writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** pdftotext may put a break or spaces between runs: compare without white space. */
const squeeze = (text: string) => text.replace(/\s+/g, '');

describe('PDF text in six languages', () => {
  it('cuts a text into runs of one font each, Han characters in the font of the document language', async () => {
    expect((await fontRuns('SO-1 仓库 ピック 창고 คลัง', 'zh')).map((r) => r.face)).toEqual(['latin', 'sc', 'jp', 'kr', 'thai']);
    expect((await fontRuns('倉庫', 'jp'))[0].face).toBe('jp');
    expect((await fontRuns('倉庫', 'zh_tw'))[0].face).toBe('tc');
    expect((await fontRuns('倉庫', 'kor'))[0].face).toBe('kr');
    expect(await fontRuns('12 34', 'en')).toEqual([{ face: 'latin', text: '12 34' }]);
  });

  it('writes each text so that pdftotext reads it back', async () => {
    const out = await openPdf('zh', { size: 'A4', margin: 36 });
    for (const text of Object.values(TEXTS)) pdfText(out, text, { size: 14 });
    pdfText(out, 'Mixed: 仓库 ピッキング 창고 ใบหยิบ', { size: 14, bold: true });
    out.doc.end();
    const text = squeeze(pdfToText(await out.done));
    for (const sample of Object.values(TEXTS)) expect(text).toContain(squeeze(sample));
    expect(text).toContain(squeeze('Mixed: 仓库 ピッキング 창고 ใบหยิบ'));
  });

  it('prints the pick list with descriptions in every language instead of question marks', async () => {
    const rows = Object.entries(TEXTS).map(([lang, description], i) => ({
      zone: 'Z1',
      location_code: `A-0${i}`,
      lpn: '',
      sku_code: `SKU-${lang}`,
      sku_description: description.slice(0, 8),
      lot_no: null,
      expiry_date: null,
      qty: '2',
      uom: 'EA',
      order_no: 'SO1',
      line_no: i + 1,
    })) as unknown as PickListRow[];
    const text = squeeze(pdfToText(await renderPickList('W1', rows, 'tester', 'jp')));
    for (const row of rows) expect(text).toContain(squeeze(row.sku_description));
    expect(text).not.toContain('??');
  });
});

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Fontkit from 'fontkit';
import type PDFDocument from 'pdfkit';
import type { Language } from '../../common/languages.js';

/*
 * Text in every PDF the product makes, in any of its six languages. pdfkit's built-in fonts have
 * Latin letters only, so Chinese, Thai, Korean and Japanese came out as unreadable glyphs. The Noto
 * fonts shipped as npm packages cover them all (SIL Open Font License): Noto Sans for Latin, Greek
 * and Cyrillic, Noto Sans Thai, and the region-specific Noto Sans CJK subsets for simplified
 * Chinese (Hans), traditional Chinese (Hant), Japanese and Korean.
 *
 * A text is written in runs, each in the font of its script: Thai letters in Noto Sans Thai,
 * Hangul in the Korean font, kana in the Japanese font, Han characters (ideographs shared by
 * Chinese, Japanese and Korean) in the font of the document's language (Japanese shapes in a
 * Japanese document, traditional Chinese ones in a zh_tw document, simplified Chinese otherwise),
 * and everything else in Noto Sans, or a CJK font where Noto Sans has no glyph. Spaces, digits and
 * common punctuation stay in the run they stand in, so a line switches fonts only where the script
 * changes. pdfkit embeds only the glyphs a document uses.
 */

export type PdfFontFace = 'latin' | 'thai' | 'sc' | 'tc' | 'jp' | 'kr';
export type PdfWeight = 'regular' | 'bold';

const FONT_FILES: Record<PdfFontFace, { pkg: string; regular: string; bold: string }> = {
  latin: { pkg: '@embedpdf/fonts-latin', regular: 'fonts/NotoSans-Regular.ttf', bold: 'fonts/NotoSans-Bold.ttf' },
  thai: { pkg: '@expo-google-fonts/noto-sans-thai', regular: '400Regular/NotoSansThai_400Regular.ttf', bold: '700Bold/NotoSansThai_700Bold.ttf' },
  sc: { pkg: '@embedpdf/fonts-sc', regular: 'fonts/NotoSansHans-Regular.otf', bold: 'fonts/NotoSansHans-Bold.otf' },
  tc: { pkg: '@embedpdf/fonts-tc', regular: 'fonts/NotoSansHant-Regular.otf', bold: 'fonts/NotoSansHant-Bold.otf' },
  jp: { pkg: '@embedpdf/fonts-jp', regular: 'fonts/NotoSansJP-Regular.otf', bold: 'fonts/NotoSansJP-Bold.otf' },
  kr: { pkg: '@embedpdf/fonts-kr', regular: 'fonts/NotoSansKR-Regular.otf', bold: 'fonts/NotoSansKR-Bold.otf' },
};

const require = createRequire(import.meta.url);

/** The folder of an installed package: the nearest folder above its entry whose package.json names it. */
function packageFolder(pkg: string): string {
  let dir = path.dirname(require.resolve(pkg));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === pkg) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`font package ${pkg} is not installed`);
    dir = parent;
  }
}

/** Each font file is read once per process, when a text first needs it. */
const fontBytes = new Map<string, Buffer>();

export function fontFile(face: PdfFontFace, weight: PdfWeight): string {
  const spec = FONT_FILES[face];
  return path.join(packageFolder(spec.pkg), spec[weight]);
}

function fontData(face: PdfFontFace, weight: PdfWeight): Buffer {
  const key = `${face}-${weight}`;
  let bytes = fontBytes.get(key);
  if (!bytes) {
    bytes = fs.readFileSync(fontFile(face, weight));
    fontBytes.set(key, bytes);
  }
  return bytes;
}

/** The CJK font that draws Han characters in a document of this language. */
export function hanFace(language: Language): PdfFontFace {
  switch (language) {
    case 'jp':
      return 'jp';
    case 'kor':
      return 'kr';
    case 'zh_tw':
      return 'tc';
    default:
      return 'sc';
  }
}

const THAI = /[\u0E00-\u0E7F]/u;
const HANGUL = /[\u1100-\u11FF\u3130-\u318F\uA960-\uA97F\uAC00-\uD7FF]/u;
const KANA = /[\u3040-\u30FF\u31F0-\u31FF\uFF65-\uFF9F]/u;
const HAN = /[\u2E80-\u2FDF\u3000-\u303F\u3190-\u319F\u31C0-\u31EF\u3200-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF64\uFFA0-\uFFEF]|[\u{20000}-\u{3FFFF}]/u;
/** Characters every font has: they stay in the run they stand in. */
const NEUTRAL = /[\s0-9.,:;!?'"()[\]{}\-+/#&%*=_@<>|~^$]/u;
/** What Noto Sans draws: Latin, Greek, Cyrillic and their punctuation and symbols. */
const LATIN_FONT = /[\u0020-\u036F\u0370-\u03FF\u0400-\u052F\u1E00-\u1FFF\u2000-\u206F\u20A0-\u20CF\u2100-\u214F\u2190-\u21FF\u2200-\u22FF]/u;

/** The faces tried, in order, for a character the face of its script has no glyph for. */
function fallbacks(language: Language): PdfFontFace[] {
  return [...new Set<PdfFontFace>([hanFace(language), 'sc', 'tc', 'jp', 'kr', 'latin', 'thai'])];
}

interface PdfKit {
  PDFDocument: typeof PDFDocument;
  fontkit: typeof Fontkit;
}
let kit: PdfKit | undefined;
let loadingKit: Promise<PdfKit> | undefined;

/**
 * pdfkit and fontkit, loaded by the first PDF made or text measured rather than when the server
 * starts (they cost about half a second of processor time). A failed load is forgotten, so the
 * next document tries again.
 */
function loadPdfKit(): Promise<PdfKit> {
  loadingKit ??= Promise.all([import('pdfkit'), import('fontkit')]).then(
    ([pdfkit, fontkit]) => (kit = { PDFDocument: pdfkit.default, fontkit }),
    (error: unknown) => {
      loadingKit = undefined;
      throw error;
    },
  );
  return loadingKit;
}

/** The loaded libraries; every caller runs after `loadPdfKit` (a PdfOutput exists only once it has). */
function loadedKit(): PdfKit {
  if (!kit) throw new Error('pdfkit is not loaded yet');
  return kit;
}

const fonts = new Map<PdfFontFace, Fontkit.Font>();

/** Whether a face has a glyph for a character (the regular weight answers for both). */
function hasGlyph(face: PdfFontFace, char: string): boolean {
  let font = fonts.get(face);
  if (!font) {
    font = loadedKit().fontkit.create(fontData(face, 'regular'));
    fonts.set(face, font);
  }
  return font.hasGlyphForCodePoint(char.codePointAt(0)!);
}

function scriptFace(char: string, language: Language): PdfFontFace {
  if (THAI.test(char)) return 'thai';
  if (HANGUL.test(char)) return 'kr';
  if (KANA.test(char)) return 'jp';
  if (HAN.test(char)) return hanFace(language);
  if (LATIN_FONT.test(char)) return 'latin';
  return hanFace(language);
}

/** The face of a character's script, else the first face that has it (a simplified character in a Japanese document). */
function faceOf(char: string, language: Language): PdfFontFace {
  const face = scriptFace(char, language);
  if (hasGlyph(face, char)) return face;
  return fallbacks(language).find((f) => hasGlyph(f, char)) ?? face;
}

export interface TextRun {
  face: PdfFontFace;
  text: string;
}

/** A text cut into runs of one font each (see above). */
export async function fontRuns(text: string, language: Language): Promise<TextRun[]> {
  await loadPdfKit();
  return runsOf(text, language);
}

function runsOf(text: string, language: Language): TextRun[] {
  const runs: TextRun[] = [];
  let pendingNeutral = '';
  for (const char of text) {
    if (NEUTRAL.test(char)) {
      if (runs.length) runs[runs.length - 1].text += char;
      else pendingNeutral += char;
      continue;
    }
    const face = faceOf(char, language);
    const last = runs[runs.length - 1];
    if (last && last.face === face) last.text += char;
    else runs.push({ face, text: pendingNeutral + char });
    pendingNeutral = '';
  }
  if (pendingNeutral) runs.push({ face: 'latin', text: pendingNeutral });
  return runs;
}

/** A PDF document that writes the product's texts in the fonts above; `done` is its bytes once `doc.end()` was called. */
export interface PdfOutput {
  doc: PDFDocument;
  done: Promise<Buffer>;
  /** The document's language: it decides the shapes of Han characters. */
  language: Language;
}

type DocumentOptions = ConstructorParameters<typeof PDFDocument>[0];

export async function openPdf(language: Language, options: DocumentOptions = {}): Promise<PdfOutput> {
  const { PDFDocument: Document } = await loadPdfKit();
  const doc = new Document(options);
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done, language };
}

const registered = new WeakMap<PDFDocument, Set<string>>();

/** Selects a font face on a document, registering it with the document the first time. */
function selectFace(doc: PDFDocument, face: PdfFontFace, weight: PdfWeight): void {
  const name = `noto-${face}-${weight}`;
  let names = registered.get(doc);
  if (!names) {
    names = new Set();
    registered.set(doc, names);
  }
  if (!names.has(name)) {
    doc.registerFont(name, fontData(face, weight));
    names.add(name);
  }
  doc.font(name);
}

export interface PdfTextOptions {
  x?: number;
  y?: number;
  size?: number;
  bold?: boolean;
  width?: number;
  height?: number;
  lineBreak?: boolean;
  ellipsis?: boolean;
  align?: 'left' | 'center' | 'right';
}

/**
 * Writes a text at (x, y), or where the document stands, each run in the font of its script. The
 * layout options (width, height, line breaks, alignment) apply to the text as a whole.
 */
export function pdfText(out: PdfOutput, text: string, options: PdfTextOptions = {}): void {
  const { doc } = out;
  const runs = runsOf(text, out.language);
  if (!runs.length) runs.push({ face: 'latin', text: '' });
  const weight: PdfWeight = options.bold ? 'bold' : 'regular';
  const layout = { width: options.width, height: options.height, lineBreak: options.lineBreak, ellipsis: options.ellipsis, align: options.align };
  doc.fontSize(options.size ?? 10);
  runs.forEach((run, i) => {
    selectFace(doc, run.face, weight);
    const continued = i < runs.length - 1;
    if (i === 0 && options.x !== undefined) doc.text(run.text, options.x, options.y ?? doc.y, { ...layout, continued });
    else if (i === 0) doc.text(run.text, { ...layout, continued });
    else doc.text(run.text, { continued });
  });
}

/** The width of a text as `pdfText` writes it, at a font size. */
export function pdfTextWidth(out: PdfOutput, text: string, options: { size?: number; bold?: boolean } = {}): number {
  const { doc } = out;
  doc.fontSize(options.size ?? 10);
  let width = 0;
  for (const run of runsOf(text, out.language)) {
    selectFace(doc, run.face, options.bold ? 'bold' : 'regular');
    width += doc.widthOfString(run.text);
  }
  return width;
}

/** A column of a table printed with `pdfTableHeader` and `pdfTableRow`: its caption, its width in points and the text of its cell. */
export interface PdfColumn<T> {
  title: string;
  width: number;
  value: (row: T) => string;
}

/** The captions of a table's columns, in bold, from the left margin. */
export function pdfTableHeader<T>(out: PdfOutput, columns: ReadonlyArray<PdfColumn<T>>): void {
  let x = 36;
  const y = out.doc.y;
  for (const c of columns) {
    pdfText(out, c.title, { x, y, size: 8, bold: true, width: c.width - 4 });
    x += c.width;
  }
  out.doc.moveDown(0.3);
}

/**
 * One row of a table: past the foot of the page it starts a new page with the captions again; each
 * cell wraps within its column (two lines at most, then an ellipsis), and the next row starts below
 * the tallest cell.
 */
export function pdfTableRow<T>(out: PdfOutput, columns: ReadonlyArray<PdfColumn<T>>, row: T): void {
  const { doc } = out;
  if (doc.y > 780) {
    doc.addPage();
    pdfTableHeader(out, columns);
  }
  let x = 36;
  const y = doc.y;
  let bottom = y;
  for (const c of columns) {
    pdfText(out, c.value(row), { x, y, size: 8, width: c.width - 4, lineBreak: true, height: 24, ellipsis: true });
    bottom = Math.max(bottom, doc.y);
    x += c.width;
  }
  doc.x = 36;
  doc.y = bottom + 2;
}

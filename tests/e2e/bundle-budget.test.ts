/**
 * The sign-in route's JavaScript budget: at most 300 KB gzipped. Read from the built manifest
 * (vite.config.ts writes dist/.vite/manifest.json), so it runs in the browser project, after the
 * build. Counted: the entry chunk and every chunk it imports statically, transitively, plus what
 * the page waits for before it shows: the default language's texts of the sign-in page's areas
 * (src/app/i18n.ts; the other areas' texts follow after it shows) and antd's locale pack. Dynamic imports (the signed-in shell, the engine, the designer) are not counted.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FIRST_SCREEN_AREAS } from '../../src/common/locale-tree.js';

const DIST = join(import.meta.dirname, '../../dist');
const MANIFEST = join(DIST, '.vite/manifest.json');
const BUDGET_KB = 300;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

type Manifest = Record<string, ManifestChunk>;

/** The chunk keys `start` loads statically, itself included. */
function staticClosure(manifest: Manifest, start: string, into = new Set<string>()): Set<string> {
  if (into.has(start)) return into;
  const chunk = manifest[start];
  if (!chunk) throw new Error(`the manifest has no chunk ${start}`);
  into.add(start);
  for (const key of chunk.imports ?? []) staticClosure(manifest, key, into);
  return into;
}

function gzipKb(file: string): number {
  return gzipSync(readFileSync(join(DIST, file))).length / 1024;
}

describe.skipIf(!existsSync(MANIFEST))('sign-in route JavaScript budget', () => {
  it(`loads at most ${BUDGET_KB} KB of gzipped JavaScript`, () => {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
    const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
    expect(entries.map(([key]) => key)).toEqual(['index.html']);

    const loaded = staticClosure(manifest, 'index.html');
    const englishTexts = Object.keys(manifest).filter((key) => /(^|\/)locales\/[^/]+\/en\.json$/.test(key));
    const areaOf = (key: string) => /locales\/([^/]+)\/en\.json$/.exec(key)![1];
    const firstLanguage = [...englishTexts.filter((key) => FIRST_SCREEN_AREAS.includes(areaOf(key))), ...Object.keys(manifest).filter((key) => /antd\/locale\/en_US\.js$/.test(key))];
    // The sign-in page's English texts and antd's English pack: the page waits for them. The
    // other areas' texts come after it shows, in chunks of their own.
    expect(firstLanguage.length).toBe(FIRST_SCREEN_AREAS.length + 1);
    const laterTexts = new Set(englishTexts.filter((key) => !FIRST_SCREEN_AREAS.includes(areaOf(key))).map((key) => manifest[key].file));
    expect(laterTexts.size).toBeGreaterThan(0);
    for (const key of firstLanguage) staticClosure(manifest, key, loaded);

    const files = [...new Set([...loaded].map((key) => manifest[key].file))].filter((file) => file.endsWith('.js'));
    const sizes = files.map((file) => ({ file, kb: gzipKb(file) })).sort((a, b) => b.kb - a.kb);
    const total = sizes.reduce((sum, { kb }) => sum + kb, 0);
    console.log(
      `sign-in route: ${total.toFixed(1)} KB gzipped JavaScript in ${files.length} files (budget ${BUDGET_KB} KB)\n` +
        sizes.map(({ file, kb }) => `  ${kb.toFixed(1).padStart(6)} KB  ${file}`).join('\n'),
    );
    // The shell, the engine and the designer stay out of it.
    expect(files.some((file) => /PageShell|engine-services|designer-page|MonacoEditors|ag-grid|RecordForm/.test(file))).toBe(false);
    expect(files.filter((file) => laterTexts.has(file))).toEqual([]);
    expect(total).toBeLessThanOrEqual(BUDGET_KB);
  });
});

describe.runIf(!existsSync(MANIFEST))('sign-in route JavaScript budget without a build', () => {
  it.skip(`needs \`npm run build\` first: ${MANIFEST} is missing`, () => undefined);
});

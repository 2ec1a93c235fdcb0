import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(ROOT, 'src/server');

/**
 * The server's kernel (see src/server/modules/README.md, "The kernel and the areas"): the folders
 * and files below. It imports no area: the composition root (main.ts, start.ts) hands the module
 * list to everything that needs the areas.
 */
const KERNEL_FOLDERS = ['area-kit', 'db', 'definitions', 'events', 'files', 'http'];
const KERNEL_FILES = ['app', 'config', 'version'];
const COMPOSITION_ROOT = ['main', 'start'];

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every module specifier a file names: static imports, `export ... from`, `import type`, dynamic `import()`. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"`]([^'"`]+)['"`]/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]);
  return found;
}

function layerOf(file: string): 'kernel' | 'area' | 'root' | 'outside' {
  const relative = path.relative(SERVER, file).replace(/\.(js|ts|tsx)$/, '').split(path.sep);
  if (relative[0] === '..') return 'outside';
  if (relative[0] === 'modules') return 'area';
  if (relative.length === 1 && COMPOSITION_ROOT.includes(relative[0])) return 'root';
  if (relative.length === 1 ? KERNEL_FILES.includes(relative[0]) : KERNEL_FOLDERS.includes(relative[0])) return 'kernel';
  throw new Error(`src/server/${relative.join('/')} is neither kernel, area nor composition root: add it to one of them`);
}

function arrows(): { from: string; to: string }[] {
  const found: { from: string; to: string }[] = [];
  for (const file of walk(SERVER)) {
    if (layerOf(file) !== 'kernel') continue;
    for (const specifier of specifiers(fs.readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (layerOf(target) === 'area' || layerOf(target) === 'root') found.push({ from: path.relative(ROOT, file), to: path.relative(ROOT, target) });
    }
  }
  return found;
}

describe('the server kernel imports no area', () => {
  it('finds every kind of import', () => {
    const source = [
      "import { a } from '../modules/a.js';",
      "import type {\n  B,\n} from '../modules/b.js';",
      "export * from '../modules/c.js';",
      "import '../modules/d.js';",
      "const e = await import('../modules/e.js');",
    ].join('\n');
    expect(specifiers(source)).toEqual(expect.arrayContaining(['../modules/a.js', '../modules/b.js', '../modules/c.js', '../modules/d.js', '../modules/e.js']));
  });

  it('has no arrow from a kernel file to an area or the composition root', () => {
    expect(arrows()).toEqual([]);
  });
});

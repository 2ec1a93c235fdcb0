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
const KERNEL_FOLDERS = ['area-kit', 'db', 'definitions', 'events', 'files', 'http', 'install'];
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

/**
 * Folders of modules/ that are one area between them (as in scripts/eslint/import-boundaries.mjs):
 * the identity area (access, auth, user, role).
 */
const AREA_GROUPS: Record<string, string> = { access: 'identity', auth: 'identity', user: 'identity', role: 'identity', identity: 'identity' };

/**
 * What a file of src/server counts as in the folder graph: its top folder (`db`, `http`, ...), its
 * area (`modules/inbound`, `modules/identity`), a shared file of modules/ (`modules/index`) or a
 * file at the root (`app`, `start`); undefined outside src/server.
 */
function folderOf(file: string): string | undefined {
  const parts = path.relative(SERVER, file).replace(/\.(js|ts|tsx)$/, '').split(path.sep);
  if (parts[0] === '..') return undefined;
  if (parts[0] !== 'modules' || parts.length === 1) return parts[0];
  if (parts.length === 2) return `modules/${parts[1]}`;
  return `modules/${AREA_GROUPS[parts[1]] ?? parts[1]}`;
}

/** The area a file belongs to, or undefined for a file that is in no area's folder. */
function areaOf(file: string): string | undefined {
  const parts = path.relative(SERVER, file).replace(/\.(js|ts|tsx)$/, '').split(path.sep);
  if (parts[0] !== 'modules' || parts.length < 3) return undefined;
  return AREA_GROUPS[parts[1]] ?? parts[1];
}

interface Arrow {
  from: string;
  to: string;
  /** The importing file, relative to the repository. */
  file: string;
  specifier: string;
}

/** Every relative import inside src/server, as an arrow from the file's folder to the target's. */
function serverArrows(): Arrow[] {
  const found: Arrow[] = [];
  for (const file of walk(SERVER)) {
    for (const specifier of specifiers(fs.readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== undefined && to !== undefined) found.push({ from, to, file: path.relative(ROOT, file), specifier });
    }
  }
  return found;
}

/** The circles of a graph: its strongly connected parts of more than one node (Tarjan), each sorted. */
export function circles(arrows: Pick<Arrow, 'from' | 'to'>[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of arrows) {
    if (from === to) continue;
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)!.add(to);
  }
  const nodes = new Set(arrows.flatMap((a) => [a.from, a.to]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1) found.push(part.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** A readable account of a circle: each arrow inside it with the files that make it. */
function describeCircle(circle: string[], arrows: Arrow[]): string {
  const inside = arrows.filter((a) => a.from !== a.to && circle.includes(a.from) && circle.includes(a.to));
  const byArrow = new Map<string, Set<string>>();
  for (const a of inside) {
    const key = `${a.from} -> ${a.to}`;
    if (!byArrow.has(key)) byArrow.set(key, new Set());
    byArrow.get(key)!.add(a.file);
  }
  return [`circle ${circle.join(', ')}:`, ...[...byArrow].map(([key, files]) => `  ${key} (${[...files].join(', ')})`)].join('\n');
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

describe('the folders of src/server', () => {
  it('finds a circle, and none where there is none', () => {
    expect(circles([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }, { from: 'c', to: 'd' }])).toEqual([['a', 'b', 'c']]);
    expect(circles([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'a', to: 'c' }, { from: 'a', to: 'a' }])).toEqual([]);
    expect(circles([{ from: 'x', to: 'y' }, { from: 'y', to: 'x' }, { from: 'p', to: 'q' }, { from: 'q', to: 'p' }])).toEqual([
      ['p', 'q'],
      ['x', 'y'],
    ]);
  });

  it('counts the folders of one area as that area', () => {
    expect(folderOf(path.join(SERVER, 'modules/auth/auth.service.ts'))).toBe('modules/identity');
    expect(folderOf(path.join(SERVER, 'modules/identity/user/user.service.ts'))).toBe('modules/identity');
    expect(folderOf(path.join(SERVER, 'modules/outbox/outbox.service.ts'))).toBe('modules/outbox');
    expect(folderOf(path.join(SERVER, 'modules/inbound/migrations/0110_inbound.ts'))).toBe('modules/inbound');
    expect(folderOf(path.join(SERVER, 'modules/index.ts'))).toBe('modules/index');
    expect(folderOf(path.join(SERVER, 'install/seed.ts'))).toBe('install');
    expect(folderOf(path.join(SERVER, 'start.ts'))).toBe('start');
  });

  it('have no import circle between them (areas and the kernel folders alike)', () => {
    const arrows = serverArrows();
    expect(circles(arrows).map((circle) => describeCircle(circle, arrows)).join('\n')).toBe('');
  });

  it('lets an area import another area only through its public entry modules/<area>/index.ts', () => {
    const crossings: string[] = [];
    for (const file of walk(SERVER)) {
      const from = areaOf(file);
      if (from === undefined) continue;
      for (const specifier of specifiers(fs.readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), specifier);
        const to = areaOf(target);
        if (to === undefined || to === from) continue;
        const parts = path.relative(path.join(SERVER, 'modules'), target).replace(/\.(js|ts|tsx)$/, '').split(path.sep);
        if (parts.length === 2 && parts[1] === 'index') continue;
        crossings.push(`${path.relative(ROOT, file)} imports '${specifier}' (the ${to} area) past src/server/modules/${to}/index.ts`);
      }
    }
    expect(crossings).toEqual([]);
  });
});

import path from 'node:path';

/**
 * The import directions of the repository as one lint rule that looks at where an import lands, not
 * at how it is written: a relative path is resolved against the importing file (node:path), so
 * `../../../src/server/x` from a screen is refused as surely as `../../server/x`, and a dynamic
 * `import('...')` or an `export ... from` is checked like a static import. Besides the folder
 * boundaries below, an area of src/server/modules imports another area only through that area's
 * `index.ts` (crossedAreaBoundary). Package imports (react,
 * kysely, node:*) stay with `no-restricted-imports` in eslint.config.js.
 *
 * Paths below are relative to the repository root, without the file extension.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

/** The server's kernel: what every area is built on. It imports no area (src/server/modules/README.md). */
const KERNEL = ['src/server/area-kit/', 'src/server/db/', 'src/server/definitions/', 'src/server/events/', 'src/server/files/', 'src/server/http/', 'src/server/install/', 'src/server/app', 'src/server/config', 'src/server/version'];
/** Where the areas live, and the composition root that hands their list to the kernel. */
const AREAS_AND_ROOT = ['src/server/modules/', 'src/server/main', 'src/server/start'];

const ENGINE_APART = { to: ['src/', 'definitions/', 'locales/'], message: 'engine/ must not import src/ (the designer included) or the shipped data' };

/** The browser designer, the hand-written UI of the designer area. */
const DESIGNER = 'src/screens/designer/';

/**
 * One entry per folder: an import from a file under `from` (and under none of `exceptFrom`) whose
 * target lies under one of `to` (and is none of `except`) is refused with `message`. The first
 * matching entry speaks.
 */
export const BOUNDARIES = [
  { from: ['engine/schema/'], ...ENGINE_APART },
  { from: ['engine/schema/'], to: ['engine/client/', 'engine/server/', 'engine/core/'], message: 'engine/schema imports nothing of ours but itself' },
  { from: ['engine/client/'], ...ENGINE_APART },
  { from: ['engine/client/'], to: ['engine/server/'], message: 'engine/client and engine/server do not import each other' },
  { from: ['engine/server/'], ...ENGINE_APART },
  { from: ['engine/server/'], to: ['engine/client/'], message: 'engine/client and engine/server do not import each other' },
  { from: ['engine/core/'], to: ['engine/client/'], message: 'engine/core must not import engine/client' },
  { from: ['engine/core/'], to: ['engine/server/'], message: 'engine/core must not import engine/server' },
  { from: ['engine/core/'], to: ['src/'], message: 'engine/core must not import src/ (the designer included)' },
  {
    from: [DESIGNER],
    to: ['src/'],
    except: [DESIGNER, 'src/common/', 'src/app/public', 'src/app/public-widgets'],
    message: 'the designer (src/screens/designer) reaches the app only through src/app/public (and shared code in src/common), never src/server nor another screen',
  },
  {
    from: [DESIGNER],
    to: ['engine/'],
    except: ['engine/client/index', 'engine/schema/index', 'engine/schema/api'],
    message: 'the designer imports the engine through its public entries: engine/client/index, engine/schema/index, engine/schema/api',
  },
  { from: ['src/common/'], to: [''], except: ['src/common/'], message: 'src/common imports nothing else of ours' },
  { from: ['src/app/'], to: ['src/server/'], message: 'src/app never imports src/server' },
  { from: ['src/app/'], to: [DESIGNER], except: [`${DESIGNER}index`], message: 'src/app opens the designer only through src/screens/designer/index' },
  { from: ['src/screens/'], to: ['src/app/'], except: ['src/app/public', 'src/app/public-widgets'], message: 'screens reach the app only through src/app/public (and its widgets, src/app/public-widgets)' },
  { from: ['src/screens/'], to: ['src/server/'], message: 'src/screens never imports src/server' },
  { from: ['src/screens/'], exceptFrom: [DESIGNER], to: [DESIGNER], message: 'only the shell opens the designer' },
  { from: ['src/server/'], to: [DESIGNER], message: 'src/server never imports the designer' },
  { from: ['src/server/'], to: ['src/app/', 'src/screens/'], message: 'src/server never imports src/app or src/screens' },
  { from: ['src/server/'], to: ['engine/client/'], message: "the server never imports the engine's renderer" },
  {
    from: KERNEL,
    to: AREAS_AND_ROOT,
    message: 'the server kernel imports no area: the composition root (start.ts) hands it the module list, and areas contribute through their module manifest',
  },
];

const MODULES = 'src/server/modules/';

/**
 * Folders of `modules/` that form one area between them: the identity area (sign-in, sessions,
 * rights, users and roles). Imports among the folders of one area are free; another area reaches
 * them through the area's entry.
 */
const AREA_GROUPS = { access: 'identity', auth: 'identity', user: 'identity', role: 'identity', identity: 'identity' };

/** The area a repository path (without extension) belongs to, or undefined outside an area's folder. */
export function areaOf(file) {
  if (!file.startsWith(MODULES)) return undefined;
  const parts = file.slice(MODULES.length).split('/');
  // modules/index.ts, modules/area.ts, modules/area-registry.ts: shared by all areas, of none.
  if (parts.length < 2) return undefined;
  return AREA_GROUPS[parts[0]] ?? parts[0];
}

/**
 * An area imports another area only through that area's public entry, `modules/<area>/index.ts`
 * (src/server/modules/README.md); within one area every file is free.
 */
export function crossedAreaBoundary(from, target) {
  const fromArea = areaOf(from);
  const targetArea = areaOf(target);
  if (fromArea === undefined || targetArea === undefined || fromArea === targetArea) return undefined;
  const parts = target.slice(MODULES.length).split('/');
  if (parts.length === 2 && parts[1] === 'index') return undefined;
  return `the ${fromArea} area imports the ${targetArea} area only through its public entry src/server/modules/${targetArea}/index.ts (export what it needs there)`;
}

/** `prefix` ends with `/` for a folder; otherwise it names one file (or is '' for everything). */
function under(file, prefixes) {
  return prefixes.some((prefix) => (prefix.endsWith('/') || prefix === '' ? file.startsWith(prefix) : file === prefix));
}

/** The repository path of what a relative specifier names, without extension; undefined for a package. */
export function resolveTarget(fromFile, specifier) {
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return undefined;
  const absolute = path.resolve(path.dirname(fromFile), specifier);
  const relative = path.relative(ROOT, absolute).split(path.sep).join('/');
  if (relative.startsWith('..')) return undefined;
  return relative.replace(/\.(js|jsx|ts|tsx|mjs|cjs|json)$/, '');
}

/** The message of the boundary an import from `fromFile` of `specifier` crosses, if any. */
export function crossedBoundary(fromFile, specifier) {
  const from = path.relative(ROOT, fromFile).split(path.sep).join('/').replace(/\.(js|jsx|ts|tsx|mjs|cjs)$/, '');
  const target = resolveTarget(fromFile, specifier);
  if (target === undefined) return undefined;
  for (const boundary of BOUNDARIES) {
    if (!under(from, boundary.from) || under(from, boundary.exceptFrom ?? []) || !under(target, boundary.to) || under(target, boundary.except ?? [])) continue;
    return boundary.message;
  }
  return crossedAreaBoundary(from, target);
}

/** The specifier text of a string literal or of a template literal without substitutions. */
function literalText(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

export const importBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'refuses imports (static, export-from and dynamic) that cross a boundary of the repository, by resolved path' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const check = (node, source) => {
      const specifier = literalText(source);
      if (specifier === undefined) return;
      const message = crossedBoundary(file, specifier);
      if (message) context.report({ node: source, message: `'${specifier}': ${message}` });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

export default { rules: { 'import-boundaries': importBoundaries } };

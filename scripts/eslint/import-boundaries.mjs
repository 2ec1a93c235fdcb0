import path from 'node:path';

/**
 * The import directions of the repository as one lint rule that looks at where an import lands, not
 * at how it is written: a relative path is resolved against the importing file (node:path), so
 * `../../../src/server/x` from a screen is refused as surely as `../../server/x`, and a dynamic
 * `import('...')` or an `export ... from` is checked like a static import. Package imports (react,
 * kysely, node:*) stay with `no-restricted-imports` in eslint.config.js.
 *
 * Paths below are relative to the repository root, without the file extension.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

/** The server's kernel: what every area is built on. It imports no area (src/server/modules/README.md). */
const KERNEL = ['src/server/area-kit/', 'src/server/db/', 'src/server/definitions/', 'src/server/events/', 'src/server/files/', 'src/server/http/', 'src/server/app', 'src/server/config', 'src/server/version'];
/** Where the areas live, and the composition root that hands their list to the kernel. */
const AREAS_AND_ROOT = ['src/server/modules/', 'src/server/main', 'src/server/start'];

const ENGINE_APART = { to: ['src/', 'designer/', 'definitions/', 'locales/'], message: 'engine/ must not import src/, designer/ or the shipped data' };

/**
 * One entry per folder: an import from a file under `from` whose target lies under one of `to`
 * (and is none of `except`) is refused with `message`. The first matching entry speaks.
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
  { from: ['engine/core/'], to: ['src/', 'designer/'], message: 'engine/core must not import src/ or designer/' },
  {
    from: ['designer/'],
    to: ['src/'],
    except: ['src/common/', 'src/app/public'],
    message: 'designer/ reaches the app only through src/app/public (and shared code in src/common), never src/server',
  },
  {
    from: ['designer/'],
    to: ['engine/'],
    except: ['engine/client/index', 'engine/schema/index', 'engine/schema/api'],
    message: 'designer/ imports the engine through its public entries: engine/client/index, engine/schema/index, engine/schema/api',
  },
  { from: ['src/common/'], to: [''], except: ['src/common/'], message: 'src/common imports nothing else of ours' },
  { from: ['src/app/'], to: ['src/server/'], message: 'src/app never imports src/server' },
  { from: ['src/app/'], to: ['designer/'], except: ['designer/index'], message: 'src/app opens the designer only through designer/index' },
  { from: ['src/screens/'], to: ['src/app/'], except: ['src/app/public'], message: 'screens reach the app only through src/app/public' },
  { from: ['src/screens/'], to: ['src/server/'], message: 'src/screens never imports src/server' },
  { from: ['src/screens/'], to: ['designer/'], message: 'only the shell opens the designer' },
  { from: ['src/server/'], to: ['src/app/', 'src/screens/'], message: 'src/server never imports src/app or src/screens' },
  { from: ['src/server/'], to: ['designer/'], message: 'src/server never imports the designer' },
  { from: ['src/server/'], to: ['engine/client/'], message: "the server never imports the engine's renderer" },
  {
    from: KERNEL,
    to: AREAS_AND_ROOT,
    message: 'the server kernel imports no area: the composition root (start.ts) hands it the module list, and areas contribute through their module manifest',
  },
];

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
    if (!under(from, boundary.from) || !under(target, boundary.to) || under(target, boundary.except ?? [])) continue;
    return boundary.message;
  }
  return undefined;
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

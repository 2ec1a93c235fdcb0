import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The server paths the browser code can call, read from its source. The client names a path in
 * many ways: a literal handed to `api()`, a template string over a constant of the same or another
 * file (`${BASE}/getLog`), a concatenation, a branch of a conditional, a table of paths, a raw
 * `fetch('/api/...')`. Every string-building expression that starts with a literal `/` is turned
 * into a pattern of literal text and holes; a hole is a value the source does not fix (an id, a
 * hash) and stands only for a route parameter, never for a whole path or a fixed segment, so that
 * a generic wrapper (`api(path)`) counts for no route.
 */

/** One way the client builds a URL: literal text and holes, with the file it was found in. */
export interface ClientPath {
  parts: Array<string | typeof HOLE>;
  file: string;
}

export const HOLE = Symbol('hole');

type Pattern = Array<string | typeof HOLE>;

/** At most this many alternatives per expression (a chain of conditionals multiplies them). */
const MAX_ALTERNATIVES = 32;

const SOURCE_EXTENSIONS = /\.(ts|tsx|mts|js|jsx|mjs)$/;

function filesUnder(root: string, accept: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, accept));
    else if (accept(entry.name)) out.push(path);
  }
  return out;
}

interface ParsedFile {
  path: string;
  source: ts.SourceFile;
  /** Imported names: local name -> [resolved file, exported name]. */
  imports: Map<string, [string, string]>;
}

function parseFile(path: string): ParsedFile {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const imports = new Map<string, [string, string]>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || !statement.moduleSpecifier.text.startsWith('.')) continue;
    const target = resolve(dirname(path), statement.moduleSpecifier.text).replace(/\.js$/, '');
    const bindings = statement.importClause?.namedBindings;
    for (const element of bindings && ts.isNamedImports(bindings) ? bindings.elements : []) imports.set(element.name.text, [target, (element.propertyName ?? element.name).text]);
  }
  return { path, source, imports };
}

/** What a name is in a list of statements: a `const` with its value, another declaration (a value unknown here), or nothing. */
function declaredIn(statements: ts.NodeArray<ts.Statement>, name: string): ts.Expression | 'other' | undefined {
  for (const statement of statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || declaration.name.text !== name) continue;
        const constant = statement.declarationList.flags & ts.NodeFlags.Const;
        return constant && declaration.initializer ? declaration.initializer : 'other';
      }
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name?.text === name) {
      return 'other';
    }
  }
  return undefined;
}

/** Whether a parameter (possibly destructured) binds the name. */
function bindsName(binding: ts.BindingName, name: string): boolean {
  if (ts.isIdentifier(binding)) return binding.text === name;
  return binding.elements.some((element) => !ts.isOmittedExpression(element) && bindsName(element.name, name));
}

class PathReader {
  private readonly byModule = new Map<string, ParsedFile>();

  constructor(private readonly files: ParsedFile[]) {
    for (const file of files) this.byModule.set(file.path.replace(SOURCE_EXTENSIONS, ''), file);
  }

  /** The file a module specifier resolved to (`./api` is `./api.ts`, `./api.tsx` or `./api/index.ts`). */
  private moduleFile(target: string): ParsedFile | undefined {
    return this.byModule.get(target) ?? this.byModule.get(join(target, 'index'));
  }

  /**
   * The constant a name stands for where it is used, looked up as the language does: the
   * innermost block or function that declares it (a parameter or a `let` is a value the source
   * does not fix), then the file's own top level, then a constant imported from another scanned file.
   */
  private constant(file: ParsedFile, name: string, at: ts.Node, seen: Set<string>): [ParsedFile, ts.Expression, Set<string>] | undefined {
    for (let scope: ts.Node | undefined = at.parent; scope; scope = scope.parent) {
      if (ts.isFunctionLike(scope) && scope.parameters.some((p) => bindsName(p.name, name))) return undefined;
      if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope)) {
        const found = declaredIn(scope.statements, name);
        if (found === 'other') return undefined;
        if (found) {
          const key = `${file.path}#${found.pos}`;
          return seen.has(key) ? undefined : [file, found, new Set(seen).add(key)];
        }
      }
    }
    return this.exported(file, name, seen);
  }

  /** A top-level constant of a file, or one it imports in turn. */
  private exported(file: ParsedFile, name: string, seen: Set<string>): [ParsedFile, ts.Expression, Set<string>] | undefined {
    const key = `${file.path}#${name}`;
    if (seen.has(key)) return undefined;
    const own = declaredIn(file.source.statements, name);
    if (own === 'other') return undefined;
    if (own) return [file, own, new Set(seen).add(key)];
    const imported = file.imports.get(name);
    const from = imported && this.moduleFile(imported[0]);
    return from ? this.exported(from, imported[1], new Set(seen).add(key)) : undefined;
  }

  /** Every text the expression can build, as literal text and holes; a value the source does not fix is one hole. */
  patterns(file: ParsedFile, node: ts.Expression, seen: Set<string> = new Set()): Pattern[] {
    const concat = (left: Pattern[], right: Pattern[]): Pattern[] => left.flatMap((l) => right.map((r) => [...l, ...r])).slice(0, MAX_ALTERNATIVES);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [[node.text]];
    if (ts.isTemplateExpression(node)) {
      let out: Pattern[] = [[node.head.text]];
      for (const span of node.templateSpans) out = concat(concat(out, this.patterns(file, span.expression, seen)), [[span.literal.text]]);
      return out;
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      return concat(this.patterns(file, node.left, seen), this.patterns(file, node.right, seen));
    }
    if (ts.isConditionalExpression(node)) return [...this.patterns(file, node.whenTrue, seen), ...this.patterns(file, node.whenFalse, seen)].slice(0, MAX_ALTERNATIVES);
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node)) {
      return this.patterns(file, node.expression, seen);
    }
    if (ts.isIdentifier(node)) {
      const found = this.constant(file, node.text, node, seen);
      if (found) return this.patterns(found[0], found[1], found[2]);
    }
    return [[HOLE]];
  }

  /** Every URL-building expression of every file (the outermost one of a concatenation or template). */
  all(): ClientPath[] {
    const out: ClientPath[] = [];
    for (const file of this.files) {
      const visit = (node: ts.Node): void => {
        const text = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
        const sum = ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken;
        const inner = ts.isBinaryExpression(node.parent) && node.parent.operatorToken.kind === ts.SyntaxKind.PlusToken;
        if ((text || sum) && !inner && !ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent)) {
          for (const parts of this.patterns(file, node)) out.push({ parts, file: file.path });
        }
        ts.forEachChild(node, visit);
      };
      ts.forEachChild(file.source, visit);
    }
    return out;
  }
}

/** The strings of a JSON document (page definitions: a data source or an action could name a path). */
function jsonStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(jsonStrings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(jsonStrings);
  return [];
}

/**
 * A client pattern as a path under /api: it must start with literal text `/` (the client's `api()`
 * adds `/api`; a raw `fetch` names `/api/...` itself); the query string and fragment are cut off.
 * Answers undefined for anything else (a hash route of the shell starts with `#`, plain text has no slash).
 */
export function apiPathPattern(pattern: Pattern): Pattern | undefined {
  // Adjacent literal texts joined, empty ones dropped: `${BASE}/getLog` starts with BASE's text.
  const parts: Pattern = [];
  for (const part of pattern) {
    const last = parts[parts.length - 1];
    if (part === '') continue;
    if (typeof part === 'string' && typeof last === 'string') parts[parts.length - 1] = last + part;
    else parts.push(part);
  }
  // The query string and fragment are cut off.
  const out: Pattern = [];
  for (const part of parts) {
    const cut = part === HOLE ? -1 : part.search(/[?#]/);
    if (cut < 0) {
      out.push(part);
      continue;
    }
    if (cut > 0) out.push((part as string).slice(0, cut));
    break;
  }
  const first = out[0];
  if (typeof first !== 'string' || !first.startsWith('/')) return undefined;
  // `/api${path}` is a generic wrapper, not a path; `/api/x` is a raw call of `/x`.
  if (first === '/api') return undefined;
  const head = first.startsWith('/api/') ? first.slice('/api'.length) : first;
  if (!/^\/[A-Za-z]/.test(head)) return undefined;
  return [head, ...out.slice(1)];
}

/**
 * Whether a client pattern reaches a route path (without `/api`). Segments are compared one by one:
 * a fixed segment of the route needs the same literal text; a parameter (`:hash`) takes a hole or
 * any literal; the route's closing `*` takes the rest. A literal segment reaches a parameter route
 * only when no route has that fixed path (the server's router prefers the fixed one).
 */
export function reaches(pattern: Pattern, routePath: string): boolean {
  const segments: Pattern[] = [[]];
  for (const part of pattern) {
    if (part === HOLE) {
      segments[segments.length - 1].push(HOLE);
      continue;
    }
    const pieces = part.split('/');
    pieces.forEach((piece, i) => {
      if (i > 0) segments.push([]);
      if (piece) segments[segments.length - 1].push(piece);
    });
  }
  const routeSegments = routePath.split('/');
  if (segments.length !== routeSegments.length && !routePath.endsWith('/*')) return false;
  for (let i = 0; i < routeSegments.length; i++) {
    const want = routeSegments[i];
    const have = segments[i];
    if (!have) return false;
    if (want === '') {
      if (have.length !== 0) return false;
      continue;
    }
    if (want === '*' && i === routeSegments.length - 1) return have.length > 0;
    if (want.startsWith(':')) {
      if (have.length === 0) return false;
      continue;
    }
    if (have.length !== 1 || have[0] !== want) return false;
  }
  return segments.length === routeSegments.length;
}

/** The pattern as it reads in the source, holes as `${…}`. */
export function patternText(pattern: Pattern): string {
  return pattern.map((p) => (p === HOLE ? '${…}' : p)).join('');
}

/** Every API path pattern of the browser code under the given roots and of the JSON documents under the others. */
export function clientApiPaths(repositoryRoot: string, sourceRoots: string[], jsonRoots: string[]): ClientPath[] {
  const files = sourceRoots.flatMap((root) => filesUnder(join(repositoryRoot, root), (name) => SOURCE_EXTENSIONS.test(name) && !name.endsWith('.d.ts'))).map(parseFile);
  const out: ClientPath[] = [];
  for (const found of new PathReader(files).all()) {
    const parts = apiPathPattern(found.parts);
    if (parts) out.push({ parts, file: relative(repositoryRoot, found.file) });
  }
  for (const root of jsonRoots) {
    for (const path of filesUnder(join(repositoryRoot, root), (name) => name.endsWith('.json'))) {
      for (const text of jsonStrings(JSON.parse(readFileSync(path, 'utf8')))) {
        const parts = apiPathPattern([text]);
        if (parts) out.push({ parts, file: relative(repositoryRoot, path) });
      }
    }
  }
  return out;
}

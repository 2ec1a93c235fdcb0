/**
 * Lexical reading of configurator SQL, shared by the
 * designer (parameters listed beside the editor) and the server (the parse guard on save). It
 * understands just enough PostgreSQL to skip string literals, quoted identifiers, dollar quotes and
 * comments, so that `:name` inside a literal or a `::type` cast is never taken for a parameter.
 */

/** One piece of SQL text: code outside literals and comments, or a `:name` parameter. */
export type SqlToken = { kind: 'code'; text: string } | { kind: 'parameter'; name: string } | { kind: 'literal'; text: string };

const PARAMETER = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Splits SQL into code, literals/comments and `:named` parameters. */
export function tokenizeSql(text: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let code = '';
  const flush = () => {
    if (code) tokens.push({ kind: 'code', text: code });
    code = '';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "'" || c === '"') {
      // A doubled quote inside is an escaped quote; E'..\'..' strings are handled by the backslash.
      const escapes = c === "'" && i > 0 && /[eE]/.test(text[i - 1]) && !/[A-Za-z0-9_]/.test(text[i - 2] ?? ' ');
      let j = i + 1;
      while (j < text.length) {
        if (escapes && text[j] === '\\') j += 2;
        else if (text[j] === c && text[j + 1] === c) j += 2;
        else if (text[j] === c) break;
        else j += 1;
      }
      flush();
      tokens.push({ kind: 'literal', text: text.slice(i, j + 1) });
      i = j + 1;
    } else if (c === '-' && next === '-') {
      const end = text.indexOf('\n', i);
      const j = end < 0 ? text.length : end;
      flush();
      tokens.push({ kind: 'literal', text: text.slice(i, j) });
      i = j;
    } else if (c === '/' && next === '*') {
      // PostgreSQL block comments nest.
      let depth = 1;
      let j = i + 2;
      while (j < text.length && depth > 0) {
        if (text[j] === '/' && text[j + 1] === '*') {
          depth += 1;
          j += 2;
        } else if (text[j] === '*' && text[j + 1] === '/') {
          depth -= 1;
          j += 2;
        } else {
          j += 1;
        }
      }
      flush();
      tokens.push({ kind: 'literal', text: text.slice(i, j) });
      i = j;
    } else if (c === '$' && !/[A-Za-z0-9_]/.test(text[i - 1] ?? ' ')) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i));
      if (tag) {
        const end = text.indexOf(tag[0], i + tag[0].length);
        const j = end < 0 ? text.length : end + tag[0].length;
        flush();
        tokens.push({ kind: 'literal', text: text.slice(i, j) });
        i = j;
      } else {
        code += c;
        i += 1;
      }
    } else if (c === ':' && next === ':') {
      code += '::';
      i += 2;
    } else if (c === ':' && PARAMETER.test(text.slice(i + 1))) {
      const name = PARAMETER.exec(text.slice(i + 1))![0];
      flush();
      tokens.push({ kind: 'parameter', name });
      i += 1 + name.length;
    } else {
      code += c;
      i += 1;
    }
  }
  flush();
  return tokens;
}

/** The `:named` parameters of a statement, each once, in order of first use. */
export function sqlParameters(text: string): string[] {
  const names: string[] = [];
  for (const token of tokenizeSql(text)) if (token.kind === 'parameter' && !names.includes(token.name)) names.push(token.name);
  return names;
}

/** The code outside literals and comments, lower-cased, with parameters as `?` (for keyword checks). */
export function sqlCodeOnly(text: string): string {
  return tokenizeSql(text)
    .map((t) => (t.kind === 'code' ? t.text : t.kind === 'parameter' ? '?' : ' '))
    .join('')
    .toLowerCase();
}

export type SqlShapeProblem = 'empty' | 'multipleStatements' | 'notARead' | 'notAWrite' | 'unterminated';

/**
 * The parse guard's first half: one statement, and of the expected kind. A read starts with SELECT
 * or WITH (data-modifying CTEs are found in the plan by the server); a write (a `sql:` behaviour)
 * starts with UPDATE, INSERT, DELETE or WITH.
 */
export function checkSqlShape(text: string, mode: 'read' | 'write'): SqlShapeProblem | undefined {
  const tokens = tokenizeSql(text);
  const last = tokens[tokens.length - 1];
  if (last?.kind === 'literal' && !isClosedLiteral(last.text)) return 'unterminated';
  const code = sqlCodeOnly(text).trim().replace(/;\s*$/, '');
  if (!code) return 'empty';
  if (code.includes(';')) return 'multipleStatements';
  const first = /^\(*\s*([a-z]+)/.exec(code)?.[1] ?? '';
  if (mode === 'read') return first === 'select' || first === 'with' ? undefined : 'notARead';
  return ['update', 'insert', 'delete', 'with'].includes(first) ? undefined : 'notAWrite';
}

function isClosedLiteral(text: string): boolean {
  if (text.startsWith('--')) return true;
  if (text.startsWith('/*')) return text.endsWith('*/') && text.length >= 4;
  if (text.startsWith('$')) {
    const tag = /^\$[A-Za-z0-9_]*\$/.exec(text)?.[0] ?? '$$';
    return text.length >= tag.length * 2 && text.endsWith(tag);
  }
  const quote = text[0];
  return text.length >= 2 && text.endsWith(quote);
}

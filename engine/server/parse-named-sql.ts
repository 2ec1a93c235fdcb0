/** A configurator SQL split into literal text and `:named` parameters. */
export interface ParsedSql {
  /** Literal pieces; `parts.length === params.length + 1`. */
  parts: string[];
  /** Parameter names in order of appearance (a name may repeat). */
  params: string[];
}

export type ParseSqlResult = { ok: true; sql: ParsedSql } | { ok: false; message: string };

/**
 * Splits configurator SQL into text and `:name` parameters so that every value is bound, never
 * spliced. Understands quoted strings, quoted identifiers, dollar quoting,
 * comments and `::` casts, and refuses more than one statement: a `;` may only end the text.
 */
export function parseNamedSql(text: string): ParseSqlResult {
  const parts: string[] = [];
  const params: string[] = [];
  let current = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch === "'" || ch === '"') {
      const end = closingQuote(text, i, ch);
      if (end < 0) return { ok: false, message: `unterminated ${ch === "'" ? 'string' : 'quoted identifier'}` };
      current += text.slice(i, end + 1);
      i = end + 1;
    } else if (ch === '-' && next === '-') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      current += text.slice(i, stop);
      i = stop;
    } else if (ch === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return { ok: false, message: 'unterminated comment' };
      current += text.slice(i, end + 2);
      i = end + 2;
    } else if (ch === '$' && /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.test(text.slice(i))) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i))![0];
      const end = text.indexOf(tag, i + tag.length);
      if (end < 0) return { ok: false, message: 'unterminated dollar-quoted string' };
      current += text.slice(i, end + tag.length);
      i = end + tag.length;
    } else if (ch === ':' && next === ':') {
      current += '::';
      i += 2;
    } else if (ch === ':' && next !== undefined && /[A-Za-z_]/.test(next)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))![0];
      parts.push(current);
      params.push(name);
      current = '';
      i += 1 + name.length;
    } else if (ch === ';') {
      if (text.slice(i + 1).trim() !== '' && !onlyComments(text.slice(i + 1))) {
        return { ok: false, message: 'only one statement is allowed' };
      }
      i = n;
    } else if (ch === '?' || (ch === '$' && next !== undefined && /[0-9]/.test(next))) {
      // Positional placeholders would be bound by the driver behind our back; only :named ones exist.
      if (ch === '$') return { ok: false, message: 'positional parameters ($1) are not allowed; use :name' };
      current += ch;
      i += 1;
    } else {
      current += ch;
      i += 1;
    }
  }
  parts.push(current);
  if (parts.join('').trim() === '') return { ok: false, message: 'the SQL is empty' };
  return { ok: true, sql: { parts, params } };
}

function closingQuote(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i;
    }
    i += 1;
  }
  return -1;
}

function onlyComments(rest: string): boolean {
  return rest.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '').trim() === '';
}

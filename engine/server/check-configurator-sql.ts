import { parseNamedSql } from './parse-named-sql.js';

/** What a named SQL is for: a read (lists, dropdowns, validation, reports) or a `sql:` behaviour's write. */
export type ConfiguratorSqlMode = 'read' | 'write';

export type ConfiguratorSqlVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Functions configurator SQL may call (parse, don't grep). Everything else is
 * refused, so no list of forbidden words can be outrun by a name nobody thought of: pg_sleep, file
 * and large-object functions, dblink, set_config/current_setting, backend signalling, advisory
 * locks and anything meant to hold a session are simply absent (the statement timeout ends the rest,
 * on the embedded database too). generate_series is absent on purpose: one call can produce
 * billions of rows.
 */
const ALLOWED_FUNCTIONS = new Set([
  // aggregates and window functions
  'count', 'sum', 'avg', 'min', 'max', 'string_agg', 'array_agg', 'bool_and', 'bool_or', 'every',
  'json_agg', 'jsonb_agg', 'json_object_agg', 'jsonb_object_agg', 'stddev', 'stddev_pop', 'stddev_samp',
  'variance', 'var_pop', 'var_samp', 'percentile_cont', 'percentile_disc', 'mode',
  'row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead',
  'first_value', 'last_value', 'nth_value',
  // text
  'lower', 'upper', 'initcap', 'length', 'char_length', 'character_length', 'octet_length', 'btrim',
  'ltrim', 'rtrim', 'trim', 'lpad', 'rpad', 'substr', 'substring', 'left', 'right', 'replace',
  'translate', 'concat', 'concat_ws', 'position', 'strpos', 'split_part', 'repeat', 'reverse',
  'format', 'starts_with', 'ascii', 'chr', 'md5', 'overlay', 'regexp_replace', 'regexp_match',
  'regexp_like', 'regexp_count', 'regexp_substr', 'string_to_array', 'array_to_string', 'to_hex',
  'normalize', 'unaccent',
  // numbers
  'abs', 'ceil', 'ceiling', 'floor', 'round', 'trunc', 'mod', 'power', 'pow', 'sqrt', 'cbrt', 'sign',
  'div', 'exp', 'ln', 'log', 'log10', 'width_bucket', 'scale', 'gcd', 'lcm',
  // formatting and conversion
  'to_char', 'to_number', 'to_date', 'to_timestamp',
  // dates and times
  'now', 'current_date', 'current_timestamp', 'localtimestamp', 'statement_timestamp',
  'transaction_timestamp', 'date_trunc', 'date_part', 'extract', 'age', 'make_date', 'make_time',
  'make_timestamp', 'make_timestamptz', 'make_interval', 'timezone', 'date_bin', 'justify_days',
  'justify_hours', 'justify_interval', 'isfinite', 'overlaps',
  // json
  'json_build_object', 'jsonb_build_object', 'json_build_array', 'jsonb_build_array', 'to_json',
  'to_jsonb', 'json_extract_path', 'json_extract_path_text', 'jsonb_extract_path',
  'jsonb_extract_path_text', 'json_array_length', 'jsonb_array_length', 'json_typeof', 'jsonb_typeof',
  'jsonb_array_elements', 'jsonb_array_elements_text', 'json_array_elements',
  'json_array_elements_text', 'jsonb_each', 'jsonb_each_text', 'json_each', 'json_each_text',
  'jsonb_object_keys', 'json_object_keys', 'jsonb_strip_nulls', 'jsonb_pretty',
  // arrays
  'array_length', 'array_lower', 'array_upper', 'cardinality', 'unnest', 'array_position',
  'array_positions', 'array_remove', 'array_replace', 'array_append', 'array_prepend', 'array_cat',
  // booleans and misc
  'num_nulls', 'num_nonnulls', 'similar_to_escape',
]);

/** Statement kinds each mode accepts: exactly one, at the top. */
const TOP_LEVEL: Record<ConfiguratorSqlMode, readonly string[]> = {
  read: ['SelectStmt'],
  write: ['InsertStmt', 'UpdateStmt', 'DeleteStmt'],
};

const MODIFYING = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

const verdicts = new Map<string, ConfiguratorSqlVerdict>();
const CACHE_LIMIT = 2000;

/**
 * Checks configurator SQL with the real PostgreSQL parser: one statement of
 * the mode's kind, every function on the allow-list, every relation an ordinary table of schema
 * public, no row locks, no SELECT INTO, no recursive or data-modifying WITH. `:named` parameters
 * become `$n` placeholders before parsing. Verdicts are cached by mode and text.
 */
export async function checkConfiguratorSql(text: string, mode: ConfiguratorSqlMode): Promise<ConfiguratorSqlVerdict> {
  const cacheKey = `${mode}\u0001${text}`;
  const cached = verdicts.get(cacheKey);
  if (cached) return cached;
  const verdict = await judge(text, mode);
  if (verdicts.size >= CACHE_LIMIT) verdicts.clear();
  verdicts.set(cacheKey, verdict);
  return verdict;
}

async function judge(text: string, mode: ConfiguratorSqlMode): Promise<ConfiguratorSqlVerdict> {
  const named = parseNamedSql(text);
  if (!named.ok) return { ok: false, reason: named.message };
  const { parts } = named.sql;
  const placeholders = parts.map((part, i) => (i === 0 ? part : `$${i}${part}`)).join('');
  // The SQL parser (WebAssembly) is loaded by the first check, not when the server starts.
  const { parse } = await import('libpg-query');
  let tree: { stmts?: Array<{ stmt: Record<string, unknown> }> };
  try {
    tree = (await parse(placeholders)) as typeof tree;
  } catch (error) {
    return { ok: false, reason: `syntax: ${(error as Error).message}` };
  }
  const statements = tree.stmts ?? [];
  if (statements.length !== 1) return { ok: false, reason: 'exactly one statement is allowed' };
  const [kind] = Object.keys(statements[0].stmt);
  if (!TOP_LEVEL[mode].includes(kind)) {
    return { ok: false, reason: mode === 'read' ? `only a SELECT is allowed here, not ${statementName(kind)}` : `only one INSERT, UPDATE or DELETE is allowed, not ${statementName(kind)}` };
  }
  const problem = walk(statements[0].stmt, true);
  return problem ? { ok: false, reason: problem } : { ok: true };
}

function statementName(kind: string): string {
  return kind.replace(/Stmt$/, '').toUpperCase();
}

/** The first problem found anywhere in the tree, or undefined. */
function walk(node: unknown, top: boolean): string | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const problem = walk(item, false);
      if (problem) return problem;
    }
    return undefined;
  }
  if (node === null || typeof node !== 'object') return undefined;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const problem = inspect(key, value, top) ?? walk(value, false);
    if (problem) return problem;
  }
  return undefined;
}

function inspect(key: string, value: unknown, top: boolean): string | undefined {
  const node = (value ?? {}) as Record<string, unknown>;
  if (MODIFYING.has(key) && !top) return 'data-modifying statements inside another statement are not allowed';
  switch (key) {
    case 'FuncCall': {
      const names = ((node.funcname ?? []) as Array<{ String?: { sval?: string } }>).map((n) => n.String?.sval ?? '');
      const name = (names[names.length - 1] ?? '').toLowerCase();
      const schema = names.length > 1 ? names[names.length - 2].toLowerCase() : 'pg_catalog';
      if (names.length > 2 || schema !== 'pg_catalog' || !ALLOWED_FUNCTIONS.has(name)) return `function ${names.join('.')} is not allowed`;
      return undefined;
    }
    case 'RangeVar': {
      const schema = typeof node.schemaname === 'string' ? node.schemaname : undefined;
      const relation = typeof node.relname === 'string' ? node.relname : '';
      if (node.catalogname !== undefined || (schema !== undefined && schema !== 'public')) return `only tables of schema public may be read (${schema}.${relation})`;
      if (/^pg_/i.test(relation)) return `system tables may not be read (${relation})`;
      return undefined;
    }
    case 'lockingClause':
      return 'row locks (FOR UPDATE/SHARE) are not allowed';
    case 'intoClause':
      return 'SELECT INTO is not allowed';
    case 'WithClause':
    case 'withClause':
      return node.recursive === true ? 'WITH RECURSIVE is not allowed' : undefined;
    default:
      return undefined;
  }
}

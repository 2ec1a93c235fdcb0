import { sql, type RawBuilder } from 'kysely';
import { EngineError } from './engine-error.js';
import { parseNamedSql } from './parse-named-sql.js';

/**
 * Turns configurator SQL into a Kysely query whose `:named` parameters are bound positional
 * parameters ($1, $2, ...): values never become SQL text. A parameter without a value is refused
 * (SYSTEM_CONFIG: the page's SQL asks for something nobody provides).
 */
export function bindNamedSql(text: string, values: Record<string, unknown>): RawBuilder<Record<string, unknown>> {
  const parsed = parseNamedSql(text);
  if (!parsed.ok) throw new EngineError('SYSTEM_CONFIG', { reason: parsed.message });
  const { parts, params } = parsed.sql;
  const pieces: RawBuilder<unknown>[] = [sql.raw(parts[0])];
  params.forEach((name, i) => {
    if (!Object.hasOwn(values, name)) throw new EngineError('SYSTEM_CONFIG', { reason: `no value for :${name}` });
    pieces.push(sql`${values[name]}`, sql.raw(parts[i + 1]));
  });
  return sql<Record<string, unknown>>`${sql.join(pieces, sql``)}`;
}

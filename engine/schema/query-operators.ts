/**
 * The fixed list of query-condition operators: react-querybuilder's names, each with a
 * server translation in engine/server. Anything else is refused.
 */
export const QUERY_OPERATORS = [
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'contains',
  'beginsWith',
  'endsWith',
  'in',
  'notIn',
  'between',
  'null',
  'notNull',
] as const;

export type QueryOperator = (typeof QUERY_OPERATORS)[number];

export function isQueryOperator(value: unknown): value is QueryOperator {
  return typeof value === 'string' && (QUERY_OPERATORS as readonly string[]).includes(value);
}

import type { FastifyInstance } from 'fastify';
import { AppError } from '../../common/errors.js';

/** Deepest nesting of a body that any route of ours needs; deeper ones are refused, not walked. */
const MAX_DEPTH = 32;

/**
 * Numbers beyond JavaScript's safe integers are never an id, a page, a quantity or a price of
 * ours; they could only reach the database as an overflow (`1e308` as an id would answer 500).
 * Decimals stay well inside: numeric(18,6) tops out at 10^12.
 */
const MAX_MAGNITUDE = Number.MAX_SAFE_INTEGER;

/**
 * Refuses, at the edge and for every route, input no handler should have to
 * think about: a NUL character in any string or key (PostgreSQL text cannot hold it, so it would
 * otherwise surface as a 500 from deep inside a query), numbers that are not finite or beyond the
 * safe range, and absurdly deep nesting. Runs after the route's schema has parsed and coerced the
 * body, query and parameters, and before any handler or database call.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const problem = inspect(value, 0);
      if (problem) throw new AppError(problem === 'nul' ? 'INPUT_NUL' : problem === 'depth' ? 'INPUT_TOO_DEEP' : 'NUMBER_OUT_OF_RANGE', { part });
    }
  });
}

type Problem = 'nul' | 'number' | 'depth';

function inspect(value: unknown, depth: number): Problem | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? 'nul' : undefined;
  if (typeof value === 'number') return !Number.isFinite(value) || Math.abs(value) > MAX_MAGNITUDE ? 'number' : undefined;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  if (depth > MAX_DEPTH) return 'depth';
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = inspect(item, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key.includes('\u0000')) return 'nul';
    const problem = inspect(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

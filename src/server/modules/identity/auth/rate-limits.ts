import type { FastifyRequest } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';

function bodyField(request: FastifyRequest, field: string): string {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.[field];
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/**
 * Per-route limits for sign-in, code entry, registration and reset, keyed by
 * the caller's IP and the account (or e-mail, or challenge) it names, so one attacker cannot lock
 * out a whole office behind one address and one address cannot hammer an account.
 */
export function limitBy(field: string, max: number, timeWindow = 60_000): RateLimitOptions {
  return {
    max,
    timeWindow,
    keyGenerator: (request) => `${request.ip}|${field}|${bodyField(request, field)}`,
  };
}

import type { FastifyContextConfig } from 'fastify';
import { Type, type TAny, type TSchema } from 'typebox';
import type { AccessScope, RightName, RouteAccess } from './access.js';

/** The request parts a documented route validates, by their Fastify schema names. */
export interface RouteRequest {
  body?: TSchema;
  querystring?: TSchema;
  params?: TSchema;
}

/**
 * A builder of the options of an area's documented JSON routes, made once per route file with the
 * file's OpenAPI tags and error answers. `route(access, summary, request, answer, config)` gives who
 * may call the route (`config.access`, with any other route `config` such as a rate limit) and its
 * schema: the tags, the summary, the request parts and the answers (`answer` for 200, anything when
 * left out, and the error bodies).
 */
export function routeOptions<E extends Record<number, TSchema>>(tags: string[], errors: E) {
  return <R extends RouteRequest = Record<never, never>, A extends TSchema = TAny>(
    access: RouteAccess,
    summary: string,
    request?: R,
    answer?: A,
    config: Omit<FastifyContextConfig, 'access'> = {},
  ) => ({
    config: { access, ...config },
    schema: { tags, summary, ...(request as R), response: { 200: (answer ?? Type.Any()) as A, ...errors } },
  });
}

/** The access a route of one page needs for one of its actions. */
export type PageActionAccess = { right: RightName; scope: AccessScope };

/**
 * The access of a page's routes by action, in one scope: `pageAccess('billing.bill', 'project',
 * 'view', 'post')` gives `{ view: { right: 'billing.bill:view', scope: 'project' }, post: ... }`.
 */
export function pageAccess<A extends string>(page: string, scope: AccessScope, ...actions: A[]): Record<A, PageActionAccess> {
  return Object.fromEntries(actions.map((action) => [action, { right: `${page}:${action}` as RightName, scope }])) as Record<A, PageActionAccess>;
}

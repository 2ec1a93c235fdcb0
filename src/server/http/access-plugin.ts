import fp from 'fastify-plugin';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../../common/errors.js';
import { isLanguage } from '../../common/languages.js';
import type { AccessScope, RouteAccess, SessionUser } from './access.js';
import { parseRightName } from '../../common/rights.js';


/** One API route and what it declares, as the access plugin saw it registered. */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: RouteAccess;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route under /api with its access declaration (the route-enumeration test reads it). */
    apiRoutes: DeclaredRoute[];
  }
}

/** The OpenAPI page and its static assets are public. */
function isPublicDocs(url: string): boolean {
  return url === '/api/docs' || url.startsWith('/api/docs/');
}

/** The bearer token of the Authorization header; a cookie alone never authorizes. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/i.exec(header);
  return match?.[1];
}

/** The session's user; throws 401 on a route that was (wrongly) left without a session. */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('UNAUTHENTICATED');
  return request.user;
}

/** The session's current project; a user without one has no rights to work in a project. */
export function requireProject(request: FastifyRequest | SessionUser): { projectId: number; projectCode: string } {
  const user = 'sessionId' in request ? request : requireUser(request);
  if (user.projectId === null || user.projectCode === null) throw new AppError('NO_RIGHTS_CONTACT_ADMIN');
  return { projectId: user.projectId, projectCode: user.projectCode };
}

/** The session's current warehouse. */
export function requireWarehouse(request: FastifyRequest | SessionUser): { warehouseId: number; warehouseCode: string } {
  const user = 'sessionId' in request ? request : requireUser(request);
  if (user.warehouseId === null || user.warehouseCode === null) throw new AppError('NO_RIGHTS_CONTACT_ADMIN');
  return { warehouseId: user.warehouseId, warehouseCode: user.warehouseCode };
}

/** What a query of a scoped table must be restricted to: the session's project and/or warehouse. */
export interface ScopeFilter {
  organizationId?: number;
  projectId?: number;
  warehouseId?: number;
}

/** The filter for a route's scope; services add it to every read and write of scoped records. */
export function scopeFilter(user: SessionUser, scope: AccessScope): ScopeFilter {
  switch (scope) {
    case 'none':
      return {};
    case 'organization':
      if (user.organizationId === null) throw new AppError('NO_RIGHTS_CONTACT_ADMIN');
      return { organizationId: user.organizationId };
    case 'project':
      return { projectId: requireProject(user).projectId };
    case 'warehouse':
      return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId };
  }
}

/**
 * Refuses a record outside the session's scope. A record of another project or warehouse answers
 * as if it did not exist when `hide` is set (the default), so its existence does not leak.
 */
export function assertInScope(
  filter: ScopeFilter,
  record: { organization_id?: number | null; project_id?: number | null; warehouse_id?: number | null } | undefined,
  options: { hide?: boolean } = {},
): void {
  if (!record) throw new AppError('NO_RECORD');
  const outside =
    (filter.organizationId !== undefined && record.organization_id !== undefined && record.organization_id !== filter.organizationId) ||
    (filter.projectId !== undefined && record.project_id !== undefined && record.project_id !== filter.projectId) ||
    (filter.warehouseId !== undefined && record.warehouse_id !== undefined && record.warehouse_id !== filter.warehouseId);
  if (outside) throw new AppError(options.hide === false ? 'OUT_OF_SCOPE' : 'NO_RECORD');
}

function describeRoute(route: RouteOptions): string {
  return `${Array.isArray(route.method) ? route.method.join(',') : route.method} ${route.url}`;
}

/**
 * THE enforcement of `config.access`. Registered before any
 * route module: a route under /api that declares no access makes `app.ready()` fail, and every
 * request is checked before its body is even parsed, so no invalid body can tell a caller without a
 * session anything about the route.
 */
async function accessPlugin(app: FastifyInstance): Promise<void> {
  // Per-route limits only: sign-in, code entry, registration and reset declare their own
  // `config.rateLimit`. Counted after parsing so the key can include the account.
  await app.register(fastifyRateLimit, { global: false, hook: 'preHandler' });

  app.decorateRequest('user', undefined);
  // Who the caller is and what they may do are the areas' business (auth and access contribute them
  // through their modules); this plugin only enforces what each route declares.
  const { sessions, rightChecker } = app.areas;
  const apiRoutes: DeclaredRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    if (isPublicDocs(route.url)) {
      route.config = { ...route.config, access: { public: true } };
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) apiRoutes.push({ method, url: route.url, access: { public: true } });
      return;
    }
    const access = route.config?.access;
    if (!access) {
      throw new Error(`route ${describeRoute(route)} declares no config.access: every API route must say who may call it`);
    }
    if (!isValidAccess(access)) throw new Error(`route ${describeRoute(route)} has an invalid config.access: ${JSON.stringify(access)}`);
    if (!('public' in access) && !sessions) throw new Error(`route ${describeRoute(route)} needs a session, but no area resolves sessions`);
    if ('right' in access && !rightChecker) throw new Error(`route ${describeRoute(route)} needs a right, but no area checks rights`);
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) apiRoutes.push({ method, url: route.url, access });
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    // Routes outside /api (static files, the not-found handler) carry no access declaration.
    if (!access || 'public' in access) return;
    const token = bearerToken(request);
    if (!token) throw new AppError('UNAUTHENTICATED');
    const user = await sessions?.resolve(app.database.db, token);
    if (!user) throw new AppError('UNAUTHENTICATED');
    const { language, expiresAt: _expiresAt, ...sessionUser } = user;
    request.user = sessionUser;
    // An explicit x-language header (the language switch) wins; otherwise the user's own choice.
    if (!request.headers['x-language'] && isLanguage(language)) request.language = language;

    if ('admin' in access) {
      if (!sessionUser.isAdmin) throw new AppError('FORBIDDEN', { right: 'admin' });
      return;
    }
    if ('right' in access) {
      if (!(await rightChecker?.hasRight(app.database.db, sessionUser, access.right))) throw new AppError('FORBIDDEN', { right: access.right });
      // The scope must exist before the route runs; services then filter by it (scopeFilter).
      scopeFilter(sessionUser, access.scope);
    }
  });
}

function isValidAccess(access: RouteAccess): boolean {
  if ('public' in access) return access.public === true;
  if ('session' in access) return access.session === true;
  if ('admin' in access) return access.admin === true;
  if ('right' in access) {
    // One of the four page actions or an area's own verb (`outbound.so:allocate`).
    return parseRightName(access.right) !== null && ['none', 'organization', 'project', 'warehouse'].includes(access.scope);
  }
  return false;
}

export default fp(accessPlugin, { name: 'access', fastify: '5.x' });

/**
 * What every route declares about who may call it (docs/architecture.md, "Scope: organization,
 * project, warehouse"). Routes put it in `config.access`; the access plugin refuses a route that
 * declares nothing, answers 401 without a session, 403 without the right, and hands services the
 * session's scope so that no record of another project or warehouse is read or written.
 *
 *   { public: true }                       no session needed (sign-in, health, registration)
 *   { session: true }                      any signed-in user (own profile, menu, logout)
 *   { right: 'sku:view', scope: 'project' } a module right; scope says which session scope the
 *                                          route works in ('project', 'warehouse' or 'none')
 *   { admin: true }                        administrators only (simulate user, publish rules)
 */
import type { RightName } from '../../common/rights.js';

export type { RightAction, RightName } from '../../common/rights.js';

export type AccessScope = 'none' | 'organization' | 'project' | 'warehouse';

export type RouteAccess =
  | { public: true }
  | { session: true }
  | { right: RightName; scope: AccessScope }
  | { admin: true };

/** The signed-in caller as services see it; `projectId`/`warehouseId` are the session's current ones. */
export interface SessionUser {
  sessionId: number;
  userId: number;
  loginAccount: string;
  displayName: string;
  isAdmin: boolean;
  organizationId: number | null;
  projectId: number | null;
  projectCode: string | null;
  warehouseId: number | null;
  warehouseCode: string | null;
  /** Set while an administrator simulates another user: the administrator's own user id. */
  simulatedBy: number | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** The session's user; set by the access plugin on every route that is not public. */
    user: SessionUser | undefined;
  }
}

import type { PageScope } from '../schema/index.js';
import { EngineError } from './engine-error.js';

/** What the engine needs to know about the caller; the application builds it from its session. */
export interface EngineSession {
  userId: number;
  loginAccount: string;
  /** Administrators see every row that row filters would hide. */
  isAdmin?: boolean;
  language: string;
  organizationId: number | null;
  projectId: number | null;
  projectCode: string | null;
  warehouseId: number | null;
  warehouseCode: string | null;
}

/** The column a table of this scope carries (README: page property `scope`). */
export function scopeColumnOf(scope: PageScope): string | null {
  switch (scope) {
    case 'none':
      return null;
    case 'organization':
      return 'organization_id';
    case 'project':
      return 'project_id';
    case 'warehouse':
      return 'warehouse_id';
  }
}

/** The session's value for the scope column; a session without it may not use the page at all. */
export function requireScopeValue(session: EngineSession, scope: PageScope): number | null {
  if (scope === 'none') return null;
  const value =
    scope === 'organization' ? session.organizationId : scope === 'project' ? session.projectId : session.warehouseId;
  if (value === null) throw new EngineError('OUT_OF_SCOPE', { scope });
  return value;
}

/** The reserved `:named` parameters every configurator SQL may use. */
export function sessionSqlParams(session: EngineSession): Record<string, unknown> {
  return {
    userId: session.userId,
    userLogin: session.loginAccount,
    language: session.language,
    organizationId: session.organizationId,
    projectId: session.projectId,
    projectCode: session.projectCode,
    warehouseId: session.warehouseId,
    warehouseCode: session.warehouseCode,
  };
}

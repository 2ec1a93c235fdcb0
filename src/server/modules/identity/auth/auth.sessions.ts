import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { ResolvedSession, SessionResolver } from '../../area.js';
import { findActiveSession } from './session.repository.js';
import { sha256 } from './tokens.js';

/** Resolves a bearer token to the session's user, or undefined when it opens no live session. */
export async function resolveSessionUser(db: Kysely<DB>, token: string): Promise<ResolvedSession | undefined> {
  const row = await findActiveSession(db, sha256(token));
  if (!row) return undefined;
  return {
    sessionId: row.sessionId,
    userId: row.userId,
    loginAccount: row.loginAccount,
    displayName: row.displayName,
    isAdmin: row.isAdmin,
    organizationId: row.projectOrganizationId ?? row.warehouseOrganizationId,
    projectId: row.projectId,
    projectCode: row.projectCode,
    warehouseId: row.warehouseId,
    warehouseCode: row.warehouseCode,
    simulatedBy: row.simulatedUserId === null ? null : row.ownerUserId,
    language: row.language,
    expiresAt: new Date(row.expiresAt),
  };
}

/** What the auth area contributes to the access check of every request. */
export const sessionResolver: SessionResolver = { resolve: resolveSessionUser };

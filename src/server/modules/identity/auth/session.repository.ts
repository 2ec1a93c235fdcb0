import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { PREPARED } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import type { Language } from '../../../../common/languages.js';

export interface NewSession {
  tokenHash: string;
  userId: number;
  projectId: number | null;
  warehouseId: number | null;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
}

export async function insertSession(trx: Transaction<DB>, session: NewSession): Promise<number> {
  const row = await trx
    .insertInto('user_session')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      project_id: session.projectId,
      warehouse_id: session.warehouseId,
      expires_at: session.expiresAt,
      ip: session.ip,
      user_agent: session.userAgent,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A live session joined with its effective user (the simulated one while simulating) and scope. */
export interface ActiveSessionRow {
  sessionId: number;
  ownerUserId: number;
  simulatedUserId: number | null;
  expiresAt: Date;
  userId: number;
  loginAccount: string;
  displayName: string;
  language: Language;
  isAdmin: boolean;
  projectId: number | null;
  projectCode: string | null;
  projectOrganizationId: number | null;
  warehouseId: number | null;
  warehouseCode: string | null;
  warehouseOrganizationId: number | null;
}

/**
 * The session's user (`u`) may work in the joined project or warehouse (`scopeId`): an
 * administrator, or granted it (a `grants` row naming the user and, in `column`, that scope).
 */
function adminOrGranted(grants: 'user_project' | 'user_warehouse', column: 'project_id' | 'warehouse_id', scopeId: 'p.id' | 'w.id') {
  return sql<SqlBool>`(u.is_admin = true or exists (select g.user_id from ${sql.table(grants)} g where g.user_id = u.id and ${sql.ref(`g.${column}`)} = ${sql.ref(scopeId)}))`;
}

/**
 * Finds the live session of a token hash. A project or warehouse whose grant was withdrawn after
 * sign-in drops out of the session at once (access is granted per user), so a
 * session never keeps a scope its user lost.
 */
export async function findActiveSession(db: Kysely<DB>, tokenHash: string): Promise<ActiveSessionRow | undefined> {
  const row = await db
    .selectFrom('user_session as s')
    .innerJoin('app_user as u', (join) => join.on(sql`u.id`, '=', sql`coalesce(s.simulated_user_id, s.user_id)`))
    .innerJoin('app_user as owner', 'owner.id', 's.user_id')
    .leftJoin('project as p', (join) => join.onRef('p.id', '=', 's.project_id').on(adminOrGranted('user_project', 'project_id', 'p.id')))
    .leftJoin('warehouse as w', (join) => join.onRef('w.id', '=', 's.warehouse_id').on(adminOrGranted('user_warehouse', 'warehouse_id', 'w.id')))
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', sql<Date>`now()`)
    .where('u.enabled', '=', true)
    .where('owner.enabled', '=', true)
    .select([
      's.id as sessionId',
      's.user_id as ownerUserId',
      's.simulated_user_id as simulatedUserId',
      's.expires_at as expiresAt',
      'u.id as userId',
      'u.login_account as loginAccount',
      'u.display_name as displayName',
      'u.language as language',
      'u.is_admin as isAdmin',
      'p.id as projectId',
      'p.code as projectCode',
      'p.organization_id as projectOrganizationId',
      'w.id as warehouseId',
      'w.code as warehouseCode',
      'w.organization_id as warehouseOrganizationId',
    ])
    .modifyEnd(PREPARED)
    .executeTakeFirst();
  return row as ActiveSessionRow | undefined;
}

export async function findSessionById(db: Kysely<DB>, sessionId: number) {
  return db.selectFrom('user_session').selectAll().where('id', '=', sessionId).executeTakeFirst();
}

export async function revokeSession(trx: Transaction<DB>, sessionId: number): Promise<void> {
  await trx.updateTable('user_session').set({ revoked_at: sql`now()` }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Ends every session of a user (sign out everywhere, password change or reset, disabling). */
export async function revokeUserSessions(trx: Transaction<DB>, userId: number, exceptSessionId?: number): Promise<number> {
  let query = trx.updateTable('user_session').set({ revoked_at: sql`now()` }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptSessionId !== undefined) query = query.where('id', '<>', exceptSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function setSessionScope(
  trx: Transaction<DB>,
  sessionId: number,
  scope: { projectId?: number | null; warehouseId?: number | null },
): Promise<void> {
  await trx
    .updateTable('user_session')
    .set({
      ...(scope.projectId !== undefined ? { project_id: scope.projectId } : {}),
      ...(scope.warehouseId !== undefined ? { warehouse_id: scope.warehouseId } : {}),
    })
    .where('id', '=', sessionId)
    .execute();
}

export async function setSessionSimulation(
  trx: Transaction<DB>,
  sessionId: number,
  simulatedUserId: number | null,
  scope: { projectId: number | null; warehouseId: number | null },
): Promise<void> {
  await trx
    .updateTable('user_session')
    .set({ simulated_user_id: simulatedUserId, project_id: scope.projectId, warehouse_id: scope.warehouseId })
    .where('id', '=', sessionId)
    .execute();
}

// --- trusted browsers ---

export async function insertTrustedBrowser(
  trx: Transaction<DB>,
  row: { tokenHash: string; userId: number; label: string | null; ip: string | null; expiresAt: Date },
): Promise<void> {
  await trx
    .insertInto('trusted_browser')
    .values({ token_hash: row.tokenHash, user_id: row.userId, label: row.label, ip: row.ip, expires_at: row.expiresAt })
    .execute();
}

export async function findLiveTrustedBrowser(db: Kysely<DB>, tokenHash: string, userId: number) {
  return db
    .selectFrom('trusted_browser')
    .select(['id'])
    .where('token_hash', '=', tokenHash)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}

export async function touchTrustedBrowser(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.updateTable('trusted_browser').set({ last_used_at: sql`now()` }).where('id', '=', id).execute();
}

export async function listTrustedBrowsers(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('trusted_browser')
    .select(['id', 'label', 'ip', 'created_at', 'last_used_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('created_at', 'desc')
    .execute();
}

export async function revokeTrustedBrowser(trx: Transaction<DB>, userId: number, id: number): Promise<boolean> {
  const result = await trx
    .updateTable('trusted_browser')
    .set({ revoked_at: sql`now()` })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function revokeAllTrustedBrowsers(trx: Transaction<DB>, userId: number): Promise<void> {
  await trx.updateTable('trusted_browser').set({ revoked_at: sql`now()` }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

/**
 * Deletes what can never be used again: sessions and trusted browsers ended or expired over a
 * month ago (kept that long for the record), spent or expired challenges and codes over a day old.
 * Run on sign-in, so a busy server stays tidy without a separate job.
 */
export async function purgeExpired(trx: Transaction<DB>): Promise<void> {
  const monthAgo = sql<Date>`now() - interval '30 days'`;
  const dayAgo = sql<Date>`now() - interval '1 day'`;
  await trx.deleteFrom('user_session').where((eb) => eb.or([eb('expires_at', '<', monthAgo), eb('revoked_at', '<', monthAgo)])).execute();
  await trx.deleteFrom('trusted_browser').where((eb) => eb.or([eb('expires_at', '<', monthAgo), eb('revoked_at', '<', monthAgo)])).execute();
  await trx.deleteFrom('two_step_challenge').where('expires_at', '<', dayAgo).execute();
  await trx.deleteFrom('verification_code').where('expires_at', '<', dayAgo).execute();
}

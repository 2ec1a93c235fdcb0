import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { AppUserTable } from './user.tables.js';

export type UserRow = Selectable<AppUserTable>;

/** Login accounts are case-insensitive (0001_foundation's unique index on lower()). */
export async function findUserByLogin(db: Kysely<DB>, loginAccount: string): Promise<UserRow | undefined> {
  return db.selectFrom('app_user').selectAll().where(sql<string>`lower(login_account)`, '=', loginAccount.trim().toLowerCase()).executeTakeFirst();
}

export async function findUserById(db: Kysely<DB>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: Kysely<DB>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('app_user').selectAll().where(sql<string>`lower(email)`, '=', email.trim().toLowerCase()).executeTakeFirst();
}

/**
 * Counts one wrong password in a single statement (two parallel attempts both count); the tenth
 * in a row locks the account until `now + lockMinutes` and starts the count again.
 */
export async function recordFailedLogin(trx: Transaction<DB>, userId: number, maxFailures: number, lockMinutes: number): Promise<Date | null> {
  const row = await trx
    .updateTable('app_user')
    .set({
      failed_logins: sql`case when failed_logins + 1 >= ${maxFailures} then 0 else failed_logins + 1 end`,
      locked_until: sql`case when failed_logins + 1 >= ${maxFailures} then now() + make_interval(mins => ${lockMinutes}) else locked_until end`,
    })
    .where('id', '=', userId)
    .returning('locked_until')
    .executeTakeFirstOrThrow();
  return row.locked_until ? new Date(row.locked_until) : null;
}

export async function clearFailedLogins(trx: Transaction<DB>, userId: number): Promise<void> {
  await trx.updateTable('app_user').set({ failed_logins: 0, locked_until: null }).where('id', '=', userId).execute();
}

export async function updatePasswordHash(trx: Transaction<DB>, userId: number, passwordHash: string, by: string): Promise<void> {
  await trx
    .updateTable('app_user')
    .set({ password_hash: passwordHash, password_changed_at: sql`now()`, failed_logins: 0, locked_until: null, updated_at: sql`now()`, updated_by: by })
    .where('id', '=', userId)
    .execute();
}

export async function updateUserLanguage(trx: Transaction<DB>, userId: number, language: string, by: string): Promise<void> {
  await trx.updateTable('app_user').set({ language, updated_at: sql`now()`, updated_by: by }).where('id', '=', userId).execute();
}

export async function updateTwoStep(
  trx: Transaction<DB>,
  userId: number,
  values: Partial<Pick<UserRow, 'two_step_email' | 'two_step_sms' | 'totp_secret' | 'totp_pending_secret' | 'totp_last_counter'>>,
  by: string,
): Promise<void> {
  await trx
    .updateTable('app_user')
    .set({ ...values, updated_at: sql`now()`, updated_by: by })
    .where('id', '=', userId)
    .execute();
}

/** Records a used TOTP time step; false when it (or a later one) was already used: a replay. */
export async function claimTotpCounter(trx: Transaction<DB>, userId: number, counter: number): Promise<boolean> {
  const result = await trx
    .updateTable('app_user')
    .set({ totp_last_counter: counter })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_counter', 'is', null), eb('totp_last_counter', '<', counter)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertUser(
  trx: Transaction<DB>,
  values: { login_account: string; display_name: string; email: string | null; password_hash: string; language?: string; by: string },
): Promise<number> {
  const { by, ...rest } = values;
  const row = await trx
    .insertInto('app_user')
    .values({ ...rest, password_changed_at: new Date(), created_by: by, updated_by: by })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Profile columns an administrator may set through the user API. */
export const PROFILE_COLUMNS = [
  'first_name', 'middle_name', 'last_name', 'title', 'gender', 'company', 'department', 'position', 'telephone', 'city',
  'address1', 'address2', 'address3', 'address4', 'postal', 'street', 'district', 'latitude', 'longitude', 'country', 'alias_name',
] as const;
export type ProfileColumn = (typeof PROFILE_COLUMNS)[number];

export interface UserListFilter {
  search?: string;
  enabled?: boolean;
  /** Only users with a grant of this project (a non-administrator's view). */
  projectId?: number;
}

export async function listUsers(db: Kysely<DB>, filter: UserListFilter, page: { offset: number; limit: number }) {
  let query = db.selectFrom('app_user as u');
  if (filter.projectId !== undefined) {
    const projectId = filter.projectId;
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('user_project as up').select('up.user_id').whereRef('up.user_id', '=', 'u.id').where('up.project_id', '=', projectId)),
    );
  }
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('u.login_account', 'ilike', pattern), eb('u.display_name', 'ilike', pattern), eb('u.email', 'ilike', pattern)]));
  }
  if (filter.enabled !== undefined) query = query.where('u.enabled', '=', filter.enabled);
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['u.id', 'u.login_account', 'u.display_name', 'u.email', 'u.language', 'u.enabled', 'u.is_admin', 'u.locked_until', 'u.updated_at'])
    .orderBy('u.login_account')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return { rows, total: Number(total.n) };
}

export async function userHasProject(db: Kysely<DB>, userId: number, projectId: number): Promise<boolean> {
  const row = await db.selectFrom('user_project').select('user_id').where('user_id', '=', userId).where('project_id', '=', projectId).executeTakeFirst();
  return row !== undefined;
}

export async function findUserGrants(db: Kysely<DB>, userId: number) {
  const [organizations, projects, warehouses, roles] = await Promise.all([
    db.selectFrom('user_organization').select('organization_id as id').where('user_id', '=', userId).execute(),
    db.selectFrom('user_project').select('project_id as id').where('user_id', '=', userId).execute(),
    db.selectFrom('user_warehouse').select('warehouse_id as id').where('user_id', '=', userId).execute(),
    db.selectFrom('user_role').select('role_id as id').where('user_id', '=', userId).execute(),
  ]);
  return {
    organizationIds: organizations.map((r) => r.id),
    projectIds: projects.map((r) => r.id),
    warehouseIds: warehouses.map((r) => r.id),
    roleIds: roles.map((r) => r.id),
  };
}

type GrantTable = 'user_organization' | 'user_project' | 'user_warehouse' | 'user_role';
const GRANT_COLUMN = { user_organization: 'organization_id', user_project: 'project_id', user_warehouse: 'warehouse_id', user_role: 'role_id' } as const;

/**
 * Sets a user's grants of one kind to `ids`, touching only those within `manageable` (the editor's
 * own reach; undefined = everything, for administrators): grants beyond it stay as they are.
 */
export async function replaceGrants(trx: Transaction<DB>, table: GrantTable, userId: number, ids: number[], manageable: number[] | undefined): Promise<void> {
  const column = GRANT_COLUMN[table];
  const current = (await trx.selectFrom(table).select(`${column} as id` as never).where('user_id', '=', userId).execute()) as unknown as Array<{ id: number }>;
  const currentIds = current.map((r) => Number(r.id));
  const inReach = (id: number) => manageable === undefined || manageable.includes(id);
  const remove = currentIds.filter((id) => inReach(id) && !ids.includes(id));
  const add = ids.filter((id) => inReach(id) && !currentIds.includes(id));
  if (remove.length) {
    await trx
      .deleteFrom(table)
      .where('user_id', '=', userId)
      .where(column as never, 'in', remove as never)
      .execute();
  }
  for (const id of add) {
    await trx
      .insertInto(table)
      .values({ user_id: userId, [column]: id })
      .execute();
  }
}

export async function updateUserRecord(trx: Transaction<DB>, userId: number, values: Record<string, unknown>, by: string): Promise<void> {
  await trx
    .updateTable('app_user')
    .set({ ...(values as object), updated_at: sql`now()`, updated_by: by })
    .where('id', '=', userId)
    .execute();
}

export async function setUsersEnabled(trx: Transaction<DB>, userIds: number[], enabled: boolean, by: string): Promise<number> {
  if (!userIds.length) return 0;
  const result = await trx
    .updateTable('app_user')
    .set({ enabled, updated_at: sql`now()`, updated_by: by })
    .where('id', 'in', userIds)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function listLoginAccounts(db: Kysely<DB>, projectId: number | undefined) {
  let query = db.selectFrom('app_user as u').select(['u.id as uid', 'u.login_account as loginAccount', 'u.display_name as displayName']).where('u.enabled', '=', true);
  if (projectId !== undefined) {
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('user_project as up').select('up.user_id').whereRef('up.user_id', '=', 'u.id').where('up.project_id', '=', projectId)),
    );
  }
  return query.orderBy('u.login_account').limit(1000).execute();
}

/** Grants one project to a user (nothing when it already has it). */
export async function grantProject(trx: Transaction<DB>, userId: number, projectId: number): Promise<void> {
  await trx.insertInto('user_project').values({ user_id: userId, project_id: projectId }).onConflict((oc) => oc.doNothing()).execute();
}

export async function listOrganizations(db: Kysely<DB>) {
  return db.selectFrom('organization').select(['id', 'code', 'name']).orderBy('code').execute();
}

/** The enabled roles, lowest level first. */
export async function listAssignableRoles(db: Kysely<DB>) {
  return db
    .selectFrom('role as r')
    .select(['r.id', 'r.name', 'r.role_type as roleType', 'r.role_level as roleLevel'])
    .where('r.enabled', '=', true)
    .orderBy('r.role_level')
    .orderBy('r.name')
    .execute();
}

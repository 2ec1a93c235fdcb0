import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { PermissionRow } from '../access/access.repository.js';

export async function listRoles(db: Kysely<DB>, search: string | undefined, page: { offset: number; limit: number }) {
  let query = db.selectFrom('role as r');
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('r.name', 'ilike', pattern), eb('r.description', 'ilike', pattern), eb('r.role_type', 'ilike', pattern)]));
  }
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .select((eb) => [
      'r.id',
      'r.name',
      'r.role_type',
      'r.role_level',
      'r.description',
      'r.enabled',
      'r.updated_at',
      eb.selectFrom('user_role as ur').select((e) => e.fn.countAll<number>().as('n')).whereRef('ur.role_id', '=', 'r.id').as('user_count'),
    ])
    .orderBy('r.role_level')
    .orderBy('r.name')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return { rows, total: Number(total.n) };
}

export async function findRole(db: Kysely<DB>, id: number) {
  return db.selectFrom('role').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findRoleByName(db: Kysely<DB>, name: string) {
  return db.selectFrom('role').selectAll().where(sql<string>`lower(name)`, '=', name.trim().toLowerCase()).executeTakeFirst();
}

export async function findRolePermissions(db: Kysely<DB>, roleId: number) {
  return db
    .selectFrom('role_permission')
    .select(['module_code', 'sub_module_code', 'can_view', 'can_add', 'can_edit', 'can_delete'])
    .where('role_id', '=', roleId)
    .orderBy('module_code')
    .orderBy('sub_module_code')
    .execute();
}

export async function findRoleRuleIds(db: Kysely<DB>, roleId: number): Promise<number[]> {
  return (await db.selectFrom('role_rule').select('rule_id').where('role_id', '=', roleId).execute()).map((r) => r.rule_id);
}

export async function findRoleUsers(db: Kysely<DB>, roleId: number) {
  return db
    .selectFrom('user_role as ur')
    .innerJoin('app_user as u', 'u.id', 'ur.user_id')
    .select(['u.id as uid', 'u.login_account as loginAccount', 'u.display_name as displayName', 'u.enabled'])
    .where('ur.role_id', '=', roleId)
    .orderBy('u.login_account')
    .execute();
}

export async function insertRole(
  trx: Transaction<DB>,
  values: { name: string; role_type: string; role_level: number; description: string | null; enabled: boolean; by: string },
): Promise<number> {
  const { by, ...rest } = values;
  const row = await trx.insertInto('role').values({ ...rest, created_by: by, updated_by: by }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRole(
  trx: Transaction<DB>,
  id: number,
  values: { name: string; role_type: string; role_level: number; description: string | null; enabled: boolean; by: string },
): Promise<void> {
  const { by, ...rest } = values;
  await trx.updateTable('role').set({ ...rest, updated_at: sql`now()`, updated_by: by }).where('id', '=', id).execute();
}

/** A role's permission on a module (or one of its sub-modules): the columns of a permission row. */
export type PermissionValues = PermissionRow;

export async function replaceRolePermissions(trx: Transaction<DB>, roleId: number, rows: PermissionValues[]): Promise<void> {
  await trx.deleteFrom('role_permission').where('role_id', '=', roleId).execute();
  if (rows.length) await trx.insertInto('role_permission').values(rows.map((r) => ({ ...r, role_id: roleId }))).execute();
}

export async function replaceRoleRules(trx: Transaction<DB>, roleId: number, ruleIds: number[]): Promise<void> {
  await trx.deleteFrom('role_rule').where('role_id', '=', roleId).execute();
  if (ruleIds.length) await trx.insertInto('role_rule').values(ruleIds.map((rule_id) => ({ role_id: roleId, rule_id }))).execute();
}

export async function deleteRoles(trx: Transaction<DB>, ids: number[]): Promise<number> {
  const result = await trx.deleteFrom('role').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Every module a right may name: the menu's codes, the modules of the rights menu entries ask for
 * (`masterdata` of `masterdata.sku`) and the modules of page definitions (whose pages check
 * `<moduleCode>.<functionCode>`).
 */
export async function findModuleCodes(db: Kysely<DB>): Promise<Set<string>> {
  const [modules, pages] = await Promise.all([
    db.selectFrom('sys_module').select(['code', 'right_name']).execute(),
    db.selectFrom('page_definition').select('module_code').distinct().execute(),
  ]);
  const codes = new Set<string>();
  for (const m of modules) {
    codes.add(m.code);
    if (m.right_name) codes.add(m.right_name.split('.')[0]);
  }
  for (const p of pages) codes.add(p.module_code);
  return codes;
}

export async function findModulesCatalogue(db: Kysely<DB>) {
  return db.selectFrom('sys_module').select(['code', 'parent_code', 'title_key', 'route', 'sequence']).where('enabled', '=', true).orderBy('sequence').execute();
}

// --- rules (/all_rule) ---

export async function listRules(db: Kysely<DB>) {
  return db.selectFrom('access_rule').select(['id', 'name', 'rule_type', 'description', 'updated_at']).orderBy('name').execute();
}

export async function findRule(db: Kysely<DB>, id: number) {
  return db.selectFrom('access_rule').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findRuleByName(db: Kysely<DB>, name: string) {
  return db.selectFrom('access_rule').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function countRulesWithIds(db: Kysely<DB>, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const row = await db.selectFrom('access_rule').select((eb) => eb.fn.countAll<number>().as('n')).where('id', 'in', ids).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertRule(trx: Transaction<DB>, values: { name: string; rule_type: string; description: string | null; by: string }): Promise<number> {
  const { by, ...rest } = values;
  const row = await trx.insertInto('access_rule').values({ ...rest, created_by: by, updated_by: by }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRule(trx: Transaction<DB>, id: number, values: { name: string; rule_type: string; description: string | null; by: string }): Promise<void> {
  const { by, ...rest } = values;
  await trx.updateTable('access_rule').set({ ...rest, updated_at: sql`now()`, updated_by: by }).where('id', '=', id).execute();
}

export async function deleteRules(trx: Transaction<DB>, ids: number[]): Promise<number> {
  const result = await trx.deleteFrom('access_rule').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function rolesOf(db: Kysely<DB>, uid: number): Promise<number[]> {
  return (await db.selectFrom('user_role').select('role_id').where('user_id', '=', uid).execute()).map((r) => r.role_id);
}

export async function removeUserRole(trx: Transaction<DB>, uid: number, roleId: number): Promise<void> {
  await trx.deleteFrom('user_role').where('user_id', '=', uid).where('role_id', '=', roleId).execute();
}

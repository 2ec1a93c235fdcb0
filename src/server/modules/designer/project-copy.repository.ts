import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The SQL of copying pages into a new project. */

export async function findProjectPageKeys(db: Kysely<DB>, projectId: number) {
  return db
    .selectFrom('page_definition')
    .select(['module_code', 'function_code'])
    .where((eb) => eb.or([eb('project_id', '=', projectId), eb('project_id', 'is', null)]))
    .distinct()
    .execute();
}

export async function findProjectOrganization(db: Kysely<DB>, projectId: number) {
  return db.selectFrom('project').select(['organization_id']).where('id', '=', projectId).executeTakeFirstOrThrow();
}

export async function findProjectByCode(db: Kysely<DB>, code: string) {
  return db.selectFrom('project').select('id').where((eb) => eb(eb.fn('lower', ['code']), '=', code.toLowerCase())).executeTakeFirst();
}

/** A new project that runs in the source project's warehouses. */
export async function insertProjectLike(
  trx: Transaction<DB>,
  project: { organizationId: number; code: string; name: string; by: string },
  sourceProjectId: number,
): Promise<{ id: number; code: string }> {
  const row = await trx
    .insertInto('project')
    .values({ organization_id: project.organizationId, code: project.code, name: project.name, created_by: project.by, updated_by: project.by })
    .returning(['id', 'code'])
    .executeTakeFirstOrThrow();
  const warehouses = await trx.selectFrom('project_warehouse').select('warehouse_id').where('project_id', '=', sourceProjectId).execute();
  if (warehouses.length) await trx.insertInto('project_warehouse').values(warehouses.map((w) => ({ project_id: row.id, warehouse_id: w.warehouse_id }))).execute();
  return row;
}

export async function grantProjectTo(trx: Transaction<DB>, userId: number, projectId: number): Promise<void> {
  await trx.insertInto('user_project').values({ user_id: userId, project_id: projectId }).execute();
}

import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';

/** The SQL of creating projects, granting them and their warehouses' and projects' settings. */

export async function insertProject(trx: Transaction<DB>, project: { organizationId: number; code: string; name: string; by: string }): Promise<{ id: number; code: string }> {
  return trx
    .insertInto('project')
    .values({ organization_id: project.organizationId, code: project.code, name: project.name, created_by: project.by, updated_by: project.by })
    .returning(['id', 'code'])
    .executeTakeFirstOrThrow();
}

/** Links a project to every warehouse another project runs in. */
export async function copyProjectWarehouses(trx: Transaction<DB>, fromProjectId: number, toProjectId: number): Promise<void> {
  const warehouses = await trx.selectFrom('project_warehouse').select('warehouse_id').where('project_id', '=', fromProjectId).execute();
  if (warehouses.length) await trx.insertInto('project_warehouse').values(warehouses.map((w) => ({ project_id: toProjectId, warehouse_id: w.warehouse_id }))).execute();
}

export async function insertUserProject(trx: Transaction<DB>, userId: number, projectId: number): Promise<void> {
  await trx.insertInto('user_project').values({ user_id: userId, project_id: projectId }).execute();
}

/** Sets the navigation layout of a warehouse or a project (the tables share the column). */
export async function updateNavLayout(trx: Transaction<DB>, table: 'warehouse' | 'project', id: number, navLayout: 'left' | 'top', by: string): Promise<void> {
  await trx
    .updateTable(table)
    .set({ nav_layout: navLayout, updated_at: sql<Date>`now()`, updated_by: by })
    .where('id', '=', id)
    .execute();
}

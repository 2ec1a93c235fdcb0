import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { copyProjectWarehouses, insertProject, insertUserProject, updateNavLayout } from './project.repository.js';

/**
 * A new project of an organization that runs in the warehouses of an existing project (the
 * designer's copy of pages into a new project), in the caller's transaction.
 */
export async function createProjectLike(
  trx: Transaction<DB>,
  project: { organizationId: number; code: string; name: string; by: string },
  sourceProjectId: number,
): Promise<{ id: number; code: string }> {
  const row = await insertProject(trx, project);
  await copyProjectWarehouses(trx, sourceProjectId, row.id);
  return row;
}

/** Grants a user a project, in the caller's transaction. */
export function grantProject(trx: Transaction<DB>, userId: number, projectId: number): Promise<void> {
  return insertUserProject(trx, userId, projectId);
}

/** Sets the navigation layout of a warehouse, or of a project (the setting when the session has no warehouse). */
export function setNavLayout(trx: Transaction<DB>, target: { warehouseId: number } | { projectId: number }, navLayout: 'left' | 'top', by: string): Promise<void> {
  return 'warehouseId' in target ? updateNavLayout(trx, 'warehouse', target.warehouseId, navLayout, by) : updateNavLayout(trx, 'project', target.projectId, navLayout, by);
}

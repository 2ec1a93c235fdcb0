import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

export type DesignerAction =
  | 'draft.save'
  | 'draft.delete'
  | 'publish'
  | 'rollback'
  | 'deactivate'
  | 'copy'
  | 'import'
  | 'menu.publish'
  | 'cache.clear'
  | 'project.create';

export interface DesignerAuditEntry {
  userId: number;
  loginAccount: string;
  projectId: number | null;
  action: DesignerAction;
  moduleCode?: string;
  functionCode?: string;
  version?: number;
  details?: unknown;
}

/** Appends one entry of the designer's audit trail; call it inside the change's transaction. */
export async function insertDesignerAudit(trx: Transaction<DB>, entry: DesignerAuditEntry): Promise<void> {
  await trx
    .insertInto('designer_audit')
    .values({
      user_id: entry.userId,
      login_account: entry.loginAccount,
      project_id: entry.projectId,
      action: entry.action,
      module_code: entry.moduleCode ?? null,
      function_code: entry.functionCode ?? null,
      version: entry.version ?? null,
      details: entry.details === undefined ? null : JSON.stringify(entry.details),
    })
    .execute();
}

/** The project's audit trail, newest first, optionally of one module or page. */
export async function findDesignerAudit(
  db: Kysely<DB>,
  filter: { projectId: number; moduleCode?: string; functionCode?: string; limit: number },
) {
  let query = db
    .selectFrom('designer_audit')
    .select(['id', 'at', 'login_account', 'action', 'module_code', 'function_code', 'version', 'details'])
    .where('project_id', '=', filter.projectId);
  if (filter.moduleCode !== undefined) query = query.where('module_code', '=', filter.moduleCode);
  if (filter.functionCode !== undefined) query = query.where('function_code', '=', filter.functionCode);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}

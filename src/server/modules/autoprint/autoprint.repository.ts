import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AutoPrintEvent } from './autoprint.tables.js';

type Db = Kysely<DB> | Transaction<DB>;
interface Scope {
  projectId: number;
  warehouseId: number;
}

const COLUMNS = ['id', 'event', 'template_id', 'printer_id', 'copies', 'active', 'remark', 'updated_at', 'updated_by'] as const;

/** The rules of a project and warehouse, by event and id. */
export function rulesOf(db: Db, scope: Scope) {
  return db.selectFrom('auto_print_rule').select(COLUMNS).where('project_id', '=', scope.projectId).where('warehouse_id', '=', scope.warehouseId).orderBy('event').orderBy('id').execute();
}

/** The active rules of an event in a project and warehouse. */
export function activeRulesOf(db: Db, scope: Scope, event: AutoPrintEvent) {
  return db
    .selectFrom('auto_print_rule')
    .select(COLUMNS)
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where('event', '=', event)
    .where('active', '=', true)
    .orderBy('id')
    .execute();
}

export function findRule(db: Db, scope: Scope, id: number, forUpdate = false) {
  let query = db.selectFrom('auto_print_rule').select(COLUMNS).where('project_id', '=', scope.projectId).where('warehouse_id', '=', scope.warehouseId).where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}
export type RuleRow = NonNullable<Awaited<ReturnType<typeof findRule>>>;

export interface RuleValues {
  event: AutoPrintEvent;
  template_id: number;
  printer_id: number;
  copies: number;
  active: boolean;
  remark: string | null;
}

export async function insertRule(trx: Transaction<DB>, scope: Scope, values: RuleValues, by: string): Promise<number> {
  const row = await trx
    .insertInto('auto_print_rule')
    .values({ ...values, project_id: scope.projectId, warehouse_id: scope.warehouseId, created_by: by, updated_by: by })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateRule(trx: Transaction<DB>, id: number, values: RuleValues, by: string): Promise<void> {
  await trx.updateTable('auto_print_rule').set({ ...values, updated_by: by, updated_at: new Date() }).where('id', '=', id).execute();
}

export async function deleteRules(trx: Transaction<DB>, scope: Scope, ids: readonly number[]): Promise<number> {
  const result = await trx.deleteFrom('auto_print_rule').where('project_id', '=', scope.projectId).where('warehouse_id', '=', scope.warehouseId).where('id', 'in', [...ids]).executeTakeFirst();
  return Number(result.numDeletedRows);
}

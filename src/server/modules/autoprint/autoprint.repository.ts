import type { Kysely, Transaction } from 'kysely';
import { insertPlacedRow } from '../../db/row-writes.js';
import type { DB } from '../../db/schema.js';
import type { AutoPrintEvent } from './autoprint.tables.js';

type Db = Kysely<DB> | Transaction<DB>;
interface Scope {
  projectId: number;
  warehouseId: number;
}

const COLUMNS = ['id', 'event', 'template_id', 'printer_id', 'copies', 'active', 'remark', 'cron_expression', 'report_id', 'updated_at', 'updated_by'] as const;

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
  cron_expression: string | null;
  report_id: number | null;
}

export async function insertRule(trx: Transaction<DB>, scope: Scope, values: RuleValues, by: string): Promise<number> {
  return insertPlacedRow(trx, 'auto_print_rule', scope, values, by);
}

/** Changes a rule; a changed schedule counts its times from now on (`last_tick` forgotten). */
export async function updateRule(trx: Transaction<DB>, id: number, values: RuleValues, by: string): Promise<void> {
  await trx.updateTable('auto_print_rule').set({ ...values, last_tick: null, updated_by: by, updated_at: new Date() }).where('id', '=', id).execute();
}

/**
 * The active schedule rules of every warehouse, with the codes of their project and warehouse and
 * the time from which their schedule's times are still to print: the last one printed, else the
 * rule's last change.
 */
export function activeScheduleRules(db: Db) {
  return db
    .selectFrom('auto_print_rule as r')
    .innerJoin('project as p', 'p.id', 'r.project_id')
    .innerJoin('warehouse as w', 'w.id', 'r.warehouse_id')
    .select(COLUMNS.map((c) => `r.${c}` as const))
    .select(['r.project_id', 'r.warehouse_id', 'r.last_tick', 'p.code as project_code', 'w.code as warehouse_code'])
    .where('r.event', '=', 'schedule')
    .where('r.active', '=', true)
    .orderBy('r.id')
    .execute();
}
export type ScheduleRuleRow = Awaited<ReturnType<typeof activeScheduleRules>>[number];

/**
 * Takes a time of a schedule rule to print: only one caller wins it (the rule's `last_tick` moves
 * to it once), so a time prints once across every node and every retry. False when it was taken.
 */
export async function claimScheduleTick(trx: Transaction<DB>, id: number, tick: Date): Promise<boolean> {
  const result = await trx
    .updateTable('auto_print_rule')
    .set({ last_tick: tick })
    .where('id', '=', id)
    .where('event', '=', 'schedule')
    .where('active', '=', true)
    .where((eb) => eb.or([eb('last_tick', 'is', null), eb('last_tick', '<', tick)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteRules(trx: Transaction<DB>, scope: Scope, ids: readonly number[]): Promise<number> {
  const result = await trx.deleteFrom('auto_print_rule').where('project_id', '=', scope.projectId).where('warehouse_id', '=', scope.warehouseId).where('id', 'in', [...ids]).executeTakeFirst();
  return Number(result.numDeletedRows);
}

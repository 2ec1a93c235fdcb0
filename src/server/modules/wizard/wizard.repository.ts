import { sql, type Transaction } from 'kysely';
import type { DB, Db } from '../../db/schema.js';
import type { WizardKind, WizardPlace } from './wizard.service.js';

/** The available quantity of a balance row: on hand less allocated, picked and held. */
const AVAILABLE = sql`(b.on_hand_qty - b.allocated_qty - b.picked_qty - b.held_qty)`;

export async function findTempOrder(db: Db, place: WizardPlace, kind: WizardKind) {
  return db
    .selectFrom('wizard_order')
    .select(['id', 'current_step', 'data', 'updated_at'])
    .where('user_id', '=', place.userId)
    .where('kind', '=', kind)
    .where('project_id', '=', place.projectId)
    .where('warehouse_id', '=', place.warehouseId)
    .executeTakeFirst();
}

/** Locks the user's temporary order of this kind, so two tabs saving at once apply one after the other. */
export async function lockTempOrder(trx: Transaction<DB>, place: WizardPlace, kind: WizardKind) {
  return trx
    .selectFrom('wizard_order')
    .select(['id', 'current_step', 'data'])
    .where('user_id', '=', place.userId)
    .where('kind', '=', kind)
    .where('project_id', '=', place.projectId)
    .where('warehouse_id', '=', place.warehouseId)
    .forUpdate()
    .executeTakeFirst();
}

export async function upsertTempOrder(trx: Transaction<DB>, place: WizardPlace, kind: WizardKind, step: number, data: Record<string, unknown>): Promise<void> {
  const json = JSON.stringify(data);
  await trx
    .insertInto('wizard_order')
    .values({ project_id: place.projectId, warehouse_id: place.warehouseId, user_id: place.userId, kind, current_step: step, data: json, created_by: place.login, updated_by: place.login })
    .onConflict((oc) =>
      oc.constraint('wizard_order_owner_key').doUpdateSet({ current_step: step, data: json, updated_by: place.login, updated_at: sql`now()` }),
    )
    .execute();
}

export async function deleteTempOrder(trx: Transaction<DB>, place: WizardPlace, kind: WizardKind): Promise<number> {
  const result = await trx
    .deleteFrom('wizard_order')
    .where('user_id', '=', place.userId)
    .where('kind', '=', kind)
    .where('project_id', '=', place.projectId)
    .where('warehouse_id', '=', place.warehouseId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function ownersOfProject(db: Db, projectId: number) {
  const rows = await db.selectFrom('owner').select(['id', 'code', 'name']).where('project_id', '=', projectId).where('active', '=', true).orderBy('code').execute();
  return rows.map((r) => ({ id: Number(r.id), code: r.code, name: r.name }));
}

export async function findOwner(db: Db, projectId: number, id: number) {
  return db.selectFrom('owner').select(['id', 'code']).where('project_id', '=', projectId).where('id', '=', id).where('active', '=', true).executeTakeFirst();
}

export async function partnersOfProject(db: Db, projectId: number, type: 'consignee' | 'carrier') {
  const rows = await db
    .selectFrom('partner')
    .select(['id', 'code', 'name', 'contact_name', 'phone', 'address1', 'address2', 'city', 'country'])
    .where('project_id', '=', projectId)
    .where('partner_type', '=', type)
    .where('active', '=', true)
    .orderBy('code')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Whether the project has an active partner of the type with this id or code. */
export async function hasPartner(db: Db, projectId: number, type: 'consignee' | 'carrier', key: { id: number } | { code: string }): Promise<boolean> {
  let query = db.selectFrom('partner').select('id').where('project_id', '=', projectId).where('partner_type', '=', type).where('active', '=', true);
  query = 'id' in key ? query.where('id', '=', key.id) : query.where('code', '=', key.code);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function vasInstructions(db: Db) {
  return db
    .selectFrom('code_master')
    .select(['code', 'desc_en', 'desc_zh', 'desc_zh_tw', 'desc_kor', 'desc_th', 'desc_jp'])
    .where('code_type', '=', 'VAS_INSTRUCTION')
    .orderBy('sort_seq')
    .orderBy('code')
    .execute();
}

/**
 * The owner's SKUs matching the text, with the quantity available in the warehouse's storage and
 * pick locations. The non-merchandise wizard offers only SKUs marked as gifts (non-merchandise
 * items such as displays, samples and giveaways); the wine wizard only the others.
 */
export async function itemsWithStock(db: Db, place: WizardPlace, kind: WizardKind, ownerId: number, text: string, limit: number, skuIds?: readonly number[]) {
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const only = skuIds ? sql`and s.id = any(${sql.val([...skuIds])}::bigint[])` : sql`and (s.code ilike ${like} or s.description ilike ${like})`;
  const result = await sql<{ id: string; code: string; description: string; base_uom: string; available: string }>`
    select s.id, s.code, s.description, s.base_uom,
           coalesce((select sum(${AVAILABLE}) from inventory_balance b
                       join location loc on loc.id = b.location_id
                      where b.warehouse_id = ${place.warehouseId} and b.sku_id = s.id and loc.status = 'active' and loc.location_type in ('storage', 'pick')), 0)::text as available
      from sku s
     where s.project_id = ${place.projectId} and s.owner_id = ${ownerId} and s.active and s.gift = ${kind === 'nonMer'} ${only}
     order by s.code
     limit ${limit}`.execute(db);
  return result.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

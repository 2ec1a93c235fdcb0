import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import './storage.tables.js';

/** SQL of the storage snapshot, the expiry alert and the people inventory notices go to. */

export interface WarehouseRow {
  id: number;
  code: string;
  timeZone: string;
}

/** Every warehouse, or the one of this code (none when no warehouse has it). */
export async function findWarehouses(db: Kysely<DB>, code: string | undefined): Promise<WarehouseRow[]> {
  let query = db.selectFrom('warehouse').select(['id', 'code', 'time_zone']).orderBy('id');
  if (code !== undefined) query = query.where('code', '=', code);
  return (await query.execute()).map((w) => ({ id: Number(w.id), code: w.code, timeZone: w.time_zone }));
}

/** The calendar day a moment falls on in a time zone, shifted by whole days. */
export async function dayInZone(db: Kysely<DB>, at: Date, timeZone: string, shiftDays: number): Promise<string> {
  const result = await sql<{ day: string }>`select to_char((${at}::timestamptz at time zone ${timeZone})::date + ${shiftDays}::int, 'YYYY-MM-DD') as day`.execute(db);
  return result.rows[0].day;
}

/**
 * Replaces one warehouse's snapshot of a day: the on-hand at `asOf` (today's balance less the ledger
 * written after it) summed by project x owner x SKU x location type, with the distinct locations,
 * LPNs and pallet ids that held it, and what storage tariffs charge by (docs/billing.md): pallets
 * (the distinct pallet ids, plus the stock on none divided by the SKU's pallet size, rounded up),
 * cubic metres (the SKU's volume, else length x width x height) and kilograms (its gross weight).
 * Answers the rows written.
 */
export async function replaceSnapshot(trx: Transaction<DB>, input: { day: string; warehouseId: number; asOf: Date; by: string }): Promise<{ rows: number; qty: string }> {
  const { day, warehouseId, asOf, by } = input;
  await trx.deleteFrom('storage_snapshot').where('snapshot_date', '=', day).where('warehouse_id', '=', warehouseId).execute();
  const result = await sql<{ n: string; qty: string | null }>`
    with later as (
      select balance_id, sum(qty) as qty
      from inventory_transaction
      where warehouse_id = ${warehouseId} and trans_time > ${asOf}
      group by balance_id
    ), stock as (
      select b.project_id, b.owner_id, b.sku_id, b.location_id, loc.location_type, b.lpn, nullif(l.pallet_id, '') as pallet_id, b.on_hand_qty - coalesce(later.qty, 0) as qty
      from inventory_balance b
      join lot l on l.id = b.lot_id
      join location loc on loc.id = b.location_id
      left join later on later.balance_id = b.id
      where b.warehouse_id = ${warehouseId}
    ), summed as (
      select project_id, owner_id, sku_id, location_type, sum(qty) as qty, count(distinct location_id) as locations,
             count(distinct nullif(lpn, '')) as lpns, count(distinct pallet_id) as pallets,
             coalesce(sum(qty) filter (where pallet_id is null), 0) as loose
      from stock
      where qty <> 0
      group by project_id, owner_id, sku_id, location_type
    ), written as (
      insert into storage_snapshot (snapshot_date, project_id, warehouse_id, owner_id, sku_id, location_type, on_hand_qty, location_count, lpn_count, pallet_count, cbm, weight_kg, taken_by)
      select ${day}::date, m.project_id, ${warehouseId}, m.owner_id, m.sku_id, m.location_type, m.qty, m.locations, m.lpns,
             m.pallets + case when m.loose > 0 then coalesce(ceil(m.loose / nullif(s.case_qty * s.pallet_cases, 0)), 0) else 0 end,
             round(m.qty * coalesce(nullif(s.volume_cm3, 0), s.length_cm * s.width_cm * s.height_cm, 0) / 1000000, 6),
             round(m.qty * coalesce(s.gross_weight_kg, 0), 4), ${by}
      from summed m
      join sku s on s.id = m.sku_id
      returning on_hand_qty
    )
    select count(*)::text as n, sum(on_hand_qty)::text as qty from written`.execute(trx);
  return { rows: Number(result.rows[0]?.n ?? 0), qty: result.rows[0]?.qty ?? '0' };
}

export interface ExpiringLot {
  lotId: number;
  projectId: number;
  expired: boolean;
  qty: string;
}

/** Lots with stock on hand in the warehouse whose expiry date is on or before `until` (expired ones included). */
export async function findExpiringLots(db: Kysely<DB>, warehouseId: number, today: string, until: string): Promise<ExpiringLot[]> {
  const result = await sql<{ lot_id: string; project_id: string; expired: boolean; qty: string }>`
    select l.id as lot_id, l.project_id, l.expiry_date < ${today}::date as expired, sum(b.on_hand_qty)::text as qty
    from inventory_balance b
    join lot l on l.id = b.lot_id
    where b.warehouse_id = ${warehouseId} and b.on_hand_qty > 0 and l.expiry_date is not null and l.expiry_date <= ${until}::date
    group by l.id, l.project_id, l.expiry_date
    order by l.expiry_date, l.id`.execute(db);
  return result.rows.map((r) => ({ lotId: Number(r.lot_id), projectId: Number(r.project_id), expired: r.expired, qty: r.qty }));
}

/** Records the lots as announced today; answers those not announced before (a lot is announced once a day). */
export async function markAlertsSent(trx: Transaction<DB>, day: string, warehouseId: number, lotIds: number[]): Promise<Set<number>> {
  if (lotIds.length === 0) return new Set();
  const rows = await trx
    .insertInto('expiry_alert_sent')
    .values(lotIds.map((lotId) => ({ alert_date: day, warehouse_id: warehouseId, lot_id: lotId })))
    .onConflict((oc) => oc.columns(['alert_date', 'warehouse_id', 'lot_id']).doNothing())
    .returning('lot_id')
    .execute();
  return new Set(rows.map((r) => Number(r.lot_id)));
}

/** The user `u` is an administrator or granted the warehouse or project (a `grants` row naming the user and, in `column`, `scopeId`). */
function adminOrGranted(grants: 'user_warehouse' | 'user_project', column: 'warehouse_id' | 'project_id', scopeId: number) {
  return sql<SqlBool>`(u.is_admin = true or exists (select g.user_id from ${sql.table(grants)} g where g.user_id = u.id and ${sql.ref(`g.${column}`)} = ${scopeId}))`;
}

/**
 * Enabled users who may work in the warehouse (granted it, or administrators) and, when a project
 * is given, in the project; the right itself is checked by the caller. At most `limit`, lowest ids
 * first, never the account left out.
 */
export async function findWarehouseUsers(
  db: Kysely<DB>,
  input: { warehouseId: number; projectId: number | null; exceptLogin?: string | null; limit: number },
): Promise<Array<{ id: number; isAdmin: boolean }>> {
  let query = db
    .selectFrom('app_user as u')
    .select(['u.id', 'u.is_admin'])
    .where('u.enabled', '=', true)
    .where(adminOrGranted('user_warehouse', 'warehouse_id', input.warehouseId));
  if (input.projectId !== null) query = query.where(adminOrGranted('user_project', 'project_id', input.projectId));
  if (input.exceptLogin) query = query.where('u.login_account', '<>', input.exceptLogin);
  const rows = await query.orderBy('u.id').limit(input.limit).execute();
  return rows.map((r) => ({ id: Number(r.id), isAdmin: r.is_admin }));
}

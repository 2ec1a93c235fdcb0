import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../db/schema.js';
import { whereInScope } from '../../db/scoped-rows.js';
import { TRANSIT_CODE } from './document.repository.js';
import type { CountPlanTable, CountTicketLineTable, CountTicketTable } from './inventory.tables.js';

/** SQL of the cycle count: plans, tickets, their lines, and the stock a count order covers. */

export type CountPlanRow = Selectable<CountPlanTable>;
export type CountTicketRow = Selectable<CountTicketTable>;
export type CountLineRow = Selectable<CountTicketLineTable>;

export async function ticketLines(trx: Transaction<DB>, ticketId: number): Promise<CountLineRow[]> {
  return trx.selectFrom('count_ticket_line').selectAll().where('ticket_id', '=', ticketId).orderBy('line_no').execute();
}

export async function insertTicket(trx: Transaction<DB>, ticket: Insertable<CountTicketTable>): Promise<number> {
  const row = await trx.insertInto('count_ticket').values(ticket).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function insertTicketLines(trx: Transaction<DB>, lines: Insertable<CountTicketLineTable>[]): Promise<void> {
  for (let i = 0; i < lines.length; i += 500) await trx.insertInto('count_ticket_line').values(lines.slice(i, i + 500)).execute();
}

export async function updateTicket(trx: Transaction<DB>, ticketId: number, patch: Updateable<CountTicketTable>): Promise<void> {
  await trx.updateTable('count_ticket').set({ ...patch, updated_at: sql<Date>`now()` }).where('id', '=', ticketId).execute();
}

export async function updateLine(trx: Transaction<DB>, lineId: number, patch: Updateable<CountTicketLineTable>): Promise<void> {
  await trx.updateTable('count_ticket_line').set({ ...patch, updated_at: sql<Date>`now()` }).where('id', '=', lineId).execute();
}

export async function updatePlanRun(trx: Transaction<DB>, planId: number): Promise<void> {
  await trx.updateTable('count_plan').set({ last_run_at: sql<Date>`now()` }).where('id', '=', planId).execute();
}

export interface CountSelection {
  warehouseId: number;
  projectId: number;
  zone?: string | null;
  locationFrom?: string | null;
  locationTo?: string | null;
  skuId?: number | null;
  abcClass?: string | null;
  notCountedDays?: number | null;
  maxLocations: number;
  /** Leave out locations holding allocated, picked or held stock (the user confirmed ignoring them). */
  ignoreCommitted: boolean;
}

/**
 * The balance rows a count order covers: stock of the warehouse's locations within the plan's
 * zone, location range, SKU, ABC class (by movements in the ledger of the last 90 days: the top
 * fifth of SKUs is A, the next three tenths B, the rest C) and not counted for the given days;
 * never the transit location, never a location already on an open ticket. The locations counted
 * longest ago come first, at most `maxLocations` of them.
 */
export async function stockToCount(trx: Transaction<DB>, s: CountSelection) {
  const committed = s.ignoreCommitted
    ? sql`and not exists (select 1 from inventory_balance c where c.location_id = b.location_id and (c.allocated_qty > 0 or c.picked_qty > 0 or c.held_qty > 0))`
    : sql``;
  const abc = s.abcClass
    ? sql`and b.sku_id in (
        select sku_id from (
          select m.sku_id, percent_rank() over (order by m.moves desc) as rank
          from (select s.id as sku_id, count(t.id) as moves from sku s
                left join inventory_transaction t on t.sku_id = s.id and t.trans_time > now() - interval '90 days'
                where s.project_id = ${s.projectId} group by s.id) m
        ) ranked
        where case when rank < 0.2 then 'A' when rank < 0.5 then 'B' else 'C' end = ${s.abcClass})`
    : sql``;
  const result = await sql<{ location_id: string; owner_id: string; sku_id: string; lot_id: string; lpn: string; on_hand_qty: string }>`
    with counted as (
      select l.location_id, max(l.counted_at) as last_counted
      from count_ticket_line l where l.warehouse_id = ${s.warehouseId} group by l.location_id
    ),
    candidates as (
      select loc.id as location_id, coalesce(c.last_counted, 'epoch'::timestamptz) as last_counted
      from location loc left join counted c on c.location_id = loc.id
      where loc.warehouse_id = ${s.warehouseId} and loc.code <> ${TRANSIT_CODE} and loc.status <> 'inactive'
        ${s.zone ? sql`and loc.zone = ${s.zone}` : sql``}
        ${s.locationFrom ? sql`and loc.code >= ${s.locationFrom}` : sql``}
        ${s.locationTo ? sql`and loc.code <= ${s.locationTo}` : sql``}
        ${s.notCountedDays != null ? sql`and coalesce(c.last_counted, 'epoch'::timestamptz) < now() - make_interval(days => ${s.notCountedDays}::int)` : sql``}
        and not exists (
          select 1 from count_ticket_line ol join count_ticket ot on ot.id = ol.ticket_id
          where ol.location_id = loc.id and ot.status in ('open', 'counted'))
        and exists (
          select 1 from inventory_balance b where b.location_id = loc.id and b.on_hand_qty > 0
            ${s.skuId ? sql`and b.sku_id = ${s.skuId}` : sql``} ${abc} ${committed})
      order by last_counted, loc.code
      limit ${s.maxLocations}
    )
    select b.location_id, b.owner_id, b.sku_id, b.lot_id, b.lpn, b.on_hand_qty
    from inventory_balance b join candidates c on c.location_id = b.location_id
    join location loc on loc.id = b.location_id
    where b.warehouse_id = ${s.warehouseId} and b.project_id = ${s.projectId} and b.on_hand_qty > 0
      ${s.skuId ? sql`and b.sku_id = ${s.skuId}` : sql``} ${abc}
    order by loc.code, b.sku_id, b.lot_id, b.lpn`.execute(trx);
  return result.rows.map((r) => ({ locationId: Number(r.location_id), ownerId: Number(r.owner_id), skuId: Number(r.sku_id), lotId: Number(r.lot_id), lpn: r.lpn, onHand: r.on_hand_qty }));
}

/**
 * Makes the transactions that raise a count for one location queue: the second sees the ticket the
 * first made, so a location is never on two open tickets at once.
 */
export async function lockLocationCount(trx: Transaction<DB>, locationId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`count_ticket_location:${locationId}`}, 0))`.execute(trx);
}

/** The open or counted ticket of the project that already covers the location, if any (the oldest). */
export async function openTicketAtLocation(trx: Transaction<DB>, projectId: number, warehouseId: number, locationId: number): Promise<number | undefined> {
  const row = await trx
    .selectFrom('count_ticket_line as l')
    .innerJoin('count_ticket as t', 't.id', 'l.ticket_id')
    .select('t.id')
    .where('l.location_id', '=', locationId)
    .$call((q) => whereInScope(q, 't', { projectId, warehouseId }))
    .where('t.status', 'in', ['open', 'counted'])
    .orderBy('t.id')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}

/** The project's stock on hand at one location, as a count ticket lists it (SKU, lot, LPN). */
export async function stockAtLocation(trx: Transaction<DB>, projectId: number, warehouseId: number, locationId: number) {
  const rows = await trx
    .selectFrom('inventory_balance')
    .select(['location_id', 'owner_id', 'sku_id', 'lot_id', 'lpn', 'on_hand_qty'])
    .$call((q) => whereInScope(q, 'inventory_balance', { projectId, warehouseId }))
    .where('location_id', '=', locationId)
    .where('on_hand_qty', '>', '0')
    .orderBy('sku_id')
    .orderBy('lot_id')
    .orderBy('lpn')
    .execute();
  return rows.map((r) => ({ locationId: Number(r.location_id), ownerId: Number(r.owner_id), skuId: Number(r.sku_id), lotId: Number(r.lot_id), lpn: r.lpn, onHand: r.on_hand_qty }));
}

/** Open count tickets of the warehouse by status (the home page's open work). */
export async function countOpenTickets(db: Kysely<DB>, warehouseId: number) {
  const rows = await db
    .selectFrom('count_ticket')
    .select(['status', sql<string>`count(*)`.as('n')])
    .where('warehouse_id', '=', warehouseId)
    .where('status', 'in', ['open', 'counted'])
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status, count: Number(r.n) }));
}

/** The ticket's line found by location/SKU for the handheld, or by id. */
export async function ticketOfLine(trx: Transaction<DB>, lineId: number) {
  return trx.selectFrom('count_ticket_line').select(['ticket_id']).where('id', '=', lineId).executeTakeFirst();
}

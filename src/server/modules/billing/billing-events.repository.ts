import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { BillBase, ChargeMethod, SourceKind } from './billing.tables.js';
import './billing.tables.js';

/**
 * The set-based part of a billing run (read model `billing.events`): the events a tariff line
 * counts are selected, measured and written as the line's drill-down rows by one INSERT ... SELECT
 * in the database, which answers their summed quantity; nothing is read row by row into the server.
 *
 * Events: the owner's ledger rows of type `receive` / `ship` (quantity as a positive number, left
 * out when 0), its storage snapshot rows, and its outbound orders entered in the window (not
 * cancelled or deleted). An event a confirmed bill already billed under the line's charge code is
 * left out. The quantity an event adds under a charge method is the rule of docs/billing.md
 * (per carton and per pallet rounded up, cubic metres and kilograms by the SKU's measures, or the
 * snapshot's own figures).
 */

export interface EventWindow {
  projectId: number;
  ownerId: number;
  fromDay: string;
  /** The last day counted (included). */
  toDay: string;
}

/** The source kind of the events of a bill base. */
export function sourceKindOf(base: BillBase): SourceKind {
  switch (base) {
    case 'received_qty':
    case 'shipped_qty':
      return 'ledger';
    case 'on_hand_snapshot':
      return 'snapshot';
    case 'orders':
    case 'lines':
      return 'order';
    case 'none':
      return 'period';
  }
}

/** The SKU's volume in cubic metres (its cm3, else length x width x height; 0 when unknown); `s` is the SKU, possibly missing. */
const VOLUME_M3 = sql`coalesce(nullif(s.volume_cm3, 0) / 1000000, case when nullif(s.length_cm, 0) is not null and nullif(s.width_cm, 0) is not null and nullif(s.height_cm, 0) is not null then s.length_cm * s.width_cm * s.height_cm / 1000000 else 0 end)`;

/** The quantity a unit-carrying event of quantity `q` adds under a method, by the SKU's measures; `pallets` is what the event counted itself (snapshots). */
function measuredSql(method: ChargeMethod, q: RawBuilder<unknown>, pallets: RawBuilder<unknown> | null): RawBuilder<unknown> {
  switch (method) {
    case 'per_unit':
      return q;
    case 'per_carton':
      return sql`case when nullif(s.case_qty, 0) is not null then ceil(${q} / s.case_qty) else ${q} end`;
    case 'per_pallet':
    case 'per_pallet_day': {
      const bySize = sql`case when nullif(s.case_qty, 0) is not null and nullif(s.pallet_cases, 0) is not null then ceil(${q} / (s.case_qty * s.pallet_cases)) else 1 end`;
      return pallets ? sql`case when ${pallets} > 0 then ${pallets}::numeric else ${bySize} end` : bySize;
    }
    case 'per_cbm':
      return sql`${q} * ${VOLUME_M3}`;
    case 'per_kg':
      return sql`${q} * coalesce(nullif(s.gross_weight_kg, 0), 0)`;
    case 'per_line':
      return sql`1`;
    default:
      return sql`0`;
  }
}

function notBilled(window: EventWindow, chargeCodeId: number, kind: SourceKind, id: RawBuilder<unknown>) {
  return sql`not exists (select 1 from billing_event_billed b where b.project_id = ${window.projectId} and b.charge_code_id = ${chargeCodeId} and b.source_kind = ${kind} and b.source_id = ${id})`;
}

function dayAfter(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * The events a tariff line counts, not yet billed under its charge code: columns source_kind,
 * source_id, source_day, source_ref, qty (unrounded) and ord (the order of the drill-down).
 */
export function eventsSql(base: Exclude<BillBase, 'none'>, method: ChargeMethod, window: EventWindow, chargeCodeId: number): RawBuilder<unknown> {
  const from = `${window.fromDay}T00:00:00Z`;
  const until = `${dayAfter(window.toDay)}T00:00:00Z`;
  if (base === 'received_qty' || base === 'shipped_qty') {
    const type = base === 'received_qty' ? 'receive' : 'ship';
    // Per order: a document number counts once, on its first row (by id); a row of no document counts alone.
    const rank =
      method === 'per_order' ? sql`row_number() over (partition by coalesce(t.reference_type, ''), t.order_no order by t.id)` : sql`1`;
    const qty = method === 'per_order' ? sql`case when nullif(e.order_no, '') is null or e.order_rank = 1 then 1 else 0 end` : measuredSql(method, sql`e.qty`, null);
    return sql`
      select 'ledger'::text as source_kind, e.id as source_id, (e.trans_time at time zone 'UTC')::date as source_day,
        nullif(concat_ws(' ', nullif(e.reference_type, ''), nullif(e.order_no, ''), e.reference_line::text), '') as source_ref,
        (${qty})::numeric as qty, e.id as ord
      from (
        select t.id, t.trans_time, t.reference_type, t.order_no, t.reference_line, t.sku_id, abs(t.qty) as qty, ${rank} as order_rank
        from inventory_transaction t
        where t.project_id = ${window.projectId} and t.owner_id = ${window.ownerId} and t.trans_type = ${type}
          and t.trans_time >= ${from}::timestamptz and t.trans_time < ${until}::timestamptz and t.qty <> 0
      ) e
      left join sku s on s.id = e.sku_id and s.project_id = ${window.projectId}
      where ${notBilled(window, chargeCodeId, 'ledger', sql`e.id`)}`;
  }
  if (base === 'on_hand_snapshot') {
    const measured = measuredSql(method, sql`e.on_hand_qty`, sql`e.pallet_count`);
    // Cubic metres and kilograms the snapshot kept (the SKU's measures on the day), else the SKU's now.
    const qty = method === 'per_cbm' ? sql`coalesce(nullif(e.cbm, 0), ${measured})` : method === 'per_kg' ? sql`coalesce(nullif(e.weight_kg, 0), ${measured})` : measured;
    return sql`
      select 'snapshot'::text as source_kind, e.id as source_id, e.snapshot_date as source_day, null::text as source_ref,
        (${qty})::numeric as qty, row_number() over (order by e.snapshot_date, e.id) as ord
      from storage_snapshot e
      left join sku s on s.id = e.sku_id and s.project_id = ${window.projectId}
      where e.project_id = ${window.projectId} and e.owner_id = ${window.ownerId}
        and e.snapshot_date >= ${window.fromDay}::date and e.snapshot_date <= ${window.toDay}::date
        and ${notBilled(window, chargeCodeId, 'snapshot', sql`e.id`)}`;
  }
  const qty = base === 'lines' ? sql`(select count(*) from so_line l where l.so_id = h.id)` : sql`1`;
  return sql`
    select 'order'::text as source_kind, h.id as source_id, (h.created_at at time zone 'UTC')::date as source_day, h.order_no as source_ref,
      (${qty})::numeric as qty, h.id as ord
    from so_header h
    where h.project_id = ${window.projectId} and h.owner_id = ${window.ownerId} and h.status not in ('cancelled', 'deleted')
      and h.created_at >= ${from}::timestamptz and h.created_at < ${until}::timestamptz
      and ${notBilled(window, chargeCodeId, 'order', sql`h.id`)}`;
}

/**
 * Writes the events of `events` as the drill-down rows of a bill line (quantities to 4 decimals)
 * in one statement, and answers their summed quantity (rounded half-up to 4 decimals) and number.
 */
export async function insertLineEvents(trx: Transaction<DB>, line: { projectId: number; headerId: number; lineId: number }, events: RawBuilder<unknown>): Promise<{ qty: string; count: number }> {
  const result = await sql<{ qty: string; count: string }>`
    with ev as materialized (${events}),
    written as (
      insert into billing_line_source (project_id, header_id, line_id, source_kind, source_id, source_day, source_ref, qty)
      select ${line.projectId}, ${line.headerId}, ${line.lineId}, source_kind, source_id, source_day, source_ref, round(qty, 4)
      from ev order by ord
    )
    select coalesce(round(sum(qty), 4), 0)::text as qty, count(*)::text as count from ev`.execute(trx);
  return { qty: result.rows[0].qty, count: Number(result.rows[0].count) };
}

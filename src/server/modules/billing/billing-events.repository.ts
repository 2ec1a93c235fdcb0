import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { BillBase, ChargeMethod } from './billing.tables.js';
import './billing.tables.js';

/**
 * The set-based part of a billing run (read model `billing.events`). Per event group (receipts,
 * shipments, storage snapshot rows, outbound orders, the month of a fixed fee) one
 * INSERT ... SELECT selects the customer's events of the window in the database and writes each
 * once for the run (`billing_run_event`) with the figures every charge method measures it by; one
 * aggregate then answers, per bill line of the group, the summed quantity under its charge method
 * (`billing_event_qty`, migration 0365). Nothing is read or written row by row in the server.
 *
 * Events: the owner's ledger rows of type `receive` / `ship` (quantity as a positive number, left
 * out when 0), its storage snapshot rows, and its outbound orders entered in the window (not
 * cancelled or deleted). An event a confirmed bill already billed under a line's charge code is not
 * counted by that line: left out of the run when every line of the group billed it, else listed for
 * the line in `billing_line_excluded`. The quantity an event adds under a charge method is the rule
 * of docs/billing.md.
 */

export interface EventWindow {
  projectId: number;
  ownerId: number;
  fromDay: string;
  /** The last day counted (included). */
  toDay: string;
}

/**
 * Gives the run's transaction the sort memory of its statements (ordering and numbering a year of
 * ledger rows per order), so that they sort in memory instead of on disk.
 */
export async function prepareRun(trx: Transaction<DB>): Promise<void> {
  await sql`set local work_mem = '128MB'`.execute(trx);
}

export type EventGroup = 'receive' | 'ship' | 'snapshot' | 'order' | 'period';

/** The event group each bill base counts: orders and their lines both count outbound orders. */
const GROUP_OF: Record<BillBase, EventGroup> = { received_qty: 'receive', shipped_qty: 'ship', on_hand_snapshot: 'snapshot', orders: 'order', lines: 'order', none: 'period' };

/** The event group a bill base counts. */
export function eventGroupOf(base: BillBase): EventGroup {
  return GROUP_OF[base];
}

const KIND_OF: Record<EventGroup, string> = { receive: 'ledger', ship: 'ledger', snapshot: 'snapshot', order: 'order', period: 'period' };

/** The SKU's volume in cubic metres (its cm3, else length x width x height; 0 when unknown); `s` is the SKU, possibly missing. */
const VOLUME_M3 = sql`coalesce(nullif(s.volume_cm3, 0) / 1000000, case when nullif(s.length_cm, 0) is not null and nullif(s.width_cm, 0) is not null and nullif(s.height_cm, 0) is not null then s.length_cm * s.width_cm * s.height_cm / 1000000 else 0 end)`;
/** The SKU's figures an event is measured by: case quantity, pallet size, cubic metres and kilograms per unit. */
const SKU_FIGURES = sql`nullif(s.case_qty, 0), case when nullif(s.case_qty, 0) is not null and nullif(s.pallet_cases, 0) is not null then s.case_qty * s.pallet_cases end, ${VOLUME_M3}, coalesce(nullif(s.gross_weight_kg, 0), 0)`;

function dayAfter(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** The month a fixed fee is charged for, as a number (202611): a fixed fee is billed once per calendar month. */
export function monthKey(day: string): number {
  return Number(day.slice(0, 4)) * 100 + Number(day.slice(5, 7));
}

export interface GroupLines {
  /** The charge codes of the group's lines (distinct). */
  chargeCodeIds: readonly number[];
  /** Some line counts per order (ledger groups): the first row of each document is marked. */
  perOrder: boolean;
  /** Some line counts order lines (order group): the number of lines of each order is kept. */
  orderLines: boolean;
}

/**
 * Events of the group the lines have not all billed already: `e` with its id and the event's
 * columns. `billed` is the anti-join on the events every charge code of the group billed.
 */
function notBilledByAll(window: EventWindow, group: EventGroup, lines: GroupLines, id: RawBuilder<unknown>): RawBuilder<unknown> {
  const codes = sql.join(lines.chargeCodeIds.map((c) => sql`${c}::bigint`));
  if (lines.chargeCodeIds.length === 1) {
    return sql`not exists (select 1 from billing_event_billed b where b.project_id = ${window.projectId} and b.charge_code_id = ${lines.chargeCodeIds[0]} and b.source_kind = ${KIND_OF[group]} and b.source_id = ${id})`;
  }
  // An anti-join on the grouped set, so that the database hashes it instead of probing per event.
  return sql`not exists (
    select 1 from (
      select b.source_id from billing_event_billed b
      where b.project_id = ${window.projectId} and b.source_kind = ${KIND_OF[group]} and b.charge_code_id in (${codes})
      group by b.source_id having count(distinct b.charge_code_id) = ${lines.chargeCodeIds.length}
    ) d where d.source_id = ${id})`;
}

/**
 * Writes the group's events of the window once for the run (bill `headerId`), in the order of the
 * drill-down; answers how many.
 */
export async function insertRunEvents(trx: Transaction<DB>, target: { projectId: number; headerId: number }, group: EventGroup, window: EventWindow, lines: GroupLines): Promise<number> {
  const from = `${window.fromDay}T00:00:00Z`;
  const until = `${dayAfter(window.toDay)}T00:00:00Z`;
  const p = window.projectId;
  let select: RawBuilder<unknown>;
  if (group === 'receive' || group === 'ship') {
    // Per order: a document number counts once, on its first row (by id); a row of no document counts alone.
    const first = lines.perOrder ? sql`nullif(e.order_no, '') is null or e.order_rank = 1` : sql`true`;
    const rank = lines.perOrder ? sql`row_number() over (partition by coalesce(t.reference_type, ''), t.order_no order by t.id)` : sql`1`;
    select = sql`
      select ${p}::bigint, ${target.headerId}::bigint, ${group}, 'ledger', e.id, (e.trans_time at time zone 'UTC')::date,
        nullif(concat_ws(' ', nullif(e.reference_type, ''), nullif(e.order_no, ''), e.reference_line::text), ''),
        e.qty, ${first}, null::integer, ${SKU_FIGURES}, null::numeric, null::numeric, null::numeric
      from (
        select t.id, t.trans_time, t.reference_type, t.order_no, t.reference_line, t.sku_id, abs(t.qty) as qty, ${rank} as order_rank
        from inventory_transaction t
        where t.project_id = ${p} and t.owner_id = ${window.ownerId} and t.trans_type = ${group}
          and t.trans_time >= ${from}::timestamptz and t.trans_time < ${until}::timestamptz and t.qty <> 0
      ) e
      left join sku s on s.id = e.sku_id and s.project_id = ${p}
      where ${notBilledByAll(window, group, lines, sql`e.id`)}
      order by e.id`;
  } else if (group === 'snapshot') {
    select = sql`
      select ${p}::bigint, ${target.headerId}::bigint, 'snapshot', 'snapshot', e.id, e.snapshot_date, null::text,
        e.on_hand_qty, true, null::integer, ${SKU_FIGURES}, e.pallet_count::numeric, e.cbm, e.weight_kg
      from storage_snapshot e
      left join sku s on s.id = e.sku_id and s.project_id = ${p}
      where e.project_id = ${p} and e.owner_id = ${window.ownerId}
        and e.snapshot_date >= ${window.fromDay}::date and e.snapshot_date <= ${window.toDay}::date
        and ${notBilledByAll(window, group, lines, sql`e.id`)}
      order by e.snapshot_date, e.id`;
  } else if (group === 'order') {
    const count = lines.orderLines ? sql`(select count(*) from so_line l where l.so_id = h.id)::integer` : sql`null::integer`;
    select = sql`
      select ${p}::bigint, ${target.headerId}::bigint, 'order', 'order', h.id, (h.created_at at time zone 'UTC')::date, h.order_no,
        1::numeric, true, ${count}, null::numeric, null::numeric, null::numeric, null::numeric, null::numeric, null::numeric, null::numeric
      from so_header h
      where h.project_id = ${p} and h.owner_id = ${window.ownerId} and h.status not in ('cancelled', 'deleted')
        and h.created_at >= ${from}::timestamptz and h.created_at < ${until}::timestamptz
        and ${notBilledByAll(window, group, lines, sql`h.id`)}
      order by h.id`;
  } else {
    // A fixed fee counts the month of the period's start.
    const month = monthKey(window.fromDay);
    select = sql`
      select ${p}::bigint, ${target.headerId}::bigint, 'period', 'period', ${month}::bigint, ${window.fromDay}::date, ${window.fromDay.slice(0, 7)},
        1::numeric, true, null::integer, null::numeric, null::numeric, null::numeric, null::numeric, null::numeric, null::numeric, null::numeric
      where ${notBilledByAll(window, group, lines, sql`${month}::bigint`)}`;
  }
  const result = await sql`
    insert into billing_run_event (project_id, header_id, event_group, source_kind, source_id, source_day, source_ref,
      units, first_of_order, order_lines, case_qty, pallet_qty, m3_per_unit, kg_per_unit, pallets, cbm, weight_kg)
    ${select}`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Lists for a line the events of its group (in the run) that a confirmed bill already billed under
 * its charge code: the line does not count them. Answers how many.
 */
export async function excludeBilledEvents(trx: Transaction<DB>, line: { projectId: number; headerId: number; lineId: number; chargeCodeId: number; group: EventGroup }): Promise<number> {
  const result = await sql`
    insert into billing_line_excluded (line_id, event_id)
    select ${line.lineId}::bigint, e.id
    from billing_run_event e
    join billing_event_billed b on b.project_id = ${line.projectId} and b.charge_code_id = ${line.chargeCodeId} and b.source_kind = e.source_kind and b.source_id = e.source_id
    where e.header_id = ${line.headerId} and e.event_group = ${line.group}`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The summed quantity (rounded half-up to 4 decimals) each line of a group counted under its bill
 * base and charge method, in one pass over the group's events of the run.
 */
export async function groupQuantities(
  trx: Transaction<DB>,
  headerId: number,
  group: EventGroup,
  lines: ReadonlyArray<{ lineId: number; base: BillBase; method: ChargeMethod; excluded: boolean }>,
): Promise<string[]> {
  if (lines.length === 0) return [];
  const sums = lines.map((l, i) => {
    const counted = l.excluded ? sql`not exists (select 1 from billing_line_excluded x where x.line_id = ${l.lineId} and x.event_id = e.id)` : sql`true`;
    return sql`coalesce(round(sum(billing_event_qty(${l.base}, ${l.method}, e)) filter (where ${counted}), 4), 0)::text as ${sql.ref(`q${i}`)}`;
  });
  const result = await sql<Record<string, string>>`select ${sql.join(sums)} from billing_run_event e where e.header_id = ${headerId} and e.event_group = ${group}`.execute(trx);
  const row = result.rows[0] ?? {};
  return lines.map((_, i) => row[`q${i}`] ?? '0');
}

/** Deletes the run's events of the groups no line of the bill counts (every line of the group had nothing to charge). */
export async function dropUncountedEvents(trx: Transaction<DB>, headerId: number): Promise<void> {
  await sql`
    delete from billing_run_event e
    where e.header_id = ${headerId}
      and not exists (select 1 from billing_line l where l.header_id = ${headerId} and l.event_group = e.event_group)`.execute(trx);
}

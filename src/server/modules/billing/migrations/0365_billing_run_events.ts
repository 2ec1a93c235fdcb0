import { sql, type Kysely } from 'kysely';
import { CONFIGURATOR_READ_ROLE, CONFIGURATOR_WRITE_ROLE, grantConfiguratorAccess } from '../../../db/migrations/helpers.js';

/**
 * What a billing run counted, stored once per run instead of once per tariff line.
 *
 * `billing_run_event`: one row per event a run counted (a ledger receipt or shipment, a storage
 * snapshot row, an outbound order, the month of a fixed fee), in its event group (`receive`, `ship`,
 * `snapshot`, `order`, `period`), with the figures every charge method measures it by, taken when
 * the run ran: the units, the SKU's case quantity, pallet size (case quantity x cases per pallet),
 * cubic metres and kilograms per unit, the snapshot's own pallets, cubic metres and kilograms, the
 * order's number of lines, and whether the row is the first of its document (per order).
 *
 * A bill line that counts events names their group (`billing_line.event_group`); it counted every
 * event of its bill in that group except those listed for it in `billing_line_excluded` (events a
 * confirmed bill had already billed under the line's charge code when the run ran; usually none).
 * `billing_line_source` is now a view of that: one row per line and event with the quantity the
 * event added under the line's charge method (`billing_event_qty`, rounded to 4 decimals), the same
 * rows and quantities the table held, for the drill-down page, the confirmation and posting.
 *
 * Integrity without per-row foreign key checks: `billing_run_event` rows are written only by the
 * run, in the transaction that has just locked or created their bill header, so their header exists;
 * they go with the header (a statement trigger on `billing_header` deletes them) and with the run
 * that replaces them (it deletes them first). Exclusions are few and keep their foreign key.
 *
 * Also the index a run reads the ledger by: one customer's receipts or shipments over a period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists inventory_transaction_billing_idx on inventory_transaction (project_id, owner_id, trans_type, trans_time)`.execute(db);
  await runEventsSchema(db);
}

/** Replaces the table `billing_line_source` by run events and the view; does nothing before the billing tables exist or twice. */
export async function runEventsSchema(db: Kysely<unknown>): Promise<void> {
  const found = await sql<{ kind: string }>`select c.relkind::text as kind from pg_class c where c.relname = 'billing_line_source' and c.relnamespace = current_schema()::regnamespace`.execute(db);
  const kind = found.rows[0]?.kind;
  if (kind !== 'r') return;

  await sql`
    create table billing_run_event (
      id bigint generated always as identity (cache 1000) primary key,
      project_id bigint not null,
      header_id bigint not null,
      event_group text not null check (event_group in ('receive', 'ship', 'snapshot', 'order', 'period') or event_group like 'line:%'),
      source_kind text not null check (source_kind in ('ledger', 'order', 'snapshot', 'period')),
      source_id bigint not null,
      source_day date,
      source_ref text,
      units numeric not null,
      first_of_order boolean not null default true,
      order_lines integer,
      case_qty numeric,
      pallet_qty numeric,
      m3_per_unit numeric,
      kg_per_unit numeric,
      pallets numeric,
      cbm numeric,
      weight_kg numeric
    )`.execute(db);
  await sql`create index billing_run_event_header_idx on billing_run_event (header_id, event_group)`.execute(db);
  await sql`alter table billing_line add column event_group text`.execute(db);
  await sql`
    create table billing_line_excluded (
      line_id bigint not null references billing_line (id) on delete cascade,
      event_id bigint not null,
      primary key (line_id, event_id)
    )`.execute(db);

  // The quantity an event adds under a line's bill base and charge method (docs/billing.md), unrounded.
  await sql`
    create function billing_event_qty(base text, method text, e billing_run_event) returns numeric
    language sql immutable as $$
      select case
        when e.event_group = 'period' or e.event_group like 'line:%' then e.units
        when e.event_group = 'order' then case when base = 'lines' then coalesce(e.order_lines, 0)::numeric else 1::numeric end
        when method = 'per_unit' then e.units
        when method = 'per_carton' then case when e.case_qty is not null then ceil(e.units / e.case_qty) else e.units end
        when method in ('per_pallet', 'per_pallet_day') then case when e.pallets > 0 then e.pallets when e.pallet_qty is not null then ceil(e.units / e.pallet_qty) else 1::numeric end
        when method = 'per_cbm' then coalesce(nullif(e.cbm, 0), e.units * e.m3_per_unit)
        when method = 'per_kg' then coalesce(nullif(e.weight_kg, 0), e.units * e.kg_per_unit)
        when method = 'per_line' then 1::numeric
        when method = 'per_order' then case when e.first_of_order then 1::numeric else 0::numeric end
        else 0::numeric
      end
    $$`.execute(db);

  // What the table kept is carried over exactly: each line's rows become events of a group of the
  // line's own (`line:<id>`) whose units are the quantity the row added.
  await sql`
    insert into billing_run_event (project_id, header_id, event_group, source_kind, source_id, source_day, source_ref, units)
    select s.project_id, s.header_id, 'line:' || s.line_id, s.source_kind, s.source_id, s.source_day, s.source_ref, s.qty
    from billing_line_source s order by s.id`.execute(db);
  await sql`update billing_line l set event_group = 'line:' || l.id where exists (select 1 from billing_line_source s where s.line_id = l.id)`.execute(db);
  await sql`drop table billing_line_source`.execute(db);

  await sql`
    create view billing_line_source with (security_invoker = true) as
    select e.id * 4096 + l.line_no as id, l.project_id, l.header_id, l.id as line_id, e.source_kind, e.source_id, e.source_day, e.source_ref,
      round(billing_event_qty(l.bill_base, l.charge_method, e), 4) as qty
    from billing_line l
    join billing_run_event e on e.header_id = l.header_id and e.event_group = l.event_group
    where not exists (select 1 from billing_line_excluded x where x.line_id = l.id and x.event_id = e.id)`.execute(db);
  // Configurator roles read the view as themselves (security_invoker), under the row policies of its tables.
  await grantConfiguratorAccess(db, ['billing_run_event'], 'read');
  await grantConfiguratorAccess(db, ['billing_line_excluded'], 'read', { through: { column: 'line_id', table: 'billing_line' } });
  await sql`grant select on billing_line_source to ${sql.id(CONFIGURATOR_READ_ROLE)}, ${sql.id(CONFIGURATOR_WRITE_ROLE)}`.execute(db);

  await sql`
    create function billing_run_event_drop() returns trigger language plpgsql as $$
    begin
      delete from billing_run_event e using gone g where e.header_id = g.id;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger billing_header_run_events after delete on billing_header
    referencing old table as gone for each statement execute function billing_run_event_drop()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists inventory_transaction_billing_idx`.execute(db);
}

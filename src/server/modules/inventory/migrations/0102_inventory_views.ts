import { sql, type Kysely } from 'kysely';
import { CONFIGURATOR_READ_ROLE, CONFIGURATOR_WRITE_ROLE } from '../../../db/migrations/helpers.js';

/**
 * Read-only views the inventory query pages list (balance, enquiries, SKU header, transaction log,
 * count variance, documents): the balance and the ledger joined to owner, SKU, lot and location.
 * Each carries project_id and warehouse_id, so its page is limited to the session's scope.
 */
const VIEWS: Record<string, string> = {
  // The stock report line, with what is committed and what is available.
  inventory_stock_report: `
    select b.id, b.project_id, b.warehouse_id, o.code as owner_code, s.code as sku_code, s.description as sku_name,
      s.sku_group as material, concat_ws(' x ', s.length_cm, s.width_cm, s.height_cm) as specification, s.base_uom as units,
      l.lot_no, l.expiry_date, loc.code as location_code, loc.zone, b.lpn,
      b.on_hand_qty, b.allocated_qty, b.picked_qty, b.held_qty,
      b.on_hand_qty - b.allocated_qty - b.picked_qty - b.held_qty as available_qty,
      loc.code = 'TRANSIT' as in_transit, b.last_inbound_at, b.last_outbound_at
    from inventory_balance b
    join owner o on o.id = b.owner_id join sku s on s.id = b.sku_id
    join lot l on l.id = b.lot_id join location loc on loc.id = b.location_id
    where b.on_hand_qty <> 0`,
  // One row per SKU and warehouse (the key is the SKU's id).
  inventory_sku_stock: `
    select s.id, b.project_id, b.warehouse_id, o.code as owner_code, s.code as sku_code, s.description as sku_name,
      s.sku_group as material, s.base_uom as units,
      sum(b.on_hand_qty) as on_hand_qty, sum(b.allocated_qty) as allocated_qty, sum(b.picked_qty) as picked_qty,
      sum(b.held_qty) as held_qty, sum(b.on_hand_qty - b.allocated_qty - b.picked_qty - b.held_qty) as available_qty,
      count(distinct b.location_id)::integer as locations, max(b.last_inbound_at) as last_inbound_at, max(b.last_outbound_at) as last_outbound_at
    from inventory_balance b join owner o on o.id = b.owner_id join sku s on s.id = b.sku_id
    where b.on_hand_qty <> 0
    group by s.id, b.project_id, b.warehouse_id, o.code, s.code, s.description, s.sku_group, s.base_uom`,
  // The ledger within the configured window of days (transaction log).
  inventory_transaction_log: `
    select t.id, t.project_id, t.warehouse_id, t.trans_type, t.trans_status, t.reference_type, t.order_no, t.reference_line,
      t.trans_time, t.operator, o.code as owner_code, s.code as sku_code, s.description as sku_name, l.lot_no, t.trace_id,
      loc.code as location_code, t.lpn, t.qty, t.held_change, t.before_qty, t.after_qty, coalesce(t.uom, s.base_uom) as uom,
      t.reason, t.description
    from inventory_transaction t
    join owner o on o.id = t.owner_id join sku s on s.id = t.sku_id
    join lot l on l.id = t.lot_id join location loc on loc.id = t.location_id
    where t.trans_time >= now() - make_interval(days => coalesce(
      (select p.param_value from sys_param p where p.param_code = 'INV_TRANS_LOG_MAX_DAYS' and p.organization_id is null), '31')::integer)`,
  // The variance report of a count ticket.
  count_variance: `
    select l.id, l.project_id, l.warehouse_id, l.ticket_id, l.line_no, loc.code as location_code, s.code as sku_code,
      lot.lot_no, l.lpn, l.system_qty, l.counted_qty, l.recount_qty,
      coalesce(l.recount_qty, l.counted_qty) - l.system_qty as variance, l.status, l.counted_by
    from count_ticket_line l
    join location loc on loc.id = l.location_id join sku s on s.id = l.sku_id join lot on lot.id = l.lot_id`,
  // Every inventory document, read only.
  inventory_document_summary: `
    select d.id, d.project_id, d.warehouse_id, d.doc_type, d.doc_no, d.status, d.reason, d.requested_by, d.approved_by,
      d.confirmed_by, d.confirmed_at, d.created_at,
      (select count(*) from inventory_document_line l where l.document_id = d.id)::integer as lines
    from inventory_document d`,
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, text] of Object.entries(VIEWS)) {
    await sql`create view ${sql.id(name)} as ${sql.raw(text)}`.execute(db);
    await sql`grant select on ${sql.id(name)} to ${sql.id(CONFIGURATOR_READ_ROLE)}, ${sql.id(CONFIGURATOR_WRITE_ROLE)}`.execute(db);
  }
}

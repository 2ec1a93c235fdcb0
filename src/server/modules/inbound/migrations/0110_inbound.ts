import { sql, type Kysely } from 'kysely';
import { CONFIGURATOR_READ_ROLE, CONFIGURATOR_WRITE_ROLE, createScopedTable, documentLine, grantConfiguratorAccess, withLotAttributes, withStockKey } from '../../../db/migrations/helpers.js';

const QTY = sql`numeric(18,4)`;

/** Purchase orders, ASNs, scan-in cartons, receipts and putaway tasks. */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of ['po_no_seq', 'asn_no_seq', 'receipt_no_seq']) await sql`create sequence ${sql.id(name)}`.execute(db);

  await createScopedTable(db, 'po', 'project_id', 'warehouse_id')
    .addColumn('po_no', 'text', (col) => col.notNull().defaultTo(sql`'PO' || lpad(nextval('po_no_seq')::text, 8, '0')`))
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('supplier_code', 'text')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('new'))
    .addColumn('expected_date', 'date')
    .addColumn('remark', 'text')
    .addUniqueConstraint('po_number', ['project_id', 'po_no'])
    .addCheckConstraint('po_status_known', sql`status in ('new', 'open', 'closed', 'cancelled')`)
    .execute();

  await createScopedTable(db, 'po_line', 'project_id')
    .$call(documentLine('po_id', 'po'))
    .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id'))
    .addColumn('qty', QTY, (col) => col.notNull())
    .addColumn('uom', 'text')
    .addColumn('asn_qty', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('lot_no', 'text')
    .addColumn('expected_date', 'date')
    .addUniqueConstraint('po_line_number', ['po_id', 'line_no'])
    .addCheckConstraint('po_line_qty', sql`qty > 0 and asn_qty >= 0`)
    .execute();

  await createScopedTable(db, 'asn', 'project_id', 'warehouse_id')
    .addColumn('asn_no', 'text', (col) => col.notNull().defaultTo(sql`'ASN' || lpad(nextval('asn_no_seq')::text, 8, '0')`))
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('po_id', 'bigint', (col) => col.references('po.id'))
    .addColumn('supplier_code', 'text')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('new'))
    .addColumn('expected_date', 'date')
    .addColumn('received_at', 'timestamptz')
    .addColumn('remark', 'text')
    .addUniqueConstraint('asn_number', ['project_id', 'asn_no'])
    .addCheckConstraint(
      'asn_status_known',
      sql`status in ('new', 'partial_received', 'received', 'partial_putaway', 'putaway', 'cancelled', 'deleted', 'closed')`,
    )
    .execute();
  await db.schema.createIndex('asn_status_idx').on('asn').columns(['warehouse_id', 'status']).execute();

  await createScopedTable(db, 'asn_line', 'project_id')
    .$call(documentLine('asn_id', 'asn'))
    .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id'))
    .addColumn('expected_qty', QTY, (col) => col.notNull())
    .addColumn('received_qty', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('putaway_qty', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('uom', 'text')
    .addColumn('po_line_id', 'bigint', (col) => col.references('po_line.id'))
    .addColumn('lot_no', 'text')
    .$call(withLotAttributes)
    .addUniqueConstraint('asn_line_number', ['asn_id', 'line_no'])
    // Over-receive is refused by the service; the database refuses it too, whatever the caller.
    .addCheckConstraint('asn_line_quantities', sql`expected_qty > 0 and received_qty >= 0 and received_qty <= expected_qty and putaway_qty >= 0 and putaway_qty <= received_qty`)
    .execute();

  await createScopedTable(db, 'asn_carton', 'project_id', 'warehouse_id')
    .addColumn('asn_id', 'bigint', (col) => col.notNull().references('asn.id').onDelete('cascade'))
    .addColumn('asn_line_id', 'bigint', (col) => col.notNull().references('asn_line.id').onDelete('cascade'))
    .addColumn('container_id', 'text', (col) => col.notNull())
    .addColumn('carton_id', 'text', (col) => col.notNull())
    .addColumn('qty', QTY, (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open'))
    .addColumn('receipt_line_id', 'bigint')
    .addUniqueConstraint('asn_carton_id', ['project_id', 'carton_id'])
    .addCheckConstraint('asn_carton_status', sql`status in ('open', 'scanned', 'received') and qty > 0`)
    .execute();
  await db.schema.createIndex('asn_carton_container_idx').on('asn_carton').columns(['project_id', 'container_id']).execute();

  await createScopedTable(db, 'receipt', 'project_id', 'warehouse_id')
    .addColumn('receipt_no', 'text', (col) => col.notNull().defaultTo(sql`'GR' || lpad(nextval('receipt_no_seq')::text, 8, '0')`))
    .addColumn('asn_id', 'bigint', (col) => col.notNull().references('asn.id'))
    .addColumn('source', 'text', (col) => col.notNull())
    .addUniqueConstraint('receipt_number', ['project_id', 'receipt_no'])
    .execute();

  await createScopedTable(db, 'receipt_line', 'project_id', 'warehouse_id')
    .addColumn('receipt_id', 'bigint', (col) => col.notNull().references('receipt.id'))
    .addColumn('asn_id', 'bigint', (col) => col.notNull().references('asn.id'))
    .addColumn('asn_line_id', 'bigint', (col) => col.notNull().references('asn_line.id'))
    .$call(withStockKey)
    .addColumn('qty', QTY, (col) => col.notNull())
    .addColumn('damage_qty', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('hold_qty', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('putaway_qty', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('uom', 'text')
    .addColumn('trace_id', 'text')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open'))
    .addCheckConstraint('receipt_line_quantities', sql`qty > 0 and damage_qty >= 0 and hold_qty >= 0 and damage_qty + hold_qty <= qty and putaway_qty >= 0 and putaway_qty <= qty`)
    .execute();
  await db.schema.createIndex('receipt_line_open_idx').on('receipt_line').columns(['warehouse_id', 'status']).execute();
  await db.schema.createIndex('receipt_line_asn_idx').on('receipt_line').columns(['asn_id']).execute();

  await createScopedTable(db, 'putaway_task', 'project_id', 'warehouse_id')
    .addColumn('receipt_line_id', 'bigint', (col) => col.notNull().references('receipt_line.id'))
    .addColumn('asn_id', 'bigint', (col) => col.notNull().references('asn.id'))
    .addColumn('owner_id', 'bigint', (col) => col.notNull())
    .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id'))
    .addColumn('lot_id', 'bigint', (col) => col.notNull().references('lot.id'))
    .addColumn('from_location_id', 'bigint', (col) => col.notNull().references('location.id'))
    .addColumn('lpn', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('qty', QTY, (col) => col.notNull())
    .addColumn('held_qty', QTY, (col) => col.notNull().defaultTo(0))
    .addColumn('suggested_location_id', 'bigint', (col) => col.references('location.id'))
    .addColumn('suggestion_rule', 'text')
    .addColumn('to_location_id', 'bigint', (col) => col.references('location.id'))
    .addColumn('reason', 'text')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open'))
    .addColumn('confirmed_at', 'timestamptz')
    .addCheckConstraint('putaway_task_quantities', sql`qty > 0 and held_qty >= 0 and held_qty <= qty and status in ('open', 'done')`)
    .execute();
  await db.schema.createIndex('putaway_task_open_idx').on('putaway_task').columns(['warehouse_id', 'status']).execute();

  // Read-only views of the /asnStatic and /inbGr pages; security_invoker keeps the tables' row policies in force for configurator roles.
  await sql`
    create view asn_summary with (security_invoker = true) as
    select a.id, a.project_id, a.warehouse_id, a.asn_no, o.code as owner_code, a.status, a.expected_date, a.received_at,
           count(l.id)::int as line_count, coalesce(sum(l.expected_qty), 0) as expected_qty,
           coalesce(sum(l.received_qty), 0) as received_qty, coalesce(sum(l.putaway_qty), 0) as putaway_qty
    from asn a join owner o on o.id = a.owner_id left join asn_line l on l.asn_id = a.id
    group by a.id, o.code`.execute(db);
  await sql`
    create view receipt_view with (security_invoker = true) as
    select r.id, r.project_id, r.warehouse_id, h.receipt_no, r.asn_id, s.code as sku_code, lot.lot_no, loc.code as location_code,
           r.lpn, r.qty, r.damage_qty, r.hold_qty, r.putaway_qty, r.status, r.created_at, r.created_by
    from receipt_line r join receipt h on h.id = r.receipt_id join sku s on s.id = r.sku_id
         join lot on lot.id = r.lot_id join location loc on loc.id = r.location_id`.execute(db);
  for (const view of ['asn_summary', 'receipt_view']) {
    await sql`grant select on ${sql.table(view)} to ${sql.id(CONFIGURATOR_READ_ROLE)}, ${sql.id(CONFIGURATOR_WRITE_ROLE)}`.execute(db);
  }

  // The menu entries now opened by shipped definitions need the engine's right of their page (as sync-menu writes it).
  await sql`update sys_module set right_name = 'inbound.' || code where code in ('po', 'asn', 'asnStatic', 'inbGr')`.execute(db);

  await grantConfiguratorAccess(db, ['po', 'po_line', 'asn', 'asn_line', 'asn_carton', 'receipt', 'receipt_line', 'putaway_task'], 'read');
}

import { sql, type Kysely } from 'kysely';
import { addMenuEntry, createScopedTable, grantConfiguratorAccess } from '../../../db/migrations/helpers.js';

/**
 * Printers of a warehouse and the print queue, the serial counter of SSCCs, the GS1 company prefix
 * parameter SSCCs are made of, and the printer page's menu entry at the end of the setup group.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'printer', 'warehouse_id')
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('server_name', 'text')
    .addColumn('ip', 'text', (col) => col.notNull())
    .addColumn('port', 'integer', (col) => col.notNull().defaultTo(9100))
    .addColumn('printer_type', 'text', (col) => col.notNull().defaultTo('raw_zpl'))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('printer_warehouse_name_key', ['warehouse_id', 'name'])
    .addCheckConstraint('printer_port_range', sql`port between 1 and 65535`)
    .addCheckConstraint('printer_type_known', sql`printer_type in ('raw_zpl', 'pdf')`)
    .addCheckConstraint('printer_name_text', sql`length(btrim(name)) between 1 and 100`)
    .addCheckConstraint('printer_ip_text', sql`ip ~ '^[A-Za-z0-9][A-Za-z0-9.:-]{0,252}$'`)
    .execute();

  await createScopedTable(db, 'print_job', 'warehouse_id')
    .addColumn('printer_id', 'bigint', (col) => col.notNull().references('printer.id'))
    .addColumn('document_kind', 'text', (col) => col.notNull())
    .addColumn('reference', 'text')
    .addColumn('payload', 'bytea', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_error_code', 'text')
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('sent_by', 'text')
    .addColumn('copy_of', 'bigint', (col) => col.references('print_job.id'))
    .addCheckConstraint('print_job_status_known', sql`status in ('queued', 'sent', 'failed')`)
    .execute();
  await db.schema.createIndex('print_job_warehouse_idx').on('print_job').columns(['warehouse_id', 'id']).execute();
  await db.schema.createIndex('print_job_queued_idx').on('print_job').column('id').where(sql.ref('status'), '=', 'queued').execute();

  // The serial reference of SSCCs: a sequence hands each number out once, also to concurrent
  // callers and to callers that roll back, so no SSCC is ever made twice.
  await sql`create sequence printing_sscc_serial`.execute(db);

  await sql`
    insert into sys_param (organization_id, param_code, param_value, description, created_by, updated_by)
    values (null, 'GS1_COMPANY_PREFIX', '0614141', 'GS1 company prefix of the SSCCs on carton labels (7 to 10 digits); replace the example prefix with your own', 'system', 'system')
    on conflict on constraint sys_param_org_code_key do nothing`.execute(db);
  // The prefix is 7 to 10 digits wherever it is set (the system parameter page, globally or for an organization).
  await sql`alter table sys_param add constraint sys_param_gs1_company_prefix check (param_code <> 'GS1_COMPANY_PREFIX' or param_value ~ '^[0-9]{7,10}$')`.execute(db);

  await addMenuEntry(db, { code: 'printer', group: 'setup', titleKey: 'menu.printer', right: 'printing.printer' });

  // Printers are kept on their engine page; the queue is written only by the area's service.
  await grantConfiguratorAccess(db, ['printer'], 'write');
  await grantConfiguratorAccess(db, ['print_job'], 'read');
}

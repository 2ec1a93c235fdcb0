import { sql, type Kysely } from 'kysely';
import { createScopedTable, grantConfiguratorAccess, requiredColumns } from '../../../db/migrations/helpers.js';

/**
 * The EDI setting of each owner (standard, trigger, endpoint, ids) and the log of EDI messages
 * with their raw content. Control numbers come from one sequence per setting, made with it. The
 * menu entry of the log follows the page's view right.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'edi_partner', 'project_id')
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('standard', 'text', (col) => col.notNull().defaultTo('none'))
    .addColumn('trigger_on', 'text', (col) => col.notNull().defaultTo('ship'))
    .addColumn('endpoint', 'text')
    .addColumn('sender_id', 'text', (col) => col.notNull())
    .addColumn('sender_qualifier', 'text')
    .addColumn('receiver_id', 'text', (col) => col.notNull())
    .addColumn('receiver_qualifier', 'text')
    .addColumn('test_indicator', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('edi_partner_owner_key', ['project_id', 'owner_id'])
    .addCheckConstraint('edi_partner_standard_known', sql`standard in ('edifact', 'x12', 'none')`)
    .addCheckConstraint('edi_partner_trigger_known', sql`trigger_on in ('checkComplete', 'ship')`)
    .addCheckConstraint('edi_partner_endpoint_form', sql`endpoint is null or endpoint ~ '^(https?://[^[:space:]]+|/[^[:cntrl:]]*)$'`)
    .addCheckConstraint('edi_partner_ids_text', sql`sender_id ~ '^[A-Za-z0-9 .-]{1,35}$' and receiver_id ~ '^[A-Za-z0-9 .-]{1,35}$'`)
    .addCheckConstraint('edi_partner_qualifiers', sql`coalesce(sender_qualifier, 'ZZ') ~ '^[A-Z0-9]{1,4}$' and coalesce(receiver_qualifier, 'ZZ') ~ '^[A-Z0-9]{1,4}$'`)
    .execute();

  await createScopedTable(db, 'edi_message', 'project_id', 'warehouse_id')
    .addColumn('partner_id', 'bigint', (col) => col.notNull().references('edi_partner.id'))
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('order_id', 'bigint')
    .$call(requiredColumns('text', 'reference', 'interchange_control', 'group_control', 'message_control'))
    .addColumn('content', 'bytea', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('sent_at', 'timestamptz')
    .addCheckConstraint('edi_message_kind_known', sql`kind in ('desadv', 'x12_856')`)
    .addCheckConstraint('edi_message_status_known', sql`status in ('queued', 'sent', 'failed')`)
    // A control number is used once per setting and standard.
    .addUniqueConstraint('edi_message_control_key', ['partner_id', 'kind', 'interchange_control'])
    .execute();
  await db.schema.createIndex('edi_message_warehouse_idx').on('edi_message').columns(['warehouse_id', 'id']).execute();
  await db.schema.createIndex('edi_message_queued_idx').on('edi_message').column('id').where(sql.ref('status'), '=', 'queued').execute();

  // The EDI log's menu entry (there since the first menu) now opens the area's page and follows its view right.
  await sql`update sys_module set right_name = 'edi.ediLogSummary' where code = 'ediLogSummary' and right_name is null`.execute(db);

  // The log is written only by the area's service; the setting on its page.
  await grantConfiguratorAccess(db, ['edi_partner'], 'write');
  await grantConfiguratorAccess(db, ['edi_message'], 'read');
}

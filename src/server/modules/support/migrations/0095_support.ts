import { sql, type Kysely } from 'kysely';
import { grantConfiguratorAccess, withIdAndAudit } from '../../../db/migrations/helpers.js';

/** Support tickets: header, messages and the change log. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence support_ticket_number`.execute(db);
  await withIdAndAudit(db.schema.createTable('support_ticket'))
    .addColumn('number', 'text', (col) => col.notNull().unique().defaultTo(sql`'SUP' || lpad(nextval('support_ticket_number')::text, 7, '0')`))
    .addColumn('organization_id', 'bigint', (col) => col.notNull().references('organization.id'))
    .addColumn('project_id', 'bigint', (col) => col.notNull().references('project.id'))
    .addColumn('ticket_type', 'text', (col) => col.notNull().check(sql`ticket_type in ('GEN', 'A01')`))
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('category', 'text', (col) => col.notNull())
    .addColumn('priority', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open').check(sql`status in ('open', 'answered', 'closed')`))
    .addColumn('requester_user_id', 'bigint', (col) => col.notNull().references('app_user.id'))
    .addColumn('requester_account', 'text', (col) => col.notNull())
    .addColumn('document_number', 'text')
    .addColumn('request_status', 'text', (col) => col.check(sql`request_status in ('pending', 'approved')`))
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'timestamptz')
    .execute();
  await sql`create index support_ticket_project on support_ticket (project_id, status)`.execute(db);
  await sql`create index support_ticket_requester on support_ticket (requester_user_id)`.execute(db);
  await withIdAndAudit(db.schema.createTable('support_message'))
    .addColumn('ticket_id', 'bigint', (col) => col.notNull().references('support_ticket.id').onDelete('cascade'))
    .addColumn('author_user_id', 'bigint', (col) => col.notNull().references('app_user.id'))
    .addColumn('author_account', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .execute();
  await sql`create index support_message_ticket on support_message (ticket_id, id)`.execute(db);
  await db.schema
    .createTable('support_log')
    .addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('ticket_id', 'bigint', (col) => col.notNull().references('support_ticket.id').onDelete('cascade'))
    .addColumn('at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('user_id', 'bigint')
    .addColumn('login_account', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('details', 'jsonb')
    .execute();
  await sql`create index support_log_ticket on support_log (ticket_id, id)`.execute(db);
  // Configurator SQL and published pages may read tickets (reports); the area's service alone writes them.
  await grantConfiguratorAccess(db, ['support_ticket', 'support_message', 'support_log'], 'read');
}

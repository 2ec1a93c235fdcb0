import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { RequestStatus, SupportTicketTable, TicketCategory, TicketPriority, TicketStatus, TicketType } from './support.tables.js';
import './support.tables.js';

/** The support area's SQL: nothing else of the area writes queries. */

export type TicketRow = Selectable<SupportTicketTable>;

export interface Option {
  id: number;
  code: string;
  name: string;
}

/** Every organization, or those the user holds (directly or through a held project). */
export async function findOrganizations(db: Kysely<DB>, userId: number | undefined): Promise<Option[]> {
  let query = db.selectFrom('organization as o').select(['o.id', 'o.code', 'o.name']).orderBy('o.code');
  if (userId !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom('user_organization as uo').select('uo.user_id').where('uo.user_id', '=', userId).whereRef('uo.organization_id', '=', 'o.id')),
        eb.exists(
          eb
            .selectFrom('user_project as up')
            .innerJoin('project as p', 'p.id', 'up.project_id')
            .select('up.user_id')
            .where('up.user_id', '=', userId)
            .whereRef('p.organization_id', '=', 'o.id'),
        ),
      ]),
    );
  }
  return (await query.execute()).map((r) => ({ id: Number(r.id), code: r.code, name: r.name }));
}

/** The projects of an organization, all of them or only those the user holds. */
export async function findProjects(db: Kysely<DB>, organizationId: number | undefined, userId: number | undefined): Promise<Array<Option & { organizationId: number }>> {
  let query = db.selectFrom('project as p').select(['p.id', 'p.code', 'p.name', 'p.organization_id']).orderBy('p.code');
  if (organizationId !== undefined) query = query.where('p.organization_id', '=', organizationId);
  if (userId !== undefined) {
    query = query.where((eb) => eb.exists(eb.selectFrom('user_project as up').select('up.user_id').where('up.user_id', '=', userId).whereRef('up.project_id', '=', 'p.id')));
  }
  return (await query.execute()).map((r) => ({ id: Number(r.id), code: r.code, name: r.name, organizationId: Number(r.organization_id) }));
}

/** The ids of the projects a user holds. */
export async function findHeldProjectIds(db: Kysely<DB>, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('user_project').select('project_id').where('user_id', '=', userId).execute();
  return rows.map((r) => Number(r.project_id));
}

export interface NewTicket {
  organizationId: number;
  projectId: number;
  type: TicketType;
  subject: string;
  category: TicketCategory;
  priority: TicketPriority;
  requesterUserId: number;
  requesterAccount: string;
  documentNumber: string | null;
  requestStatus: RequestStatus | null;
}

export async function insertTicket(trx: Transaction<DB>, ticket: NewTicket): Promise<TicketRow> {
  return trx
    .insertInto('support_ticket')
    .values({
      organization_id: ticket.organizationId,
      project_id: ticket.projectId,
      ticket_type: ticket.type,
      subject: ticket.subject,
      category: ticket.category,
      priority: ticket.priority,
      requester_user_id: ticket.requesterUserId,
      requester_account: ticket.requesterAccount,
      document_number: ticket.documentNumber,
      request_status: ticket.requestStatus,
      created_by: ticket.requesterAccount,
      updated_by: ticket.requesterAccount,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertMessage(trx: Transaction<DB>, ticketId: number, userId: number, account: string, body: string): Promise<number> {
  const row = await trx
    .insertInto('support_message')
    .values({ ticket_id: ticketId, author_user_id: userId, author_account: account, body, created_by: account, updated_by: account })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function insertLog(trx: Transaction<DB>, ticketId: number, userId: number | null, account: string, action: string, details: Record<string, unknown> | null): Promise<void> {
  await trx
    .insertInto('support_log')
    .values({ ticket_id: ticketId, user_id: userId, login_account: account, action, details: details === null ? null : JSON.stringify(details) })
    .execute();
}

/** One ticket, locked for the change about to be made. */
export async function lockTicket(trx: Transaction<DB>, id: number): Promise<TicketRow | undefined> {
  return trx.selectFrom('support_ticket').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function findTicketIdByNumber(db: Kysely<DB>, number: string): Promise<number | undefined> {
  const row = await db.selectFrom('support_ticket').select('id').where('number', '=', number).executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}

export async function findTicket(db: Kysely<DB>, id: number): Promise<TicketRow | undefined> {
  return db.selectFrom('support_ticket').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateTicket(
  trx: Transaction<DB>,
  id: number,
  changes: Partial<{ status: TicketStatus; request_status: RequestStatus; decided_by: string; decided_at: Date }>,
  by: string,
): Promise<TicketRow> {
  return trx
    .updateTable('support_ticket')
    .set({ ...changes, updated_by: by, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Which tickets a caller may see: his own, and (when `projectIds` is given) every ticket of those projects; `all` for administrators. */
export type TicketReach = { all: true } | { all: false; userId: number; projectIds: number[] };

export interface TicketFilter {
  status?: TicketStatus;
  projectId?: number;
  search?: string;
  page: number;
  pageSize: number;
}

export async function listTickets(db: Kysely<DB>, reach: TicketReach, filter: TicketFilter): Promise<{ total: number; rows: Array<TicketRow & { project_code: string; organization_code: string }> }> {
  let query = db
    .selectFrom('support_ticket as t')
    .innerJoin('project as p', 'p.id', 't.project_id')
    .innerJoin('organization as o', 'o.id', 't.organization_id');
  if (!reach.all) {
    const { userId, projectIds } = reach;
    query = query.where((eb) => (projectIds.length ? eb.or([eb('t.requester_user_id', '=', userId), eb('t.project_id', 'in', projectIds)]) : eb('t.requester_user_id', '=', userId)));
  }
  if (filter.status) query = query.where('t.status', '=', filter.status);
  if (filter.projectId) query = query.where('t.project_id', '=', filter.projectId);
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('t.subject', 'ilike', pattern), eb('t.number', 'ilike', pattern), eb('t.document_number', 'ilike', pattern)]));
  }
  const count = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
  const rows = await query
    .selectAll('t')
    .select(['p.code as project_code', 'o.code as organization_code'])
    .orderBy('t.id', 'desc')
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize)
    .execute();
  return { total: Number(count?.n ?? 0), rows };
}

export async function listMessages(db: Kysely<DB>, ticketId: number) {
  return db.selectFrom('support_message').select(['id', 'author_account', 'body', 'created_at']).where('ticket_id', '=', ticketId).orderBy('id').execute();
}

export async function listLog(db: Kysely<DB>, ticketId: number) {
  return db.selectFrom('support_log').select(['id', 'at', 'login_account', 'action', 'details']).where('ticket_id', '=', ticketId).orderBy('id').execute();
}

export async function findProjectOrganization(db: Kysely<DB>, projectId: number): Promise<number | undefined> {
  const row = await db.selectFrom('project').select('organization_id').where('id', '=', projectId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.organization_id);
}

/** Files of support messages are attachments of the page `support` / `supportMessage`, keyed by the message id. */
export const MESSAGE_FILES = { moduleCode: 'support', functionCode: 'supportMessage' } as const;

function messageFiles(db: Kysely<DB>) {
  return db
    .selectFrom('attachment as a')
    .innerJoin('support_message as m', (join) => join.on(sql<boolean>`a.record_key = m.id::text`))
    .where('a.module_code', '=', MESSAGE_FILES.moduleCode)
    .where('a.function_code', '=', MESSAGE_FILES.functionCode);
}

/** The files of a ticket's messages, in the order they were sent. */
export async function listTicketFiles(db: Kysely<DB>, ticketId: number) {
  return messageFiles(db).select(['a.id', 'm.id as message_id', 'a.file_name', 'a.content_type', 'a.size_bytes']).where('m.ticket_id', '=', ticketId).orderBy('a.id').execute();
}

/** One file of a message, with the ticket it belongs to. */
export async function findMessageFile(db: Kysely<DB>, id: number) {
  return messageFiles(db).select(['a.id', 'a.file_name', 'a.content_type', 'a.size_bytes', 'm.ticket_id']).where('a.id', '=', id).executeTakeFirst();
}

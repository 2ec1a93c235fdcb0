import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import type { EventBus } from '../../events/events.js';
import type { SessionUser } from '../../http/access.js';
import { hasRight } from '../identity/index.js';
import { raiseNotification } from '../notification/index.js';
import type { AreaModule } from '../area.js';
import {
  findHeldProjectIds,
  findOrganizations,
  findProjectOrganization,
  findProjects,
  findTicket,
  findTicketIdByNumber,
  insertLog,
  insertMessage,
  insertTicket,
  listLog,
  listMessages,
  listTickets,
  lockTicket,
  updateTicket,
  type TicketFilter,
  type TicketReach,
  type TicketRow,
} from './support.repository.js';
import { findReopener } from './support.reopen.js';
import type { TicketCategory, TicketPriority } from './support.tables.js';

/** The verb that lets a user see and answer every ticket of his projects. */
export const ANSWER_RIGHT = 'support.ticket:answer';
/** The verb that lets a user approve a reopen request (A01). */
export const APPROVE_RIGHT = 'support.ticket:approve';

/** `getOrgs`: the organizations the caller may file a ticket for. */
export function pickOrganizations(db: Kysely<DB>, user: SessionUser) {
  return findOrganizations(db, user.isAdmin ? undefined : user.userId);
}

/** `getProjects`: the projects of an organization the caller may file a ticket for. */
export function pickProjects(db: Kysely<DB>, user: SessionUser, organizationId: number | undefined) {
  return findProjects(db, organizationId, user.isAdmin ? undefined : user.userId);
}

/** Whose tickets the caller sees: his own; every ticket of his projects with the answer verb; all as administrator. */
async function reachOf(db: Kysely<DB>, user: SessionUser): Promise<TicketReach> {
  if (user.isAdmin) return { all: true };
  const answers = await hasRight(db, user, ANSWER_RIGHT);
  return { all: false, userId: user.userId, projectIds: answers ? await findHeldProjectIds(db, user.userId) : [] };
}

function reaches(reach: TicketReach, ticket: TicketRow): boolean {
  return reach.all || ticket.requester_user_id === reach.userId || reach.projectIds.includes(Number(ticket.project_id));
}

async function seenBy(db: Kysely<DB>, user: SessionUser, ticket: TicketRow | undefined): Promise<TicketRow> {
  if (!ticket || !reaches(await reachOf(db, user), ticket)) throw new AppError('NO_RECORD');
  return ticket;
}

/** A ticket the caller may see; another's ticket answers as if it did not exist. */
export async function visibleTicket(db: Kysely<DB>, user: SessionUser, id: number): Promise<TicketRow> {
  return seenBy(db, user, await findTicket(db, id));
}

/** The same ticket locked for the change about to be made. */
async function lockVisibleTicket(trx: Transaction<DB>, user: SessionUser, id: number): Promise<TicketRow> {
  return seenBy(trx, user, await lockTicket(trx, id));
}

export interface TicketInput {
  organizationId: number;
  projectId: number;
  subject: string;
  category: TicketCategory;
  priority: TicketPriority;
  message: string;
}

/** The organization and project of a new ticket must be the caller's. */
async function checkPlacement(db: Kysely<DB>, user: SessionUser, organizationId: number, projectId: number): Promise<void> {
  const projectOrganization = await findProjectOrganization(db, projectId);
  if (projectOrganization === undefined || projectOrganization !== organizationId) throw new AppError('OUT_OF_SCOPE');
  if (!user.isAdmin && !(await findHeldProjectIds(db, user.userId)).includes(projectId)) throw new AppError('OUT_OF_SCOPE');
}

/** `sendSupport` and `sendSupportA01ReopenASN`: the header, the first message and the log entry in one transaction. */
export async function sendTicket(trx: Transaction<DB>, events: EventBus, user: SessionUser, input: TicketInput, reopen?: { asnNumber: string }): Promise<TicketRow> {
  await checkPlacement(trx, user, input.organizationId, input.projectId);
  const ticket = await insertTicket(trx, {
    organizationId: input.organizationId,
    projectId: input.projectId,
    type: reopen ? 'A01' : 'GEN',
    subject: input.subject,
    category: input.category,
    priority: input.priority,
    requesterUserId: user.userId,
    requesterAccount: user.loginAccount,
    documentNumber: reopen?.asnNumber ?? null,
    requestStatus: reopen ? 'pending' : null,
  });
  await insertMessage(trx, ticket.id, user.userId, user.loginAccount, input.message);
  await insertLog(trx, ticket.id, user.userId, user.loginAccount, 'created', {
    type: ticket.ticket_type,
    subject: ticket.subject,
    category: ticket.category,
    priority: ticket.priority,
    ...(reopen ? { asnNumber: reopen.asnNumber } : {}),
  });
  await events.emit(trx, 'support.ticketChanged', { ticketId: ticket.id, action: 'created' });
  if (reopen) {
    await raiseNotification(trx, events, {
      right: { right: APPROVE_RIGHT, projectId: input.projectId },
      category: 'approval',
      title: { key: 'support.notice.reopenRequested' },
      params: { number: ticket.number, asn: reopen.asnNumber, by: user.loginAccount },
      link: 'support',
      by: user.loginAccount,
    });
  }
  return ticket;
}

/** A message on a ticket: the requester's reopens an answered ticket, anyone else's answers it. Answers the ticket and the message's id. */
export async function postMessage(trx: Transaction<DB>, events: EventBus, user: SessionUser, ticketId: number, body: string): Promise<{ ticket: TicketRow; messageId: number }> {
  const ticket = await lockVisibleTicket(trx, user, ticketId);
  if (ticket.status === 'closed') throw new AppError('SUPPORT_TICKET_CLOSED');
  const messageId = await insertMessage(trx, ticket.id, user.userId, user.loginAccount, body);
  const status = ticket.requester_user_id === user.userId ? 'open' : 'answered';
  const updated = await updateTicket(trx, ticket.id, { status }, user.loginAccount);
  await insertLog(trx, ticket.id, user.userId, user.loginAccount, 'message', { length: body.length, ...(status !== ticket.status ? { status: [ticket.status, status] } : {}) });
  await events.emit(trx, 'support.ticketChanged', { ticketId: ticket.id, action: 'message' });
  if (status === 'answered') await notifyRequester(trx, events, ticket, 'support.notice.answered', user.loginAccount);
  return { ticket: updated, messageId };
}

/** A message on a ticket (see postMessage); answers the ticket. */
export async function addMessage(trx: Transaction<DB>, events: EventBus, user: SessionUser, ticketId: number, body: string): Promise<TicketRow> {
  return (await postMessage(trx, events, user, ticketId, body)).ticket;
}

/** Closing an open ticket, or reopening a closed one: the status, its log entry and the event. */
async function changeStatus(trx: Transaction<DB>, events: EventBus, user: SessionUser, ticketId: number, action: 'closed' | 'reopened'): Promise<TicketRow> {
  const ticket = await lockVisibleTicket(trx, user, ticketId);
  const closing = action === 'closed';
  if (closing ? ticket.status === 'closed' : ticket.status !== 'closed') throw new AppError(closing ? 'SUPPORT_TICKET_CLOSED' : 'SUPPORT_TICKET_NOT_CLOSED');
  const status = closing ? 'closed' : 'open';
  const updated = await updateTicket(trx, ticket.id, { status }, user.loginAccount);
  await insertLog(trx, ticket.id, user.userId, user.loginAccount, action, { status: [ticket.status, status] });
  await events.emit(trx, 'support.ticketChanged', { ticketId: ticket.id, action });
  return updated;
}

export function closeTicket(trx: Transaction<DB>, events: EventBus, user: SessionUser, ticketId: number): Promise<TicketRow> {
  return changeStatus(trx, events, user, ticketId, 'closed');
}

export function reopenTicket(trx: Transaction<DB>, events: EventBus, user: SessionUser, ticketId: number): Promise<TicketRow> {
  return changeStatus(trx, events, user, ticketId, 'reopened');
}

/**
 * Approves a reopen-ASN request (A01): the approver (verb `support.ticket:approve`, holding the
 * ticket's project) may not be the requester; the area owning ASNs reopens the document in this
 * same transaction, and `support.reopenApproved` is emitted with it.
 */
export async function approveReopen(trx: Transaction<DB>, events: EventBus, modules: readonly AreaModule[], user: SessionUser, ticketId: number): Promise<TicketRow> {
  const ticket = await lockTicket(trx, ticketId);
  if (!ticket) throw new AppError('NO_RECORD');
  if (!user.isAdmin && !(await findHeldProjectIds(trx, user.userId)).includes(Number(ticket.project_id))) throw new AppError('NO_RECORD');
  if (ticket.ticket_type !== 'A01' || ticket.request_status !== 'pending' || ticket.document_number === null) throw new AppError('SUPPORT_NOT_PENDING_REQUEST');
  if (ticket.requester_user_id === user.userId) throw new AppError('SUPPORT_SELF_APPROVAL');
  if (ticket.status === 'closed') throw new AppError('SUPPORT_TICKET_CLOSED');
  const reopener = findReopener(modules, 'asn');
  if (!reopener) throw new AppError('SUPPORT_REOPEN_UNAVAILABLE');
  const outcome = await reopener.reopen(trx, { number: ticket.document_number, projectId: Number(ticket.project_id), by: user.loginAccount, ticketNumber: ticket.number });
  if (outcome === 'notFound') throw new AppError('SUPPORT_DOCUMENT_NOT_FOUND', { number: ticket.document_number });
  if (outcome === 'notClosed') throw new AppError('SUPPORT_DOCUMENT_NOT_CLOSED', { number: ticket.document_number });
  const updated = await updateTicket(trx, ticket.id, { request_status: 'approved', decided_by: user.loginAccount, decided_at: new Date(), status: 'answered' }, user.loginAccount);
  await insertLog(trx, ticket.id, user.userId, user.loginAccount, 'approved', { kind: 'asn', number: ticket.document_number, status: [ticket.status, 'answered'] });
  await events.emit(trx, 'support.reopenApproved', { kind: 'asn', number: ticket.document_number, projectId: Number(ticket.project_id), ticketId: ticket.id });
  await events.emit(trx, 'support.ticketChanged', { ticketId: ticket.id, action: 'approved' });
  await notifyRequester(trx, events, ticket, 'support.notice.approved', user.loginAccount);
  return updated;
}

/** Tells the requester (bell and open browsers) that his ticket was answered or his request approved. */
async function notifyRequester(trx: Transaction<DB>, events: EventBus, ticket: TicketRow, key: string, by: string): Promise<void> {
  await raiseNotification(trx, events, {
    userIds: [Number(ticket.requester_user_id)],
    category: 'message',
    title: { key },
    params: { number: ticket.number, subject: ticket.subject, asn: ticket.document_number ?? '', by },
    link: 'support',
    projectId: Number(ticket.project_id),
    by,
  });
}

/** `saveLog`: a note of the caller's in a visible ticket's log (e.g. what was checked), without a message. */
export async function saveLogNote(trx: Transaction<DB>, user: SessionUser, ticketId: number, note: string): Promise<void> {
  const ticket = await lockVisibleTicket(trx, user, ticketId);
  await insertLog(trx, ticket.id, user.userId, user.loginAccount, 'note', { note });
}

export function ticketView(ticket: TicketRow & { project_code?: string; organization_code?: string }) {
  return {
    id: Number(ticket.id),
    number: ticket.number,
    type: ticket.ticket_type,
    organizationId: Number(ticket.organization_id),
    projectId: Number(ticket.project_id),
    organizationCode: ticket.organization_code ?? null,
    projectCode: ticket.project_code ?? null,
    subject: ticket.subject,
    category: ticket.category,
    priority: ticket.priority,
    status: ticket.status,
    requester: ticket.requester_account,
    asnNumber: ticket.document_number,
    requestStatus: ticket.request_status,
    decidedBy: ticket.decided_by,
    createdAt: new Date(ticket.created_at).toISOString(),
    updatedAt: new Date(ticket.updated_at).toISOString(),
  };
}

/** `getSupportHeaderList`. */
export async function ticketList(db: Kysely<DB>, user: SessionUser, filter: TicketFilter) {
  const { total, rows } = await listTickets(db, await reachOf(db, user), filter);
  return { total, page: filter.page, pageSize: filter.pageSize, rows: rows.map(ticketView) };
}

/** `getSupportDetailList`: the header and its messages. */
export async function ticketDetail(db: Kysely<DB>, user: SessionUser, ticketId: number) {
  const ticket = await visibleTicket(db, user, ticketId);
  const messages = await listMessages(db, ticket.id);
  return {
    header: ticketView(ticket),
    messages: messages.map((m) => ({ id: Number(m.id), author: m.author_account, text: m.body, at: new Date(m.created_at).toISOString() })),
  };
}

/** `{hash}`: a ticket opened by its number (the link a notification or an e-mail carries). */
export async function ticketByNumber(db: Kysely<DB>, user: SessionUser, number: string) {
  const id = await findTicketIdByNumber(db, number);
  if (id === undefined) throw new AppError('NO_RECORD');
  return ticketDetail(db, user, id);
}

/** The log of a visible ticket: who, when, what. */
export async function ticketLog(db: Kysely<DB>, user: SessionUser, ticketId: number) {
  const ticket = await visibleTicket(db, user, ticketId);
  const rows = await listLog(db, ticket.id);
  return rows.map((r) => ({
    id: Number(r.id),
    at: new Date(r.at).toISOString(),
    by: r.login_account,
    action: r.action,
    details: (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as Record<string, unknown> | null,
  }));
}

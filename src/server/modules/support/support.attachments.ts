import type { Readable } from 'node:stream';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import type { EventBus } from '../../events/events.js';
import type { SessionUser } from '../../http/access.js';
import { attachFiles, attachmentStream, refuseOverLimit, type AttachmentInfo, type RecordRef, type UploadedFile } from '../attachment/index.js';
import { postMessage, visibleTicket } from './support.service.js';
import { findMessageFile, listTicketFiles, MESSAGE_FILES, type TicketRow } from './support.repository.js';

/*
 * Files sent with a support message: stored through the attachment area as attachments of the
 * message (module `support`, function `supportMessage`, the message id as record key), within its
 * cap, and downloaded only by those who may see the ticket.
 */

function refOf(ticket: TicketRow, messageId: number): RecordRef {
  return { ...MESSAGE_FILES, recordKey: String(messageId), projectId: ticket.project_id === null ? null : Number(ticket.project_id) };
}

/** A message with its files, in one transaction: the message, its log entry and the attachments. */
export async function addMessageWithFiles(
  trx: Transaction<DB>,
  events: EventBus,
  user: SessionUser,
  input: { ticketId: number; message: string; files: UploadedFile[]; limitBytes: number },
): Promise<TicketRow> {
  const added = input.files.reduce((sum, file) => sum + file.data.length, 0);
  if (added > input.limitBytes) refuseOverLimit(input.limitBytes);
  const { ticket, messageId } = await postMessage(trx, events, user, input.ticketId, input.message);
  await attachFiles(trx, refOf(ticket, messageId), input.files, { remark: null, by: user.loginAccount, limitBytes: input.limitBytes });
  return ticket;
}

export interface MessageAttachment {
  id: number;
  messageId: number;
  fileName: string;
  contentType: string;
  size: number;
}

/** The files of a visible ticket's messages. */
export async function ticketAttachments(db: Kysely<DB>, user: SessionUser, ticketId: number): Promise<MessageAttachment[]> {
  const ticket = await visibleTicket(db, user, ticketId);
  const rows = await listTicketFiles(db, ticket.id);
  return rows.map((r) => ({ id: Number(r.id), messageId: Number(r.message_id), fileName: r.file_name, contentType: r.content_type, size: Number(r.size_bytes) }));
}

/** One file of a message, streamed, if the caller may see its ticket; anyone else finds nothing. */
export async function openMessageAttachment(db: Kysely<DB>, user: SessionUser, id: number): Promise<{ info: Pick<AttachmentInfo, 'fileName' | 'contentType' | 'sizeBytes'>; stream: Readable }> {
  const row = await findMessageFile(db, id);
  if (!row) throw new AppError('NO_RECORD');
  await visibleTicket(db, user, Number(row.ticket_id));
  const size = Number(row.size_bytes);
  return { info: { fileName: row.file_name, contentType: row.content_type, sizeBytes: size }, stream: attachmentStream(db, id, size) };
}

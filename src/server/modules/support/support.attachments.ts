import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { sql, type Kysely, type Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import type { EventBus } from '../../events/events.js';
import type { SessionUser } from '../../http/access.js';
import { insertAttachment, lockedTotalBytes, readContentSlice, type AttachmentInfo, type RecordRef } from '../attachment/attachment.repository.js';
import { cleanFileName } from '../attachment/attachment.service.js';
import type { UploadedFile } from '../attachment/attachment.upload.js';
import { detectFileType } from '../attachment/file-type.js';
import { addMessage, visibleTicket } from './support.service.js';
import type { TicketRow } from './support.repository.js';

/*
 * Files sent with a support message (spec section 2, /support: messages with attachments): stored
 * through the attachment area as attachments of the message (module `support`, function
 * `supportMessage`, the message id as record key), within its cap (spec section 5: 500 MB), and
 * downloaded only by those who may see the ticket.
 */

const MODULE = 'support';
const FUNCTION = 'supportMessage';
const SLICE_BYTES = 1024 * 1024;

function refOf(ticket: TicketRow, messageId: number): RecordRef {
  return { moduleCode: MODULE, functionCode: FUNCTION, recordKey: String(messageId), projectId: ticket.project_id === null ? null : Number(ticket.project_id) };
}

function refuseOverLimit(limitBytes: number): never {
  throw new AppError('ATTACHMENT_TOTAL_TOO_LARGE', { limit: `${Math.floor(limitBytes / (1024 * 1024))} MB` });
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
  const updated = await addMessage(trx, events, user, input.ticketId, input.message);
  // The ticket is locked by the message: the newest message of the caller in it is the one just written.
  const message = await trx
    .selectFrom('support_message')
    .select('id')
    .where('ticket_id', '=', updated.id)
    .where('author_user_id', '=', user.userId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const ref = refOf(updated, Number(message.id));
  if ((await lockedTotalBytes(trx, ref)) + added > input.limitBytes) refuseOverLimit(input.limitBytes);
  for (const file of input.files) {
    await insertAttachment(
      trx,
      ref,
      {
        fileName: cleanFileName(file.fileName),
        remark: null,
        contentType: detectFileType(file.data).contentType,
        sha256: crypto.createHash('sha256').update(file.data).digest('hex'),
        content: file.data,
      },
      user.loginAccount,
    );
  }
  return updated;
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
  const rows = await db
    .selectFrom('attachment as a')
    .innerJoin('support_message as m', (join) => join.on(sql<boolean>`a.record_key = m.id::text`))
    .select(['a.id', 'm.id as message_id', 'a.file_name', 'a.content_type', 'a.size_bytes'])
    .where('a.module_code', '=', MODULE)
    .where('a.function_code', '=', FUNCTION)
    .where('m.ticket_id', '=', ticket.id)
    .orderBy('a.id')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), messageId: Number(r.message_id), fileName: r.file_name, contentType: r.content_type, size: Number(r.size_bytes) }));
}

/** One file of a message, streamed, if the caller may see its ticket; anyone else finds nothing. */
export async function openMessageAttachment(db: Kysely<DB>, user: SessionUser, id: number): Promise<{ info: Pick<AttachmentInfo, 'fileName' | 'contentType' | 'sizeBytes'>; stream: Readable }> {
  const row = await db
    .selectFrom('attachment as a')
    .innerJoin('support_message as m', (join) => join.on(sql<boolean>`a.record_key = m.id::text`))
    .select(['a.id', 'a.file_name', 'a.content_type', 'a.size_bytes', 'm.ticket_id'])
    .where('a.id', '=', id)
    .where('a.module_code', '=', MODULE)
    .where('a.function_code', '=', FUNCTION)
    .executeTakeFirst();
  if (!row) throw new AppError('NO_RECORD');
  await visibleTicket(db, user, Number(row.ticket_id));
  const size = Number(row.size_bytes);
  async function* slices() {
    for (let offset = 0; offset < size; offset += SLICE_BYTES) {
      const slice = await readContentSlice(db, id, offset, SLICE_BYTES);
      if (slice.length === 0) return;
      yield slice;
    }
  }
  return { info: { fileName: row.file_name, contentType: row.content_type, sizeBytes: size }, stream: Readable.from(slices()) };
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { inTransaction } from '../../db/transaction.js';
import { requireUser } from '../../http/access-plugin.js';
import { sendStoredFile } from '../../http/file-reply.js';
import { registerMultipart } from '../../http/multipart.js';
import { ErrorBodySchema, IdSchema } from '../../http/schemas.js';
import { attachmentMultipartLimits, readUploadWithinLimit } from '../attachment/index.js';
import { addMessageWithFiles, openMessageAttachment, ticketAttachments } from './support.attachments.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 413: ErrorBodySchema, 415: ErrorBodySchema };
const tags = ['support'];
const IdBody = Type.Object({ id: IdSchema }, { additionalProperties: false });
const TicketIdBody = Type.Object({ ticketId: IdSchema }, { additionalProperties: false });
const Attachment = Type.Object({ id: Type.Integer(), messageId: Type.Integer(), fileName: Type.String(), contentType: Type.String(), size: Type.Integer() });

function field(fields: Record<string, string>, name: string, max: number): string {
  const value = fields[name]?.trim() ?? '';
  if (!value) throw new AppError('VALIDATION_FAILED', {}, [{ field: name, code: 'FIELD_REQUIRED' }]);
  if (value.length > max) throw new AppError('VALIDATION_FAILED', {}, [{ field: name, code: 'FIELD_TOO_LONG' }]);
  return value;
}

/** Messages with files on a support ticket: send, list and download (only who may see the ticket). */
export const supportAttachmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const limitBytes = app.config.attachmentLimitBytes;
  await registerMultipart(app, attachmentMultipartLimits(limitBytes));

  app.post(
    '/generic/support/messageWithFiles',
    {
      config: { access: { right: 'support:add', scope: 'none' } },
      schema: {
        tags,
        summary: 'Adds a message with files to an open ticket (multipart: ticketId, message, file...); the files together within the attachment cap',
        response: { 200: Type.Object({ ticketId: Type.Integer(), files: Type.Integer() }), ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const upload = await readUploadWithinLimit(request, limitBytes);
      const ticketId = Number(field(upload.fields, 'ticketId', 20));
      if (!Number.isSafeInteger(ticketId) || ticketId < 1) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'ticketId', code: 'FIELD_TYPE' }]);
      const message = field(upload.fields, 'message', 4000);
      await inTransaction(db, (trx) => addMessageWithFiles(trx, app.events, user, { ticketId, message, files: upload.files, limitBytes }));
      return { ticketId, files: upload.files.length };
    },
  );

  app.post(
    '/generic/support/getAttachments',
    {
      config: { access: { right: 'support:view', scope: 'none' } },
      schema: { tags, summary: "The files of a ticket's messages", body: TicketIdBody, response: { 200: Type.Object({ items: Type.Array(Attachment) }), ...errors } },
    },
    async (request) => ({ items: await ticketAttachments(db, requireUser(request), request.body.ticketId) }),
  );

  app.post(
    '/generic/support/downloadAttachment',
    {
      config: { access: { right: 'support:view', scope: 'none' } },
      compress: false,
      schema: { tags, summary: "A file of a ticket's message, streamed", body: IdBody, response: { 200: Type.Unknown({ description: 'The file' }), ...errors } },
    },
    async (request, reply) => {
      const { info, stream } = await openMessageAttachment(db, requireUser(request), request.body.id);
      return sendStoredFile(reply, info, stream);
    },
  );
};

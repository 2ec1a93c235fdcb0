import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { CODE_PATTERN } from '../../../../engine/schema/index.js';
import { AppError } from '../../../common/errors.js';
import type { RouteAccess } from '../../http/access.js';
import { sendStoredFile } from '../../http/file-reply.js';
import { registerMultipart } from '../../http/multipart.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { requestContext } from '../generic/index.js';
import type { AttachmentInfo } from './attachment.repository.js';
import {
  deleteOne,
  listOfRecord,
  openDownload,
  updateOne,
  uploadToRecord,
  type AttachmentContext,
  type AttachmentListing,
} from './attachment.service.js';
import { attachmentMultipartLimits, readUploadWithinLimit } from './attachment.upload.js';
import { isPreviewable } from './file-type.js';

/** The page right (view to read, edit to change) depends on the page named, so the service checks it. */
const SESSION: RouteAccess = { session: true };

const RecordKey = Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Integer()]);
const RecordBody = Type.Object(
  { moduleCode: Type.String({ pattern: CODE_PATTERN }), functionCode: Type.String({ pattern: CODE_PATTERN }), recordKey: RecordKey },
  { additionalProperties: false },
);
const IdBody = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }, { additionalProperties: false });
const DownloadBody = Type.Object(
  { id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), inline: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

const AttachmentSchema = Type.Object({
  id: Type.Integer(),
  fileName: Type.String(),
  remark: Type.Union([Type.String(), Type.Null()]),
  contentType: Type.String(),
  size: Type.Integer(),
  sha256: Type.String(),
  previewable: Type.Boolean(),
  createdAt: Type.String(),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Type.String(),
  updatedBy: Type.Union([Type.String(), Type.Null()]),
});
const ListingAnswer = Type.Object({ attachments: Type.Array(AttachmentSchema), totalBytes: Type.Integer(), limitBytes: Type.Integer() });
const FileAnswer = Type.Unknown({ description: 'The file, streamed, with its detected content type' });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 413: ErrorBodySchema, 415: ErrorBodySchema };

function answerOf(info: AttachmentInfo) {
  return {
    id: info.id,
    fileName: info.fileName,
    remark: info.remark,
    contentType: info.contentType,
    size: info.sizeBytes,
    sha256: info.sha256,
    previewable: isPreviewable(info.contentType),
    createdAt: info.createdAt.toISOString(),
    createdBy: info.createdBy,
    updatedAt: info.updatedAt.toISOString(),
    updatedBy: info.updatedBy,
  };
}

function listingAnswer(listing: AttachmentListing) {
  return { attachments: listing.attachments.map(answerOf), totalBytes: listing.totalBytes, limitBytes: listing.limitBytes };
}

const CODE = new RegExp(CODE_PATTERN);

/** Multipart text fields are checked as the JSON bodies are: a bad one is a 400, never a 500. */
function requiredFields(fields: Record<string, string>, names: string[]): void {
  const missing = names.filter((name) => !fields[name]);
  if (missing.length) throw new AppError('VALIDATION_FAILED', {}, missing.map((field) => ({ field, code: 'FIELD_REQUIRED' })));
}

function checkText(fields: Record<string, string>, name: string, maxLength: number): void {
  if (fields[name] !== undefined && fields[name].length > maxLength) {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: name, code: 'FIELD_TOO_LONG', params: { max: maxLength } }]);
  }
}

/** Attachments of records: list, upload, update, download and delete. */
export const attachmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const limitBytes = app.config.attachmentLimitBytes;
  await registerMultipart(app, attachmentMultipartLimits(limitBytes));
  const context = (request: FastifyRequest): AttachmentContext => ({ ...requestContext(app, request), limitBytes });
  const tags = ['attachment'];

  app.post(
    '/generic/getAttachment',
    { config: { access: SESSION }, schema: { tags, summary: 'The attachments of a record, their total and the cap', body: RecordBody, response: { 200: ListingAnswer, ...errors } } },
    async (request) => listingAnswer(await listOfRecord(context(request), request.body)),
  );

  app.post(
    '/generic/uploadAttachment',
    {
      config: { access: SESSION },
      schema: { tags, summary: 'Attach one or more files to a record (multipart: moduleCode, functionCode, recordKey, remark, file...)', response: { 200: ListingAnswer, ...errors } },
    },
    async (request) => {
      const ctx = context(request);
      const upload = await readUploadWithinLimit(request, limitBytes);
      const { fields } = upload;
      requiredFields(fields, ['moduleCode', 'functionCode', 'recordKey']);
      const bad = ['moduleCode', 'functionCode'].filter((name) => !CODE.test(fields[name]));
      if (bad.length) throw new AppError('VALIDATION_FAILED', {}, bad.map((field) => ({ field, code: 'FIELD_TYPE' })));
      checkText(fields, 'recordKey', 200);
      checkText(fields, 'remark', 500);
      return listingAnswer(
        await uploadToRecord(ctx, { moduleCode: fields.moduleCode, functionCode: fields.functionCode, recordKey: fields.recordKey, remark: fields.remark }, upload.files),
      );
    },
  );

  app.post(
    '/generic/updateAttachment',
    {
      config: { access: SESSION },
      schema: { tags, summary: 'Rename, change the remark of, or replace an attachment (multipart: id, fileName, remark, file)', response: { 200: Type.Object({ attachment: AttachmentSchema }), ...errors } },
    },
    async (request) => {
      const ctx = context(request);
      const upload = await readUploadWithinLimit(request, limitBytes);
      const { fields } = upload;
      requiredFields(fields, ['id']);
      if (!/^\d{1,15}$/.test(fields.id) || Number(fields.id) < 1) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'id', code: 'FIELD_TYPE' }]);
      checkText(fields, 'fileName', 255);
      checkText(fields, 'remark', 500);
      if (upload.files.length > 1) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'file', code: 'FIELD_TYPE' }]);
      const attachment = await updateOne(ctx, { id: Number(fields.id), fileName: fields.fileName, remark: fields.remark }, upload.files[0]);
      return { attachment: answerOf(attachment) };
    },
  );

  app.post(
    '/generic/downloadAttachment',
    {
      config: { access: SESSION },
      // The bytes go out as stored: compressing images, PDFs and zips gains nothing.
      compress: false,
      schema: { tags, summary: 'The file of an attachment, streamed', body: DownloadBody, response: { 200: FileAnswer, ...errors } },
    },
    async (request, reply) => {
      const { info, stream } = await openDownload(context(request), request.body.id);
      const inline = request.body.inline === true && isPreviewable(info.contentType);
      return sendStoredFile(reply, info, stream, inline ? 'inline' : 'attachment');
    },
  );

  app.post(
    '/generic/deleteAttachment',
    { config: { access: SESSION }, schema: { tags, summary: 'Delete an attachment', body: IdBody, response: { 200: Type.Object({ deleted: Type.Integer() }), ...errors } } },
    async (request) => ({ deleted: await deleteOne(context(request), request.body.id) }),
  );
};
